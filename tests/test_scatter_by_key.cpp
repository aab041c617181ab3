// reduce_by_key against the reference model: runs of equal consecutive keys, sorted or not, the
// number of runs returned; outputs shorter than count refused before anything is enqueued.
#include <doctest/doctest.h>

#include <vector>

#include "scatter_family_checks.hpp"
#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("reduce_by_key: runs of equal consecutive keys, sorted or not, the number of runs returned") {
  check_by_key<cl_uint, float>(ScatterOp::sum);
  check_by_key<cl_ulong, float>(ScatterOp::sum);
  check_by_key<cl_ulong, float>(ScatterOp::min);
  check_by_key<cl_uint, cl_int>(ScatterOp::mean);
}

TEST_CASE("reduce_by_key refuses outputs shorter than count") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> keys = {1, 1, 2, 2, 2, 3};  // 3 runs, count 6
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const cl::Buffer dkeys = device(keys), dvalues = device(values);
  const cl::Buffer six_keys = device(std::vector<cl_uint>(6, 7)), five_keys = device(std::vector<cl_uint>(5, 7));
  const cl::Buffer six = device(std::vector<float>(6, 9.0f)), five = device(std::vector<float>(5, 9.0f));
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, five_keys, 0, six, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, five, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 1, six, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, six, 1, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, six, 6) == std::vector<float>(6, 9.0f));
  CHECK(test::to_host<cl_uint>(rt, six_keys, 6) == std::vector<cl_uint>(6, 7));
  CHECK(by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, six, 0, ScatterOp::sum) == 3);
  CHECK(test::to_host<cl_uint>(rt, six_keys, 3) == std::vector<cl_uint>{1, 2, 3});
  CHECK(test::to_host<float>(rt, six, 3) == std::vector<float>{3, 12, 6});
}

