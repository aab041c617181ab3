// backoff.cl: the CAS loop with a pause after each failed compare-exchange must give exactly the
// results of the plain ops, under full contention (every work-item on one address) and spread,
// on __global and __local memory: the case table of real_op_cases.hpp, for every op with a
// backoff form. And the backoff ops must not exist unless the build asks for them.
#include <doctest/doctest.h>

#include "real_op_cases.hpp"

#define BACKOFF_OP_CASES(OP) REAL_OP_CASES("backoff", (real_ops::Kernels{"-DCLAT_WITH_BACKOFF", "backoff"}), OP)
REAL_OPS_READ_MODIFY_WRITE(BACKOFF_OP_CASES)

TEST_CASE("backoff functions exist only with CLAT_WITH_BACKOFF") {
  const std::string kernel =
      "kernel void k(global float *p) { clat_atomic_mul_float_backoff(p, 2.0f); }\n";
  CHECK_NOTHROW(test::runtime().build(kernel, "-DCLAT_WITH_BACKOFF"));
  CHECK_THROWS_AS(test::runtime().build(kernel), clatomics::Error);
}
