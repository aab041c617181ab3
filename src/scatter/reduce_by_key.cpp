// reduce_by_key: the runs of equal consecutive keys found on the device (kernels/reduce_by_key.cl),
// then reduced as segments.
#include <algorithm>
#include <vector>

#include "core/buffer_checks.hpp"
#include "scatter/device_call.hpp"

namespace clatomics::detail {
namespace {

const Signature rbk_count_kernel{"clat_rbk_count", "global keys, off, n, global block_counts, local scratch"};
const Signature rbk_heads_kernel{"clat_rbk_heads",
                                 "global keys, off, n, global block_offsets, global seg, global unique, unique_off, local scratch"};

}  // namespace

std::size_t reduce_by_key_buffers(Runtime& rt, ScatterType type, bool out16, bool key64, cl_mem keys, std::size_t keys_offset,
                                  cl_mem values, std::size_t values_offset, std::size_t count, cl_mem unique_keys,
                                  std::size_t unique_offset, cl_mem reductions, std::size_t reductions_offset, ScatterOp op,
                                  ScatterOptions options) {
  const char* what = "reduce_by_key";
  const ScatterTypeInfo info = scatter_type_info(type);
  const std::size_t key_size = key64 ? 8 : 4, out_size = scatter_out_bytes(what, type, out16);
  const BufferRange keys_range{"reduce_by_key: keys", keys, keys_offset, count, key_size, Access::read};
  const BufferRange values_range{"reduce_by_key: values", values, values_offset, count, info.in_size, Access::read};
  const BufferRange unique_range{"reduce_by_key: unique_keys", unique_keys, unique_offset, count, key_size, Access::write};
  const BufferRange reductions_range{"reduce_by_key: reductions", reductions, reductions_offset, count, out_size, Access::write};
  // The runs are reduced into reductions with atomics: the device reads it too (refused here under
  // its own name, not as the segment reduction's out).
  const BufferRange reductions_read{"reduce_by_key: reductions", reductions, reductions_offset, count, out_size, Access::read};
  for (const auto* range : {&keys_range, &values_range, &unique_range, &reductions_read, &reductions_range}) check_range(rt, *range);
  for (const auto* out : {&unique_range, &reductions_range}) {
    check_disjoint(*out, keys_range);
    check_disjoint(*out, values_range);
  }
  check_disjoint(unique_range, reductions_range);
  scatter_op_macro(what, op);
  if (type == ScatterType::f64) require_double(rt, what);  // refused with no keys too, as every double form is
  if (count == 0) return 0;
  // The runs' offsets (CSR) for the segment reduction; its checks run before anything is enqueued.
  const Mem seg = make_buffer(rt, (count + 1) * sizeof(cl_ulong));
  ScatterOptions alone = options;  // each run's reduction of its values alone
  alone.include_self = false;
  // At most count runs, whose offsets are 64-bit.
  ScatterCall call = with_ranges(scatter_call(type, out16, true, op, alone, true), reductions, reductions_offset, count, seg.get(), 0,
                                 values, values_offset, count);
  Scatter(rt, call, what).check();

  // Heads (a key unlike the one before) counted per block, their offsets scanned on the host,
  // then every block writes its runs' first positions and keys, and the block of the last key the end.
  const ScatterTuning tuning = scatter_tuning(rt.device_info().caps);
  const std::size_t per_item = tuning.rbk_keys_per_item;
  const Program program =
      build_library_file(rt, "kernels/reduce_by_key.cl", scatter_index_option(key64) + define("CLAT_SC_RBK_K", (long long)per_item));
  const LibraryKernel count_kernel = make_kernel(program, rbk_count_kernel);
  const LibraryKernel heads_kernel = make_kernel(program, rbk_heads_kernel);
  const std::size_t group = std::min({tuning.rbk_group, kernel_group_limit(rt, count_kernel), kernel_group_limit(rt, heads_kernel)});
  const std::size_t block = floor_pow2(group) * per_item;
  const std::size_t nblocks = (count + block - 1) / block;
  Grid grid;
  grid.group = block / per_item;
  grid.groups = nblocks;
  Commands commands(rt);
  const Mem block_counts = make_buffer(rt, nblocks * sizeof(cl_uint));
  bind(count_kernel, arg("keys", keys), arg("off", cl_ulong(keys_offset)), arg("n", cl_ulong(count)), arg("block_counts", block_counts),
       arg("scratch", LocalBytes{grid.group * sizeof(cl_uint)}));
  commands.launch(count_kernel, grid);
  std::vector<cl_uint> heads(nblocks);
  commands.read(block_counts.get(), 0, nblocks * sizeof(cl_uint), heads.data());
  std::vector<cl_ulong> block_offsets(nblocks);
  cl_ulong runs = 0;
  for (std::size_t b = 0; b < nblocks; ++b) {
    block_offsets[b] = runs;
    runs += heads[b];
  }
  const Mem offsets = make_buffer(rt, nblocks * sizeof(cl_ulong), CL_MEM_READ_ONLY, block_offsets.data());
  bind(heads_kernel, arg("keys", keys), arg("off", cl_ulong(keys_offset)), arg("n", cl_ulong(count)), arg("block_offsets", offsets),
       arg("seg", seg), arg("unique", unique_keys), arg("unique_off", cl_ulong(unique_offset)),
       arg("scratch", LocalBytes{grid.group * sizeof(cl_uint)}));
  commands.launch(heads_kernel, grid);  // seg[runs] = count too
  call.bins = std::size_t(runs);
  Scatter scatter(rt, call, what);
  scatter.check();
  scatter.run();
  return std::size_t(runs);
}

std::size_t reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values,
                               std::size_t count, void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options) {
  const ScatterTypeInfo info = scatter_type_info(type);
  const std::size_t key_size = key64 ? 8 : 4, out_size = scatter_out_bytes("reduce_by_key", type, out16);
  scatter_op_macro("reduce_by_key", op);
  if (type == ScatterType::f64) require_double(rt, "reduce_by_key");
  if (count == 0) return 0;
  scatter_check_fits(rt, "reduce_by_key", "keys", count, key_size);
  scatter_check_fits(rt, "reduce_by_key", "values", count, std::max(info.in_size, out_size));
  const Mem key_buffer = make_buffer(rt, count * key_size, CL_MEM_READ_ONLY, keys);
  const Mem value_buffer = make_buffer(rt, count * info.in_size, CL_MEM_READ_ONLY, values);
  const Mem unique_buffer = make_buffer(rt, count * key_size);
  const Mem reduction_buffer = make_buffer(rt, count * out_size);
  const std::size_t runs = reduce_by_key_buffers(rt, type, out16, key64, key_buffer.get(), 0, value_buffer.get(), 0, count,
                                                 unique_buffer.get(), 0, reduction_buffer.get(), 0, op, options);
  Commands commands(rt);
  commands.read(unique_buffer.get(), 0, runs * key_size, unique_keys);
  commands.read(reduction_buffer.get(), 0, runs * out_size, reductions);
  return runs;
}

}  // namespace clatomics::detail
