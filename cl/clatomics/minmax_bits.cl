/* clatomics/minmax_bits.cl — float/double min and max with one integer atomic, no loop.
 *
 * IEEE bit patterns order like signed integers when the sign bit is clear, and like unsigned
 * integers in reverse when it is set. So for v with a clear sign bit, min is a signed integer
 * min; for v with the sign bit set (tested on the *bit*, so -0.0 goes this way), min is an
 * unsigned integer max. This orders -0.0 below +0.0, as order.cl does.
 * NaN operands change nothing and return early. A NaN already in memory is replaced by the
 * integer op when its sign bit says so; when it is not, the op falls back to the CAS loop, so the
 * result always equals the CAS path's. A load first skips the atomic when memory already wins.
 */
#ifndef CLATOMICS_MINMAX_BITS_CL
#define CLATOMICS_MINMAX_BITS_CL

/* IMIN/IMAX: the integer atomic min/max for S (signed) and U (unsigned) of T's size. */
#define CLAT_DEFINE_BITS_MINMAX(T, U, S, AS, SFX, IMIN, IMAX)                                  \
  CLAT_FN T clat_bits_min_##T##SFX(volatile AS T *p, T v) {                                    \
    T cur = *p;                                                                                \
    if (as_##U(clat_min_##T(cur, v)) == as_##U(cur)) return cur;                              \
    U old;                                                                                     \
    int took;                                                                                  \
    if (signbit(v)) {                                                                          \
      old = IMAX((volatile AS U *)p, as_##U(v));                                               \
      took = as_##U(v) > old;                                                                  \
    } else {                                                                                   \
      old = as_##U(IMIN((volatile AS S *)p, as_##S(v)));                                       \
      took = as_##S(v) < as_##S(old);                                                          \
    }                                                                                          \
    if (isnan(as_##T(old)) && !took) return clat_cas_min_##T##SFX(p, v);                       \
    return as_##T(old);                                                                        \
  }                                                                                            \
  CLAT_FN T clat_bits_max_##T##SFX(volatile AS T *p, T v) {                                    \
    T cur = *p;                                                                                \
    if (as_##U(clat_max_##T(cur, v)) == as_##U(cur)) return cur;                              \
    U old;                                                                                     \
    int took;                                                                                  \
    if (signbit(v)) {                                                                          \
      old = IMIN((volatile AS U *)p, as_##U(v));                                               \
      took = as_##U(v) < old;                                                                  \
    } else {                                                                                   \
      old = as_##U(IMAX((volatile AS S *)p, as_##S(v)));                                       \
      took = as_##S(v) > as_##S(old);                                                          \
    }                                                                                          \
    if (isnan(as_##T(old)) && !took) return clat_cas_max_##T##SFX(p, v);                       \
    return as_##T(old);                                                                        \
  }

#endif /* CLATOMICS_MINMAX_BITS_CL */
