// Every float/double op on __global and __local memory, under full contention (every work-item
// on one address) and spread over many addresses, with exact expected results: the case table of
// real_op_cases.hpp on the public ops. The same suite runs once with native paths and once with
// CLATOMICS_FORCE_CAS=1 (see CMakeLists.txt).
#include <doctest/doctest.h>

#include "real_op_cases.hpp"

namespace {
const real_ops::Kernels public_ops{"", "ops"};
}  // namespace

#define OP_TEST(OP)                                                                           \
  TEST_CASE_TEMPLATE("atomic " #OP " under contention and spread", T, float, double) {        \
    real_ops::check_all_modes<T>(public_ops, real_ops::op_##OP);                              \
  }
REAL_OPS(OP_TEST)
