#include "clatomics/atomics.cl"
/* kernels/reduce.cl — sum, prod, min and max over a range of one element type.
 *
 * Build options (defaults in brackets):
 *   CLAT_T            the element type: float, double, int, uint, long or ulong, with
 *                     CLAT_T_IS_<type> defined beside it [float]
 *   CLAT_VEC          elements per vector load: 2, 4, 8 or 16 [4]
 *   CLAT_CONTIGUOUS   see algo_common.cl [0]
 *
 * __kernel clat_reduce_<op>(in, offset, count, out, scratch), op = sum prod min max: every
 *   work-item folds its share of in[offset, offset + count) into a private vector, the
 *   work-group combines those in __local memory, then work-item 0 combines the group's value
 *   into out[0] with ONE atomic.
 * __kernel clat_reduce_<op>_tiles, _tiles_of_partials: the deterministic mode (and 64-bit
 *   integers without 64-bit atomics), a fixed tree over the elements' positions (see below).
 *
 * Integer sums and products wrap: they are computed on the unsigned type of the same size.
 * float/double min and max ignore NaN (missing data) and order -0 below +0, as order.cl does:
 * inside the kernel they reduce an order key (the bits, mapped so that unsigned order is that
 * order, NaN mapped to the identity), then go through clat_atomic_min/max.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_REDUCE_CL
#define CLATOMICS_KERNELS_REDUCE_CL

#ifndef CLAT_T
#define CLAT_T float
#define CLAT_T_IS_float
#endif
#ifndef CLAT_VEC
#define CLAT_VEC 4
#endif

/* CLAT_T the element type, CLAT_U / CLAT_S the unsigned / signed integers of its size. */
#if defined(CLAT_T_IS_float)
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 1
#define CLAT_WIDE 0
#elif defined(CLAT_T_IS_double)
#ifndef CLAT_HAS_DOUBLE
#error "kernels/reduce.cl: double needs cl_khr_fp64 and cl_khr_int64_base_atomics"
#endif
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 1
#define CLAT_WIDE 1
#elif defined(CLAT_T_IS_int)
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 0
#define CLAT_WIDE 0
#define CLAT_T_LOWEST INT_MIN
#define CLAT_T_HIGHEST INT_MAX
#define CLAT_FROM_U(a) as_int(a)
#elif defined(CLAT_T_IS_uint)
#define CLAT_U uint
#define CLAT_S int
#define CLAT_REAL 0
#define CLAT_WIDE 0
#define CLAT_T_LOWEST 0u
#define CLAT_T_HIGHEST UINT_MAX
#define CLAT_FROM_U(a) (a)
#elif defined(CLAT_T_IS_long)
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 0
#define CLAT_WIDE 1
#define CLAT_T_LOWEST LONG_MIN
#define CLAT_T_HIGHEST LONG_MAX
#define CLAT_FROM_U(a) as_long(a)
#elif defined(CLAT_T_IS_ulong)
#define CLAT_U ulong
#define CLAT_S long
#define CLAT_REAL 0
#define CLAT_WIDE 1
#define CLAT_T_LOWEST 0ul
#define CLAT_T_HIGHEST ULONG_MAX
#define CLAT_FROM_U(a) (a)
#else
#error "kernels/reduce.cl: CLAT_T must be float, double, int, uint, long or ulong"
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
/* No 64-bit atomics: the host runs the tiles, which need none. */
CLAT_FN void clat_finish_sum(__global CLAT_U *out, CLAT_U a) {}
CLAT_FN void clat_finish_prod(__global CLAT_U *out, CLAT_U a) {}
CLAT_FN void clat_finish_min(__global CLAT_T *out, CLAT_T a) {}
CLAT_FN void clat_finish_max(__global CLAT_T *out, CLAT_T a) {}
#endif
#endif /* CLAT_REAL */

/* The deterministic tree (tiles): a fixed order over the elements' positions in the range,
 * whatever the device, the group size, the range's address or the host's chunks.
 * Tile t holds elements [t * CLAT_TILE, (t + 1) * CLAT_TILE) of the range. In a tile, lane j of
 * CLAT_TILE_LANES keeps CLAT_TILE_WIDTH accumulators: accumulator c takes elements
 * CLAT_TILE_WIDTH * (j + CLAT_TILE_LANES * r) + c for r = 0, 1, ... in that order, and the lane's
 * value is (acc0 . acc1) . (acc2 . acc3). Lanes then combine as a binary tree: lane j takes lane
 * j + s for s = CLAT_TILE_LANES / 2, ..., 1. The tiles' values are a range of their own, reduced
 * by the same rule until one value is left. Missing elements (the last tile) count as the
 * identity, which changes nothing. */
#define CLAT_TILE_LANES 256
#define CLAT_TILE_WIDTH 4
#define CLAT_TILE_STEPS 16
#define CLAT_TILE (CLAT_TILE_LANES * CLAT_TILE_WIDTH * CLAT_TILE_STEPS)
/* The work-group size the host compiled for: each work-item holds CLAT_TILE_LANES / G lanes. */
#ifndef CLAT_TILE_GROUP
#define CLAT_TILE_GROUP 256
#endif
#define CLAT_ITEM_LANES (CLAT_TILE_LANES / CLAT_TILE_GROUP)

/* One lane's value over a tile at p of n elements (IN elements, LOAD turns one into A). */
#define CLAT_DEFINE_TILE_LANE(NAME, IN, A, LOAD, COMB, IDENT)                                      \
  CLAT_FN A NAME(const __global IN *p, ulong n, uint lane) {                                       \
    A acc0 = IDENT, acc1 = IDENT, acc2 = IDENT, acc3 = IDENT;                                      \
    if (n == CLAT_TILE && CLAT_ALIGNED(p, CLAT_TILE_WIDTH)) {                                      \
      const __global CLAT_CAT(IN, 4) *pv = (const __global CLAT_CAT(IN, 4) *)p;                   \
      for (uint r = 0; r < CLAT_TILE_STEPS; ++r) {                                                 \
        const CLAT_CAT(IN, 4) v = pv[lane + CLAT_TILE_LANES * r];                                  \
        acc0 = COMB(acc0, LOAD(v.x));                                                              \
        acc1 = COMB(acc1, LOAD(v.y));                                                              \
        acc2 = COMB(acc2, LOAD(v.z));                                                              \
        acc3 = COMB(acc3, LOAD(v.w));                                                              \
      }                                                                                            \
    } else {                                                                                       \
      for (uint r = 0; r < CLAT_TILE_STEPS; ++r) {                                                 \
        const ulong e = (ulong)CLAT_TILE_WIDTH * (lane + CLAT_TILE_LANES * r);                     \
        if (e < n) acc0 = COMB(acc0, LOAD(p[e]));                                                  \
        if (e + 1 < n) acc1 = COMB(acc1, LOAD(p[e + 1]));                                          \
        if (e + 2 < n) acc2 = COMB(acc2, LOAD(p[e + 2]));                                          \
        if (e + 3 < n) acc3 = COMB(acc3, LOAD(p[e + 3]));                                          \
      }                                                                                            \
    }                                                                                              \
    return COMB(COMB(acc0, acc1), COMB(acc2, acc3));                                               \
  }

/* __kernel KERNEL(in, offset, count, partials, first, out, finish, scratch): one work-group per
 * tile (grid stride) of in[offset, offset + count); the tile's value goes to partials[first + t],
 * or, when finish is set (the range is one tile), OUT(value) to out[0]. LANE, KERNEL and GROUP
 * (the work-group tree) are names: pasted by the caller, since op names such as min are macros. */
#define CLAT_DEFINE_TILES(LANE, KERNEL, GROUP, IN, A, LOAD, COMB, IDENT, OUT)                      \
  CLAT_DEFINE_TILE_LANE(LANE, IN, A, LOAD, COMB, IDENT)                                            \
  __kernel __attribute__((reqd_work_group_size(CLAT_TILE_GROUP, 1, 1))) void KERNEL(               \
      __global const IN *in, ulong offset, ulong count, __global A *partials, ulong first,          \
      __global CLAT_T *out, uint finish, __local A *scratch) {                                     \
    const uint g = get_local_id(0);                                                                \
    const ulong ntiles = (count + CLAT_TILE - 1) / CLAT_TILE;                                      \
    for (ulong t = get_group_id(0); t < ntiles; t += get_num_groups(0)) {                          \
      const ulong n = min((ulong)CLAT_TILE, count - t * CLAT_TILE);                                \
      A lanes[CLAT_ITEM_LANES];                                                                    \
      for (uint m = 0; m < CLAT_ITEM_LANES; ++m)                                                   \
        lanes[m] = LANE(in + offset + t * CLAT_TILE, n, g + CLAT_TILE_GROUP * m);                 \
      /* The tree's levels s >= the group size pair lanes of this work-item. */                   \
      for (uint step = CLAT_ITEM_LANES / 2; step > 0; step /= 2)                                   \
        for (uint m = 0; m < step; ++m) lanes[m] = COMB(lanes[m], lanes[m + step]);                \
      const A value = GROUP(lanes[0], scratch);                                                    \
      if (g == 0) {                                                                                \
        if (finish)                                                                                \
          out[0] = OUT(value);                                                                     \
        else                                                                                       \
          partials[first + t] = value;                                                             \
      }                                                                                            \
    }                                                                                              \
  }

/* The fast path's loop over a work-item's share of vectors, four loads issued before their adds:
 * the loads of one step in flight together (H200, 1 GiB: float 4,263-4,317 -> 4,416-4,428 GB/s,
 * int 4,295-4,303 -> 4,458-4,464, CUB 4,427 / 4,479 in the same job; eight loads into two
 * accumulators 4,349-4,363). */
#define CLAT_REDUCE_LOOP(ACC, PV, SH, COMB, LOADV)                                                  \
  {                                                                                                \
    ulong i = SH.begin;                                                                            \
    for (; i + 3 * SH.step < SH.end; i += 4 * SH.step) {                                           \
      const CLAT_V(CLAT_T) a0_ = PV[i], a1_ = PV[i + SH.step], a2_ = PV[i + 2 * SH.step], a3_ = PV[i + 3 * SH.step]; \
      ACC = COMB(ACC, LOADV(a0_));                                                                 \
      ACC = COMB(ACC, LOADV(a1_));                                                                 \
      ACC = COMB(ACC, LOADV(a2_));                                                                 \
      ACC = COMB(ACC, LOADV(a3_));                                                                 \
    }                                                                                              \
    for (; i < SH.end; i += SH.step) ACC = COMB(ACC, LOADV(PV[i]));                                \
  }
/* The kernels of one op: A is the accumulator, LOADV/LOAD1 turn a vector/element into A,
 * FINISH(out, a) is the one atomic per group, OUT(a) turns A back into the element type.
 * clat_reduce_<op>(in, offset, count, out, scratch): the fast path, one atomic per group.
 * clat_reduce_<op>_tiles: the deterministic tree over elements; _tiles_of_partials over the
 * tiles' values. */
#define CLAT_DEFINE_REDUCE(OP, A, LOADV, LOAD1, COMB, IDENT, FINISH, OUT)                         \
  CLAT_DEFINE_GROUP_REDUCE(clat_group_##OP, A, COMB)                                              \
  CLAT_FN A clat_fold_##OP(CLAT_V(A) v) { CLAT_FOLD(A, COMB) }                                    \
  __kernel void clat_reduce_##OP(__global const CLAT_T *in, ulong offset, ulong count,             \
                                 __global A *out, __local A *scratch) {                           \
    const __global CLAT_T *p = in + offset;                                                       \
    const ulong head = CLAT_HEAD(p, count, CLAT_VEC);                                             \
    const ulong nvec = (count - head) / CLAT_VEC;                                                 \
    const __global CLAT_V(CLAT_T) *pv = (const __global CLAT_V(CLAT_T) *)(p + head);              \
    CLAT_V(A) accv = (CLAT_V(A))(IDENT);                                                          \
    const clat_share share = clat_item_share(nvec);                                               \
    CLAT_REDUCE_LOOP(accv, pv, share, COMB, LOADV)                                                \
    A acc = clat_fold_##OP(accv);                                                                 \
    const ulong id = get_global_id(0), items = get_global_size(0);                               \
    for (ulong i = id; i < head; i += items) acc = COMB(acc, LOAD1(p[i]));                        \
    for (ulong i = head + nvec * CLAT_VEC + id; i < count; i += items) acc = COMB(acc, LOAD1(p[i])); \
    acc = clat_group_##OP(acc, scratch);                                                          \
    if (get_local_id(0) == 0) FINISH(out, acc);                                                   \
  }                                                                                               \
  CLAT_DEFINE_TILES(clat_tile_lane_##OP, clat_reduce_##OP##_tiles, clat_group_##OP, CLAT_T, A, LOAD1, COMB,   \
                    IDENT, OUT)                                                                   \
  CLAT_DEFINE_TILES(clat_tile_lane_##OP##_of_partials, clat_reduce_##OP##_tiles_of_partials, clat_group_##OP, A, \
                    A, CLAT_SAME, COMB, IDENT, OUT)

CLAT_DEFINE_REDUCE(sum, CLAT_SUM_A, CLAT_SUM_LOADV, CLAT_SUM_LOAD1, CLAT_ADD, 0, clat_finish_sum, CLAT_SUM_OUT)
CLAT_DEFINE_REDUCE(prod, CLAT_SUM_A, CLAT_SUM_LOADV, CLAT_SUM_LOAD1, CLAT_MUL, 1, clat_finish_prod, CLAT_SUM_OUT)
CLAT_DEFINE_REDUCE(min, CLAT_MINMAX_A, CLAT_MIN_LOADV, CLAT_MIN_LOAD1, CLAT_MIN, CLAT_MIN_IDENT, clat_finish_min,
                   CLAT_MINMAX_OUT)
CLAT_DEFINE_REDUCE(max, CLAT_MINMAX_A, CLAT_MAX_LOADV, CLAT_MAX_LOAD1, CLAT_MAX, CLAT_MAX_IDENT, clat_finish_max,
                   CLAT_MINMAX_OUT)

#endif /* CLATOMICS_KERNELS_REDUCE_CL */
