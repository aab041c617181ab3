/* kernels/demo_float.cl — the float atomics on __global and __local memory.
 * Work-item i applies op with operand a[i] to cell i % naddr (global), or to its work-group's
 * cell (local id % naddr) in __local memory, which starts from and ends in mem[group * naddr ...].
 * Each old value goes to olds[i]. */
#include "clatomics/atomics.cl"

enum { DEMO_ADD, DEMO_MUL, DEMO_DIV, DEMO_MIN, DEMO_MAX };

float demo_apply(uint op, volatile global float *p, float a) {
  switch (op) {
    case DEMO_ADD: return clat_atomic_add_float(p, a);
    case DEMO_MUL: return clat_atomic_mul_float(p, a);
    case DEMO_DIV: return clat_atomic_div_float(p, a);
    case DEMO_MIN: return clat_atomic_min_float(p, a);
    default: return clat_atomic_max_float(p, a);
  }
}

float demo_apply_local(uint op, volatile local float *p, float a) {
  switch (op) {
    case DEMO_ADD: return clat_atomic_add_float_local(p, a);
    case DEMO_MUL: return clat_atomic_mul_float_local(p, a);
    case DEMO_DIV: return clat_atomic_div_float_local(p, a);
    case DEMO_MIN: return clat_atomic_min_float_local(p, a);
    default: return clat_atomic_max_float_local(p, a);
  }
}

kernel void demo_float_global(global float *mem, global const float *a, global float *olds, uint op, uint naddr) {
  size_t i = get_global_id(0);
  olds[i] = demo_apply(op, mem + i % naddr, a[i]);
}

kernel void demo_float_local(global float *mem, global const float *a, global float *olds, uint op, uint naddr,
                             local float *cells) {
  size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * naddr;
  for (size_t k = lid; k < naddr; k += get_local_size(0)) cells[k] = mem[base + k];
  barrier(CLK_LOCAL_MEM_FENCE);
  olds[i] = demo_apply_local(op, cells + lid % naddr, a[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t k = lid; k < naddr; k += get_local_size(0)) mem[base + k] = cells[k];
}
