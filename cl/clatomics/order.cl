/* clatomics/order.cl — the min/max that every path of clatomics computes.
 *
 * NaN is missing data (as fmin/fmax and cl_ext_float_atomics): min(x, NaN) = min(NaN, x) = x, and
 * a NaN stays only when both are NaN. Signed zeros are ordered: -0.0 < +0.0, so min(-0, +0) = -0
 * and max(-0, +0) = +0 on every device and path (the bit-pattern path gives this for free).
 */
#ifndef CLATOMICS_ORDER_CL
#define CLATOMICS_ORDER_CL

#define CLAT_DEFINE_ORDER(T)                                                   \
  CLAT_FN T clat_min_##T(T a, T b) {                                           \
    if (isnan(b)) return a;                                                    \
    if (isnan(a)) return b;                                                    \
    if (a == b) return signbit(a) ? a : b;                                     \
    return b < a ? b : a;                                                      \
  }                                                                            \
  CLAT_FN T clat_max_##T(T a, T b) {                                           \
    if (isnan(b)) return a;                                                    \
    if (isnan(a)) return b;                                                    \
    if (a == b) return signbit(a) ? b : a;                                     \
    return b > a ? b : a;                                                      \
  }

CLAT_DEFINE_ORDER(float)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_ORDER(double)
#endif

#endif /* CLATOMICS_ORDER_CL */
