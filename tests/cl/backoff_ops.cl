/* Test kernels for backoff.cl (build with -DCLAT_WITH_BACKOFF): every op of the CAS loop with
 * backoff, selected at run time, on __global or __local memory. Work-item i applies op to cell
 * i % naddr with operands a[i], b[i] and records the old value; the local kernel gives each
 * work-group its own naddr cells, loaded from and stored back to mem[group * naddr ...]. */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAD, OP_MIN, OP_MAX };

#define DEFINE_APPLY(T, AS, SFX)                                                          \
  T apply_##T##SFX(uint op, volatile AS T *p, T a, T b) {                                 \
    switch (op) {                                                                         \
      case OP_ADD: return clat_atomic_add_##T##SFX##_backoff(p, a);                       \
      case OP_SUB: return clat_atomic_sub_##T##SFX##_backoff(p, a);                       \
      case OP_MUL: return clat_atomic_mul_##T##SFX##_backoff(p, a);                       \
      case OP_DIV: return clat_atomic_div_##T##SFX##_backoff(p, a);                       \
      case OP_MAD: return clat_atomic_mad_##T##SFX##_backoff(p, a, b);                    \
      case OP_MIN: return clat_atomic_min_##T##SFX##_backoff(p, a);                       \
      default: return clat_atomic_max_##T##SFX##_backoff(p, a);                           \
    }                                                                                     \
  }

#define DEFINE_OP_KERNELS(T)                                                                  \
  DEFINE_APPLY(T, __global, )                                                                 \
  DEFINE_APPLY(T, __local, _local)                                                            \
  kernel void backoff_##T##_global(global T *mem, global T *olds, global const T *a,         \
                                   global const T *b, uint op, uint naddr) {                 \
    size_t i = get_global_id(0);                                                              \
    olds[i] = apply_##T(op, mem + i % naddr, a[i], b[i]);                                     \
  }                                                                                           \
  kernel void backoff_##T##_local(global T *mem, global T *olds, global const T *a,          \
                                  global const T *b, uint op, uint naddr, local T *cells) {  \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * naddr;       \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) cells[k] = mem[base + k];         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[i] = apply_##T##_local(op, cells + lid % naddr, a[i], b[i]);                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) mem[base + k] = cells[k];         \
  }

DEFINE_OP_KERNELS(float)
#ifdef CLAT_HAS_DOUBLE
DEFINE_OP_KERNELS(double)
#endif
