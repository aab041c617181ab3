#include "clatomics/atomics.cl"
/* kernels/scatter.cl — scatter-reduce: acc[slot(i, d)] op= values[i, d], where element i goes to
 * bin indices[i] (or, for segments, the s with offsets[s] <= i < offsets[s + 1]) and
 * slot = bin * astride + d, d < width.
 *
 * Build options (defaults in brackets), besides the types (scatter_types.cl):
 *   CLAT_SC_OP      CLAT_SC_OP_SUM, CLAT_SC_OP_PROD, CLAT_SC_OP_MIN or CLAT_SC_OP_MAX [SUM]
 *   CLAT_SC_FIXED   1: sums in 128-bit fixed point (the deterministic mode; floating types) [0]
 *   CLAT_SC_MODE    where a finished run goes: CLAT_SC_MODE_GLOBAL the global accumulator,
 *                   CLAT_SC_MODE_PRIVATE private copies of every slot in __local memory,
 *                   CLAT_SC_MODE_CACHE a tagged __local table of the slots a work-group meets
 *                   first (the rest go global) [GLOBAL]
 *   CLAT_SC_SHIFT   private: 1 << CLAT_SC_SHIFT copies per slot (copy = local id % copies) [0]
 *   CLAT_SC_SLOTS   cache: slots of the table, a power of two [1024]
 *   CLAT_SC_SOLO    1: work-groups of one work-item (CPUs): __local updates need no atomics [0]
 *   CLAT_SC_COUNTS  1: count the elements of every bin into counts (mean, include_self false) [0]
 *   CLAT_SC_SEGMENTS 1: bins from CSR offsets instead of indices [0]
 *   CLAT_SC_AGG     1: global updates through the warp-aggregated ops where the warp path
 *                   exists (NVIDIA; hot indices) [0]
 *   CLAT_SC_RUNS    1: indices in runs (sorted, or one bin): where the warp path exists, a full
 *                   warp's runs that continue from lane to lane are combined before they reach
 *                   global memory [0]
 *   CLAT_SC_VEC_RED 1: the device has PTX's vector red.global.add.v4.f32 (sm_90 and later) [0]
 *   CLAT_SC_K       consecutive elements a work-item takes per step (one column, 16-byte aligned
 *                   ranges), a multiple of 4 [16]
 *   CLAT_SC_NAN_PROP 1: floating-point min/max propagate NaN (torch's amax/amin, np.maximum.at);
 *                   0: NaN is missing data (np.fmax.at, order.cl) [1]
 *
 * Runs: every work-item keeps the slot it is filling and its partial value in registers and only
 * hands a run on (to __local or global memory) when the slot changes. A work-group takes one
 * contiguous range of elements, in steps in which each work-item takes CLAT_SC_K consecutive
 * elements (rows and unaligned ranges: 4 pairs a work-group apart): sorted indices or a single
 * bin make long runs, and neighbouring work-items rarely share a run's slot.
 *
 * The accumulator starts at the identity: -0.0 for float sums (x + -0.0 == x for every x, -0.0
 * included), 1 for products, the largest or lowest integer; float min/max: -inf for max and +inf
 * for min when NaN propagates, NaN when it is missing data (order.cl). A group hands on only
 * slots that left the identity.
 *
 * Propagating float min/max: every NaN value becomes one canonical NaN whose bits order beyond
 * the infinities as the integer atomics see them: for max the positive quiet NaN (0x7fc00000,
 * above +inf's bits as a signed integer, and below every negative value's as an unsigned one),
 * for min the negative NaN of all ones (above every negative value's bits as an unsigned
 * integer, -1 as a signed one: below every positive value's). A value with its sign bit clear
 * then takes a signed integer max (min), one with it set an unsigned integer min (max), and
 * the accumulator holds a number or that NaN, never another NaN: so the NaN wins every update,
 * -0 orders below +0, and no CAS loop is needed. The host never runs this in place on out (whose
 * own NaN may have any bits): clat_scatter_finish joins out's value and writes a NaN result as
 * the positive quiet NaN.
 *
 * Fixed point (CLAT_SC_FIXED): a value v = m * 2^e becomes the 128-bit integer v / 2^e_grid
 * (rounded to nearest even), e_grid chosen by the host from the largest exponent
 * (clat_scatter_top in scatter_checks.cl) and the element count so that no sum overflows; 128-bit
 * adds with carries are exact and their order does not matter. NaN and infinities set flags
 * (1 NaN, 2 +inf, 4 -inf) instead.
 */
#include "kernels/algo_common.cl"
#include "kernels/scatter_types.cl"

#ifndef CLATOMICS_KERNELS_SCATTER_CL
#define CLATOMICS_KERNELS_SCATTER_CL

/* The values CLAT_SC_OP and CLAT_SC_MODE name (numbers, so that the preprocessor compares them). */
#define CLAT_SC_OP_SUM 0
#define CLAT_SC_OP_PROD 1
#define CLAT_SC_OP_MIN 2
#define CLAT_SC_OP_MAX 3
#define CLAT_SC_MODE_GLOBAL 0
#define CLAT_SC_MODE_PRIVATE 1
#define CLAT_SC_MODE_CACHE 2

#ifndef CLAT_SC_OP
#define CLAT_SC_OP CLAT_SC_OP_SUM
#endif
#ifndef CLAT_SC_FIXED
#define CLAT_SC_FIXED 0
#endif
#ifndef CLAT_SC_MODE
#define CLAT_SC_MODE CLAT_SC_MODE_GLOBAL
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
#ifndef CLAT_SC_NAN_PROP
#define CLAT_SC_NAN_PROP 1
#endif
/* Floating-point min/max whose NaN propagates: the ordered-bits path below. */
#if CLAT_SC_REAL && (CLAT_SC_OP == CLAT_SC_OP_MIN || CLAT_SC_OP == CLAT_SC_OP_MAX) && CLAT_SC_NAN_PROP && !CLAT_SC_FIXED
#define CLAT_SC_PROP 1
#else
#define CLAT_SC_PROP 0
#endif


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
#if CLAT_SC_AGG && CLAT_PATH_AGG == CLAT_PATH_WARP && (CLAT_SC_REAL || !CLAT_SC_WIDE_INT) && !CLAT_SC_PROP
#define CLAT_SC_AGG_OK 1
#else
#define CLAT_SC_AGG_OK 0
#endif

#if CLAT_SC_FIXED
/* ---- the accumulator: 128-bit two's complement fixed point, ulong2 (x low, y high) ---- */
#if !CLAT_SC_REAL || CLAT_SC_OP != CLAT_SC_OP_SUM || !defined(CLAT_HAS_DOUBLE)
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
#if CLAT_SC_DOUBLE
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
/* 128-bit add into memory with a carry: exact in any order. The grid puts the largest values'
 * bits in the high word, so most values have no low word and cost one atomic, without a result. */
#define CLAT_SC_DEFINE_ADD128(NAME, AS)                                             \
  CLAT_FN void NAME(volatile AS ulong *p, ulong2 a) {                              \
    ulong carry = 0ul;                                                             \
    if (a.x) {                                                                     \
      const ulong old = atom_add(p, a.x);                                          \
      carry = (old + a.x < old) ? 1ul : 0ul;                                       \
    }                                                                              \
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
#if CLAT_SC_OP == CLAT_SC_OP_SUM
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

#elif CLAT_SC_OP == CLAT_SC_OP_PROD
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

#elif CLAT_SC_OP == CLAT_SC_OP_MIN || CLAT_SC_OP == CLAT_SC_OP_MAX
#if CLAT_SC_OP == CLAT_SC_OP_MIN
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
#if CLAT_SC_PROP
/* Canonical NaN and identity (see the top of the file). */
#if CLAT_SC_DOUBLE
#define CLAT_SC_QNAN as_double(0x7ff8000000000000ul)
#define CLAT_SC_S long
#if CLAT_SC_OP == CLAT_SC_OP_MAX
#define CLAT_SC_PNAN as_double(0x7ff8000000000000ul)
#else
#define CLAT_SC_PNAN as_double(0xfffffffffffffffful)
#endif
#else
#define CLAT_SC_QNAN as_float(0x7fc00000u)
#define CLAT_SC_S int
#if CLAT_SC_OP == CLAT_SC_OP_MAX
#define CLAT_SC_PNAN as_float(0x7fc00000u)
#else
#define CLAT_SC_PNAN as_float(0xffffffffu)
#endif
#endif
#undef CLAT_SC_COMB
#undef CLAT_SC_IDENT
#if CLAT_SC_OP == CLAT_SC_OP_MAX
#define CLAT_SC_IDENT (-(CLAT_SC_T)INFINITY)
#else
#define CLAT_SC_IDENT ((CLAT_SC_T)INFINITY)
#endif
#define CLAT_SC_IS_IDENT(a) CLAT_SC_SAME_BITS(a, CLAT_SC_IDENT)
CLAT_FN CLAT_SC_T clat_sc_canon(CLAT_SC_T v) { return isnan(v) ? CLAT_SC_PNAN : v; }
/* Any NaN wins; otherwise order.cl's min/max (-0 below +0). */
CLAT_FN CLAT_SC_T clat_sc_pcomb(CLAT_SC_T a, CLAT_SC_T b) {
#if CLAT_SC_OP == CLAT_SC_OP_MAX
  return (isnan(a) || isnan(b)) ? CLAT_SC_PNAN : CLAT_SC_MAX(a, b);
#else
  return (isnan(a) || isnan(b)) ? CLAT_SC_PNAN : CLAT_SC_MIN(a, b);
#endif
}
#define CLAT_SC_COMB clat_sc_pcomb
/* The update of a slot holding a number or the canonical NaN with a canonical v. max: sign bit
 * set -> unsigned min, clear -> signed max; min: set -> unsigned max, clear -> signed min. */
#if CLAT_SC_OP == CLAT_SC_OP_MAX
#define CLAT_SC_P_NEG(AS, p, v) CLAT_SC_PATOM(min, AS, CLAT_SC_U, p, v)
#define CLAT_SC_P_POS(AS, p, v) CLAT_SC_PATOM(max, AS, CLAT_SC_S, p, v)
#else
#define CLAT_SC_P_NEG(AS, p, v) CLAT_SC_PATOM(max, AS, CLAT_SC_U, p, v)
#define CLAT_SC_P_POS(AS, p, v) CLAT_SC_PATOM(min, AS, CLAT_SC_S, p, v)
#endif
#if !CLAT_SC_DOUBLE
#define CLAT_SC_PATOM(OP, AS, I, p, v) atomic_##OP((volatile AS I *)(p), CLAT_CAT(as_, I)(v))
#elif defined(CLAT_HAS_INT64_MINMAX)
#define CLAT_SC_PATOM(OP, AS, I, p, v) atom_##OP((volatile AS I *)(p), CLAT_CAT(as_, I)(v))
#endif
#ifdef CLAT_SC_PATOM
#define CLAT_SC_DEFINE_PROP(NAME, AS)                                  \
  CLAT_FN void NAME(volatile AS CLAT_SC_T *p, CLAT_SC_T v) {          \
    if (signbit(v)) CLAT_SC_P_NEG(AS, p, v);                          \
    else CLAT_SC_P_POS(AS, p, v);                                     \
  }
#else
/* double without 64-bit integer min/max: a CAS loop on the bits (the slot's NaN is canonical,
 * so a NaN v leaves it as it is). */
#define CLAT_SC_DEFINE_PROP(NAME, AS)                                                      \
  CLAT_FN void NAME(volatile AS CLAT_SC_T *p, CLAT_SC_T v) {                              \
    ulong old = *(volatile AS ulong *)p;                                                  \
    for (;;) {                                                                            \
      const ulong want = as_ulong(clat_sc_pcomb(as_double(old), v));                      \
      if (want == old) return;                                                            \
      const ulong seen = atom_cmpxchg((volatile AS ulong *)p, old, want);                 \
      if (seen == old) return;                                                            \
      old = seen;                                                                         \
    }                                                                                     \
  }
#endif
CLAT_SC_DEFINE_PROP(clat_sc_prop_global, __global)
CLAT_SC_DEFINE_PROP(clat_sc_prop_local, __local)
#define CLAT_SC_GLOBAL(p, a) clat_sc_prop_global(p, a)
#define CLAT_SC_LOCAL(p, a) clat_sc_prop_local(p, a)
#elif CLAT_SC_REAL
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
#error "kernels/scatter.cl: CLAT_SC_OP must name an op (CLAT_SC_OP_SUM, _PROD, _MIN, _MAX)"
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
#if CLAT_SC_DOUBLE
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
#if CLAT_SC_PROP
#define CLAT_SC_TO_A(v) clat_sc_canon(v)
#else
#define CLAT_SC_TO_A(v) (v)
#endif
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

#ifndef CLAT_SC_RUNS
#define CLAT_SC_RUNS 0
#endif
#if CLAT_SC_RUNS && CLAT_PATH_AGG == CLAT_PATH_WARP && CLAT_SC_MODE == CLAT_SC_MODE_GLOBAL
#define CLAT_SC_WARP_RUNS 1
/* The accumulator as 32-bit words, for shuffles. */
#if CLAT_SC_FIXED
#define CLAT_SC_AW uint4
#elif CLAT_SC_DOUBLE || CLAT_SC_WIDE_INT
#define CLAT_SC_AW uint2
#else
#define CLAT_SC_AW uint
#endif
CLAT_FN uint clat_sc_up(uint v, uint d) { return clat_warp_shfl_up_uint(0xffffffffu, v, d); }
CLAT_FN CLAT_SC_A clat_sc_up_a(CLAT_SC_A a, uint d) {
  CLAT_SC_AW w = CLAT_CAT(as_, CLAT_SC_AW)(a);
#if CLAT_SC_FIXED
  w = (uint4)(clat_sc_up(w.x, d), clat_sc_up(w.y, d), clat_sc_up(w.z, d), clat_sc_up(w.w, d));
#elif CLAT_SC_DOUBLE || CLAT_SC_WIDE_INT
  w = (uint2)(clat_sc_up(w.x, d), clat_sc_up(w.y, d));
#else
  w = clat_sc_up(w, d);
#endif
  return CLAT_CAT(as_, CLAT_SC_A)(w);
}
/* Sorted indices hand runs on at the same moment on every lane, mostly to the slot of the lane
 * before: a segmented scan over lanes with equal neighbouring keys leaves each segment's sum on
 * its last lane, the only one that updates memory. Only a full warp takes part (the shuffles name
 * every lane); a warp whose lanes all hold different keys costs two shuffles and a vote. Returns
 * whether this lane still has to hand its (combined) run on. */
CLAT_FN int clat_sc_warp_runs(ulong key, CLAT_SC_A *a, uint *nelem) {
  if (clat_warp_active() != 0xffffffffu) return 1;
  const uint lane = clat_warp_lane();
  const ulong prev = ((ulong)clat_sc_up((uint)(key >> 32), 1u) << 32) | clat_sc_up((uint)key, 1u);
  const uint heads = clat_warp_ballot(0xffffffffu, lane == 0u || prev != key);
  if (heads == 0xffffffffu) return 1;
  const uint head = 31u - clz(heads & ((2u << lane) - 1u)); /* lane 31: 2u << 31 wraps to 0 */
  for (uint d = 1u; d < 32u; d <<= 1) {
    const CLAT_SC_A y = clat_sc_up_a(*a, d);
    const uint yn = clat_sc_up(*nelem, d);
    if (lane >= head + d) {
      *a = CLAT_SC_COMB(y, *a);
      *nelem += yn;
    }
  }
  return lane == 31u || ((heads >> (lane + 1u)) & 1u);
}
#else
#define CLAT_SC_WARP_RUNS 0
#endif

CLAT_FN void clat_sc_flush(ulong key, CLAT_SC_A a, uint nelem, uint width, __global CLAT_SC_STORE *acc, ulong acc_off,
                           ulong astride, __global ulong *counts, __local CLAT_SC_STORE *lacc, __local uint *ltag,
                           __local uint *lcount, uint lslots) {
#if CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE
  const uint at = ((uint)key << CLAT_SC_SHIFT) + (get_local_id(0) & ((1u << CLAT_SC_SHIFT) - 1u));
  CLAT_SC_LOCAL(lacc + at * CLAT_SC_WORDS, a);
#if CLAT_SC_COUNTS
  if (nelem) CLAT_SC_LOCAL_COUNT(lcount + at, nelem);
#endif
#elif CLAT_SC_MODE == CLAT_SC_MODE_CACHE
  const uint at = (uint)key & (CLAT_SC_SLOTS - 1u);
  /* A tag goes from empty to a key once; a stale empty only costs the compare-exchange, which
   * returns the real tag (CLAT_FIRST_READ, cas.cl). */
  uint tag = CLAT_FIRST_READ_uint(__local, ltag + at);
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
#if CLAT_SC_WARP_RUNS
  if (!clat_sc_warp_runs(key, &a, &nelem)) return;
#endif
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

/* Rows of float sums on NVIDIA, straight to global memory: four columns of a row a work-item,
 * one 16-byte load and one vector atomic (red.global.add.v4.f32, sm_90) for them: a quarter of
 * the atomic instructions of one column each. Subnormals flush to zero, as in the scalar red. */
#ifndef CLAT_SC_VEC_RED
#define CLAT_SC_VEC_RED 0
#endif
#if CLAT_SC_VEC_RED && CLAT_SC_REAL && !CLAT_SC_DOUBLE && !CLAT_SC_STORED16 && CLAT_SC_OP == CLAT_SC_OP_SUM && !CLAT_SC_FIXED && CLAT_SC_MODE == CLAT_SC_MODE_GLOBAL && !CLAT_SC_RUNS && \
    !CLAT_SC_SEGMENTS && CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
#define CLAT_SC_ROWS4 1
CLAT_FN void clat_sc_red4(__global float *p, float4 v) {
  asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
#else
#define CLAT_SC_ROWS4 0
#endif

__kernel void clat_scatter(CLAT_SC_ARGS) {
  const uint lid = get_local_id(0), lsize = get_local_size(0);
#if CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE
  const uint nlocal = lslots << CLAT_SC_SHIFT;
#elif CLAT_SC_MODE == CLAT_SC_MODE_CACHE
  const uint nlocal = CLAT_SC_SLOTS;
#endif
#if CLAT_SC_MODE != CLAT_SC_MODE_GLOBAL
  for (uint i = lid; i < nlocal; i += lsize) {
    CLAT_SC_WRITE(lacc + i * CLAT_SC_WORDS, CLAT_SC_IDENT);
    if (CLAT_SC_MODE == CLAT_SC_MODE_CACHE) ltag[i] = CLAT_SC_EMPTY;
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

  /* This group's range of the launch's n * width (element, column) pairs, in whole steps. The
   * host keeps a launch below 2^32 pairs: uint positions. Each step issues all of a work-item's
   * loads before any of its atomics (which would hold later loads back): enough bytes in flight
   * to keep memory busy.
   *   vectors (one column of contiguous values, 16-byte aligned): a work-item takes CLAT_SC_K consecutive elements
   *     a step, in 16-byte loads;
   *   otherwise: 4 pairs a step, lsize apart, so that a warp reads neighbouring pairs (a row's
   *     columns side by side). */
  const uint step = lsize * CLAT_SC_K, total = (uint)(n * width);
  const uint per_group = (uint)(((ulong)total + get_num_groups(0) - 1) / get_num_groups(0) + step - 1) / step * step;
  const uint begin = (uint)min((ulong)get_group_id(0) * per_group, (ulong)total);
  const uint end = (uint)min((ulong)begin + per_group, (ulong)total);
#if !CLAT_SC_SEGMENTS
  const int vectors = width == 1u && vstride == 1u && CLAT_ALIGNED(ip + first + begin, 4) && CLAT_ALIGNED(vp + first + begin, 4);
#else
  const int vectors = 0;
#endif
#if CLAT_SC_ROWS4
  const int rows4 = width % 4u == 0u && vstride % 4u == 0u && astride % 4u == 0u && CLAT_ALIGNED(vp + first * vstride, 4) &&
                    CLAT_ALIGNED(acc + acc_off, 4);
#else
  const int rows4 = 0;
#endif
  if (rows4) {
#if CLAT_SC_ROWS4
    /* Quad j = (element j / (width / 4), columns 4 * (j % (width / 4)) ..); begin and end are
     * multiples of 4 (width is). Each step issues its loads before its atomics. */
    const uint w4 = width / 4u;
    for (uint j = begin / 4u + lid; j < end / 4u; j += lsize * 4u) {
      ulong b[4];
      uint q[4];
      float4 v[4];
      for (uint c = 0; c < 4u; ++c) {
        const uint jc = j + c * lsize;
        b[c] = nbins; /* none */
        if (jc >= end / 4u) continue;
        const uint i = jc / w4;
        q[c] = jc - i * w4;
        b[c] = ip[first + i];
        if (b[c] < nbins) v[c] = *(const __global float4 *)(vp + (first + i) * vstride + 4u * q[c]);
        else if (q[c] == 0u) ++out_of_range;
      }
      for (uint c = 0; c < 4u; ++c) {
        if (b[c] >= nbins) continue;
        clat_sc_red4(acc + acc_off + b[c] * astride + 4u * q[c], v[c]);
#if CLAT_SC_COUNTS
        if (q[c] == 0u) atom_add(counts + b[c], 1ul);
#endif
      }
    }
#endif
  } else if (vectors) {
#if !CLAT_SC_SEGMENTS
    const __global CLAT_SC_IDX *ipf = ip + first;
    const __global CLAT_SC_IN *vpf = vp + first;
#define CLAT_SC_ONE(B, V)                                  \
  if ((ulong)(B) < nbins) CLAT_SC_PUT((ulong)(B), V, 0u)   \
  else ++out_of_range;
    for (uint e = begin + lid * CLAT_SC_K; e < end; e += step) {
      if (e + CLAT_SC_K <= end) {
        /* CPUs (one work-item a group) keep each load next to its use: measured faster there. */
#if CLAT_SC_SOLO
#define CLAT_SC_LOADS 1
#else
#define CLAT_SC_LOADS (CLAT_SC_K / 4)
#endif
        for (uint g = 0; g < CLAT_SC_K / 4; g += CLAT_SC_LOADS) {
          CLAT_CAT(CLAT_SC_IDX, 4) b[CLAT_SC_LOADS];
          CLAT_SC_T v[4 * CLAT_SC_LOADS];
          for (uint c = 0; c < CLAT_SC_LOADS; ++c) {
            const uint p = e + 4u * (g + c);
            b[c] = *(const __global CLAT_CAT(CLAT_SC_IDX, 4) *)(ipf + p);
#if CLAT_SC_STORED16
            for (uint k = 0; k < 4u; ++k) v[4u * c + k] = CLAT_SC_LOAD(vpf, p + k);
#else
            const CLAT_CAT(CLAT_SC_IN, 4) w = *(const __global CLAT_CAT(CLAT_SC_IN, 4) *)(vpf + p);
            v[4u * c] = w.x, v[4u * c + 1u] = w.y, v[4u * c + 2u] = w.z, v[4u * c + 3u] = w.w;
#endif
          }
          for (uint c = 0; c < CLAT_SC_LOADS; ++c) {
            CLAT_SC_ONE(b[c].x, v[4u * c]) CLAT_SC_ONE(b[c].y, v[4u * c + 1u])
            CLAT_SC_ONE(b[c].z, v[4u * c + 2u]) CLAT_SC_ONE(b[c].w, v[4u * c + 3u])
          }
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
    /* Pair j = (element j / width, column j % width). */
    for (uint e = begin + lid; e < end; e += lsize * 4u) {
      ulong b[4];
      uint d[4];
      CLAT_SC_T v[4];
      for (uint c = 0; c < 4u; ++c) {
        const uint j = e + c * lsize;
        b[c] = nbins; /* none */
        if (j >= end) continue;
        const uint i = width == 1u ? j : j / width;
        const ulong p = first + i;
        d[c] = j - i * width;
        b[c] = CLAT_SC_BIN(p);
        if (b[c] < nbins) v[c] = CLAT_SC_LOAD(vp, p * vstride + d[c]);
        else if (!CLAT_SC_SEGMENTS && d[c] == 0u && j < end) ++out_of_range;
      }
      for (uint c = 0; c < 4u; ++c)
        if (b[c] < nbins) CLAT_SC_PUT(b[c] * width + d[c], v[c], d[c])
    }
  }
  if (run_key != CLAT_SC_NONE) clat_sc_flush(run_key, run, run_n, width, acc, acc_off, astride, counts, lacc, ltag, lcount, lslots);
  if (out_of_range) atomic_add(oor + oor_slot, out_of_range);

#if CLAT_SC_MODE != CLAT_SC_MODE_GLOBAL
  /* The group's __local slots into the global accumulator: one update per slot it touched. */
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint copies = CLAT_SC_MODE == CLAT_SC_MODE_PRIVATE ? 1u << CLAT_SC_SHIFT : 1u;
  for (uint s = lid; s < nlocal / copies; s += lsize) {
    CLAT_SC_A a = CLAT_SC_IDENT;
    uint c = 0u;
    for (uint k = 0; k < copies; ++k) {
      const uint at = s * copies + ((k + s) & (copies - 1u)); /* rotated: neighbours in other banks */
      a = CLAT_SC_COMB(a, CLAT_SC_READ(lacc + at * CLAT_SC_WORDS));
      if (CLAT_SC_COUNTS) c += lcount[at];
    }
#if CLAT_SC_MODE == CLAT_SC_MODE_CACHE
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

/* The accumulator at its identity: slots [0, n). */
__kernel void clat_scatter_fill(__global CLAT_SC_STORE *acc, ulong n) {
  for (ulong s = get_global_id(0); s < n; s += get_global_size(0)) CLAT_SC_WRITE(acc + s * CLAT_SC_WORDS, CLAT_SC_IDENT);
}

#if CLAT_SC_FIXED
/* The 128-bit sum a (times 2^e_grid) rounded once to T: its top 64 bits with a sticky bit for
 * the rest, converted with round to nearest even, then scaled by a power of two. */
CLAT_FN CLAT_SC_T clat_sc_round_fixed(ulong2 a, int e_grid) {
  const int neg = (long)a.y < 0;
  const ulong mask = 0ul - (ulong)neg;
  const ulong lo = (a.x ^ mask) - mask, hi = (a.y ^ mask) + (mask & (a.x == 0ul ? 1ul : 0ul));
  ulong top = lo;
  int shift = 0;
  if (hi) {
    const int lz = (int)clz(hi);
    top = lz ? (hi << lz) | (lo >> (64 - lz)) : hi;
    top |= (lz ? lo << lz : lo) != 0ul ? 1ul : 0ul; /* sticky: the bits below the top 64 */
    shift = 64 - lz;
  }
  const CLAT_SC_T m = ldexp((CLAT_SC_T)top, e_grid + shift);
  return neg ? -m : m;
}
#endif

#if CLAT_SC_REAL
/* A bin's mean, correctly rounded on every device, so that deterministic means have the same bits
 * everywhere: OpenCL lets float division be 2.5 ulp off (NVIDIA's and Intel's CPU runtime's are
 * unless asked), while double division is correctly rounded on every device. A float quotient
 * through double is rounded twice, harmlessly while count < 2^28: sum is a multiple of half an
 * ulp of the quotient's float midpoints, so the exact quotient lies at least 2^-28 of such an ulp
 * from any midpoint it is not on, farther than double's rounding moves it. Without double, the
 * host asks for correctly rounded float division where the device offers it. */
CLAT_FN CLAT_SC_T clat_sc_mean(CLAT_SC_T sum, ulong count) {
#if !CLAT_SC_DOUBLE && defined(CLAT_HAS_DOUBLE)
  return (CLAT_SC_T)((double)sum / (double)count);
#else
  return sum / (CLAT_SC_T)count;
#endif
}
#endif

/* out = (out op acc) or acc, per slot of a bin that received elements (counts), mean divided.
 * Fixed point: out's own value joins the exact sum when it lies within the grid (e_top), so
 * that the result is rounded once; the flags' NaN and infinities decide where they are set.
 * A bin no element reached keeps its value; a CSR segment with none (segments, include_self
 * false) gets the empty reduction, as torch_scatter's segment_csr writes it: 1 for prod, else 0. */
__kernel void clat_scatter_finish(__global CLAT_SC_T *out, ulong out_off, ulong ostride, uint width, ulong nbins,
                                  __global const CLAT_SC_STORE *acc, __global const ulong *counts,
                                  __global const uint *flags, int e_grid, int e_top, uint include_self, uint mean) {
  for (ulong j = get_global_id(0); j < nbins * width; j += get_global_size(0)) {
    const ulong bin = j / width, d = j - bin * width;
    __global CLAT_SC_T *o = out + out_off + bin * ostride + d;
    ulong c = 1;
#if CLAT_SC_COUNTS
    c = counts[bin];
    if (c == 0) {
      if (CLAT_SC_SEGMENTS && !include_self) *o = (CLAT_SC_T)(CLAT_SC_OP == CLAT_SC_OP_PROD ? 1 : 0);
      continue;
    }
#endif
#if CLAT_SC_FIXED
    const uint flag = flags[j];
    const ulong2 of_values = CLAT_SC_READ(acc + j * CLAT_SC_WORDS);
    ulong2 sum = of_values;
    CLAT_SC_T self = (CLAT_SC_T)0, r;
    int self_apart = 0; /* out's value is added after rounding */
    if (include_self) {
      self = *o;
      if (clat_sc_exponent(self) <= CLAT_SC_KEEP_LIMIT(e_top)) sum = clat_sc_add128(sum, clat_sc_fixed(self, e_grid));
      else self_apart = 1;
      c += 1;
    }
    if ((flag & 1u) || (flag & 6u) == 6u) r = (CLAT_SC_T)NAN;
    else if (flag & 2u) r = (CLAT_SC_T)INFINITY;
    else if (flag & 4u) r = -(CLAT_SC_T)INFINITY;
    else if (include_self && self != (CLAT_SC_T)0 && !(of_values.x | of_values.y))
      r = self, self_apart = 0; /* no value, or values adding to exactly 0: out's own value as it is, not on the grid */
    else r = clat_sc_round_fixed(sum, e_grid);
    if (self_apart) r = self + r;
#else
    CLAT_SC_T r = acc[j];
    if (include_self) {
#if CLAT_SC_PROP
      if (CLAT_SC_IS_IDENT(r)) continue; /* out op identity: out's value, its NaN's bits included */
#endif
      r = CLAT_SC_COMB(*o, r);
      c += 1;
    }
#if CLAT_SC_PROP
    if (isnan(r)) r = CLAT_SC_QNAN; /* min's canonical NaN is negative: every NaN written is the positive quiet one */
#endif
#endif
    if (mean) {
#if CLAT_SC_REAL
      r = clat_sc_mean(r, c);
#elif CLAT_SC_UNSIGNED
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

/* argmin/argmax: the lowest position whose value equals out[bin] after the scatter (the same
 * bits; a NaN out[bin], where NaN propagates: the lowest position whose value is a NaN). */
__kernel void clat_scatter_arg(__global const CLAT_SC_IDX *idx, ulong idx_off, __global const CLAT_SC_IN *val, ulong val_off,
                               ulong first, ulong n, ulong nbins, __global const CLAT_SC_T *out, ulong out_off,
                               __global ulong *arg, ulong arg_off) {
  for (ulong j = get_global_id(0); j < n; j += get_global_size(0)) {
    const ulong p = first + j;
    const ulong b = idx[idx_off + p];
    if (b >= nbins) continue;
    const CLAT_SC_T v = CLAT_SC_LOAD(val + val_off, p), o = out[out_off + b];
#if CLAT_SC_REAL && CLAT_SC_NAN_PROP
    if (isnan(o) ? !isnan(v) : !CLAT_SC_SAME_BITS(v, o)) continue;
#elif CLAT_SC_REAL
    if (isnan(v) || !CLAT_SC_SAME_BITS(v, o)) continue;
#else
    if (!CLAT_SC_SAME_BITS(v, o)) continue;
#endif
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

#endif /* CLATOMICS_KERNELS_SCATTER_CL */
