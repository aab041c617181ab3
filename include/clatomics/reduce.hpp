// clatomics/reduce.hpp — sum, product, min and max of a buffer range, on the device.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"

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

#define CLATOMICS_REDUCE_EXTERN(T)                                                                                   \
  extern template T detail::reduce_buffer<T>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp, ReduceOptions); \
  extern template Plan plan_reduce<T>(Runtime&, std::size_t, ReduceOp, ReduceOptions);                            \
  extern template T reduce<T>(Runtime&, const std::vector<T>&, ReduceOp, ReduceOptions);
CLATOMICS_REDUCE_EXTERN(float)
CLATOMICS_REDUCE_EXTERN(double)
CLATOMICS_REDUCE_EXTERN(cl_int)
CLATOMICS_REDUCE_EXTERN(cl_uint)
CLATOMICS_REDUCE_EXTERN(cl_long)
CLATOMICS_REDUCE_EXTERN(cl_ulong)
#undef CLATOMICS_REDUCE_EXTERN

}  // namespace clatomics
