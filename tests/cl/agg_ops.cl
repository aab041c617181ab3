/* Test kernels for the aggregated ops (aggregate.cl), selected at run time.
 * Work-item i applies op to cell[i] with operands a[i], b[i] and records the old value. The
 * _some kernels skip work-items whose active[i] is 0 (divergent calls: NVIDIA warp path and the
 * plain path only; the sub-group path must be called by whole sub-groups). The local kernels
 * give each work-group its own ncells cells, loaded from and stored back to mem[group * ncells]. */
#define AGG_ENUM(T, A, B, C, D, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, AGG_NEUTRAL,  \
                 AGG_COMBINE, AGG_APPLY)                                                          \
  OP_##NAME,
#define AGG_ENUM_VIA(T, A, B, C, D, NAME, OPERANDS, BASE, BASE_OPERAND) OP_##NAME,
/* ops.def's read-modify-writes in its order, as tests/real_ops.hpp numbers them */
enum { CLAT_REAL_OPS(AGG_ENUM, AGG_ENUM_VIA, , , , , ) };

/* The operands of a call: a, or a and b. */
#define AGG_ARGS_v , a
#define AGG_ARGS_a_b , a, b
/* Names are pasted before they are passed on: the OpenCL C header may define min, max or mad. */
#define AGG_CALL(LABEL, FN, OPERANDS) case LABEL: return FN(p AGG_ARGS_##OPERANDS);
#define AGG_CASE(T, SFX, C, D, E, NAME, OPERANDS, NEW, NATIVE, AGG_OPERAND, AGG_ATOMIC, AGG_NEUTRAL, \
                 AGG_COMBINE, AGG_APPLY)                                                          \
  AGG_CALL(OP_##NAME, clat_atomic_##NAME##_##T##_agg##SFX, OPERANDS)
#define AGG_CASE_VIA(T, SFX, C, D, E, NAME, OPERANDS, BASE, BASE_OPERAND)                         \
  AGG_CALL(OP_##NAME, clat_atomic_##NAME##_##T##_agg##SFX, OPERANDS)

kernel void agg_probe(global int *out) {
  out[0] = CLAT_PATH_AGG;
#if CLAT_PATH_AGG == CLAT_PATH_SUBGROUP
  out[1] = (int)get_max_sub_group_size();
#elif CLAT_PATH_AGG == CLAT_PATH_WARP
  out[1] = 32;
#else
  out[1] = 1;
#endif
}

#define APPLY_REAL(T, SFX)                                                                  \
  T apply_##T##SFX(uint op, volatile AS_##SFX T *p, T a, T b) {                             \
    switch (op) {                                                                           \
      CLAT_REAL_OPS(AGG_CASE, AGG_CASE_VIA, T, SFX, , , )                                   \
      default: return (T)0;                                                                 \
    }                                                                                       \
  }
#define APPLY_INT(T, SFX)                                                                   \
  T apply_##T##SFX(uint op, volatile AS_##SFX T *p, T a, T b) {                             \
    switch (op) {                                                                           \
      case OP_add: return clat_atomic_add_##T##_agg##SFX(p, a);                             \
      case OP_min: return clat_atomic_min_##T##_agg##SFX(p, a);                             \
      default: return clat_atomic_max_##T##_agg##SFX(p, a);                                \
    }                                                                                       \
  }
#define AS_ __global
#define AS__local __local

#define AGG_KERNELS(T, APPLY)                                                                   \
  APPLY(T, )                                                                                    \
  APPLY(T, _local)                                                                              \
  kernel void agg_##T##_global(global T *mem, global T *olds, global const T *a,               \
                               global const T *b, global const uint *cell, uint op) {          \
    size_t i = get_global_id(0);                                                                \
    olds[i] = apply_##T(op, mem + cell[i], a[i], b[i]);                                         \
  }                                                                                             \
  kernel void agg_##T##_global_some(global T *mem, global T *olds, global const T *a,          \
                                    global const T *b, global const uint *cell, uint op,       \
                                    global const uchar *active) {                              \
    size_t i = get_global_id(0);                                                                \
    if (active[i]) olds[i] = apply_##T(op, mem + cell[i], a[i], b[i]);                          \
  }                                                                                             \
  kernel void agg_##T##_local(global T *mem, global T *olds, global const T *a,                \
                              global const T *b, global const uint *cell, uint op, uint ncells, \
                              local T *cells) {                                                 \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * ncells;        \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) cells[k] = mem[base + k];          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    olds[i] = apply_##T##_local(op, cells + cell[i], a[i], b[i]);                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) mem[base + k] = cells[k];          \
  }                                                                                             \
  kernel void agg_##T##_local_some(global T *mem, global T *olds, global const T *a,           \
                                   global const T *b, global const uint *cell, uint op,        \
                                   uint ncells, local T *cells, global const uchar *active) {   \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * ncells;        \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) cells[k] = mem[base + k];          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    if (active[i]) olds[i] = apply_##T##_local(op, cells + cell[i], a[i], b[i]);                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) mem[base + k] = cells[k];          \
  }

AGG_KERNELS(float, APPLY_REAL)
#ifdef CLAT_HAS_DOUBLE
AGG_KERNELS(double, APPLY_REAL)
#endif
AGG_KERNELS(int, APPLY_INT)
AGG_KERNELS(uint, APPLY_INT)
