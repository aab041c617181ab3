/* Test kernels for special values (test_special_values_single.cpp and _contention.cpp): +-0,
 * +-1, denormals, the largest finite value, +-inf and NaNs, through every float/double op.
 *   single_*:  work-item i applies op to its own cell mem[i] (no contention: one work-item per
 *              address), operands a[i], b[i]; olds[i] gets the returned old value.
 *   contend_*: every work-item applies op to one cell (global: mem[0]; local: one cell per
 *              work-group, loaded from and stored back to mem[group]).
 *   chain_*:   a compare-exchange chain through bit patterns that a float compare cannot tell
 *              apart or never matches (-0/+0, NaNs with distinct payloads): each work-item
 *              advances the cell from state k to k + 1 exactly once.
 * The op and its operands are real_apply.cl's, which the host puts before this file. */

/* Chain states as bit patterns: 0 -> -0, 1 -> +0, 2 -> +inf, 3 -> -inf, 4 -> smallest denormal,
 * k >= 5 -> a quiet NaN with payload k, negative when k is odd (the host's chain_bits,
 * test_special_values_contention.cpp). */
#define SV_CHAIN(T, U, NAN_BITS, SIGN)                                                        \
  U sv_encode_##T(U k) {                                                                      \
    switch (k) {                                                                              \
      case 0: return SIGN;                                                                    \
      case 1: return 0;                                                                       \
      case 2: return as_##U((T)INFINITY);                                                     \
      case 3: return as_##U((T)-INFINITY);                                                    \
      case 4: return 1;                                                                       \
      default: return NAN_BITS | k | ((k & 1) ? SIGN : (U)0);                                 \
    }                                                                                         \
  }                                                                                           \
  U sv_decode_##T(U bits) {                                                                   \
    if (bits == SIGN) return 0;                                                               \
    if (bits == 0) return 1;                                                                  \
    if (bits == as_##U((T)INFINITY)) return 2;                                                \
    if (bits == as_##U((T)-INFINITY)) return 3;                                               \
    if (bits == 1) return 4;                                                                  \
    return bits & ~(NAN_BITS | SIGN);                                                         \
  }

/* Advances *p by one state with a CAS loop on clat_atomic_cmpxchg; returns the state it left. */
#define SV_ADVANCE(T, U, AS, SFX)                                                             \
  T sv_advance_##T##SFX(volatile AS T *p) {                                                   \
    T seen = *p;                                                                              \
    for (;;) {                                                                                \
      T next = as_##T(sv_encode_##T(sv_decode_##T(as_##U(seen)) + 1));                        \
      T prev = clat_atomic_cmpxchg_##T##SFX(p, seen, next);                                   \
      if (as_##U(prev) == as_##U(seen)) return prev;                                          \
      seen = prev;                                                                            \
    }                                                                                         \
  }

#define SV_KERNELS(T, U)                                                                      \
  SV_ADVANCE(T, U, __global, )                                                                \
  SV_ADVANCE(T, U, __local, _local)                                                           \
  kernel void single_##T##_global(global T *mem, global T *olds, global const T *a,          \
                                  global const T *b, uint op) {                              \
    size_t i = get_global_id(0);                                                              \
    olds[i] = apply_##T(op, mem + i, a[i], b[i]);                                          \
  }                                                                                           \
  kernel void single_##T##_local(global T *mem, global T *olds, global const T *a,           \
                                 global const T *b, uint op, local T *cells) {               \
    size_t i = get_global_id(0), lid = get_local_id(0);                                       \
    cells[lid] = mem[i];                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[i] = apply_##T##_local(op, cells + lid, a[i], b[i]);                              \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    mem[i] = cells[lid];                                                                      \
  }                                                                                           \
  kernel void contend_##T##_global(global T *mem, global T *olds, global const T *a,         \
                                   global const T *b, uint op) {                             \
    size_t i = get_global_id(0);                                                              \
    olds[i] = apply_##T(op, mem, a[i], b[i]);                                              \
  }                                                                                           \
  kernel void contend_##T##_local(global T *mem, global T *olds, global const T *a,          \
                                  global const T *b, uint op) {                              \
    local T cell;                                                                             \
    size_t i = get_global_id(0);                                                              \
    if (get_local_id(0) == 0) cell = mem[get_group_id(0)];                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[i] = apply_##T##_local(op, &cell, a[i], b[i]);                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (get_local_id(0) == 0) mem[get_group_id(0)] = cell;                                    \
  }                                                                                           \
  kernel void chain_##T##_global(global T *mem, global T *olds) {                             \
    olds[get_global_id(0)] = sv_advance_##T(mem);                                             \
  }                                                                                           \
  kernel void chain_##T##_local(global T *mem, global T *olds) {                              \
    local T cell;                                                                             \
    if (get_local_id(0) == 0) cell = mem[get_group_id(0)];                                    \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    olds[get_global_id(0)] = sv_advance_##T##_local(&cell);                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    if (get_local_id(0) == 0) mem[get_group_id(0)] = cell;                                    \
  }

SV_CHAIN(float, uint, 0x7fc00000u, 0x80000000u)
SV_KERNELS(float, uint)
#ifdef CLAT_HAS_DOUBLE
SV_CHAIN(double, ulong, 0x7ff8000000000000ul, 0x8000000000000000ul)
SV_KERNELS(double, ulong)
#endif
