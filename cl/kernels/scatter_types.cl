/* kernels/scatter_types.cl — the element types of scatter.cl and scatter_checks.cl.
 *
 * Build options (defaults in brackets):
 *   CLAT_SC_TYPE  values: 0 float, 1 double, 2 int, 3 uint, 4 long, 5 ulong, 6 half, 7 bfloat16
 *                 (6 and 7 are accumulated and written as float) [0]
 *   CLAT_SC_I64   indices, segment offsets and keys are ulong, else uint [0]
 * Defines CLAT_SC_IDX (indices), CLAT_SC_IN (stored values), CLAT_SC_T (output), CLAT_SC_U (the
 * unsigned integer of T's size), CLAT_SC_REAL, CLAT_SC_WIDE_INT, CLAT_SC_LOAD(p, i) (element i of
 * p as T) and CLAT_SC_TN(name) (name_T).
 */
#ifndef CLATOMICS_KERNELS_SCATTER_TYPES_CL
#define CLATOMICS_KERNELS_SCATTER_TYPES_CL

#ifndef CLAT_SC_TYPE
#define CLAT_SC_TYPE 0
#endif
#ifndef CLAT_SC_I64
#define CLAT_SC_I64 0
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
#error "kernels/scatter_types.cl: double needs cl_khr_fp64 and cl_khr_int64_base_atomics"
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
#error "kernels/scatter_types.cl: CLAT_SC_TYPE must be 0..7"
#endif
#ifndef CLAT_SC_REAL
#define CLAT_SC_REAL 0
#endif
#ifndef CLAT_SC_LOAD
#define CLAT_SC_LOAD(p, i) ((p)[i])
#endif
#define CLAT_SC_WIDE_INT (CLAT_SC_TYPE == 4 || CLAT_SC_TYPE == 5)
#define CLAT_SC_TN(name) CLAT_CAT(CLAT_CAT(name, _), CLAT_SC_T) /* name_T */

#endif /* CLATOMICS_KERNELS_SCATTER_TYPES_CL */
