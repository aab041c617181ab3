/* apply_<T>[_local][_backoff](op, p, a, b): the float/double op numbered op (the host's
 * tests/real_ops.hpp numbers them alike) on p, returning the old value. Operands:
 * mad(p, a, b) = fma(a, b, *p); cmpxchg(p, cmp = a, v = b); the others take a.
 * The _backoff forms (built with -DCLAT_WITH_BACKOFF) run backoff.cl's ops; xchg and cmpxchg are
 * one atomic each, with no loop to back off from, so they run the plain ones there.
 * The host puts this file before the kernels that use it (real_ops.cl, special_values.cl). */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAD, OP_MIN, OP_MAX, OP_XCHG, OP_CMPXCHG };

#define DEFINE_APPLY(T, AS, SFX, VARIANT)                                                     \
  T apply_##T##SFX##VARIANT(uint op, volatile AS T *p, T a, T b) {                            \
    switch (op) {                                                                             \
      case OP_ADD: return clat_atomic_add_##T##SFX##VARIANT(p, a);                            \
      case OP_SUB: return clat_atomic_sub_##T##SFX##VARIANT(p, a);                            \
      case OP_MUL: return clat_atomic_mul_##T##SFX##VARIANT(p, a);                            \
      case OP_DIV: return clat_atomic_div_##T##SFX##VARIANT(p, a);                            \
      case OP_MAD: return clat_atomic_mad_##T##SFX##VARIANT(p, a, b);                         \
      case OP_MIN: return clat_atomic_min_##T##SFX##VARIANT(p, a);                            \
      case OP_MAX: return clat_atomic_max_##T##SFX##VARIANT(p, a);                            \
      case OP_XCHG: return clat_atomic_xchg_##T##SFX(p, a);                                   \
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
