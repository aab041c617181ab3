/* The ops of the add and min/max slots under full contention: add/sub (minmax = 0) or min/max
 * (minmax = 1) by every work-item on two cells (global: cells 0 and 1; local: two per group). */
#define FAM(T)                                                                                    \
  kernel void fam_##T##_global(global T *cells, global T *olds, global const T *v, uint minmax) { \
    size_t i = get_global_id(0);                                                                  \
    if (minmax) {                                                                                 \
      clat_atomic_min_##T(cells, v[i]);                                                           \
      clat_atomic_max_##T(cells + 1, v[i]);                                                       \
    } else {                                                                                      \
      olds[i] = clat_atomic_add_##T(cells, (T)1);                                                 \
      clat_atomic_sub_##T(cells + 1, (T)1);                                                       \
    }                                                                                             \
  }                                                                                               \
  kernel void fam_##T##_local(global T *cells, global T *olds, global const T *v, uint minmax) {  \
    local T l[2];                                                                                 \
    size_t i = get_global_id(0), lid = get_local_id(0), g = get_group_id(0);                      \
    if (lid < 2) l[lid] = cells[2 * g + lid];                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
    if (minmax) {                                                                                 \
      clat_atomic_min_##T##_local(l, v[i]);                                                       \
      clat_atomic_max_##T##_local(l + 1, v[i]);                                                   \
    } else {                                                                                      \
      olds[i] = clat_atomic_add_##T##_local(l, (T)1);                                             \
      clat_atomic_sub_##T##_local(l + 1, (T)1);                                                   \
    }                                                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
    if (lid < 2) cells[2 * g + lid] = l[lid];                                                     \
  }
FAM(float)
#ifdef CLAT_HAS_DOUBLE
FAM(double)
#endif

/* Subnormal adds by one work-item: cells[k] += v[k] through the public add, global and local. */
#define SUBNORMAL(T)                                                                             \
  kernel void subnormal_##T##_global(global T *cells, global const T *v) {                       \
    for (int k = 0; k < 3; ++k) clat_atomic_add_##T(cells + k, v[k]);                            \
  }                                                                                              \
  kernel void subnormal_##T##_local(global T *cells, global const T *v) {                        \
    local T l[3];                                                                                \
    for (int k = 0; k < 3; ++k) l[k] = cells[k];                                                 \
    for (int k = 0; k < 3; ++k) clat_atomic_add_##T##_local(l + k, v[k]);                        \
    for (int k = 0; k < 3; ++k) cells[k] = l[k];                                                 \
  }
SUBNORMAL(float)
#ifdef CLAT_HAS_DOUBLE
SUBNORMAL(double)
#endif
