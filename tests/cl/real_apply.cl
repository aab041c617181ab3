/* apply_<T>[_local][_backoff](op, p, a, b): the float/double op numbered op on p, returning the old
 * value. The ops are numbered as tests/real_ops.hpp numbers them: ops.def's read-modify-writes in
 * its order, then xchg and cmpxchg. Operands: an op of two operands (mad) takes a and b,
 * cmpxchg(p, cmp = a, v = b), the others take a.
 * The _backoff forms (built with -DCLAT_WITH_BACKOFF) run backoff.cl's ops; xchg and cmpxchg are
 * one atomic each, with no loop to back off from, so they run the plain ones there.
 * The host puts this file before the kernels that use it (real_ops.cl, special_values.cl). */
#define APPLY_ENUM(T, A, B, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, AGG_NEUTRAL, \
                   AGG_COMBINE, AGG_APPLY)                                                        \
  OP_##NAME,
#define APPLY_ENUM_VIA(T, A, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND) OP_##NAME,
enum { CLAT_REAL_OPS(APPLY_ENUM, APPLY_ENUM_VIA, , , , , ) OP_xchg, OP_cmpxchg };

/* The operands of a call: a, or a and b. */
#define APPLY_ARGS_v , a
#define APPLY_ARGS_a_b , a, b
/* Names are pasted before they are passed on: the OpenCL C header may define min, max or mad. */
#define APPLY_CALL(LABEL, FN, OPERANDS) case LABEL: return FN(p APPLY_ARGS_##OPERANDS);
#define APPLY_CASE(T, SFX, VARIANT, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC,    \
                   AGG_NEUTRAL, AGG_COMBINE, AGG_APPLY)                                           \
  APPLY_CALL(OP_##NAME, clat_atomic_##NAME##_##T##SFX##VARIANT, OPERANDS)
#define APPLY_CASE_VIA(T, SFX, VARIANT, C, D, NAME, OPERANDS, BASE, BASE_OPERAND)                 \
  APPLY_CALL(OP_##NAME, clat_atomic_##NAME##_##T##SFX##VARIANT, OPERANDS)

#define DEFINE_APPLY(T, AS, SFX, VARIANT)                                                     \
  T apply_##T##SFX##VARIANT(uint op, volatile AS T *p, T a, T b) {                            \
    switch (op) {                                                                             \
      CLAT_REAL_OPS(APPLY_CASE, APPLY_CASE_VIA, T, SFX, VARIANT, , )                          \
      case OP_xchg: return clat_atomic_xchg_##T##SFX(p, a);                                   \
      default: return clat_atomic_cmpxchg_##T##SFX(p, a, b);                                  \
    }                                                                                         \
  }
#define DEFINE_APPLY_BOTH_SPACES(T, VARIANT)                                                  \
  DEFINE_APPLY(T, __global, , VARIANT)                                                        \
  DEFINE_APPLY(T, __local, _local, VARIANT)

DEFINE_APPLY_BOTH_SPACES(float, )
#ifdef CLAT_HAS_DOUBLE
DEFINE_APPLY_BOTH_SPACES(double, )
#endif
#ifdef CLAT_WITH_BACKOFF
DEFINE_APPLY_BOTH_SPACES(float, _backoff)
#ifdef CLAT_HAS_DOUBLE
DEFINE_APPLY_BOTH_SPACES(double, _backoff)
#endif
#endif
