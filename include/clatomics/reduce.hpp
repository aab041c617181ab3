// clatomics/reduce.hpp — sum, product, min and max of a buffer range, on the device.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"
#include "clatomics/group_forms.hpp"

namespace clatomics {

enum class ReduceOp { sum, min, max, prod };

struct ReduceOptions {
  // false: each work-group combines its share in __local memory and adds it to the result with
  // one atomic (the order of the groups varies, so float results may differ in the last bits).
  // true: a fixed reduction tree over the elements' positions in the range (tiles of 16384
  // elements, then the tiles' results): bit-identical results for the same values and count on
  // every run, whatever the buffer's offset or alignment and however the host-data overload
  // chunks the data.
  bool deterministic = false;
};

namespace detail {
template <class T>
constexpr void require_reduce_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, cl_int> || std::is_same_v<T, cl_uint> ||
                    std::is_same_v<T, cl_long> || std::is_same_v<T, cl_ulong>,
                "clatomics::reduce: the element type must be float, double, cl_int, cl_uint, cl_long or cl_ulong");
}
template <class T>
T reduce_buffer(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op, ReduceOptions options);
}

// Reduces a view's elements (clatomics/view.hpp: view<float>(buffer, offset, count), which brings
// its type) on rt's queue. T: float, double, cl_int, cl_uint, cl_long, cl_ulong.
// - Integer sums and products wrap around (two's complement), as in C++ on unsigned types.
// - float/double min and max treat NaN as missing data (like fmin/fmax): NaN only when every
//   element is NaN; -0.0 orders below +0.0. A NaN in a sum or product propagates.
// - count == 0 gives the identity: 0, 1, +inf / the largest value (min), -inf / the lowest (max).
// - 64-bit integers use the two-pass path where the device lacks cl_khr_int64_base_atomics.
// Throws std::invalid_argument (before anything is enqueued) for a null buffer or one the
// device cannot read (see README, "Contracts"), a range beyond the buffer or overflowing size_t,
// an op outside ReduceOp, double on a device without fp64.
template <class T>
T reduce(Runtime& rt, const View<T>& in, ReduceOp op, ReduceOptions options = {}) {
  detail::require_reduce_type<T>();
  return detail::reduce_buffer<T>(rt, in.handle(), in.offset(), in.count(), op, options);
}

// The same over host data, streamed through the device in chunks when it is larger than one
// device buffer may be (chunk results combined on the host, in order).
template <class T>
T reduce(Runtime& rt, const std::vector<T>& data, ReduceOp op, ReduceOptions options = {});

// What reduce() over count elements would run on rt's device (clatomics/plan.hpp), without
// running it; refuses what reduce() refuses.
template <class T>
Plan plan_reduce(Runtime& rt, std::size_t count, ReduceOp op, ReduceOptions options = {});

// reduce's instantiations, declared `extern template` here and made by the library's sources from
// the same macros (EXTERN: `extern` or nothing), one X(T) for each element type.
#define CLATOMICS_FOR_REDUCE_TYPES(X) X(float) X(double) X(cl_int) X(cl_uint) X(cl_long) X(cl_ulong)
#define CLATOMICS_REDUCE(EXTERN, T)                                                                                \
  EXTERN template T detail::reduce_buffer<T>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp, ReduceOptions); \
  EXTERN template Plan plan_reduce<T>(Runtime&, std::size_t, ReduceOp, ReduceOptions);                             \
  EXTERN template T reduce<T>(Runtime&, const std::vector<T>&, ReduceOp, ReduceOptions);
#define CLATOMICS_REDUCE_EXTERN(T) CLATOMICS_REDUCE(extern, T)
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_EXTERN)
#undef CLATOMICS_REDUCE_EXTERN

// Partial reductions: results of parts of the data that merge into the result of the whole, for
// several devices (a DeviceGroup) or processes (clatomics/mpi.hpp).
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
#define CLATOMICS_REDUCE_PARTIAL(EXTERN, T)                                                                                    \
  EXTERN template ReducePartial<T> reduce_partial<T>(Runtime&, const View<T>&, ReduceOp, std::uint64_t, ReduceOptions);        \
  EXTERN template ReducePartial<T> reduce_partial<T>(Runtime&, const std::vector<T>&, ReduceOp, std::uint64_t, ReduceOptions); \
  EXTERN template T merge_reduce<T>(std::vector<ReducePartial<T>>);
#define CLATOMICS_REDUCE_PARTIAL_EXTERN(T) CLATOMICS_REDUCE_PARTIAL(extern, T)
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_PARTIAL_EXTERN)
#undef CLATOMICS_REDUCE_PARTIAL_EXTERN

// Over a DeviceGroup (group_forms.hpp): host data in chunks, or data resident on the devices.
template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options = {});
template <class T>
T reduce(DeviceGroup& group, const DistributedBuffer<T>& data, ReduceOp op, ReduceOptions options = {});
#define CLATOMICS_REDUCE_GROUP(EXTERN, T)                                                          \
  EXTERN template T reduce<T>(DeviceGroup&, const std::vector<T>&, ReduceOp, ReduceOptions);       \
  EXTERN template T reduce<T>(DeviceGroup&, const DistributedBuffer<T>&, ReduceOp, ReduceOptions);
#define CLATOMICS_REDUCE_GROUP_EXTERN(T) CLATOMICS_REDUCE_GROUP(extern, T)
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_GROUP_EXTERN)
#undef CLATOMICS_REDUCE_GROUP_EXTERN

}  // namespace clatomics
