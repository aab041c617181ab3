// scatter_reduce_arg (argmin/argmax) against the reference model: the lowest position wins ties,
// a bin no element reached (or where out's own value won) gets count; by hand, signed zeros and
// ties with out's own value.
#include <doctest/doctest.h>

#include <vector>

#include "scatter_family_checks.hpp"
#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("argmin and argmax: the lowest position wins ties, bins no element reached get count") {
  check_arg<float>(ScatterOp::min, true);
  check_arg<float>(ScatterOp::max, true);
  check_arg<cl_uint>(ScatterOp::min, false);
  check_arg<cl_uint>(ScatterOp::max, false);
}

TEST_CASE("argmin and argmax by hand: ties, signed zeros, out's own value") {
  auto& rt = test::runtime();
  // bin 0: 3 1 1 2 1 (positions 0 1 2 4 6); bin 1: -0 +0 -0 (3 5 7); bin 2: nothing; 9 is out of range.
  const std::vector<cl_uint> indices = {0, 0, 0, 1, 0, 1, 0, 1, 9};
  const std::vector<float> values = {3, 1, 1, -0.0f, 2, 0.0f, 1, -0.0f, -50};
  const cl_ulong count = values.size();
  std::vector<float> out = {7, 7, 7};
  ScatterResult r;
  auto arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(false), &r);
  CHECK(out[0] == 1.0f);
  CHECK(test::bits(out[1]) == test::bits(-0.0f));
  CHECK(out[2] == 7.0f);
  CHECK(arg == std::vector<cl_ulong>{1, 3, count});
  CHECK(r.out_of_range == 1);
  out = {7, 7, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::max, options(false));
  CHECK(out[0] == 3.0f);
  CHECK(test::bits(out[1]) == test::bits(0.0f));
  CHECK(arg == std::vector<cl_ulong>{0, 5, count});
  // include_self: out's own value wins in bin 0 (count); bin 1 is reached by -0.
  out = {0, 5, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(true));
  CHECK(out == std::vector<float>{0, -0.0f, 7});
  CHECK(arg == std::vector<cl_ulong>{count, 3, count});
  // A tie with out's own value: element 1's value is out[0] afterwards, so arg is 1 (scatter.hpp:
  // "the lowest position i whose value is out[b] afterwards"; count only when out's value won).
  out = {1, 5, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(true));
  CHECK(out[0] == 1.0f);
  CHECK(arg[0] == 1);
}

