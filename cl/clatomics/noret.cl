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

/* The no-return ops of T in address space AS; ADD(p, v) is the add they stand on (sub is an add
 * of -v, as on every path). */
#define CLAT_DEFINE_NORET_OPS(T, AS, SFX, ADD)                                                 \
  CLAT_FN void clat_atomic_add_##T##_noret##SFX(volatile AS T *p, T v) { (void)ADD(p, v); }   \
  CLAT_FN void clat_atomic_sub_##T##_noret##SFX(volatile AS T *p, T v) { (void)ADD(p, -v); }  \
  CLAT_FN void clat_atomic_min_##T##_noret##SFX(volatile AS T *p, T v) {                       \
    (void)clat_atomic_min_##T##SFX(p, v);                                                      \
  }                                                                                            \
  CLAT_FN void clat_atomic_max_##T##_noret##SFX(volatile AS T *p, T v) {                       \
    (void)clat_atomic_max_##T##SFX(p, v);                                                      \
  }

#if CLAT_PATH_NORET_ADD_FLOAT_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_NORET_OPS(float, __global, , clat_ptx_red_add_float)
#else
CLAT_DEFINE_NORET_OPS(float, __global, , clat_atomic_add_float)
#endif
CLAT_DEFINE_NORET_OPS(float, __local, _local, clat_atomic_add_float_local)

#ifdef CLAT_HAS_DOUBLE
#if CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL == CLAT_PATH_PTX
CLAT_DEFINE_NORET_OPS(double, __global, , clat_ptx_red_add_double)
#else
CLAT_DEFINE_NORET_OPS(double, __global, , clat_atomic_add_double)
#endif
CLAT_DEFINE_NORET_OPS(double, __local, _local, clat_atomic_add_double_local)
#endif

#endif /* CLATOMICS_NORET_CL */
