// backoff.cl: the CAS loop with a pause after each failed compare-exchange must give exactly the
// results of the plain ops, under full contention (every work-item on one address) and spread,
// on __global and __local memory: the case table of real_op_cases.hpp, for every op with a backoff
// form. And the backoff ops must not exist unless the build asks for them.
#include <doctest/doctest.h>

#include "real_op_cases.hpp"

namespace {
const real_ops::Kernels backoff_ops{"-DCLAT_WITH_BACKOFF", "backoff"};
}  // namespace

#define BACKOFF_TEST(OP)                                                                      \
  TEST_CASE_TEMPLATE("backoff " #OP " under contention and spread", T, float, double) {       \
    real_ops::check_all_modes<T>(backoff_ops, real_ops::op_##OP);                             \
  }
REAL_OPS_READ_MODIFY_WRITE(BACKOFF_TEST)

TEST_CASE("backoff functions exist only with CLAT_WITH_BACKOFF") {
  const std::string kernel =
      "kernel void k(global float *p) { clat_atomic_mul_float_backoff(p, 2.0f); }\n";
  CHECK_NOTHROW(test::runtime().build(kernel, "-DCLAT_WITH_BACKOFF"));
  CHECK_THROWS_AS(test::runtime().build(kernel), clatomics::Error);
}
