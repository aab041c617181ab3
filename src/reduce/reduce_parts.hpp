// What partial results (groups/partial.cpp) and device groups need of reduce/reduce.cpp: the
// deterministic tree cut in two (the tile values of a part of the range, then the rest of the tree
// over the tile values of every part), and reduce()'s identity and host combination.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "clatomics/reduce.hpp"
#include "core/launch.hpp"

namespace clatomics::detail {

// Whether a deterministic reduction of T by op needs its tiles kept to merge bit-identically:
// float and double sums and products (integers wrap exactly; min and max are exact).
template <class T>
constexpr bool tiled_merge(ReduceOp op, ReduceOptions options) {
  return options.deterministic && std::is_floating_point_v<T> && (op == ReduceOp::sum || op == ReduceOp::prod);
}

// reduce()'s result for no elements, and the device's semantics on the host (float min/max: NaN
// is missing data, -0 below +0; integers wrap). T: float, double, cl_int, cl_uint, cl_long, cl_ulong.
// The op's name in the kernels' names; std::invalid_argument for a value that is no ReduceOp,
// naming the entry point `what` and quoting the value.
const char* reduce_op_name(ReduceOp op, const char* what = "reduce");

template <class T>
T reduce_identity(ReduceOp op);
template <class T>
T reduce_combine(ReduceOp op, T a, T b);

// The tile values of buffer[offset, offset + count), count > 0, range already checked.
// T: float or double.
template <class T>
Pending<std::vector<T>> reduce_tile_values_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op);

// The tree's result over the tile values of a whole range, in order (at least one), computed on
// the host in the kernel's order (the device's bits; tests/test_reduce.cpp checks them).
// T: float or double; op: sum or prod.
template <class T>
T reduce_of_tile_values(const std::vector<T>& tiles, ReduceOp op);

}  // namespace clatomics::detail
