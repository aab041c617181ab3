/* Test kernels: every float/double op, selected at run time, on __global or __local memory
 * (after real_apply.cl). <NAME>_<T>_global: work-item i applies op to cell i % naddr with
 * operands a[i], b[i] and records the old value. <NAME>_<T>_local: the same on each work-group's
 * own naddr cells, loaded from and stored back to mem[group * naddr ...]. NAME is ops for the
 * public ops, backoff for backoff.cl's (built with -DCLAT_WITH_BACKOFF). */
#define DEFINE_OP_KERNELS(T, NAME, VARIANT)                                                   \
  kernel void NAME##_##T##_global(global T *mem, global T *olds, global const T *a,          \
                                  global const T *b, uint op, uint naddr) {                  \
    size_t i = get_global_id(0);                                                              \
    olds[i] = apply_##T##VARIANT(op, mem + i % naddr, a[i], b[i]);                            \
  }                                                                                           \
  kernel void NAME##_##T##_local(global T *mem, global T *olds, global const T *a,           \
                                 global const T *b, uint op, uint naddr, local T *cells) {   \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * naddr;       \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) cells[k] = mem[base + k];         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[i] = apply_##T##_local##VARIANT(op, cells + lid % naddr, a[i], b[i]);                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) mem[base + k] = cells[k];         \
  }

DEFINE_OP_KERNELS(float, ops, )
#ifdef CLAT_HAS_DOUBLE
DEFINE_OP_KERNELS(double, ops, )
#endif
#ifdef CLAT_WITH_BACKOFF
DEFINE_OP_KERNELS(float, backoff, _backoff)
#ifdef CLAT_HAS_DOUBLE
DEFINE_OP_KERNELS(double, backoff, _backoff)
#endif
#endif
