// What reduce, reduce_partial and dot share: float data and the host's reduction of it.
#pragma once

#include <cmath>

#include "algorithms/common.hpp"

namespace test::algorithms {

inline float host_reduce(const std::vector<float>& v, clatomics::ReduceOp op) {
  using clatomics::ReduceOp;
  float r = op == ReduceOp::sum ? 0.0f : op == ReduceOp::min ? INFINITY : -INFINITY;
  for (const float x : v) r = op == ReduceOp::sum ? r + x : op == ReduceOp::min ? std::min(r, x) : std::max(r, x);
  return r;
}

// operands float operands of s.length small integers each.
inline Contents floats(const Shape& s, unsigned seed, std::size_t operands) {
  std::mt19937 gen(seed);
  Contents c;
  for (std::size_t k = 0; k < operands; ++k) c.push_back(bytes_of(small_floats(s.length, gen, -8, 8)));
  return c;
}

}  // namespace test::algorithms
