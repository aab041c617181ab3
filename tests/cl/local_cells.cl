/* Shared by the test kernels whose work-item i works on cell[i] (variants_ops.cl, kernel_api.cl):
 * a local kernel gives each work-group its own ncells cells, loaded from and stored back to
 * mem[group * ncells ...]; AS_##SFX names the address space of a _local or plain function. */
#define AS_ __global
#define AS__local __local

#define LOCAL_IN                                                                                \
  size_t i = get_global_id(0), lid = get_local_id(0), base = get_group_id(0) * ncells;          \
  for (size_t k = lid; k < ncells; k += get_local_size(0)) cells[k] = mem[base + k];            \
  barrier(CLK_LOCAL_MEM_FENCE);
#define LOCAL_OUT                                                                               \
  barrier(CLK_LOCAL_MEM_FENCE);                                                                 \
  for (size_t k = lid; k < ncells; k += get_local_size(0)) mem[base + k] = cells[k];
