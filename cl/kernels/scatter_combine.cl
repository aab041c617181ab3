/* kernels/scatter_combine.cl — scatter's op on plain values: the combination, its identity and
 * the atomics on the element type.
 * Part of kernels/scatter.cl, which includes it after the build options' defaults.
 */
#ifndef CLATOMICS_KERNELS_SCATTER_COMBINE_CL
#define CLATOMICS_KERNELS_SCATTER_COMBINE_CL

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

#endif /* CLATOMICS_KERNELS_SCATTER_COMBINE_CL */
