/* Test kernels for half.cl and bfloat16.cl: conversions, and every op selected at run time.
 * Work-item i applies op to element cell[i] of mem with operand a[i] (bits: abits[i]) and records
 * the old value (as float, and its bits for cmpxchg). cmpxchg compares with cmpbits. The local
 * kernels give each work-group ncells elements (ncells even: whole words), loaded from and stored
 * back to mem[group * ncells ...]. */
enum { OP_ADD, OP_SUB, OP_MIN, OP_MAX, OP_XCHG, OP_CMPXCHG };

kernel void half_probe(global int *out) {
  out[0] = CLAT_PATH_ADD_HALF_GLOBAL;
  out[1] = CLAT_PATH_ADD_BF16_GLOBAL;
}

kernel void to_half(global const float *in, global ushort *out) { out[get_global_id(0)] = clat_float_to_half(in[get_global_id(0)]); }
kernel void from_half(global const ushort *in, global float *out) { out[get_global_id(0)] = clat_half_to_float(in[get_global_id(0)]); }
kernel void to_bf16(global const float *in, global ushort *out) { out[get_global_id(0)] = clat_float_to_bf16(in[get_global_id(0)]); }
kernel void from_bf16(global const ushort *in, global float *out) { out[get_global_id(0)] = clat_bf16_to_float(in[get_global_id(0)]); }

#define AS_ __global
#define AS__local __local
#define SLOT_APPLY(N, SFX)                                                                      \
  float apply_##N##SFX(uint op, volatile AS_##SFX ushort *p, float a, ushort abits, ushort cmp, \
                       global ushort *oldbits) {                                                \
    switch (op) {                                                                               \
      case OP_ADD: return clat_atomic_add_##N##SFX(p, a);                                       \
      case OP_SUB: return clat_atomic_sub_##N##SFX(p, a);                                       \
      case OP_MIN: return clat_atomic_min_##N##SFX(p, a);                                       \
      case OP_MAX: return clat_atomic_max_##N##SFX(p, a);                                       \
      case OP_XCHG: return clat_atomic_xchg_##N##SFX(p, a);                                     \
      default: {                                                                                \
        ushort old = clat_atomic_cmpxchg_##N##SFX(p, cmp, abits);                               \
        *oldbits = old;                                                                         \
        return clat_##N##_to_float(old);                                                        \
      }                                                                                         \
    }                                                                                           \
  }

#define SLOT_KERNELS(N)                                                                         \
  SLOT_APPLY(N, )                                                                               \
  SLOT_APPLY(N, _local)                                                                         \
  kernel void ops_##N##_global(global ushort *mem, global float *olds, global ushort *oldbits, \
                               global const float *a, global const ushort *abits,              \
                               global const uint *cell, uint op, ushort cmp) {                 \
    size_t i = get_global_id(0);                                                                \
    olds[i] = apply_##N(op, mem + cell[i], a[i], abits[i], cmp, oldbits + i);                   \
  }                                                                                             \
  kernel void ops_##N##_local(global ushort *mem, global float *olds, global ushort *oldbits,  \
                              global const float *a, global const ushort *abits,               \
                              global const uint *cell, uint op, ushort cmp, uint ncells,       \
                              local ushort *cells) {                                            \
    size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * ncells;        \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) cells[k] = mem[base + k];          \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    olds[i] = apply_##N##_local(op, cells + cell[i], a[i], abits[i], cmp, oldbits + i);         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (size_t k = lid; k < ncells; k += get_local_size(0)) mem[base + k] = cells[k];          \
  }

SLOT_KERNELS(half)
SLOT_KERNELS(bf16)
