// clatomics/partial.hpp — results of parts of the data that merge into the result of the whole:
// for several devices of one host (clatomics/device_group.hpp) and for many processes (MPI:
// clatomics/mpi.hpp, or any engine that can add and gather plain arrays).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/histogram.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/runtime.hpp"

namespace clatomics {

// The deterministic reduction's tile: its fixed tree reduces each run of reduce_tile elements of
// the whole range to one value, then those values by the same rule. A part that starts at a
// multiple of reduce_tile has the same tile values as one pass over all the data.
inline constexpr std::size_t reduce_tile = 16384;

// A reduction of elements [first, first + count) of a larger range.
// tiled (deterministic float/double sum and product): values holds one value per tile of the
// part, the tiles first / reduce_tile, ...; merge_reduce() runs the rest of the fixed tree over
// every part's tiles in order, so the result's bits equal one pass over all the data whatever
// the parts. Otherwise values holds the part's result (exact for integers and for min/max; a
// fast float sum is as the single-device one) or nothing when count is 0.
template <class T>
struct ReducePartial {
  ReduceOp op = ReduceOp::sum;
  bool tiled = false;
  std::uint64_t first = 0, count = 0;
  std::vector<T> values;
};

// The partial reduction of a view (view<float>(buffer, offset, count)), elements first, ... of
// the whole range. Refuses (std::invalid_argument, before anything is enqueued) what reduce()
// refuses, and a deterministic float sum or product whose first is not a multiple of reduce_tile.
template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const View<T>& part, ReduceOp op, std::uint64_t first, ReduceOptions options = {});
// The same over host data (one shard).
template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const std::vector<T>& shard, ReduceOp op, std::uint64_t first,
                                ReduceOptions options = {});

// The result of the parts together. They may come in any order; together they must cover one
// range without gap or overlap, with one known op and one kind (tiled or not) for every part,
// empty ones too; tiled only where a deterministic reduce makes tiles (float and double sums and
// products); and every tiled part but the last must hold whole tiles; else std::invalid_argument. Tiled parts run the tree's last
// levels on the host, in the kernel's order (no device needed: any rank or engine can merge).
// Only empty parts: reduce()'s identity; no parts at all: refused.
template <class T>
T merge_reduce(std::vector<ReducePartial<T>> parts);

// Histograms merge by adding: counts and tallies exactly (64-bit), weight sums in double (their
// order of addition may change the last bits, as with atomics). into and from must have the same
// bins (and, for even histograms, the same range, edges and weight channels); else std::invalid_argument
// and into is unchanged.
void merge_into(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from);
void merge_into(KeyHistogram& into, const KeyHistogram& from);
void merge_into(EvenHistogram& into, const EvenHistogram& from);

#define CLATOMICS_PARTIAL_EXTERN(T)                                                                                            \
  extern template ReducePartial<T> reduce_partial<T>(Runtime&, const View<T>&, ReduceOp, std::uint64_t, ReduceOptions);        \
  extern template ReducePartial<T> reduce_partial<T>(Runtime&, const std::vector<T>&, ReduceOp, std::uint64_t, ReduceOptions);  \
  extern template T merge_reduce<T>(std::vector<ReducePartial<T>>);
CLATOMICS_PARTIAL_EXTERN(float)
CLATOMICS_PARTIAL_EXTERN(double)
CLATOMICS_PARTIAL_EXTERN(cl_int)
CLATOMICS_PARTIAL_EXTERN(cl_uint)
CLATOMICS_PARTIAL_EXTERN(cl_long)
CLATOMICS_PARTIAL_EXTERN(cl_ulong)
#undef CLATOMICS_PARTIAL_EXTERN

}  // namespace clatomics
