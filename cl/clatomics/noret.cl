/* clatomics/noret.cl — no-return forms, for callers that discard the old value.
 *
 *   void clat_atomic_add_T_noret(volatile __global T *p, T v)     *p += v
 *   void clat_atomic_sub_T_noret(p, v), _min_T_noret, _max_T_noret
 * with T float or double, and the same names ending in _noret_local for __local pointers.
 * On NVIDIA the global add/sub is PTX `red.global.add.f32/.f64` (no value comes back, so the
 * memory system need not return one: faster under load); everywhere else, and for min/max, the
 * plain op with its result discarded (compilers may then emit their own no-return atomic).
 */
#ifndef CLATOMICS_NORET_CL
#define CLATOMICS_NORET_CL

#define CLAT_DEFINE_NORET_MINMAX(T, AS, SFX)                                                   \
  CLAT_FN void clat_atomic_min_##T##_noret##SFX(volatile AS T *p, T v) {                       \
    (void)clat_atomic_min_##T##SFX(p, v);                                                      \
  }                                                                                            \
  CLAT_FN void clat_atomic_max_##T##_noret##SFX(volatile AS T *p, T v) {                       \
    (void)clat_atomic_max_##T##SFX(p, v);                                                      \
  }                                                                                            \
  CLAT_FN void clat_atomic_sub_##T##_noret##SFX(volatile AS T *p, T v) {                       \
    clat_atomic_add_##T##_noret##SFX(p, -v);                                                   \
  }

CLAT_FN void clat_atomic_add_float_noret(volatile __global float *p, float v) {
#if CLAT_PATH_NORET_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
  clat_ptx_red_add_float(p, v);
#else
  (void)clat_atomic_add_float(p, v);
#endif
}
CLAT_FN void clat_atomic_add_float_noret_local(volatile __local float *p, float v) {
  (void)clat_atomic_add_float_local(p, v);
}
CLAT_DEFINE_NORET_MINMAX(float, __global, )
CLAT_DEFINE_NORET_MINMAX(float, __local, _local)

#ifdef CLAT_HAS_DOUBLE
CLAT_FN void clat_atomic_add_double_noret(volatile __global double *p, double v) {
#if CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL == CLAT_PATH_PTX
  clat_ptx_red_add_double(p, v);
#else
  (void)clat_atomic_add_double(p, v);
#endif
}
CLAT_FN void clat_atomic_add_double_noret_local(volatile __local double *p, double v) {
  (void)clat_atomic_add_double_local(p, v);
}
CLAT_DEFINE_NORET_MINMAX(double, __global, )
CLAT_DEFINE_NORET_MINMAX(double, __local, _local)
#endif

#endif /* CLATOMICS_NORET_CL */
