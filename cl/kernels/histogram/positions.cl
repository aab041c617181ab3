/* kernels/histogram/positions.cl — the type of even-bin positions (values, lo, hi, scale, edges)
 * and their 16-byte vector.
 *
 * Build options (defaults in brackets):
 *   CLAT_POS  float or double [float]
 */
#ifndef CLATOMICS_KERNELS_HISTOGRAM_POSITIONS_CL
#define CLATOMICS_KERNELS_HISTOGRAM_POSITIONS_CL

#ifndef CLAT_POS
#define CLAT_POS float
#endif
/* CLAT_HIST_DOUBLE: 1 when CLAT_POS is double (the preprocessor compares numbers, not type names). */
#define CLAT_POS_IS_DOUBLE_float 0
#define CLAT_POS_IS_DOUBLE_double 1
#define CLAT_HIST_DOUBLE CLAT_CAT(CLAT_POS_IS_DOUBLE_, CLAT_POS)

/* CLAT_POS_VEC: one 16-byte load of CLAT_POS_PER_VEC positions. */
#if CLAT_HIST_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CLAT_POS_VEC double2
#define CLAT_POS_PER_VEC 2
#else
#define CLAT_POS_VEC float4
#define CLAT_POS_PER_VEC 4
#endif

#endif /* CLATOMICS_KERNELS_HISTOGRAM_POSITIONS_CL */
