/* clatomics/native_ptx.cl — NVIDIA inline PTX atomics (host sets CLAT_NVIDIA_PTX).
 *
 * Measured through NVIDIA's OpenCL: atom.global.add.f32/.f64 and atom.shared.add.f32 build and
 * run. The shared-memory form takes the 32-bit shared-window address; a generic-address atom on
 * a __local pointer faults the context, so it is never used. PTX has no float min/max atom.
 */
#ifndef CLATOMICS_NATIVE_PTX_CL
#define CLATOMICS_NATIVE_PTX_CL

#if CLAT_PATH_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
CLAT_FN float clat_ptx_add_float(volatile __global float *p, float v) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}
CLAT_FN void clat_ptx_red_add_float(volatile __global float *p, float v) {
  asm volatile("red.global.add.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}
#endif

#if CLAT_PATH_ADD_FLOAT_LOCAL == CLAT_PATH_PTX
CLAT_FN float clat_ptx_add_float_local(volatile __local float *p, float v) {
  float old;
  asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(old) : "r"((uint)(size_t)p), "f"(v) : "memory");
  return old;
}
#endif

#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_GLOBAL == CLAT_PATH_PTX
CLAT_FN double clat_ptx_add_double(volatile __global double *p, double v) {
  double old;
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(old) : "l"(p), "d"(v) : "memory");
  return old;
}
CLAT_FN void clat_ptx_red_add_double(volatile __global double *p, double v) {
  asm volatile("red.global.add.f64 [%0], %1;" : : "l"(p), "d"(v) : "memory");
}
#endif

#if defined(CLAT_HAS_DOUBLE) && CLAT_PATH_ADD_DOUBLE_LOCAL == CLAT_PATH_PTX
CLAT_FN double clat_ptx_add_double_local(volatile __local double *p, double v) {
  double old;
  asm volatile("atom.shared.add.f64 %0, [%1], %2;" : "=d"(old) : "r"((uint)(size_t)p), "d"(v) : "memory");
  return old;
}
#endif

#endif /* CLATOMICS_NATIVE_PTX_CL */
