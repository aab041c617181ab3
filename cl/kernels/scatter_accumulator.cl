/* kernels/scatter_accumulator.cl — scatter's accumulator of the element type itself: the update of
 * a slot in global and __local memory for each op.
 * Part of kernels/scatter.cl, which includes it after the build options' defaults.
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
 */
#ifndef CLATOMICS_KERNELS_SCATTER_ACCUMULATOR_CL
#define CLATOMICS_KERNELS_SCATTER_ACCUMULATOR_CL

#if !CLAT_SC_FIXED
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
#endif

#endif /* CLATOMICS_KERNELS_SCATTER_ACCUMULATOR_CL */
