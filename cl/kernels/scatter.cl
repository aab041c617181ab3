#include "clatomics/atomics.cl"
/* kernels/scatter.cl — scatter-reduce: acc[slot(i, d)] op= values[i, d], where element i goes to
 * bin indices[i] (or, for segments, the s with offsets[s] <= i < offsets[s + 1]) and
 * slot = bin * astride + d, d < width.
 *
 * Build options (defaults in brackets):
 *   CLAT_SC_TYPE    values: 0 float, 1 double, 2 int, 3 uint, 4 long, 5 ulong, 6 half, 7 bfloat16
 *                   (6 and 7 are accumulated and written as float) [0]
 *   CLAT_SC_I64     indices (or segment offsets) are ulong, else uint [0]
 *   CLAT_SC_OP      0 sum, 1 prod, 2 min, 3 max [0]
 *   CLAT_SC_FIXED   1: sums in 128-bit fixed point (the deterministic mode; floating types) [0]
 *   CLAT_SC_MODE    where a finished run goes: 0 the global accumulator, 1 private copies of
 *                   every slot in __local memory, 2 a tagged __local table of the slots a
 *                   work-group meets first (the rest go global) [0]
 *   CLAT_SC_SHIFT   mode 1: 1 << CLAT_SC_SHIFT copies per slot (copy = local id % copies) [0]
 *   CLAT_SC_SLOTS   mode 2: slots of the table, a power of two [1024]
 *   CLAT_SC_SOLO    1: work-groups of one work-item (CPUs): __local updates need no atomics [0]
 *   CLAT_SC_COUNTS  1: count the elements of every bin into counts (mean, include_self false) [0]
 *   CLAT_SC_SEGMENTS 1: bins from CSR offsets instead of indices [0]
 *   CLAT_SC_AGG     1: global updates through the warp-aggregated ops where the warp path
 *                   exists (NVIDIA; hot indices) [0]
 *   CLAT_SC_K       consecutive elements a work-item takes per step, a multiple of 4 [16]
 *
 * Runs: every work-item keeps the slot it is filling and its partial value in registers and only
 * hands a run on (to __local or global memory) when the slot changes. A work-group takes one
 * contiguous range of elements, in steps of (work-group size * CLAT_SC_K) elements in which
 * each work-item takes CLAT_SC_K consecutive ones: sorted indices or a single bin make long
 * runs, and neighbouring work-items rarely share a run's slot.
 *
 * The accumulator starts at the identity: -0.0 for float sums (x + -0.0 == x for every x, -0.0
 * included), 1 for products, NaN for float min/max (order.cl: NaN is missing data), the largest or
 * lowest integer. A group hands on only slots that left the identity.
 *
 * Fixed point (CLAT_SC_FIXED): a value v = m * 2^e becomes the 128-bit integer v / 2^e_grid
 * (rounded to nearest even), e_grid chosen by the host from the largest exponent (clat_scatter_top)
 * and the element count so that no sum overflows; 128-bit adds with carries are exact and their
 * order does not matter. NaN and infinities set flags (1 NaN, 2 +inf, 4 -inf) instead.
 */
#include "kernels/algo_common.cl"

#ifndef CLATOMICS_KERNELS_SCATTER_CL
#define CLATOMICS_KERNELS_SCATTER_CL

#ifndef CLAT_SC_TYPE
#define CLAT_SC_TYPE 0
#endif
#ifndef CLAT_SC_I64
#define CLAT_SC_I64 0
#endif
#ifndef CLAT_SC_OP
#define CLAT_SC_OP 0
#endif
#ifndef CLAT_SC_FIXED
#define CLAT_SC_FIXED 0
#endif
#ifndef CLAT_SC_MODE
#define CLAT_SC_MODE 0
#endif
#ifndef CLAT_SC_SHIFT
#define CLAT_SC_SHIFT 0
#endif
#ifndef CLAT_SC_SLOTS
#define CLAT_SC_SLOTS 1024
#endif
#ifndef CLAT_SC_SOLO
#define CLAT_SC_SOLO 0
#endif
#ifndef CLAT_SC_COUNTS
#define CLAT_SC_COUNTS 0
#endif
#ifndef CLAT_SC_SEGMENTS
#define CLAT_SC_SEGMENTS 0
#endif
#ifndef CLAT_SC_AGG
#define CLAT_SC_AGG 0
#endif
#ifndef CLAT_SC_K
#define CLAT_SC_K 16
#endif

#if CLAT_SC_I64
#define CLAT_SC_IDX ulong
#else
#define CLAT_SC_IDX uint
#endif

/* ---- types: CLAT_SC_IN stored values, CLAT_SC_T the output type, CLAT_SC_LOAD(p, i) -> T ---- */
#if CLAT_SC_TYPE == 0
#define CLAT_SC_IN float
#define CLAT_SC_T float
#define CLAT_SC_U uint
#define CLAT_SC_REAL 1
#elif CLAT_SC_TYPE == 1
#ifndef CLAT_HAS_DOUBLE
#error "kernels/scatter.cl: double needs cl_khr_fp64 and cl_khr_int64_base_atomics"
#endif
#define CLAT_SC_IN double
#define CLAT_SC_T double
#define CLAT_SC_U ulong
#define CLAT_SC_REAL 1
#elif CLAT_SC_TYPE == 2
#define CLAT_SC_IN int
#define CLAT_SC_T int
#define CLAT_SC_U uint
#define CLAT_SC_LOWEST INT_MIN
#define CLAT_SC_HIGHEST INT_MAX
#elif CLAT_SC_TYPE == 3
#define CLAT_SC_IN uint
#define CLAT_SC_T uint
#define CLAT_SC_U uint
#define CLAT_SC_LOWEST 0u
#define CLAT_SC_HIGHEST UINT_MAX
#elif CLAT_SC_TYPE == 4
#define CLAT_SC_IN long
#define CLAT_SC_T long
#define CLAT_SC_U ulong
#define CLAT_SC_LOWEST LONG_MIN
#define CLAT_SC_HIGHEST LONG_MAX
#elif CLAT_SC_TYPE == 5
#define CLAT_SC_IN ulong
#define CLAT_SC_T ulong
#define CLAT_SC_U ulong
#define CLAT_SC_LOWEST 0ul
#define CLAT_SC_HIGHEST ULONG_MAX
#elif CLAT_SC_TYPE == 6
#define CLAT_SC_IN ushort
#define CLAT_SC_T float
#define CLAT_SC_U uint
#define CLAT_SC_REAL 1
#define CLAT_SC_LOAD(p, i) vload_half((i), (const __global half *)(p))
#elif CLAT_SC_TYPE == 7
#define CLAT_SC_IN ushort
#define CLAT_SC_T float
#define CLAT_SC_U uint
#define CLAT_SC_REAL 1
#define CLAT_SC_LOAD(p, i) as_float((uint)(p)[i] << 16)
#else
#error "kernels/scatter.cl: CLAT_SC_TYPE must be 0..7"
#endif
#ifndef CLAT_SC_REAL
#define CLAT_SC_REAL 0
#endif
#ifndef CLAT_SC_LOAD
#define CLAT_SC_LOAD(p, i) ((p)[i])
#endif
#define CLAT_SC_WIDE_INT (CLAT_SC_TYPE == 4 || CLAT_SC_TYPE == 5)
#define CLAT_SC_TN(name) CLAT_CAT(CLAT_CAT(name, _), CLAT_SC_T) /* name_T */

#if CLAT_SC_FIXED || CLAT_SC_COUNTS || CLAT_SC_WIDE_INT
#ifndef CLAT_HAS_INT64_ATOMICS
#error "kernels/scatter.cl: 64-bit accumulators and counts need cl_khr_int64_base_atomics"
#endif
#endif

/* ---- the op on plain values: COMB, the identity, and the atomics on T ---- */
#if CLAT_SC_REAL
#define CLAT_SC_SUM(a, b) ((a) + (b))
#define CLAT_SC_MUL(a, b) ((a) * (b))
#define CLAT_SC_MIN(a, b) CLAT_SC_TN(clat_min)(a, b)
#define CLAT_SC_MAX(a, b) CLAT_SC_TN(clat_max)(a, b)
#define CLAT_SC_SUM_IDENT ((CLAT_SC_T)-0.0)
#define CLAT_SC_MIN_IDENT ((CLAT_SC_T)NAN)
#define CLAT_SC_MAX_IDENT ((CLAT_SC_T)NAN)
#define CLAT_SC_IS_MINMAX_IDENT(a) isnan(a)
#define CLAT_SC_SAME_BITS(a, b) (CLAT_CAT(as_, CLAT_SC_U)(a) == CLAT_CAT(as_, CLAT_SC_U)(b))
#else
#define CLAT_SC_SUM(a, b) ((CLAT_SC_T)((CLAT_SC_U)(a) + (CLAT_SC_U)(b)))
#define CLAT_SC_MUL(a, b) ((CLAT_SC_T)((CLAT_SC_U)(a) * (CLAT_SC_U)(b)))
#define CLAT_SC_MIN(a, b) min(a, b)
#define CLAT_SC_MAX(a, b) max(a, b)
#define CLAT_SC_SUM_IDENT ((CLAT_SC_T)0)
#define CLAT_SC_MIN_IDENT CLAT_SC_HIGHEST
#define CLAT_SC_MAX_IDENT CLAT_SC_LOWEST
#define CLAT_SC_IS_MINMAX_IDENT(a) 0
#define CLAT_SC_SAME_BITS(a, b) ((a) == (b))
#endif

/* Integer products (and 64-bit min/max without cl_khr_int64_extended_atomics): a CAS loop. */
#define CLAT_SC_DEFINE_INT_LOOP(NAME, AS, SFX, COMB)                                            \
  CLAT_FN void NAME(volatile AS CLAT_SC_T *p, CLAT_SC_T v) {                                   \
    CLAT_SC_T old = *p; /* a stale first guess only costs one more round */                    \
    while (!CLAT_CAT(CLAT_SC_TN(clat_atomic_compare_exchange), SFX)(p, &old, COMB(old, v))) {  \
    }                                                                                          \
  }
#if !CLAT_SC_REAL && !CLAT_SC_FIXED
CLAT_SC_DEFINE_INT_LOOP(clat_sc_mul_global, __global, , CLAT_SC_MUL)
CLAT_SC_DEFINE_INT_LOOP(clat_sc_mul_local, __local, _local, CLAT_SC_MUL)
#if CLAT_SC_WIDE_INT && !defined(CLAT_HAS_INT64_MINMAX)
CLAT_SC_DEFINE_INT_LOOP(clat_sc_min_global, __global, , CLAT_SC_MIN)
CLAT_SC_DEFINE_INT_LOOP(clat_sc_min_local, __local, _local, CLAT_SC_MIN)
CLAT_SC_DEFINE_INT_LOOP(clat_sc_max_global, __global, , CLAT_SC_MAX)
CLAT_SC_DEFINE_INT_LOOP(clat_sc_max_local, __local, _local, CLAT_SC_MAX)
#elif CLAT_SC_WIDE_INT
#define clat_sc_min_global(p, v) atom_min(p, v)
#define clat_sc_min_local(p, v) atom_min(p, v)
#define clat_sc_max_global(p, v) atom_max(p, v)
#define clat_sc_max_local(p, v) atom_max(p, v)
#else
#define clat_sc_min_global(p, v) atomic_min(p, v)
#define clat_sc_min_local(p, v) atomic_min(p, v)
#define clat_sc_max_global(p, v) atomic_max(p, v)
#define clat_sc_max_local(p, v) atomic_max(p, v)
#endif
#endif

/* CLAT_SC_AGG_OK: the aggregated ops are safe in divergent code only on the warp path. */
#if CLAT_SC_AGG && CLAT_PATH_AGG == CLAT_PATH_WARP && (CLAT_SC_REAL || !CLAT_SC_WIDE_INT)
#define CLAT_SC_AGG_OK 1
#else
#define CLAT_SC_AGG_OK 0
#endif

#if CLAT_SC_FIXED
/* ---- the accumulator: 128-bit two's complement fixed point, ulong2 (x low, y high) ---- */
#if !CLAT_SC_REAL || CLAT_SC_OP != 0 || !defined(CLAT_HAS_DOUBLE)
#error "kernels/scatter.cl: CLAT_SC_FIXED sums floating-point values on a device with fp64"
#endif
#define CLAT_SC_A ulong2
#define CLAT_SC_STORE ulong
#define CLAT_SC_WORDS 2
#define CLAT_SC_IDENT ((ulong2)(0ul, 0ul))
#define CLAT_SC_IS_IDENT(a) ((a).x == 0ul && (a).y == 0ul)
CLAT_FN ulong2 clat_sc_add128(ulong2 a, ulong2 b) {
  const ulong lo = a.x + b.x;
  return (ulong2)(lo, a.y + b.y + (lo < a.x ? 1ul : 0ul));
}
#define CLAT_SC_COMB(a, b) clat_sc_add128(a, b)
/* m * 2^lsb / 2^e_grid rounded to nearest even, as 128 bits, negated when neg; m < 2^53 and
 * the host keeps lsb - e_grid <= 102 - log2(elements). */
CLAT_FN ulong2 clat_sc_fixed_bits(ulong m, int lsb, int neg, int e_grid) {
  const int s = lsb - e_grid;
  ulong lo, hi;
  if (s >= 64) {
    lo = 0ul;
    hi = m << (s - 64);
  } else if (s > 0) {
    lo = m << s;
    hi = m >> (64 - s);
  } else if (s == 0) {
    lo = m;
    hi = 0ul;
  } else if (s > -54) {
    const int r = -s;
    const ulong q = m >> r, rest = m & ((1ul << r) - 1ul), tie = 1ul << (r - 1);
    lo = q + ((rest > tie || (rest == tie && (q & 1ul))) ? 1ul : 0ul);
    hi = 0ul;
  } else {
    lo = hi = 0ul; /* below half a step: rounds to 0 */
  }
  /* Two's complement when neg, without a branch (signs of data are unpredictable). */
  const ulong mask = 0ul - (ulong)neg;
  return (ulong2)((lo ^ mask) - mask, (hi ^ mask) + (mask & (lo == 0ul ? 1ul : 0ul)));
}
/* A finite value's fixed point. */
#if CLAT_SC_TYPE == 1
CLAT_FN ulong2 clat_sc_fixed(double v, int e_grid) {
  const ulong bits = as_ulong(v);
  const int e = (int)((bits >> 52) & 0x7fful);
  const ulong m = (bits & 0xffffffffffffful) | (e ? 1ul << 52 : 0ul);
  return clat_sc_fixed_bits(m, (e ? e : 1) - 1075, (int)(bits >> 63), e_grid);
}
#else
CLAT_FN ulong2 clat_sc_fixed(float v, int e_grid) {
  const uint bits = as_uint(v);
  const int e = (int)((bits >> 23) & 0xffu);
  const uint m = (bits & 0x7fffffu) | (e ? 0x800000u : 0u);
  return clat_sc_fixed_bits((ulong)m, (e ? e : 1) - 150, (int)(bits >> 31), e_grid);
}
#endif
/* 128-bit add into memory with a carry: exact in any order. */
#define CLAT_SC_DEFINE_ADD128(NAME, AS)                                             \
  CLAT_FN void NAME(volatile AS ulong *p, ulong2 a) {                              \
    const ulong old = atom_add(p, a.x);                                            \
    const ulong carry = (old + a.x < old) ? 1ul : 0ul;                             \
    if (a.y + carry) atom_add(p + 1, a.y + carry);                                 \
  }
CLAT_SC_DEFINE_ADD128(clat_sc_add128_global, __global)
CLAT_SC_DEFINE_ADD128(clat_sc_add128_local, __local)
#define CLAT_SC_GLOBAL(p, a) clat_sc_add128_global(p, a)
#define CLAT_SC_LOCAL(p, a) clat_sc_add128_local(p, a)
#define CLAT_SC_READ(p) ((ulong2)((p)[0], (p)[1]))
#define CLAT_SC_WRITE(p, a) ((p)[0] = (a).x, (p)[1] = (a).y)

#else
/* ---- the accumulator: T itself ---- */
#define CLAT_SC_A CLAT_SC_T
#define CLAT_SC_STORE CLAT_SC_T
#define CLAT_SC_WORDS 1
#define CLAT_SC_READ(p) ((p)[0])
#define CLAT_SC_WRITE(p, a) ((p)[0] = (a))
#if CLAT_SC_OP == 0
#define CLAT_SC_COMB CLAT_SC_SUM
#define CLAT_SC_IDENT CLAT_SC_SUM_IDENT
#define CLAT_SC_IS_IDENT(a) CLAT_SC_SAME_BITS(a, CLAT_SC_SUM_IDENT)
#if CLAT_SC_REAL
#if CLAT_SC_AGG_OK
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_add), _agg)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_add), _noret)(p, a)
#endif
#define CLAT_SC_LOCAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_add), _local)(p, a)
#elif CLAT_SC_WIDE_INT
#define CLAT_SC_GLOBAL(p, a) atom_add(p, a)
#define CLAT_SC_LOCAL(p, a) atom_add(p, a)
#else
#if CLAT_SC_AGG_OK
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_add), _agg)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) atomic_add(p, a)
#endif
#define CLAT_SC_LOCAL(p, a) atomic_add(p, a)
#endif

#elif CLAT_SC_OP == 1
#define CLAT_SC_COMB CLAT_SC_MUL
#define CLAT_SC_IDENT ((CLAT_SC_T)1)
#define CLAT_SC_IS_IDENT(a) ((a) == (CLAT_SC_T)1)
#if CLAT_SC_REAL
#if CLAT_SC_AGG_OK
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_mul), _agg)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) CLAT_SC_TN(clat_atomic_mul)(p, a)
#endif
#define CLAT_SC_LOCAL(p, a) CLAT_CAT(CLAT_SC_TN(clat_atomic_mul), _local)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) clat_sc_mul_global(p, a)
#define CLAT_SC_LOCAL(p, a) clat_sc_mul_local(p, a)
#endif

#elif CLAT_SC_OP == 2 || CLAT_SC_OP == 3
#if CLAT_SC_OP == 2
#define CLAT_SC_MM_A clat_atomic_min_
#define CLAT_SC_MM_S clat_sc_min
#define CLAT_SC_COMB CLAT_SC_MIN
#define CLAT_SC_IDENT CLAT_SC_MIN_IDENT
#else
#define CLAT_SC_MM_A clat_atomic_max_
#define CLAT_SC_MM_S clat_sc_max
#define CLAT_SC_COMB CLAT_SC_MAX
#define CLAT_SC_IDENT CLAT_SC_MAX_IDENT
#endif
#if CLAT_SC_REAL
#define CLAT_SC_IS_IDENT(a) isnan(a)
#if CLAT_SC_AGG_OK
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_CAT(CLAT_SC_MM_A, CLAT_SC_T), _agg)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_MM_A, CLAT_SC_T)(p, a)
#endif
#define CLAT_SC_LOCAL(p, a) CLAT_CAT(CLAT_CAT(CLAT_SC_MM_A, CLAT_SC_T), _local)(p, a)
#else
#define CLAT_SC_IS_IDENT(a) ((a) == CLAT_SC_IDENT)
#if CLAT_SC_AGG_OK
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_CAT(CLAT_SC_MM_A, CLAT_SC_T), _agg)(p, a)
#else
#define CLAT_SC_GLOBAL(p, a) CLAT_CAT(CLAT_SC_MM_S, _global)(p, a)
#endif
#define CLAT_SC_LOCAL(p, a) CLAT_CAT(CLAT_SC_MM_S, _local)(p, a)
#endif
#else
#error "kernels/scatter.cl: CLAT_SC_OP must be 0..3"
#endif
#endif /* CLAT_SC_FIXED */

/* One work-item alone in its work-group: its __local memory is its own. */
#if CLAT_SC_SOLO
#undef CLAT_SC_LOCAL
#define CLAT_SC_LOCAL(p, a) do { const CLAT_SC_A t_ = CLAT_SC_COMB(CLAT_SC_READ(p), a); CLAT_SC_WRITE(p, t_); } while (0)
#define CLAT_SC_LOCAL_COUNT(p, n) (*(p) += (n))
#else
#define CLAT_SC_LOCAL_COUNT(p, n) atomic_add(p, n)
#endif

/* An element's value as an accumulator; CLAT_SC_KEEP(v, slot) is false for values that do not
 * enter it (fixed point: NaN and infinities, which set their slot's flags). */
#if CLAT_SC_FIXED
#define CLAT_SC_TO_A(v) clat_sc_fixed((v), e_grid)
/* Values above the grid's top (the host guessed it from a sample) are left out and flagged in
 * oor[0]: the host runs the call again with the true top. */
#define CLAT_SC_KEEP(v, slot) (clat_sc_exponent(v) <= e_keep || clat_sc_rare(v, (slot), flags, oor))
/* The common case costs one integer compare: the value's own biased exponent against e_keep, the
 * largest one within the grid (NaN and infinities have the largest exponent of all). */
#if CLAT_SC_TYPE == 1
#define clat_sc_exponent(v) ((int)((as_ulong(v) >> 52) & 0x7fful))
#define CLAT_SC_KEEP_LIMIT(e_top) min((e_top), 2046)
#else
#define clat_sc_exponent(v) ((int)((as_uint(v) >> 23) & 0xffu))
#define CLAT_SC_KEEP_LIMIT(e_top) min((e_top) - 896, 254)
#endif
/* NaN and infinities set their slot's flags; a finite value above the grid flags oor[0]. */
CLAT_FN int clat_sc_rare(CLAT_SC_T v, ulong slot, __global uint *flags, __global uint *oor) {
  if (isfinite(v)) oor[0] = 1u;
  else atomic_or(flags + slot, isnan(v) ? 1u : v > 0 ? 2u : 4u);
  return 0;
}
#else
#define CLAT_SC_TO_A(v) (v)
#define CLAT_SC_KEEP(v, slot) 1
#endif

#define CLAT_SC_NONE ((ulong)-1) /* no run yet */
#define CLAT_SC_EMPTY 0xffffffffu /* a free table slot */

/* The arguments of clat_scatter, in order. Element p (first <= p < first + n) of the call holds
 * values val[val_off + p * vstride + d]; its bin is idx[idx_off + p] (or its segment in the
 * nbins + 1 offsets from idx + idx_off); slot (bin, d) is acc[acc_off + bin * astride + d] (in
 * words of CLAT_SC_WORDS). counts[bin] and flags[bin * width + d] as the options say; elements
 * with an index >= nbins are counted into oor[oor_slot]. */
#define CLAT_SC_ARGS                                                                              \
  __global const CLAT_SC_IDX *idx, ulong idx_off, __global const CLAT_SC_IN *val,                  \
      ulong val_off, ulong first, ulong n, uint width, ulong vstride, ulong nbins,                  \
      __global CLAT_SC_STORE *acc, ulong acc_off, ulong astride, __global ulong *counts,            \
      __global uint *flags, int e_grid, int e_top, __global uint *oor, uint oor_slot, uint lslots,    \
      __local CLAT_SC_STORE *lacc,                                                                  \
      __local uint *ltag, __local uint *lcount

#if CLAT_SC_SEGMENTS
/* The segment of position p: offsets[s] <= p < offsets[s + 1] with s < nbins, or nbins when p
 * lies in none. *cursor keeps the last answer: consecutive positions are cheap. */
CLAT_FN ulong clat_sc_segment(__global const CLAT_SC_IDX *offs, ulong nbins, ulong p, ulong *cursor) {
  ulong s = *cursor;
  if (s < nbins && offs[s] <= p && p < offs[s + 1]) return s;
  if (s + 1 < nbins && offs[s + 1] <= p && p < offs[s + 2]) return *cursor = s + 1;
  if (p < offs[0] || p >= offs[nbins]) return nbins;
  ulong lo = 0, hi = nbins; /* offs[lo] <= p < offs[hi] */
  while (hi - lo > 1) {
    const ulong mid = lo + (hi - lo) / 2;
    if (p < offs[mid]) hi = mid;
    else lo = mid;
  }
  return *cursor = lo;
}
#endif

/* Hands a finished run (slot key, value a, elements n) on to where CLAT_SC_MODE says. */
CLAT_FN void clat_sc_global(ulong key, CLAT_SC_A a, ulong nelem, uint width, __global CLAT_SC_STORE *acc, ulong acc_off,
                            ulong astride, __global ulong *counts) {
  const ulong bin = width == 1u ? key : key / width, d = width == 1u ? 0ul : key % width;
  if (!CLAT_SC_IS_IDENT(a)) CLAT_SC_GLOBAL(acc + (acc_off + bin * astride + d) * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
  if (nelem) atom_add(counts + bin, nelem);
#endif
}

CLAT_FN void clat_sc_flush(ulong key, CLAT_SC_A a, uint nelem, uint width, __global CLAT_SC_STORE *acc, ulong acc_off,
                           ulong astride, __global ulong *counts, __local CLAT_SC_STORE *lacc, __local uint *ltag,
                           __local uint *lcount, uint lslots) {
#if CLAT_SC_MODE == 1
  const uint at = ((uint)key << CLAT_SC_SHIFT) + (get_local_id(0) & ((1u << CLAT_SC_SHIFT) - 1u));
  CLAT_SC_LOCAL(lacc + at * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
  if (nelem) CLAT_SC_LOCAL_COUNT(lcount + at, nelem);
#endif
#elif CLAT_SC_MODE == 2
  const uint at = (uint)key & (CLAT_SC_SLOTS - 1u);
  uint tag = ltag[at];
  if (tag == CLAT_SC_EMPTY) {
#if CLAT_SC_SOLO
    ltag[at] = tag = (uint)key;
#else
    tag = atomic_cmpxchg(ltag + at, CLAT_SC_EMPTY, (uint)key);
    if (tag == CLAT_SC_EMPTY) tag = (uint)key;
#endif
  }
  if (tag == (uint)key) {
    CLAT_SC_LOCAL(lacc + at * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
    if (nelem) CLAT_SC_LOCAL_COUNT(lcount + at, nelem);
#endif
  } else {
    clat_sc_global(key, a, nelem, width, acc, acc_off, astride, counts);
  }
#else
  clat_sc_global(key, a, nelem, width, acc, acc_off, astride, counts);
#endif
}

/* One element's value v for slot key: extends the run or hands it on. n counts elements (d == 0). */
#define CLAT_SC_PUT(KEY, V, D)                                                                  \
  {                                                                                            \
    const ulong k_ = (KEY);                                                                    \
    const CLAT_SC_T v_ = (V);                                                                  \
    if (CLAT_SC_KEEP(v_, k_)) {                                                                \
      if (k_ != run_key) {                                                                     \
        if (run_key != CLAT_SC_NONE)                                                           \
          clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, lacc, ltag, lcount, lslots); \
        run_key = k_;                                                                          \
        run = CLAT_SC_TO_A(v_);                                                                \
        run_n = (D) == 0u ? 1u : 0u;                                                           \
      } else {                                                                                 \
        run = CLAT_SC_COMB(run, CLAT_SC_TO_A(v_));                                             \
        run_n += (D) == 0u ? 1u : 0u;                                                          \
      }                                                                                        \
    } else {                                                                                   \
      CLAT_SC_COUNT_SKIPPED(k_, D)                                                             \
    }                                                                                          \
  }
/* A value that did not enter the accumulator (fixed point: NaN, infinities) still counts as an
 * element of its bin (mean, include_self false). */
#if CLAT_SC_FIXED && CLAT_SC_COUNTS
#define CLAT_SC_COUNT_SKIPPED(K, D) \
  if ((D) == 0u) clat_sc_flush(K, CLAT_SC_IDENT, 1u, width, acc, acc_off, astride, counts, lacc, ltag, lcount, lslots);
#else
#define CLAT_SC_COUNT_SKIPPED(K, D)
#endif

/* The bin of position p (or nbins when it has none). */
#if CLAT_SC_SEGMENTS
#define CLAT_SC_BIN(p) clat_sc_segment(ip, nbins, (p), &cursor)
#else
#define CLAT_SC_BIN(p) ((ulong)ip[(p)])
#endif

__kernel void clat_scatter(CLAT_SC_ARGS) {
  const uint lid = get_local_id(0), lsize = get_local_size(0);
#if CLAT_SC_MODE == 1
  const uint nlocal = lslots << CLAT_SC_SHIFT;
#elif CLAT_SC_MODE == 2
  const uint nlocal = CLAT_SC_SLOTS;
#endif
#if CLAT_SC_MODE != 0
  for (uint i = lid; i < nlocal; i += lsize) {
    CLAT_SC_WRITE(lacc + i * CLAT_SC_WORDS, CLAT_SC_IDENT);
    if (CLAT_SC_MODE == 2) ltag[i] = CLAT_SC_EMPTY;
    if (CLAT_SC_COUNTS) lcount[i] = 0u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  const __global CLAT_SC_IDX *ip = idx + idx_off;
  const __global CLAT_SC_IN *vp = val + val_off;
#if CLAT_SC_FIXED
  const int e_keep = CLAT_SC_KEEP_LIMIT(e_top);
#endif
  ulong cursor = 0;
  ulong run_key = CLAT_SC_NONE;
  CLAT_SC_A run = CLAT_SC_IDENT;
  uint run_n = 0u, out_of_range = 0u;

  /* This group's range of the launch's n * width (element, column) pairs, in whole steps: a
   * work-item takes K consecutive pairs a step (K = CLAT_SC_K for one column, where 16-byte loads
   * apply; 1 for rows, so that a warp reads a row's columns side by side). The host keeps a
   * launch below 2^32 pairs: uint positions. */
  const uint K = width == 1u ? CLAT_SC_K : 1u;
  const uint step = lsize * K, total = (uint)(n * width);
  const uint per_group = (uint)(((ulong)total + get_num_groups(0) - 1) / get_num_groups(0) + step - 1) / step * step;
  const uint begin = (uint)min((ulong)get_group_id(0) * per_group, (ulong)total);
  const uint end = (uint)min((ulong)begin + per_group, (ulong)total);
#if !CLAT_SC_SEGMENTS
  const int vectors = width == 1u && CLAT_ALIGNED(ip + first + begin, 4) && CLAT_ALIGNED(vp + first + begin, 4);
#else
  const int vectors = 0;
#endif
  if (vectors) {
#if !CLAT_SC_SEGMENTS
    const __global CLAT_SC_IDX *ipf = ip + first;
    const __global CLAT_SC_IN *vpf = vp + first;
#define CLAT_SC_ONE(B, V)                                  \
  if ((ulong)(B) < nbins) CLAT_SC_PUT((ulong)(B), V, 0u)   \
  else ++out_of_range;
    for (uint e = begin + lid * CLAT_SC_K; e < end; e += step) {
      if (e + CLAT_SC_K <= end) {
        for (uint c = 0; c < CLAT_SC_K; c += 4u) {
          const uint p = e + c;
          const CLAT_CAT(CLAT_SC_IDX, 4) b = *(const __global CLAT_CAT(CLAT_SC_IDX, 4) *)(ipf + p);
          CLAT_SC_T v0, v1, v2, v3;
#if CLAT_SC_TYPE >= 6
          v0 = CLAT_SC_LOAD(vpf, p); v1 = CLAT_SC_LOAD(vpf, p + 1); v2 = CLAT_SC_LOAD(vpf, p + 2); v3 = CLAT_SC_LOAD(vpf, p + 3);
#else
          const CLAT_CAT(CLAT_SC_IN, 4) v = *(const __global CLAT_CAT(CLAT_SC_IN, 4) *)(vpf + p);
          v0 = v.x; v1 = v.y; v2 = v.z; v3 = v.w;
#endif
          CLAT_SC_ONE(b.x, v0) CLAT_SC_ONE(b.y, v1) CLAT_SC_ONE(b.z, v2) CLAT_SC_ONE(b.w, v3)
        }
      } else {
        for (uint q = e; q < end; ++q) {
          const ulong b = ipf[q];
          CLAT_SC_ONE(b, CLAT_SC_LOAD(vpf, q))
        }
      }
    }
#endif
  } else {
    /* Any width: pair j = (element j / width, column j % width). */
    for (uint e = begin + lid * K; e < end; e += step) {
      const uint stop = min(e + K, end);
      for (uint j = e; j < stop; ++j) {
        const uint i = width == 1u ? j : j / width;
        const uint d = j - i * width;
        const ulong p = first + i;
        const ulong b = CLAT_SC_BIN(p);
        if (b < nbins) {
          CLAT_SC_PUT(b * width + d, CLAT_SC_LOAD(vp, p * vstride + d), d)
        } else if (!CLAT_SC_SEGMENTS && d == 0u) {
          ++out_of_range;
        }
      }
    }
  }
  if (run_key != CLAT_SC_NONE) clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, lacc, ltag, lcount, lslots);
  if (out_of_range) atomic_add(oor + oor_slot, out_of_range);

#if CLAT_SC_MODE != 0
  /* The group's __local slots into the global accumulator: one update per slot it touched. */
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint copies = CLAT_SC_MODE == 1 ? 1u << CLAT_SC_SHIFT : 1u;
  for (uint s = lid; s < nlocal / copies; s += lsize) {
    CLAT_SC_A a = CLAT_SC_IDENT;
    uint c = 0u;
    for (uint k = 0; k < copies; ++k) {
      const uint at = s * copies + ((k + s) & (copies - 1u)); /* rotated: neighbours in other banks */
      a = CLAT_SC_COMB(a, CLAT_SC_READ(lacc + at * CLAT_SC_WORDS));
      if (CLAT_SC_COUNTS) c += lcount[at];
    }
#if CLAT_SC_MODE == 2
    const uint tag = ltag[s];
    if (tag == CLAT_SC_EMPTY) continue;
    const ulong key = tag;
#else
    const ulong key = s;
#endif
    clat_sc_global(key, a, c, width, acc, acc_off, astride, counts);
  }
#endif
}

/* The largest biased double exponent of the finite values (the fixed point's scale) into *top:
 * of rows first + j * stride, j < n (stride 1: all of them; else the host's sample). */
__kernel void clat_scatter_top(__global const CLAT_SC_IN *val, ulong val_off, ulong first, ulong n, ulong stride, uint width,
                               ulong vstride, __global uint *top) {
  uint mine = 0u;
  for (ulong j = get_global_id(0); j < n * width; j += get_global_size(0)) {
    const ulong i = j / width;
    const CLAT_SC_T v = CLAT_SC_LOAD(val + val_off, (first + i * stride) * vstride + (j - i * width));
#if CLAT_SC_REAL && defined(CLAT_HAS_DOUBLE)
    if (isfinite(v)) mine = max(mine, (uint)((as_ulong((double)v) >> 52) & 0x7fful));
#endif
  }
  if (mine) atomic_max(top, mine);
}

/* The accumulator at its identity: slots [0, n). */
__kernel void clat_scatter_fill(__global CLAT_SC_STORE *acc, ulong n) {
  for (ulong s = get_global_id(0); s < n; s += get_global_size(0)) CLAT_SC_WRITE(acc + s * CLAT_SC_WORDS, CLAT_SC_IDENT);
}

/* out = (out op acc) or acc, per slot of a bin that received elements (counts), mean divided. */
#if CLAT_SC_FIXED
CLAT_FN CLAT_SC_T clat_sc_from_fixed(ulong2 a, uint flag, int e_grid) {
  if ((flag & 1u) || (flag & 6u) == 6u) return (CLAT_SC_T)NAN;
  if (flag & 2u) return (CLAT_SC_T)INFINITY;
  if (flag & 4u) return -(CLAT_SC_T)INFINITY;
  const int neg = (long)a.y < 0;
  if (neg) {
    const ulong nlo = ~a.x + 1ul;
    a.y = ~a.y + (nlo == 0ul ? 1ul : 0ul);
    a.x = nlo;
  }
  const double m = ldexp((double)a.y, 64 + e_grid) + ldexp((double)a.x, e_grid);
  return (CLAT_SC_T)(neg ? -m : m);
}
#endif

__kernel void clat_scatter_finish(__global CLAT_SC_T *out, ulong out_off, ulong ostride, uint width, ulong nbins,
                                  __global const CLAT_SC_STORE *acc, __global const ulong *counts,
                                  __global const uint *flags, int e_grid, uint include_self, uint mean) {
  for (ulong j = get_global_id(0); j < nbins * width; j += get_global_size(0)) {
    const ulong bin = j / width, d = j - bin * width;
    ulong c = 1;
#if CLAT_SC_COUNTS
    c = counts[bin];
    if (c == 0) continue; /* no values: the bin keeps its value */
#endif
#if CLAT_SC_FIXED
    CLAT_SC_T r = clat_sc_from_fixed(CLAT_SC_READ(acc + j * CLAT_SC_WORDS), flags[j], e_grid);
#else
    CLAT_SC_T r = acc[j];
#endif
    __global CLAT_SC_T *o = out + out_off + bin * ostride + d;
    if (include_self) {
#if CLAT_SC_FIXED
      r = CLAT_SC_SUM(*o, r);
#else
      r = CLAT_SC_COMB(*o, r);
#endif
      c += 1;
    }
    if (mean) {
#if CLAT_SC_REAL
      r = r / (CLAT_SC_T)c;
#elif CLAT_SC_TYPE == 3 || CLAT_SC_TYPE == 5
      r = (CLAT_SC_T)((ulong)r / c);
#else
      /* floor division, as PyTorch's integer mean */
      const long q = (long)r / (long)c;
      r = (CLAT_SC_T)(q - (((long)r % (long)c != 0 && (long)r < 0) ? 1 : 0));
#endif
    }
    *o = r;
  }
}

/* argmin/argmax: the lowest position whose value equals out[bin] after the scatter. */
__kernel void clat_scatter_arg(__global const CLAT_SC_IDX *idx, ulong idx_off, __global const CLAT_SC_IN *val, ulong val_off,
                               ulong first, ulong n, ulong nbins, __global const CLAT_SC_T *out, ulong out_off,
                               __global ulong *arg, ulong arg_off) {
  for (ulong j = get_global_id(0); j < n; j += get_global_size(0)) {
    const ulong p = first + j;
    const ulong b = idx[idx_off + p];
    if (b >= nbins) continue;
    const CLAT_SC_T v = CLAT_SC_LOAD(val + val_off, p);
#if CLAT_SC_REAL
    if (isnan(v)) continue;
#endif
    if (!CLAT_SC_SAME_BITS(v, out[out_off + b])) continue;
    volatile __global ulong *a = arg + arg_off + b;
#ifdef CLAT_HAS_INT64_MINMAX
    atom_min(a, p);
#else
    ulong old = *a;
    while (p < old) {
      const ulong seen = atom_cmpxchg(a, old, p);
      if (seen == old) break;
      old = seen;
    }
#endif
  }
}

/* ulong positions [0, n) set to value (arg's "no element"). */
__kernel void clat_scatter_fill_ulong(__global ulong *p, ulong off, ulong n, ulong value) {
  for (ulong j = get_global_id(0); j < n; j += get_global_size(0)) p[off + j] = value;
}

/* Indices >= nbins among positions [first, first + n), counted into *oor (OutOfRange::refuse). */
__kernel void clat_scatter_check_indices(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong first, ulong n, ulong nbins,
                                         __global uint *oor) {
  uint mine = 0u;
  for (ulong j = get_global_id(0); j < n; j += get_global_size(0))
    if ((ulong)idx[idx_off + first + j] >= nbins) ++mine;
  if (mine) atomic_add(oor, mine);
}

/* Segment offsets that decrease, or pass count: *bad = 1. */
__kernel void clat_scatter_check_offsets(__global const CLAT_SC_IDX *offs, ulong off, ulong nentries, ulong count,
                                         __global uint *bad) {
  for (ulong k = get_global_id(0); k < nentries; k += get_global_size(0)) {
    const ulong o = offs[off + k];
    if (o > count || (k + 1 < nentries && o > (ulong)offs[off + k + 1])) *bad = 1u;
  }
}

/* nsample indices at evenly spaced positions, for the host's choice of strategy. */
__kernel void clat_scatter_sample(__global const CLAT_SC_IDX *idx, ulong idx_off, ulong n, __global ulong *sample, uint nsample) {
  const uint j = get_global_id(0);
  if (j < nsample) sample[j] = idx[idx_off + (ulong)j * n / nsample];
}

/* reduce_by_key: the runs of equal consecutive keys. Work-group b takes block b of
 * get_local_size(0) * CLAT_SC_RBK_K keys, work-item i its CLAT_SC_RBK_K consecutive keys from
 * b * block + i * CLAT_SC_RBK_K; a head is a key unlike the one before it (or the first). */
#define CLAT_SC_RBK_K 8
CLAT_FN uint clat_rbk_heads_mine(__global const CLAT_SC_IDX *k, ulong n, ulong from) {
  uint heads = 0u;
  for (ulong i = from; i < min(from + CLAT_SC_RBK_K, n); ++i) heads += (i == 0 || k[i] != k[i - 1]) ? 1u : 0u;
  return heads;
}
CLAT_FN ulong clat_rbk_first(void) {
  return ((ulong)get_group_id(0) * get_local_size(0) + get_local_id(0)) * CLAT_SC_RBK_K;
}

/* block_counts[b]: the heads in block b. */
__kernel void clat_rbk_count(__global const CLAT_SC_IDX *keys, ulong off, ulong n, __global uint *block_counts, __local uint *scratch) {
  uint total;
  clat_group_exclusive_scan(clat_rbk_heads_mine(keys + off, n, clat_rbk_first()), scratch, &total);
  if (get_local_id(0) == 0) block_counts[get_group_id(0)] = total;
}

/* Run r (numbered in key order, block_offsets[b] runs before block b) starts at seg[r], with key
 * unique[unique_off + r]. */
__kernel void clat_rbk_heads(__global const CLAT_SC_IDX *keys, ulong off, ulong n, __global const ulong *block_offsets,
                             __global ulong *seg, __global CLAT_SC_IDX *unique, ulong unique_off, __local uint *scratch) {
  const __global CLAT_SC_IDX *k = keys + off;
  const ulong from = clat_rbk_first();
  uint total;
  ulong at = block_offsets[get_group_id(0)] + clat_group_exclusive_scan(clat_rbk_heads_mine(k, n, from), scratch, &total);
  for (ulong i = from; i < min(from + CLAT_SC_RBK_K, n); ++i)
    if (i == 0 || k[i] != k[i - 1]) {
      seg[at] = i;
      unique[unique_off + at] = k[i];
      ++at;
    }
}

#endif /* CLATOMICS_KERNELS_SCATTER_CL */
