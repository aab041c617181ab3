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

/* The add a global no-return add stands on, by its path code (config.cl; CLAT_CAT, real.cl):
 * PTX red, or the plain returning add. */
#define CLAT_NORET_ADD_ON_2(T) clat_ptx_red_add_##T /* CLAT_PATH_PTX */
#define CLAT_NORET_ADD_ON_7(T) clat_atomic_add_##T  /* CLAT_PATH_PLAIN */
#define CLAT_NORET_ADD_ON(PATH, T) CLAT_CAT(CLAT_NORET_ADD_ON_, PATH)(T)

CLAT_DEFINE_NORET_OPS(float, __global, , CLAT_NORET_ADD_ON(CLAT_PATH_NORET_ADD_FLOAT_GLOBAL, float))
CLAT_DEFINE_NORET_OPS(float, __local, _local, clat_atomic_add_float_local)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_NORET_OPS(double, __global, , CLAT_NORET_ADD_ON(CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL, double))
CLAT_DEFINE_NORET_OPS(double, __local, _local, clat_atomic_add_double_local)
#endif

#endif /* CLATOMICS_NORET_CL */
