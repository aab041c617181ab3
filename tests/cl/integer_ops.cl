/* Test kernels for the integer helpers. Work-item i works on cell i % naddr (per work-group
 * cells for _local). op 0: inc(limit), 1: dec(limit), 2: compare_exchange(expected 0 -> i + 1). */
#define DEFINE_INT_KERNELS(T)                                                                    \
  T int_apply_##T(uint op, volatile global T *p, T limit, size_t i, global int *won) {          \
    if (op == 0) return clat_atomic_inc_##T(p, limit);                                          \
    if (op == 1) return clat_atomic_dec_##T(p, limit);                                          \
    T expected = 0;                                                                             \
    won[i] = clat_atomic_compare_exchange_##T(p, &expected, (T)(i + 1));                        \
    return expected;                                                                            \
  }                                                                                             \
  T int_apply_##T##_local(uint op, volatile local T *p, T limit, size_t i, global int *won) {   \
    if (op == 0) return clat_atomic_inc_##T##_local(p, limit);                                  \
    if (op == 1) return clat_atomic_dec_##T##_local(p, limit);                                  \
    T expected = 0;                                                                             \
    won[i] = clat_atomic_compare_exchange_##T##_local(p, &expected, (T)(i + 1));                \
    return expected;                                                                            \
  }                                                                                             \
  kernel void int_##T##_global(global T *mem, global T *olds, global int *won, T limit,        \
                               uint op, uint naddr) {                                          \
    size_t i = get_global_id(0);                                                                \
    olds[i] = int_apply_##T(op, mem + i % naddr, limit, i, won);                                \
  }                                                                                             \
  kernel void int_##T##_local(global T *mem, global T *olds, global int *won, T limit,         \
                              uint op, uint naddr, local T *cells) {                           \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * naddr;         \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) cells[k] = mem[base + k];           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    olds[i] = int_apply_##T##_local(op, cells + lid % naddr, limit, i, won);                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (size_t k = lid; k < naddr; k += get_local_size(0)) mem[base + k] = cells[k];           \
  }                                                                                             \
  /* One work-item runs a sequence of (op, limit) on one cell: the edge cases, in order. */     \
  kernel void int_sequence_##T(global T *cell, global const uint *ops, global const T *limits,  \
                               global T *olds, uint n) {                                       \
    for (uint k = 0; k < n; ++k) {                                                              \
      if (ops[k] == 0) olds[k] = clat_atomic_inc_##T(cell, limits[k]);                          \
      else if (ops[k] == 1) olds[k] = clat_atomic_dec_##T(cell, limits[k]);                     \
      else {                                                                                    \
        T expected = limits[k];                                                                 \
        olds[k] = clat_atomic_compare_exchange_##T(cell, &expected, (T)(limits[k] + 1)) ? (T)1 : (T)0; \
        olds[k] = olds[k] * 2 + (expected == limits[k]); /* 3: won; 0: lost and expected updated */ \
      }                                                                                         \
    }                                                                                           \
  }

DEFINE_INT_KERNELS(uint)
DEFINE_INT_KERNELS(int)
#ifdef CLAT_HAS_INT64_ATOMICS
DEFINE_INT_KERNELS(ulong)
DEFINE_INT_KERNELS(long)
#endif
