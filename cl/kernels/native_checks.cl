/* kernels/native_checks.cl — tiny kernels the host runs before trusting a native path.
 * clat_probe_paths reports the path config.cl chose for each slot (as the compiler saw the
 * macros); check_<slot> exercises that slot with results the host knows exactly. The slots are
 * those of kernels/native_paths.def. */
#include "clatomics/atomics.cl"

/* The path config.cl chose for each slot of the table, as the compiler saw the macros, in the
 * table's order; -1 for a double slot where double is not available. */
#ifdef CLAT_HAS_DOUBLE
#define CLAT_PROBE_double(code) (code)
#else
#define CLAT_PROBE_double(code) (-1)
#endif
#define CLAT_PROBE_float(code) (code)
#define CLAT_PROBE_half(code) (code)
#define CLAT_PROBE_bf16(code) (code)
#define CLAT_PROBE_all(code) (code)
/* The largest __local allocation a work-group launches with: the host tries sizes down from what
 * the device reports (NVIDIA's launch refused its last 4 bytes on an H200, measured). */
kernel void clat_probe_local(local uint *room, global uint *out) {
  room[get_local_id(0)] = 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[0] = room[0];
}

kernel void clat_probe_paths(global int *out) {
  int k = 0;
#define CLAT_NATIVE_SLOT(slot, MACRO, check, type, space, FALLBACK, FIRST, SECOND) out[k++] = CLAT_PROBE_##type(CLAT_PATH_##MACRO);
#include "kernels/native_paths.def"
#undef CLAT_NATIVE_SLOT
}

/* add: every work-item adds 1 to one cell (per group for local); olds must be 0..n-1.
 * subnormal_add: work-item 0 adds vals[k] to cells[k], k < 3 (the host picks subnormal operands
 * and results: a path that flushes them to zero gives other bits than the host's IEEE adds).
 * minmax: six cells get min/max of vals (and of +-0) from NaN and zero starting values. */
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
  kernel void check_subnormal_add_##T##_global(global T *cells, global const T *vals) {       \
    if (get_global_id(0) == 0)                                                                \
      for (int k = 0; k < 3; ++k) clat_atomic_add_##T(cells + k, vals[k]);                    \
  }                                                                                           \
  kernel void check_subnormal_add_##T##_local(global T *cells, global const T *vals) {        \
    local T l[3];                                                                             \
    if (get_local_id(0) == 0) {                                                               \
      for (int k = 0; k < 3; ++k) l[k] = cells[k];                                            \
      for (int k = 0; k < 3; ++k) clat_atomic_add_##T##_local(l + k, vals[k]);                \
      for (int k = 0; k < 3; ++k) cells[k] = l[k];                                            \
    }                                                                                         \
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

/* ---- the aggregated ops (slot agg: warp or sub-group aggregation) ----
 * 128 work-items; work-item i goes to cell clat_check_cell(i % 128) of 54 (the host mirrors it):
 * items 0-31 all on cell 0 (the whole warp / sub-group combines), 32-63 each on its own cell
 * (spread: nobody combines), 64-95 on four cells by lane % 4 (match), 96-127 in pairs, the first
 * alone. Each item adds 1 (olds per cell: exactly 0..m-1), multiplies by 2 (olds: exactly
 * 2^0..2^(m-1)), divides by 2 from 2^40, and takes a max; the local kernel adds 1 to __local
 * uint cells chosen by local id (+ 64 in odd groups, so groups of 64 see all four patterns).
 * Every item calls (the sub-group path needs convergent calls). */
#define CLAT_CHECK_CELLS 54u
CLAT_FN uint clat_check_cell(uint i) {
  const uint w = (i >> 5) & 3u, l = i & 31u;
  return w == 0u ? 0u : w == 1u ? 1u + l : w == 2u ? 33u + (l & 3u) : l == 0u ? 37u : 38u + (l >> 1);
}
/* cells: [add | mul | div | max] x 54; olds: [add | mul | div] x n; vals: the max operands */
kernel void check_agg_float(global float *cells, global float *olds, global const float *vals) {
  const uint i = (uint)get_global_id(0), n = (uint)get_global_size(0), c = clat_check_cell(i);
  olds[i] = clat_atomic_add_float_agg(cells + c, 1.0f);
  olds[n + i] = clat_atomic_mul_float_agg(cells + CLAT_CHECK_CELLS + c, 2.0f);
  olds[2u * n + i] = clat_atomic_div_float_agg(cells + 2u * CLAT_CHECK_CELLS + c, 2.0f);
  clat_atomic_max_float_agg(cells + 3u * CLAT_CHECK_CELLS + c, vals[i]);
}
kernel void check_agg_local(global uint *cells, global uint *olds) {
  local uint l[CLAT_CHECK_CELLS];
  const uint lid = (uint)get_local_id(0), size = (uint)get_local_size(0);
  for (uint k = lid; k < CLAT_CHECK_CELLS; k += size) l[k] = 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  olds[get_global_id(0)] = clat_atomic_add_uint_agg_local(l + clat_check_cell(lid + (get_group_id(0) & 1u) * 64u), 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = lid; k < CLAT_CHECK_CELLS; k += size) cells[get_group_id(0) * CLAT_CHECK_CELLS + k] = l[k];
}
#ifdef CLAT_HAS_DOUBLE
kernel void check_agg_double(global double *cells, global double *olds) {
  const uint i = (uint)get_global_id(0);
  olds[i] = clat_atomic_add_double_agg(cells + clat_check_cell(i), 1.0);
}
#endif

/* ---- half / bfloat16 add (slots add_half_global, add_bf16_global: PTX f16/bf16 atom) ----
 * Eight 16-bit elements (four words): 0 and 1 (both halves of one word) get every item's add of
 * 1 with the olds kept; 3, 4 (by sub of -1) and 7 get adds; 2 (-0.0), 5 (a NaN with a payload,
 * the padding of an odd-length buffer of 5) and 6 (the negative smallest subnormal) are the
 * untouched neighbours, whose bits must not change. */
#define CLAT_CHECK_ADD16(NAME)                                                                \
  kernel void check_add_##NAME##_global(global ushort *h, global float *olds) {               \
    const size_t i = get_global_id(0);                                                        \
    olds[2 * i] = clat_atomic_add_##NAME(h + 0, 1.0f);                                        \
    olds[2 * i + 1] = clat_atomic_add_##NAME(h + 1, 1.0f);                                    \
    clat_atomic_add_##NAME(h + 3, 1.0f);                                                      \
    clat_atomic_sub_##NAME(h + 4, -1.0f);                                                     \
    clat_atomic_add_##NAME(h + 7, 1.0f);                                                      \
  }
CLAT_CHECK_ADD16(half)
CLAT_CHECK_ADD16(bf16)

/* check_subnormal_add_<NAME>_global: one add per element, operands and results subnormal in the
 * format (the host knows the exact bits due; a path that flushes gives zeros there). */
#define CLAT_CHECK_SUBNORMAL16(NAME)                                                          \
  kernel void check_subnormal_add_##NAME##_global(global ushort *h, global const float *vals) { \
    const size_t i = get_global_id(0);                                                        \
    clat_atomic_add_##NAME(h + i, vals[i]);                                                   \
  }
CLAT_CHECK_SUBNORMAL16(half)
CLAT_CHECK_SUBNORMAL16(bf16)

/* ---- no-return add/sub (slots noret_add_<T>_global: PTX red) ----
 * cells[0] += 1 and cells[1] -= 1 (from n) by every item; cells[2 + i % 7] += 0.5. */
#define CLAT_CHECK_NORET(T)                                                                   \
  kernel void check_noret_add_##T##_global(global T *cells) {                                 \
    const size_t i = get_global_id(0);                                                        \
    clat_atomic_add_##T##_noret(cells, (T)1);                                                 \
    clat_atomic_sub_##T##_noret(cells + 1, (T)1);                                             \
    clat_atomic_add_##T##_noret(cells + 2 + i % 7, (T)0.5);                                   \
  }                                                                                           \
  kernel void check_subnormal_noret_add_##T##_global(global T *cells, global const T *vals) { \
    if (get_global_id(0) == 0)                                                                \
      for (int k = 0; k < 3; ++k) clat_atomic_add_##T##_noret(cells + k, vals[k]);           \
  }
CLAT_CHECK_NORET(float)
#ifdef CLAT_HAS_DOUBLE
CLAT_CHECK_NORET(double)
#endif
