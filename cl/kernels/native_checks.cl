/* kernels/native_checks.cl — tiny kernels the host runs before trusting a native path.
 * clat_probe_paths reports the path config.cl chose for each slot (as the compiler saw the
 * macros); check_<slot> exercises that slot with results the host knows exactly. */
#include "clatomics/atomics.cl"

#ifdef CLAT_HAS_DOUBLE
#define CLAT_DOUBLE_PATH(x) (x)
#else
#define CLAT_DOUBLE_PATH(x) (-1)
#endif

kernel void clat_probe_paths(global int *out) {
  out[0] = CLAT_PATH_ADD_FLOAT_GLOBAL;
  out[1] = CLAT_PATH_ADD_FLOAT_LOCAL;
  out[2] = CLAT_DOUBLE_PATH(CLAT_PATH_ADD_DOUBLE_GLOBAL);
  out[3] = CLAT_DOUBLE_PATH(CLAT_PATH_ADD_DOUBLE_LOCAL);
  out[4] = CLAT_PATH_MINMAX_FLOAT_GLOBAL;
  out[5] = CLAT_PATH_MINMAX_FLOAT_LOCAL;
  out[6] = CLAT_DOUBLE_PATH(CLAT_PATH_MINMAX_DOUBLE_GLOBAL);
  out[7] = CLAT_DOUBLE_PATH(CLAT_PATH_MINMAX_DOUBLE_LOCAL);
}

/* add: every work-item adds 1 to one cell (per group for local); olds must be 0..n-1. */
/* minmax: six cells get min/max of vals (and of +-0) from NaN and zero starting values. */
#define CLAT_DEFINE_CHECKS(T)                                                                 \
  kernel void check_add_##T##_global(global T *cell, global T *olds) {                        \
    olds[get_global_id(0)] = clat_atomic_add_##T(cell, (T)1);                                 \
  }                                                                                           \
  kernel void check_add_##T##_local(global T *cell, global T *olds) {                         \
    local T sum;                                                                              \
    if (get_local_id(0) == 0) sum = (T)0;                                                     \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[get_global_id(0)] = clat_atomic_add_##T##_local(&sum, (T)1);                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (get_local_id(0) == 0) cell[get_group_id(0)] = sum;                                    \
  }                                                                                           \
  kernel void check_minmax_##T##_global(global T *cells, global const T *vals, uint nvals) {  \
    size_t i = get_global_id(0);                                                              \
    T v = vals[i % nvals], z = (i & 1) ? (T)-0.0 : (T)0.0;                                    \
    clat_atomic_min_##T(cells + 0, v);                                                        \
    clat_atomic_max_##T(cells + 1, v);                                                        \
    clat_atomic_min_##T(cells + 2, v);                                                        \
    clat_atomic_max_##T(cells + 3, v);                                                        \
    clat_atomic_min_##T(cells + 4, z);                                                        \
    clat_atomic_max_##T(cells + 5, z);                                                        \
  }                                                                                           \
  kernel void check_minmax_##T##_local(global T *cells, global const T *vals, uint nvals) {   \
    local T l[6];                                                                             \
    size_t i = get_local_id(0);                                                               \
    if (i < 6) l[i] = cells[i];                                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    T v = vals[i % nvals], z = (i & 1) ? (T)-0.0 : (T)0.0;                                    \
    clat_atomic_min_##T##_local(l + 0, v);                                                    \
    clat_atomic_max_##T##_local(l + 1, v);                                                    \
    clat_atomic_min_##T##_local(l + 2, v);                                                    \
    clat_atomic_max_##T##_local(l + 3, v);                                                    \
    clat_atomic_min_##T##_local(l + 4, z);                                                    \
    clat_atomic_max_##T##_local(l + 5, z);                                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (i < 6) cells[i] = l[i];                                                               \
  }

CLAT_DEFINE_CHECKS(float)
#ifdef CLAT_HAS_DOUBLE
CLAT_DEFINE_CHECKS(double)
#endif
