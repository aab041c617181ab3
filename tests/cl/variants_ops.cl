/* Test kernels for noret.cl, saturating.cl and float2.cl; cells as local_cells.cl says. */
enum { OP_ADD, OP_SUB, OP_MIN, OP_MAX };            /* no-return */
enum { OP_INC_SAT, OP_DEC_SAT };                     /* saturating */
enum { OP2_ADD, OP2_SUB, OP2_CMUL, OP2_XCHG, OP2_CMPXCHG }; /* float2 */

/* ---- no-return ---- */
#define NORET_APPLY(T, SFX)                                                                     \
  void do_noret_##T##SFX(uint op, volatile AS_##SFX T *p, T a) {                                   \
    switch (op) {                                                                               \
      case OP_ADD: clat_atomic_add_##T##_noret##SFX(p, a); break;                               \
      case OP_SUB: clat_atomic_sub_##T##_noret##SFX(p, a); break;                               \
      case OP_MIN: clat_atomic_min_##T##_noret##SFX(p, a); break;                               \
      default: clat_atomic_max_##T##_noret##SFX(p, a);                                          \
    }                                                                                           \
  }
#define NORET_KERNELS(T)                                                                        \
  NORET_APPLY(T, )                                                                              \
  NORET_APPLY(T, _local)                                                                        \
  kernel void noret_##T##_global(global T *mem, global const T *a, global const uint *cell,     \
                                 uint op) {                                                     \
    size_t i = get_global_id(0);                                                                \
    do_noret_##T(op, mem + cell[i], a[i]);                                                         \
  }                                                                                             \
  kernel void noret_##T##_local(global T *mem, global const T *a, global const uint *cell,      \
                                uint op, uint ncells, local T *cells) {                         \
    LOCAL_IN                                                                                 \
    do_noret_##T##_local(op, cells + cell[i], a[i]);                                               \
    LOCAL_OUT                                                                                   \
  }
NORET_KERNELS(float)
#ifdef CLAT_HAS_DOUBLE
NORET_KERNELS(double)
#endif

/* ---- saturating ---- */
#define SAT_KERNELS(T)                                                                          \
  kernel void sat_##T##_global(global T *mem, global T *olds, global const uint *cell, uint op, \
                               T limit) {                                                       \
    size_t i = get_global_id(0);                                                                \
    olds[i] = op == OP_INC_SAT ? clat_atomic_inc_sat_##T(mem + cell[i], limit)                  \
                               : clat_atomic_dec_sat_##T(mem + cell[i]);                        \
  }                                                                                             \
  kernel void sat_##T##_local(global T *mem, global T *olds, global const uint *cell, uint op,  \
                              T limit, uint ncells, local T *cells) {                           \
    LOCAL_IN                                                                                 \
    olds[i] = op == OP_INC_SAT ? clat_atomic_inc_sat_##T##_local(cells + cell[i], limit)        \
                               : clat_atomic_dec_sat_##T##_local(cells + cell[i]);              \
    LOCAL_OUT                                                                                   \
  }
SAT_KERNELS(uint)
SAT_KERNELS(int)
#ifdef CLAT_HAS_INT64_ATOMICS
SAT_KERNELS(ulong)
SAT_KERNELS(long)
#endif

/* ---- float2 ---- */
#ifdef CLAT_HAS_INT64_ATOMICS
#define F2_APPLY(SFX)                                                                           \
  float2 f2_##SFX(uint op, volatile AS_##SFX float2 *p, float2 a, float2 cmp) {                 \
    switch (op) {                                                                               \
      case OP2_ADD: return clat_atomic_add_float2##SFX(p, a);                                   \
      case OP2_SUB: return clat_atomic_sub_float2##SFX(p, a);                                   \
      case OP2_CMUL: return clat_atomic_cmul_float2##SFX(p, a);                                 \
      case OP2_XCHG: return clat_atomic_xchg_float2##SFX(p, a);                                 \
      default: return clat_atomic_cmpxchg_float2##SFX(p, cmp, a);                               \
    }                                                                                           \
  }
F2_APPLY()
F2_APPLY(_local)

kernel void f2_global(global float2 *mem, global float2 *olds, global const float2 *a,
                      global const uint *cell, uint op, float2 cmp) {
  size_t i = get_global_id(0);
  olds[i] = f2_(op, mem + cell[i], a[i], cmp);
}
kernel void f2_local(global float2 *mem, global float2 *olds, global const float2 *a,
                     global const uint *cell, uint op, float2 cmp, uint ncells, local float2 *cells) {
  LOCAL_IN
  olds[i] = f2__local(op, cells + cell[i], a[i], cmp);
  LOCAL_OUT
}

/* Writers (even items) add (1, 2) `reps` times; readers (odd items) load `reps` times and count
 * the values with y != 2x, which only a torn (half-updated) value can show. */
kernel void f2_torn_global(global float2 *mem, global uint *torn, uint reps) {
  size_t i = get_global_id(0);
  uint bad = 0;
  for (uint r = 0; r < reps; ++r) {
    if (i % 2 == 0) {
      float2 old = clat_atomic_add_float2(mem, (float2)(1.0f, 2.0f));
      bad += old.y != 2.0f * old.x;
    } else {
      float2 seen = clat_atomic_load_float2(mem);
      bad += seen.y != 2.0f * seen.x;
    }
  }
  if (bad) atomic_add(torn, bad);
}
kernel void f2_torn_local(global float2 *mem, global uint *torn, uint reps) {
  local float2 cell;
  size_t i = get_local_id(0);
  if (i == 0) cell = (float2)(0.0f, 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint bad = 0;
  for (uint r = 0; r < reps; ++r) {
    if (i % 2 == 0) {
      float2 old = clat_atomic_add_float2_local(&cell, (float2)(1.0f, 2.0f));
      bad += old.y != 2.0f * old.x;
    } else {
      float2 seen = clat_atomic_load_float2_local(&cell);
      bad += seen.y != 2.0f * seen.x;
    }
  }
  if (bad) atomic_add(torn, bad);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i == 0) mem[get_group_id(0)] = cell;
}
#endif
