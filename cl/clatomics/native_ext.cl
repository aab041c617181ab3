/* clatomics/native_ext.cl — cl_ext_float_atomics add (OpenCL C 3.0 feature macros; the host
 * compiles with -cl-std=CL3.0 where the device reports the extension, e.g. PoCL 5, Intel).
 * Relaxed order, like every clatomics op: atomic for the location, no fence for others.
 */
#ifndef CLATOMICS_NATIVE_EXT_CL
#define CLATOMICS_NATIVE_EXT_CL

/* The memory scope of each address space (SFX): the device for __global, the work-group for
 * __local. */
#define CLAT_EXT_SCOPE_ memory_scope_device
#define CLAT_EXT_SCOPE__local memory_scope_work_group

/* clat_ext_add_<T><SFX>: atomic_fetch_add_explicit on the location as an atomic_<T>. */
#define CLAT_DEFINE_EXT_ADD(T, AS, SFX)                                                        \
  CLAT_FN T clat_ext_add_##T##SFX(volatile AS T *p, T v) {                                     \
    return atomic_fetch_add_explicit((volatile AS atomic_##T *)p, v, memory_order_relaxed,     \
                                     CLAT_EXT_SCOPE_##SFX);                                    \
  }

#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_EXT
CLAT_DEFINE_EXT_ADD(float, __global, )
#endif
#if CLAT_PATH_ADD_FLOAT_LOCAL == CLAT_PATH_EXT
CLAT_DEFINE_EXT_ADD(float, __local, _local)
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_EXT
CLAT_DEFINE_EXT_ADD(double, __global, )
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_LOCAL == CLAT_PATH_EXT
CLAT_DEFINE_EXT_ADD(double, __local, _local)
#endif

#endif /* CLATOMICS_NATIVE_EXT_CL */
