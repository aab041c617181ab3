// clatomics/compact.hpp — stream compaction (copy_if) with an atomic counter.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/runtime.hpp"

namespace clatomics {

struct CompactOptions {
  // false: each work-group takes its place in the output with one atomic add on a counter (the
  // "take a number" pattern): the kept elements come out in no particular order.
  // true: the order of the input is kept (a count pass, a scan of the per-block counts, then
  // every block writes at its offset).
  bool stable = false;
};

namespace detail {
template <class T>
std::size_t compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out,
                            const std::string& predicate, CompactOptions options);
}

// Copies the elements x of in[offset, offset + count) for which `predicate` holds to out[0, n)
// and returns n. T: float, cl_int or cl_uint. predicate: an OpenCL C expression of x (of type T),
// e.g. "x > 0.5f" or "(x & 1) == 0"; it is compiled into the kernel (once per predicate and T).
// out must hold count elements. Throws std::invalid_argument for a null buffer, a range beyond
// its buffer or overflowing size_t, an out buffer smaller than count elements or overlapping
// in, an empty predicate; clatomics::Error with the build log when the predicate does not
// compile. In each case nothing has been enqueued and out is untouched.
template <class T>
std::size_t compact(Runtime& rt, const cl::Buffer& in, std::size_t offset, std::size_t count, const cl::Buffer& out,
                    const std::string& predicate, CompactOptions options = {}) {
  return detail::compact_buffers<T>(rt, in(), offset, count, out(), predicate, options);
}

// The same over host data, streamed through the device in chunks when larger than one buffer
// may be; returns the kept elements.
template <class T>
std::vector<T> compact(Runtime& rt, const std::vector<T>& in, const std::string& predicate, CompactOptions options = {});

#define CLATOMICS_COMPACT_EXTERN(T)                                                                                  \
  extern template std::size_t detail::compact_buffers<T>(Runtime&, cl_mem, std::size_t, std::size_t, cl_mem,        \
                                                         const std::string&, CompactOptions);                       \
  extern template std::vector<T> compact<T>(Runtime&, const std::vector<T>&, const std::string&, CompactOptions);
CLATOMICS_COMPACT_EXTERN(float)
CLATOMICS_COMPACT_EXTERN(cl_int)
CLATOMICS_COMPACT_EXTERN(cl_uint)
#undef CLATOMICS_COMPACT_EXTERN

}  // namespace clatomics
