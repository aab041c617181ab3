// The float/double ops as the test kernels number them: clatomics/ops.def's read-modify-writes in
// its order, then the exchanges, here and in tests/cl/real_apply.cl alike.
#pragma once

#include "clatomics/ops.def"
#include "support.hpp"

namespace real_ops {

// X(op) for each op: first the read-modify-writes (each has a backoff form), then the exchanges.
#define REAL_OPS_ROW(T, X, B, C, D, op, ...) X(op)
#define REAL_OPS_READ_MODIFY_WRITE(X) CLAT_REAL_OPS(REAL_OPS_ROW, REAL_OPS_ROW, , X, , , )
#define REAL_OPS(X) REAL_OPS_READ_MODIFY_WRITE(X) X(xchg) X(cmpxchg)

#define REAL_OPS_ENUM(op) op_##op,
#define REAL_OPS_NAME(op) #op,
enum Op : cl_uint { REAL_OPS(REAL_OPS_ENUM) };
inline const char* const op_names[] = {REAL_OPS(REAL_OPS_NAME)};
#undef REAL_OPS_ENUM
#undef REAL_OPS_NAME

}  // namespace real_ops
