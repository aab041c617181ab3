/* kernels/scatter_types.cl — the element types of the scatter kernels, given by name.
 *
 * Build options (defaults in brackets):
 *   CLAT_SC_IN       the stored values' type: float, double, int, uint, long, ulong, or ushort
 *                    for 16-bit floats [float]
 *   CLAT_SC_T        the type values are accumulated and written in: CLAT_SC_IN, or float for
 *                    16-bit floats [float]
 *   CLAT_SC_FLOAT16  the 16-bit float format of ushort values: half or bf16 [none]
 *   CLAT_SC_IDX      indices, segment offsets and keys: uint or ulong [uint]
 * Defines CLAT_SC_U (the unsigned integer of T's size), CLAT_SC_REAL, CLAT_SC_DOUBLE,
 * CLAT_SC_WIDE_INT, CLAT_SC_UNSIGNED, CLAT_SC_STORED16 (16-bit floats), CLAT_SC_LOWEST and CLAT_SC_HIGHEST (integers),
 * CLAT_SC_LOAD(p, i) (element i of p as T) and CLAT_SC_TN(name) (name_T).
 */
#ifndef CLATOMICS_KERNELS_SCATTER_TYPES_CL
#define CLATOMICS_KERNELS_SCATTER_TYPES_CL

#ifndef CLAT_SC_IN
#define CLAT_SC_IN float
#endif
#ifndef CLAT_SC_T
#define CLAT_SC_T CLAT_SC_IN
#endif
#ifndef CLAT_SC_IDX
#define CLAT_SC_IDX uint
#endif

/* What each accumulated type is, looked up by its name (the preprocessor compares numbers, never
 * type names): CLAT_SC_OF(table) is table's entry for CLAT_SC_T. */
#define CLAT_SC_OF(table) CLAT_CAT(table, CLAT_SC_T)
#define CLAT_SC_U_float uint
#define CLAT_SC_U_double ulong
#define CLAT_SC_U_int uint
#define CLAT_SC_U_uint uint
#define CLAT_SC_U_long ulong
#define CLAT_SC_U_ulong ulong
#define CLAT_SC_IS_REAL_float 1
#define CLAT_SC_IS_REAL_double 1
#define CLAT_SC_IS_REAL_int 0
#define CLAT_SC_IS_REAL_uint 0
#define CLAT_SC_IS_REAL_long 0
#define CLAT_SC_IS_REAL_ulong 0
#define CLAT_SC_IS_DOUBLE_float 0
#define CLAT_SC_IS_DOUBLE_double 1
#define CLAT_SC_IS_DOUBLE_int 0
#define CLAT_SC_IS_DOUBLE_uint 0
#define CLAT_SC_IS_DOUBLE_long 0
#define CLAT_SC_IS_DOUBLE_ulong 0
#define CLAT_SC_IS_WIDE_INT_float 0
#define CLAT_SC_IS_WIDE_INT_double 0
#define CLAT_SC_IS_WIDE_INT_int 0
#define CLAT_SC_IS_WIDE_INT_uint 0
#define CLAT_SC_IS_WIDE_INT_long 1
#define CLAT_SC_IS_WIDE_INT_ulong 1
#define CLAT_SC_IS_UNSIGNED_float 0
#define CLAT_SC_IS_UNSIGNED_double 0
#define CLAT_SC_IS_UNSIGNED_int 0
#define CLAT_SC_IS_UNSIGNED_uint 1
#define CLAT_SC_IS_UNSIGNED_long 0
#define CLAT_SC_IS_UNSIGNED_ulong 1
#define CLAT_SC_LOWEST_int INT_MIN
#define CLAT_SC_LOWEST_uint 0u
#define CLAT_SC_LOWEST_long LONG_MIN
#define CLAT_SC_LOWEST_ulong 0ul
#define CLAT_SC_HIGHEST_int INT_MAX
#define CLAT_SC_HIGHEST_uint UINT_MAX
#define CLAT_SC_HIGHEST_long LONG_MAX
#define CLAT_SC_HIGHEST_ulong ULONG_MAX

#define CLAT_SC_U CLAT_SC_OF(CLAT_SC_U_)
#define CLAT_SC_REAL CLAT_SC_OF(CLAT_SC_IS_REAL_)
#define CLAT_SC_DOUBLE CLAT_SC_OF(CLAT_SC_IS_DOUBLE_)
#define CLAT_SC_WIDE_INT CLAT_SC_OF(CLAT_SC_IS_WIDE_INT_)
#define CLAT_SC_UNSIGNED CLAT_SC_OF(CLAT_SC_IS_UNSIGNED_)
#if !CLAT_SC_REAL
#define CLAT_SC_LOWEST CLAT_SC_OF(CLAT_SC_LOWEST_)
#define CLAT_SC_HIGHEST CLAT_SC_OF(CLAT_SC_HIGHEST_)
#endif
#if CLAT_SC_DOUBLE && !defined(CLAT_HAS_DOUBLE)
#error "kernels/scatter_types.cl: double needs cl_khr_fp64 and cl_khr_int64_base_atomics"
#endif

/* 16-bit floats are stored as their bits and accumulated as float. */
#ifdef CLAT_SC_FLOAT16
#define CLAT_SC_STORED16 1
#define CLAT_SC_LOAD_half(p, i) vload_half((i), (const __global half *)(p))
#define CLAT_SC_LOAD_bf16(p, i) as_float((uint)(p)[i] << 16)
#define CLAT_SC_LOAD(p, i) CLAT_CAT(CLAT_SC_LOAD_, CLAT_SC_FLOAT16)(p, i)
#else
#define CLAT_SC_STORED16 0
#define CLAT_SC_LOAD(p, i) ((p)[i])
#endif
#define CLAT_SC_TN(name) CLAT_CAT(CLAT_CAT(name, _), CLAT_SC_T) /* name_T */

#endif /* CLATOMICS_KERNELS_SCATTER_TYPES_CL */
