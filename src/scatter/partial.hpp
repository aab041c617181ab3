// The pieces of scatter_reduce_partial that a device group's engine uses for its chunks and
// parts (groups/group_scatter.cpp): a partial at the op's identity, and one part's run.
#pragma once

#include <cstddef>

#include "clatomics/partial.hpp"

namespace clatomics::detail {

// A partial of no values: every bin at the op's identity, counts at 0 where they are kept.
template <class O>
ScatterPartial<O> empty_partial(std::size_t bins, std::size_t width, ScatterOp op, const ScatterOptions& options);

// The partial of count indices (and their rows of values) at indices_offset / values_offset of
// those buffers, the call's checks already made: each reduced on rt's device into a copy of the
// output at the op's identity, read back with the values' counts where the op needs them.
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_part(Runtime& rt, std::size_t bins, std::size_t width, ScatterOp op,
                                                  const ScatterOptions& options, cl_mem indices, std::size_t indices_offset,
                                                  cl_mem values, std::size_t values_offset, std::size_t count);

}  // namespace clatomics::detail
