/* clatomics/native_ext.cl — cl_ext_float_atomics add (OpenCL C 3.0 feature macros; the host
 * compiles with -cl-std=CL3.0 where the device reports the extension, e.g. PoCL 5, Intel).
 * Relaxed order, like every clatomics op: atomic for the location, no fence for others.
 */
#ifndef CLATOMICS_NATIVE_EXT_CL
#define CLATOMICS_NATIVE_EXT_CL

#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_EXT
CLAT_FN float clat_ext_add_float(volatile __global float *p, float v) {
  return atomic_fetch_add_explicit((volatile __global atomic_float *)p, v, memory_order_relaxed,
                                   memory_scope_device);
}
#endif
#if CLAT_PATH_ADD_FLOAT_LOCAL == CLAT_PATH_EXT
CLAT_FN float clat_ext_add_float_local(volatile __local float *p, float v) {
  return atomic_fetch_add_explicit((volatile __local atomic_float *)p, v, memory_order_relaxed,
                                   memory_scope_work_group);
}
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_EXT
CLAT_FN double clat_ext_add_double(volatile __global double *p, double v) {
  return atomic_fetch_add_explicit((volatile __global atomic_double *)p, v, memory_order_relaxed,
                                   memory_scope_device);
}
#endif
#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_LOCAL == CLAT_PATH_EXT
CLAT_FN double clat_ext_add_double_local(volatile __local double *p, double v) {
  return atomic_fetch_add_explicit((volatile __local atomic_double *)p, v, memory_order_relaxed,
                                   memory_scope_work_group);
}
#endif

#endif /* CLATOMICS_NATIVE_EXT_CL */
