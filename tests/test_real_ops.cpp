// Every float/double op on __global and __local memory, under full contention (every work-item
// on one address) and spread over many addresses, with exact expected results: the case table of
// real_op_cases.hpp on the public ops. The same suite runs once with native paths and once with
// CLATOMICS_FORCE_CAS=1 (see CMakeLists.txt).
#include <doctest/doctest.h>

#include "real_op_cases.hpp"

#define PUBLIC_OP_CASES(OP) REAL_OP_CASES("atomic", (real_ops::Kernels{"", "ops"}), OP)
REAL_OPS(PUBLIC_OP_CASES)
