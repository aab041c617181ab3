/* clatomics/minmax_bits.cl — float/double min and max with one integer atomic, no loop.
 *
 * IEEE bit patterns order like signed integers when the sign bit is clear, and like unsigned
 * integers in reverse when it is set. So for v with a clear sign bit, min is a signed integer
 * min; for v with the sign bit set (tested on the *bit*, so -0.0 goes this way), min is an
 * unsigned integer max. This orders -0.0 below +0.0, as order.cl does.
 * NaN operands change nothing and return early. A NaN already in memory is replaced by the
 * integer op when its sign bit says so; when it is not, the op falls back to the CAS loop, so the
 * result always equals the CAS path's. A load first skips the atomic when memory already wins
 * (CLAT_FIRST_READ, cas.cl: why a plain read is safe there where OpenCL C has no atomic load).
 */
#ifndef CLATOMICS_MINMAX_BITS_CL
#define CLATOMICS_MINMAX_BITS_CL

/* clat_bits_<OP>_<T><SFX>, OP min or max; max mirrors min. WINS is OP's comparison (< for min,
 * > for max) as the bits order when the sign bit is clear (read as S). POS_ATOMIC is the signed
 * integer atomic of the same name (min: IMIN), NEG_ATOMIC the unsigned one of the other name for
 * a v with its sign bit set (min: IMAX), where the order runs the other way: so there v won when
 * old WINS v. took: v won, and memory holds it now. */
#define CLAT_DEFINE_BITS_OP(T, U, S, AS, SFX, OP, WINS, NEG_ATOMIC, POS_ATOMIC)                \
  CLAT_FN T clat_bits_##OP##_##T##SFX(volatile AS T *p, T v) {                                 \
    T cur = as_##T(CLAT_FIRST_READ_##U(AS, (volatile AS U *)p));                                \
    if (as_##U(clat_##OP##_##T(cur, v)) == as_##U(cur)) return cur;                          \
    U old;                                                                                     \
    int took;                                                                                  \
    if (signbit(v)) {                                                                          \
      old = NEG_ATOMIC((volatile AS U *)p, as_##U(v));                                         \
      took = old WINS as_##U(v);                                                               \
    } else {                                                                                   \
      old = as_##U(POS_ATOMIC((volatile AS S *)p, as_##S(v)));                                 \
      took = as_##S(v) WINS as_##S(old);                                                       \
    }                                                                                          \
    if (isnan(as_##T(old)) && !took) return clat_cas_##OP##_##T##SFX(p, v);                    \
    return as_##T(old);                                                                        \
  }

/* IMIN/IMAX: the integer atomic min/max for S (signed) and U (unsigned) of T's size. */
#define CLAT_DEFINE_BITS_MINMAX(T, U, S, AS, SFX, IMIN, IMAX)                                  \
  CLAT_DEFINE_BITS_OP(T, U, S, AS, SFX, min, <, IMAX, IMIN)                                    \
  CLAT_DEFINE_BITS_OP(T, U, S, AS, SFX, max, >, IMIN, IMAX)

#endif /* CLATOMICS_MINMAX_BITS_CL */
