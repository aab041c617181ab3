// Library calls in a started form: every command enqueued and submitted, nothing waited for, so
// that one host thread can start a call on each device of a group and then collect them all
// (detail::Pending::get). Each refuses bad input as the blocking call does, before enqueueing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clatomics/histogram.hpp"
#include "clatomics/algorithms.hpp"
#include "clatomics/reduce.hpp"
#include "core/launch.hpp"

namespace clatomics::detail {

// detail::reduce_buffer (T: as reduce()); what: the entry point its refusals name ("reduce: buffer",
// "reduce_partial<double>").
template <class T>
Pending<T> reduce_buffer_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op, ReduceOptions options,
                               const char* what = "reduce");

// reduce_partial() over a buffer range.
template <class T>
Pending<ReducePartial<T>> reduce_partial_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op,
                                               std::uint64_t first, ReduceOptions options);

// detail::histogram_buffer: 256 bins over bytes.
Pending<std::vector<std::uint64_t>> histogram_buffer_later(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                           HistogramOptions options);

}  // namespace clatomics::detail
