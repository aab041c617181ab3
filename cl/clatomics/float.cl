/* clatomics/float.cl — the float atomics of real.cl, on __global and __local memory. */
#ifndef CLATOMICS_FLOAT_CL
#define CLATOMICS_FLOAT_CL

CLAT_DEFINE_CAS_OPS(float, uint, __global, , atomic_cmpxchg)
CLAT_DEFINE_CAS_OPS(float, uint, __local, _local, atomic_cmpxchg)
CLAT_DEFINE_BITS_MINMAX(float, uint, int, __global, , atomic_min, atomic_max)
CLAT_DEFINE_BITS_MINMAX(float, uint, int, __local, _local, atomic_min, atomic_max)
CLAT_DEFINE_PUBLIC_OPS(float, uint, __global, , atomic_cmpxchg, atomic_xchg,
                       CLAT_PATH_ADD_FLOAT_GLOBAL, CLAT_PATH_MINMAX_FLOAT_GLOBAL)
CLAT_DEFINE_PUBLIC_OPS(float, uint, __local, _local, atomic_cmpxchg, atomic_xchg,
                       CLAT_PATH_ADD_FLOAT_LOCAL, CLAT_PATH_MINMAX_FLOAT_LOCAL)

#endif /* CLATOMICS_FLOAT_CL */
