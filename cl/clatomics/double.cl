/* clatomics/double.cl — the double atomics of real.cl, on __global and __local memory.
 * Needs fp64 and cl_khr_int64_base_atomics (one 64-bit CAS); defined only where
 * CLAT_HAS_DOUBLE is. The bit-pattern min/max also needs cl_khr_int64_extended_atomics. */
#ifndef CLATOMICS_DOUBLE_CL
#define CLATOMICS_DOUBLE_CL
#ifdef CLAT_HAS_DOUBLE

CLAT_DEFINE_CAS_OPS(double, ulong, __global, , atom_cmpxchg)
CLAT_DEFINE_CAS_OPS(double, ulong, __local, _local, atom_cmpxchg)
#ifdef CLAT_HAS_INT64_MINMAX
CLAT_DEFINE_BITS_MINMAX(double, ulong, long, __global, , atom_min, atom_max)
CLAT_DEFINE_BITS_MINMAX(double, ulong, long, __local, _local, atom_min, atom_max)
#endif
CLAT_DEFINE_PUBLIC_OPS(double, ulong, __global, , atom_cmpxchg, atom_xchg,
                       CLAT_PATH_ADD_DOUBLE_GLOBAL, CLAT_PATH_MINMAX_DOUBLE_GLOBAL)
CLAT_DEFINE_PUBLIC_OPS(double, ulong, __local, _local, atom_cmpxchg, atom_xchg,
                       CLAT_PATH_ADD_DOUBLE_LOCAL, CLAT_PATH_MINMAX_DOUBLE_LOCAL)

#endif /* CLAT_HAS_DOUBLE */
#endif /* CLATOMICS_DOUBLE_CL */
