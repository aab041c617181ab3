// reduce_by_key: the runs of equal consecutive keys found on the device (kernels/reduce_by_key.cl),
// then reduced as segments. The call and its plan share every step up to the reduction.
#include <algorithm>
#include <vector>

#include "clatomics/reduce_by_key.hpp"

#include "core/buffer_checks.hpp"
#include "scatter/device_call.hpp"

namespace clatomics::detail {
namespace {

const char* const rbk_what = "reduce_by_key";
const char* const rbk_file = "kernels/reduce_by_key.cl";
const Signature rbk_count_kernel{"clat_rbk_count", "global keys, off, n, global block_counts, local scratch"};
const Signature rbk_heads_kernel{"clat_rbk_heads",
                                 "global keys, off, n, global block_offsets, global seg, global unique, unique_off, local scratch"};

// One call: its checks, the runs' kernels and their launch shape, the runs counted on the device,
// and the segment reduction (scatter's) they feed.
class KeyRuns {
 public:
  // Every check of the call, before anything is enqueued; with keys, the runs' kernels built.
  KeyRuns(Runtime& rt, const KeysCall& call);
  // Heads (a key unlike the one before) counted per block, their offsets scanned on the host: the
  // number of runs, which the reduction's segments become.
  std::size_t count_runs();
  // Every block writes its runs' first positions (the segments' offsets) and keys, and the block
  // of the last key the end. After count_runs().
  void write_heads();
  // The runs' first positions and the end (runs + 1 of them), as write_heads() wrote them.
  std::vector<cl_ulong> run_starts();
  // The runs' reduction: count_runs()'s segments of the values.
  const ScatterCall& reduction() const { return reduction_; }
  // The plan: the reduction's, with the runs' kernels among the tuning values. Counts the runs.
  Plan plan();

 private:
  Runtime& rt_;
  KeysCall call_;
  ScatterTuning tuning_;
  Commands commands_;
  ScatterCall reduction_;
  Mem seg_, block_offsets_;
  std::vector<cl_ulong> offsets_;  // each block's first run
  std::string options_;            // the runs' program's build options (the call's part)
  LibraryKernel count_kernel_, heads_kernel_;
  Grid grid_;  // both kernels': a work-group a block of keys
};

KeyRuns::KeyRuns(Runtime& rt, const KeysCall& call)
    : rt_(rt), call_(call), tuning_(scatter_tuning(rt.device_info().caps)), commands_(rt) {
  const ScatterTypeInfo info = scatter_type_info(call.type);
  const std::size_t count = call.count, key_size = call.key64 ? 8 : 4, out_size = scatter_out_bytes(rbk_what, call.type, call.out16);
  const BufferRange keys_range{"reduce_by_key: keys", call.keys, call.keys_offset, count, key_size, Access::read};
  const BufferRange values_range{"reduce_by_key: values", call.values, call.values_offset, count, info.in_size, Access::read};
  const BufferRange unique_range{"reduce_by_key: unique_keys", call.unique_keys, call.unique_offset, count, key_size, Access::write};
  const BufferRange reductions_range{"reduce_by_key: reductions", call.reductions, call.reductions_offset, count, out_size, Access::write};
  // The runs are reduced into reductions with atomics: the device reads it too (refused here under
  // its own name, not as the segment reduction's out).
  const BufferRange reductions_read{"reduce_by_key: reductions", call.reductions, call.reductions_offset, count, out_size, Access::read};
  for (const auto* range : {&keys_range, &values_range, &unique_range, &reductions_read, &reductions_range}) check_range(rt, *range);
  for (const auto* out : {&unique_range, &reductions_range}) {
    check_disjoint(*out, keys_range);
    check_disjoint(*out, values_range);
  }
  check_disjoint(unique_range, reductions_range);
  scatter_op_macro(rbk_what, call.op);
  if (call.type == ScatterType::f64) require_double(rt, rbk_what);  // refused with no keys too, as every double form is
  ScatterOptions alone = call.options;  // each run's reduction of its values alone
  alone.include_self = false;
  // At most count runs, whose offsets are 64-bit.
  reduction_ = with_ranges(scatter_call(call.type, call.out16, true, call.op, alone, true), call.reductions, call.reductions_offset, count,
                           nullptr, 0, call.values, call.values_offset, count);
  if (count == 0) return;
  // The runs' offsets (CSR) for the segment reduction; its checks run before anything is enqueued.
  seg_ = make_buffer(rt, (count + 1) * sizeof(cl_ulong));
  reduction_.indices = seg_.get();
  Scatter(rt, reduction_, rbk_what).check();

  const std::size_t per_item = tuning_.rbk_keys_per_item;
  options_ = scatter_index_option(call.key64) + define("CLAT_SC_RBK_K", (long long)per_item);
  const Program program = build_library_file(rt, rbk_file, options_);
  count_kernel_ = make_kernel(program, rbk_count_kernel);
  heads_kernel_ = make_kernel(program, rbk_heads_kernel);
  const std::size_t group = std::min({tuning_.rbk_group, kernel_group_limit(rt, count_kernel_), kernel_group_limit(rt, heads_kernel_)});
  const std::size_t block = floor_pow2(group) * per_item;
  grid_.group = block / per_item;
  grid_.groups = (count + block - 1) / block;
}

std::size_t KeyRuns::count_runs() {
  const std::size_t nblocks = grid_.groups;
  const Mem block_counts = make_buffer(rt_, nblocks * sizeof(cl_uint));
  bind(count_kernel_, arg("keys", call_.keys), arg("off", cl_ulong(call_.keys_offset)), arg("n", cl_ulong(call_.count)),
       arg("block_counts", block_counts), arg("scratch", LocalBytes{grid_.group * sizeof(cl_uint)}));
  commands_.launch(count_kernel_, grid_);
  std::vector<cl_uint> heads(nblocks);
  commands_.read(block_counts.get(), 0, nblocks * sizeof(cl_uint), heads.data());
  offsets_.resize(nblocks);
  cl_ulong runs = 0;
  for (std::size_t b = 0; b < nblocks; ++b) {
    offsets_[b] = runs;
    runs += heads[b];
  }
  reduction_.bins = std::size_t(runs);
  return std::size_t(runs);
}

void KeyRuns::write_heads() {
  block_offsets_ = make_buffer(rt_, offsets_.size() * sizeof(cl_ulong), CL_MEM_READ_ONLY, offsets_.data());
  bind(heads_kernel_, arg("keys", call_.keys), arg("off", cl_ulong(call_.keys_offset)), arg("n", cl_ulong(call_.count)),
       arg("block_offsets", block_offsets_), arg("seg", seg_), arg("unique", call_.unique_keys),
       arg("unique_off", cl_ulong(call_.unique_offset)), arg("scratch", LocalBytes{grid_.group * sizeof(cl_uint)}));
  commands_.launch(heads_kernel_, grid_);  // seg[runs] = count too
}

std::vector<cl_ulong> KeyRuns::run_starts() {
  std::vector<cl_ulong> starts(reduction_.bins + 1);
  commands_.read(seg_.get(), 0, starts.size() * sizeof(cl_ulong), starts.data());
  return starts;
}

Plan KeyRuns::plan() {
  if (call_.count == 0) return Scatter(rt_, reduction_, rbk_what).empty_plan().plan(rt_, rbk_what);  // nothing runs
  const std::size_t runs = count_runs();
  Plan out = plan_scatter(rt_, reduction_, rbk_what).plan(rt_, rbk_what);
  const auto text = [](const auto& v) { return plan_text(v); };
  const std::string options = rt_.build_options() + options_;
  const std::vector<std::pair<std::string, std::string>> runs_tuning = {
      {"runs", text(runs)},
      {"runs kernels", std::string(rbk_count_kernel.kernel) + ", " + rbk_heads_kernel.kernel + " (" + rbk_file + ")"},
      {"runs build options", options.substr(options.find_first_not_of(' '))},
      {"runs launch", text(grid_.items()) + " work-items in groups of " + text(grid_.group)},
      {"rbk group", text(tuning_.rbk_group)},
      {"rbk keys per item", text(tuning_.rbk_keys_per_item)}};
  out.tuning.insert(out.tuning.begin() + 1, runs_tuning.begin(), runs_tuning.end());  // after the device class
  return out;
}

}  // namespace

std::size_t reduce_by_key_buffers(Runtime& rt, const KeysCall& call, std::vector<cl_ulong>* run_starts) {
  KeyRuns key_runs(rt, call);
  if (call.count == 0) {
    if (run_starts) *run_starts = {0};
    return 0;
  }
  const std::size_t runs = key_runs.count_runs();
  key_runs.write_heads();
  if (run_starts) *run_starts = key_runs.run_starts();
  Scatter scatter(rt, key_runs.reduction(), rbk_what);
  scatter.check();
  scatter.run();
  return runs;
}

Plan reduce_by_key_plan(Runtime& rt, const KeysCall& call) { return KeyRuns(rt, call).plan(); }

std::size_t reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values,
                               std::size_t count, void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options) {
  const ScatterTypeInfo info = scatter_type_info(type);
  const std::size_t key_size = key64 ? 8 : 4, out_size = scatter_out_bytes(rbk_what, type, out16);
  scatter_op_macro(rbk_what, op);
  if (type == ScatterType::f64) require_double(rt, rbk_what);
  if (count == 0) return 0;
  scatter_check_fits(rt, rbk_what, "keys", count, key_size);
  scatter_check_fits(rt, rbk_what, "values", count, std::max(info.in_size, out_size));
  const Mem key_buffer = make_buffer(rt, count * key_size, CL_MEM_READ_ONLY, keys);
  const Mem value_buffer = make_buffer(rt, count * info.in_size, CL_MEM_READ_ONLY, values);
  const Mem unique_buffer = make_buffer(rt, count * key_size);
  const Mem reduction_buffer = make_buffer(rt, count * out_size);
  KeysCall call;
  call.type = type;
  call.out16 = out16;
  call.key64 = key64;
  call.keys = key_buffer.get();
  call.values = value_buffer.get();
  call.count = count;
  call.unique_keys = unique_buffer.get();
  call.reductions = reduction_buffer.get();
  call.op = op;
  call.options = options;
  const std::size_t runs = reduce_by_key_buffers(rt, call);
  Commands commands(rt);
  commands.read(unique_buffer.get(), 0, runs * key_size, unique_keys);
  commands.read(reduction_buffer.get(), 0, runs * out_size, reductions);
  return runs;
}

}  // namespace clatomics::detail
