#include "clatomics/atomics.cl"
/* kernels/reduce.cl — sum, prod, min and max over a range of one element type.
 *
 * Build options (defaults in brackets):
 *   CLAT_REDUCE_TYPE  0 float, 1 double, 2 int, 3 uint, 4 long, 5 ulong [0]
 *   CLAT_VEC          elements per vector load: 2, 4, 8 or 16 [4]
 *   CLAT_CONTIGUOUS   see algo_common.cl [0]
 *
 * __kernel clat_reduce_<op>(in, offset, count, out, to_partials, scratch), op = sum prod min max:
 *   every work-item folds its share of in[offset, offset + count) into a private vector, the
 *   work-group combines those in __local memory, then work-item 0 either combines the group's
 *   value into out[0] with ONE atomic (to_partials == 0) or stores it in out[group id]
 *   (to_partials != 0: the first pass of the deterministic mode).
 * __kernel clat_reduce_<op>_final(partials, n, out, scratch): one work-group combines n partials
 *   in a fixed order and stores the result in out[0] (the second pass).
 *
 * Integer sums and products wrap: they are computed on the unsigned type of the same size.
 * float/double min and max ignore NaN (missing data) and order -0 below +0, as order.cl does:
 * inside the kernel they reduce an order key (the bits, mapped so that unsigned order is that
 * order, NaN mapped to the identity), then go through clat_atomic_min/max.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_REDUCE_CL
#define CLATOMICS_KERNELS_REDUCE_CL

#ifndef CLAT_REDUCE_TYPE
#define CLAT_REDUCE_TYPE 0
#endif
#ifndef CLAT_VEC
#define CLAT_VEC 4
#endif

/* CLAT_T the element type, CLAT_U / CLAT_S the unsigned / signed integers of its size. */
#if CLAT_REDUCE_TYPE == 0
#define CLAT_T float
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 1
#define CLAT_WIDE 0
#elif CLAT_REDUCE_TYPE == 1
#ifndef CLAT_HAS_DOUBLE
#error "kernels/reduce.cl: double needs cl_khr_fp64 and cl_khr_int64_base_atomics"
#endif
#define CLAT_T double
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 1
#define CLAT_WIDE 1
#elif CLAT_REDUCE_TYPE == 2
#define CLAT_T int
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 0
#define CLAT_WIDE 0
#define CLAT_T_LOWEST INT_MIN
#define CLAT_T_HIGHEST INT_MAX
#define CLAT_FROM_U(a) as_int(a)
#elif CLAT_REDUCE_TYPE == 3
#define CLAT_T uint
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 0
#define CLAT_WIDE 0
#define CLAT_T_LOWEST 0u
#define CLAT_T_HIGHEST UINT_MAX
#define CLAT_FROM_U(a) (a)
#elif CLAT_REDUCE_TYPE == 4
#define CLAT_T long
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 0
#define CLAT_WIDE 1
#define CLAT_T_LOWEST LONG_MIN
#define CLAT_T_HIGHEST LONG_MAX
#define CLAT_FROM_U(a) as_long(a)
#elif CLAT_REDUCE_TYPE == 5
#define CLAT_T ulong
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 0
#define CLAT_WIDE 1
#define CLAT_T_LOWEST 0ul
#define CLAT_T_HIGHEST ULONG_MAX
#define CLAT_FROM_U(a) (a)
#else
#error "kernels/reduce.cl: CLAT_REDUCE_TYPE must be 0..5"
#endif

#define CLAT_V(A) CLAT_CAT(A, CLAT_VEC) /* the vector of CLAT_VEC A */
#define CLAT_U_MAX ((CLAT_U) ~(CLAT_U)0)
#define CLAT_TOP (CLAT_WIDE ? 63 : 31)
#define CLAT_SIGN_BIT ((CLAT_U)1 << CLAT_TOP)

#define CLAT_ADD(a, b) ((a) + (b))
#define CLAT_MUL(a, b) ((a) * (b))
#define CLAT_MIN(a, b) min(a, b)
#define CLAT_MAX(a, b) max(a, b)

/* A vector's lanes folded into one value, in a fixed order: the body of a function of v. */
#if CLAT_VEC == 16
#define CLAT_FOLD(A, COMB)                   \
  const CLAT_CAT(A, 8) v8 = COMB(v.lo, v.hi);   \
  const CLAT_CAT(A, 4) v4 = COMB(v8.lo, v8.hi); \
  const CLAT_CAT(A, 2) v2 = COMB(v4.lo, v4.hi); \
  return COMB(v2.lo, v2.hi);
#elif CLAT_VEC == 8
#define CLAT_FOLD(A, COMB)                   \
  const CLAT_CAT(A, 4) v4 = COMB(v.lo, v.hi);   \
  const CLAT_CAT(A, 2) v2 = COMB(v4.lo, v4.hi); \
  return COMB(v2.lo, v2.hi);
#elif CLAT_VEC == 4
#define CLAT_FOLD(A, COMB)                  \
  const CLAT_CAT(A, 2) v2 = COMB(v.lo, v.hi); \
  return COMB(v2.lo, v2.hi);
#elif CLAT_VEC == 2
#define CLAT_FOLD(A, COMB) return COMB(v.lo, v.hi);
#else
#error "kernels/reduce.cl: CLAT_VEC must be 2, 4, 8 or 16"
#endif

#if CLAT_REAL
/* ---- float / double: sums and products as they are, min/max on order keys ---- */
/* Order key: for a clear sign bit, set it; for a set one, flip every bit. Unsigned order of keys
 * is then -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN; NaN is replaced by the identity. */
CLAT_FN CLAT_U clat_key(CLAT_T x) {
  const CLAT_U u = CLAT_CAT(as_, CLAT_U)(x);
  return u ^ (CLAT_CAT(as_, CLAT_U)(CLAT_CAT(as_, CLAT_S)(u) >> CLAT_TOP) | CLAT_SIGN_BIT);
}
CLAT_FN CLAT_V(CLAT_U) clat_keyv(CLAT_V(CLAT_T) x) {
  const CLAT_V(CLAT_U) u = CLAT_CAT(as_, CLAT_V(CLAT_U))(x);
  return u ^ (CLAT_CAT(as_, CLAT_V(CLAT_U))(CLAT_CAT(as_, CLAT_V(CLAT_S))(u) >> CLAT_TOP) |
              (CLAT_V(CLAT_U))CLAT_SIGN_BIT);
}
CLAT_FN CLAT_T clat_unkey(CLAT_U k) {
  if (k == CLAT_U_MAX || k == (CLAT_U)0) return (CLAT_T)NAN; /* the identities: no data */
  return CLAT_CAT(as_, CLAT_T)((k & CLAT_SIGN_BIT) ? (k ^ CLAT_SIGN_BIT) : ~k);
}
#define CLAT_KEY_MIN(x) (isnan(x) ? CLAT_U_MAX : clat_key(x))
#define CLAT_KEY_MAX(x) (isnan(x) ? (CLAT_U)0 : clat_key(x))
#define CLAT_KEYV_MIN(x) select(clat_keyv(x), (CLAT_V(CLAT_U))CLAT_U_MAX, isnan(x))
#define CLAT_KEYV_MAX(x) select(clat_keyv(x), (CLAT_V(CLAT_U))0, isnan(x))
#define CLAT_SAME(x) (x)

#define CLAT_SUM_A CLAT_T
#define CLAT_SUM_LOADV CLAT_SAME
#define CLAT_SUM_LOAD1 CLAT_SAME
#define CLAT_SUM_OUT CLAT_SAME
#define CLAT_MINMAX_A CLAT_U
#define CLAT_MIN_LOADV CLAT_KEYV_MIN
#define CLAT_MIN_LOAD1 CLAT_KEY_MIN
#define CLAT_MAX_LOADV CLAT_KEYV_MAX
#define CLAT_MAX_LOAD1 CLAT_KEY_MAX
#define CLAT_MINMAX_OUT clat_unkey
#define CLAT_MIN_IDENT CLAT_U_MAX
#define CLAT_MAX_IDENT ((CLAT_U)0)

/* No-return add: the old value is not needed (PTX red on NVIDIA). */
CLAT_FN void clat_finish_sum(__global CLAT_T *out, CLAT_T a) { CLAT_CAT(CLAT_CAT(clat_atomic_add_, CLAT_T), _noret)(out, a); }
CLAT_FN void clat_finish_prod(__global CLAT_T *out, CLAT_T a) { CLAT_CAT(clat_atomic_mul_, CLAT_T)(out, a); }
CLAT_FN void clat_finish_min(__global CLAT_U *out, CLAT_U k) {
  if (k != CLAT_MIN_IDENT) CLAT_CAT(clat_atomic_min_, CLAT_T)((volatile __global CLAT_T *)out, clat_unkey(k));
}
CLAT_FN void clat_finish_max(__global CLAT_U *out, CLAT_U k) {
  if (k != CLAT_MAX_IDENT) CLAT_CAT(clat_atomic_max_, CLAT_T)((volatile __global CLAT_T *)out, clat_unkey(k));
}

#else
/* ---- integers: sums and products on the unsigned type (they wrap), min/max as they are ---- */
#define CLAT_SAME(x) (x)
#define CLAT_TO_UV(x) CLAT_CAT(convert_, CLAT_V(CLAT_U))(x)
#define CLAT_TO_U(x) ((CLAT_U)(x))
#define CLAT_SUM_A CLAT_U
#define CLAT_SUM_LOADV CLAT_TO_UV
#define CLAT_SUM_LOAD1 CLAT_TO_U
#define CLAT_SUM_OUT CLAT_FROM_U
#define CLAT_MINMAX_A CLAT_T
#define CLAT_MIN_LOADV CLAT_SAME
#define CLAT_MIN_LOAD1 CLAT_SAME
#define CLAT_MAX_LOADV CLAT_SAME
#define CLAT_MAX_LOAD1 CLAT_SAME
#define CLAT_MINMAX_OUT CLAT_SAME
#define CLAT_MIN_IDENT CLAT_T_HIGHEST
#define CLAT_MAX_IDENT CLAT_T_LOWEST

#if !CLAT_WIDE
CLAT_FN void clat_finish_sum(__global CLAT_U *out, CLAT_U a) { atomic_add((volatile __global uint *)out, a); }
CLAT_FN void clat_finish_prod(__global CLAT_U *out, CLAT_U a) {
  uint old = *out; /* a stale first guess only costs one more round */
  while (!clat_atomic_compare_exchange_uint(out, &old, old * a)) {
  }
}
CLAT_FN void clat_finish_min(__global CLAT_T *out, CLAT_T a) { atomic_min(out, a); }
CLAT_FN void clat_finish_max(__global CLAT_T *out, CLAT_T a) { atomic_max(out, a); }
#elif defined(CLAT_HAS_INT64_ATOMICS)
CLAT_FN void clat_finish_sum(__global CLAT_U *out, CLAT_U a) { atom_add((volatile __global ulong *)out, a); }
CLAT_FN void clat_finish_prod(__global CLAT_U *out, CLAT_U a) {
  ulong old = *out;
  while (!clat_atomic_compare_exchange_ulong(out, &old, old * a)) {
  }
}
#ifdef CLAT_HAS_INT64_MINMAX
CLAT_FN void clat_finish_min(__global CLAT_T *out, CLAT_T a) { atom_min(out, a); }
CLAT_FN void clat_finish_max(__global CLAT_T *out, CLAT_T a) { atom_max(out, a); }
#else
CLAT_FN void clat_finish_min(__global CLAT_T *out, CLAT_T a) {
  CLAT_T old = *out;
  while (a < old && !CLAT_CAT(clat_atomic_compare_exchange_, CLAT_T)(out, &old, a)) {
  }
}
CLAT_FN void clat_finish_max(__global CLAT_T *out, CLAT_T a) {
  CLAT_T old = *out;
  while (a > old && !CLAT_CAT(clat_atomic_compare_exchange_, CLAT_T)(out, &old, a)) {
  }
}
#endif
#else
/* No 64-bit atomics: the host runs the two-pass path, which needs none. */
CLAT_FN void clat_finish_sum(__global CLAT_U *out, CLAT_U a) {}
CLAT_FN void clat_finish_prod(__global CLAT_U *out, CLAT_U a) {}
CLAT_FN void clat_finish_min(__global CLAT_T *out, CLAT_T a) {}
CLAT_FN void clat_finish_max(__global CLAT_T *out, CLAT_T a) {}
#endif
#endif /* CLAT_REAL */

/* The two kernels of one op: A is the accumulator, LOADV/LOAD1 turn a vector/element into A,
 * FINISH(out, a) is the one atomic per group, OUT(a) turns A back into the element type. */
#define CLAT_DEFINE_REDUCE(OP, A, LOADV, LOAD1, COMB, IDENT, FINISH, OUT)                         \
  CLAT_DEFINE_GROUP_REDUCE(clat_group_##OP, A, COMB)                                              \
  CLAT_FN A clat_fold_##OP(CLAT_V(A) v) { CLAT_FOLD(A, COMB) }                                    \
  __kernel void clat_reduce_##OP(__global const CLAT_T *in, ulong offset, ulong count,             \
                                 __global A *out, uint to_partials, __local A *scratch) {         \
    const __global CLAT_T *p = in + offset;                                                       \
    const ulong head = clat_head(offset, count, CLAT_VEC);                                        \
    const ulong nvec = (count - head) / CLAT_VEC;                                                 \
    const __global CLAT_V(CLAT_T) *pv = (const __global CLAT_V(CLAT_T) *)(p + head);              \
    CLAT_V(A) accv = (CLAT_V(A))(IDENT);                                                          \
    const clat_share share = clat_item_share(nvec);                                               \
    for (ulong i = share.begin; i < share.end; i += share.step) accv = COMB(accv, LOADV(pv[i]));  \
    A acc = clat_fold_##OP(accv);                                                                 \
    const ulong id = get_global_id(0), items = get_global_size(0);                               \
    for (ulong i = id; i < head; i += items) acc = COMB(acc, LOAD1(p[i]));                        \
    for (ulong i = head + nvec * CLAT_VEC + id; i < count; i += items) acc = COMB(acc, LOAD1(p[i])); \
    acc = clat_group_##OP(acc, scratch);                                                          \
    if (get_local_id(0) == 0) {                                                                   \
      if (to_partials)                                                                            \
        out[get_group_id(0)] = acc;                                                               \
      else                                                                                        \
        FINISH(out, acc);                                                                         \
    }                                                                                             \
  }                                                                                               \
  __kernel void clat_reduce_##OP##_final(__global const A *partials, uint n, __global CLAT_T *out, \
                                         __local A *scratch) {                                    \
    A acc = IDENT;                                                                                \
    for (uint i = get_local_id(0); i < n; i += get_local_size(0)) acc = COMB(acc, partials[i]);   \
    acc = clat_group_##OP(acc, scratch);                                                          \
    if (get_local_id(0) == 0) out[0] = OUT(acc);                                                  \
  }

CLAT_DEFINE_REDUCE(sum, CLAT_SUM_A, CLAT_SUM_LOADV, CLAT_SUM_LOAD1, CLAT_ADD, 0, clat_finish_sum, CLAT_SUM_OUT)
CLAT_DEFINE_REDUCE(prod, CLAT_SUM_A, CLAT_SUM_LOADV, CLAT_SUM_LOAD1, CLAT_MUL, 1, clat_finish_prod, CLAT_SUM_OUT)
CLAT_DEFINE_REDUCE(min, CLAT_MINMAX_A, CLAT_MIN_LOADV, CLAT_MIN_LOAD1, CLAT_MIN, CLAT_MIN_IDENT, clat_finish_min,
                   CLAT_MINMAX_OUT)
CLAT_DEFINE_REDUCE(max, CLAT_MINMAX_A, CLAT_MAX_LOADV, CLAT_MAX_LOAD1, CLAT_MAX, CLAT_MAX_IDENT, clat_finish_max,
                   CLAT_MINMAX_OUT)

#endif /* CLATOMICS_KERNELS_REDUCE_CL */
