/* kernels/bench_variants.cl — aggregated vs plain atomics, and no-return vs returning add.
 *
 * bench_<op>_<impl>_<layout>(cells, mask, iters, sink): work-item id applies op `iters` times to
 * one of mask + 1 cells (a power of two):
 *   spread   cell (id + k * size) & mask: neighbouring work-items on different cells
 *   blocked  cell (id / 32 + k * size / 32) & mask: runs of 32 neighbours (a warp) on one cell
 * impl: agg (clat_atomic_<op>_float_agg), plain (clat_atomic_<op>_float), noret (add only);
 * bench_add_hw_<layout>: the device's own atomic_add on uint cells (the hardware yardstick);
 * bench_add_<half|bf16>_<layout>: 16-bit add on ushort cells (cell k is half of word k / 2).
 * Operands are the same for every impl and alternate per run of 32 and per k, so values stay
 * bounded while a run's combined operand is never neutral: add +-1, mul/div 1 +- 2^-12. Every
 * work-item calls every iteration (the sub-group path needs convergent calls). */
#include "clatomics/atomics.cl"

#define VB_CELL_spread ((id + k * stride) & mask)
#define VB_CELL_blocked (((id >> 5) + k * (stride >> 5)) & mask)
#define VB_UP (((id >> 5) + k) & 1u)
#define VB_OPERAND_add (VB_UP ? 1.0f : -1.0f)
#define VB_OPERAND_mul (VB_UP ? 1.000244140625f : 0.999755859375f)
#define VB_OPERAND_div VB_OPERAND_mul

#define VB_KERNEL(OP, IMPL, FN, LAYOUT)                                                       \
  kernel void bench_##OP##_##IMPL##_##LAYOUT(global float *cells, uint mask, uint iters,      \
                                             global float *sink) {                           \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    float acc = 0.0f;                                                                         \
    for (uint k = 0u; k < iters; ++k) acc += FN(cells + VB_CELL_##LAYOUT, VB_OPERAND_##OP);   \
    if (acc == 1234567.25f) sink[0] = acc;                                                    \
  }

#define VB_NORET_KERNEL(LAYOUT)                                                               \
  kernel void bench_add_noret_##LAYOUT(global float *cells, uint mask, uint iters,            \
                                       global float *sink) {                                 \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    for (uint k = 0u; k < iters; ++k) clat_atomic_add_float_noret(cells + VB_CELL_##LAYOUT, VB_OPERAND_add); \
    (void)sink;                                                                               \
  }

#define VB_OP(OP)                                                                             \
  VB_KERNEL(OP, agg, clat_atomic_##OP##_float_agg, spread)                                    \
  VB_KERNEL(OP, agg, clat_atomic_##OP##_float_agg, blocked)                                   \
  VB_KERNEL(OP, plain, clat_atomic_##OP##_float, spread)                                      \
  VB_KERNEL(OP, plain, clat_atomic_##OP##_float, blocked)

VB_OP(add)
VB_OP(mul)
VB_OP(div)
VB_NORET_KERNEL(spread)
VB_NORET_KERNEL(blocked)

#define VB_HW_KERNEL(LAYOUT)                                                                  \
  kernel void bench_add_hw_##LAYOUT(global float *cells, uint mask, uint iters, global float *sink) { \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    volatile global uint *c = (volatile global uint *)cells;                                  \
    uint acc = 0u;                                                                            \
    for (uint k = 0u; k < iters; ++k) acc += atomic_add(c + VB_CELL_##LAYOUT, VB_UP ? 1u : 0xffffffffu); \
    if (acc == 1234567u) sink[0] = (float)acc;                                                \
  }

#define VB_16_KERNEL(NAME, LAYOUT)                                                            \
  kernel void bench_add_##NAME##_##LAYOUT(global float *cells, uint mask, uint iters, global float *sink) { \
    const uint id = (uint)get_global_id(0), stride = (uint)get_global_size(0);                \
    volatile global ushort *c = (volatile global ushort *)cells;                              \
    float acc = 0.0f;                                                                         \
    for (uint k = 0u; k < iters; ++k) acc += clat_atomic_add_##NAME(c + VB_CELL_##LAYOUT, VB_OPERAND_add); \
    if (acc == 1234567.25f) sink[0] = acc;                                                    \
  }

VB_HW_KERNEL(spread)
VB_HW_KERNEL(blocked)
VB_16_KERNEL(half, spread)
VB_16_KERNEL(half, blocked)
VB_16_KERNEL(bf16, spread)
VB_16_KERNEL(bf16, blocked)
