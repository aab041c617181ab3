// Scatter's checks: the op, options and types, the buffers' ranges, and the device's checks of
// the offsets and indices (kernels/scatter_checks.cl), each a std::invalid_argument before the
// output is touched.
#include <algorithm>
#include <string>
#include <vector>

#include "core/buffer_checks.hpp"
#include "scatter/device_call.hpp"

namespace clatomics::detail {
namespace {

const Signature check_indices_kernel{"clat_scatter_check_indices", "global idx, idx_off, first, n, nbins, global oor"};
const Signature check_offsets_kernel{"clat_scatter_check_offsets", "global offs, off, nentries, count, global bad"};

}  // namespace

void Scatter::check_options() {
  const auto& caps = rt_.device_info().caps;
  const ScatterOptions& o = call_.options;
  strategy_name(o.strategy);
  scatter_op_macro(what_, call_.op);
  if (o.out_of_range != OutOfRange::count && o.out_of_range != OutOfRange::refuse)
    scatter_refuse(what_, "options.out_of_range (" + std::to_string(static_cast<int>(o.out_of_range)) + ") is not an OutOfRange");
  if (o.nan != NanRule::propagate && o.nan != NanRule::missing)
    scatter_refuse(what_, "options.nan (" + std::to_string(static_cast<int>(o.nan)) + ") is not a NanRule");
  if (call_.type == ScatterType::f64) require_double(rt_, what_);
  out_size_ = scatter_out_bytes(what_, call_.type, call_.out16);
  const bool is_arg = call_.with_arg;
  if (is_arg && call_.op != ScatterOp::min && call_.op != ScatterOp::max)
    scatter_refuse(what_, "arg needs op min or max, not op " + std::to_string(static_cast<int>(call_.op)));
  if (is_arg && call_.rows.width != 1)
    scatter_refuse(what_, "arg takes one value per element (rows.width 1, not " + std::to_string(call_.rows.width) + ")");
  plan_.fixed = o.deterministic && info_.real && (call_.op == ScatterOp::sum || call_.op == ScatterOp::mean);
  if (o.deterministic && info_.real && call_.op == ScatterOp::prod)
    scatter_refuse(what_, "deterministic prod of floating-point values is not offered: a product's rounding depends on its order");
  plan_.prop = info_.real && (call_.op == ScatterOp::min || call_.op == ScatterOp::max) && o.nan == NanRule::propagate;
  plan_.counts = call_.op == ScatterOp::mean || !o.include_self;
  plan_.store_bytes = plan_.fixed ? 8 : info_.out_size;
  const bool needs64 = plan_.fixed || plan_.counts || info_.wide || is_arg || call_.type == ScatterType::f64;
  if (needs64 && !caps.int64_base_atomics)
    scatter_refuse(what_, "this call needs 64-bit atomics (cl_khr_int64_base_atomics), which the device lacks");
  if (plan_.fixed && !rt_.supports_double())
    scatter_refuse(what_,
                   "deterministic sums need double ops on the device (cl_khr_fp64 and 64-bit atomics, not hidden by Options::hide_fp64)");
}

void Scatter::check() {
  const ScatterOptions& o = call_.options;
  check_options();
  const bool is_arg = call_.with_arg;
  width_ = call_.rows.width;
  vstride_ = call_.rows.value_stride ? call_.rows.value_stride : width_;
  ostride_ = call_.rows.out_stride ? call_.rows.out_stride : width_;
  if (vstride_ < width_)
    scatter_refuse(what_, "rows.value_stride (" + std::to_string(vstride_) + ") is below rows.width (" + std::to_string(width_) + ")");
  if (ostride_ < width_)
    scatter_refuse(what_, "rows.out_stride (" + std::to_string(ostride_) + ") is below rows.width (" + std::to_string(width_) + ")");

  // Sizes: bins rows of ostride (the last row only width) and count rows of vstride; rows of
  // width 0 hold nothing. A size that overflows is refused naming its view ("scatter_reduce: out:").
  const auto rows_span = [&](std::size_t rows, std::size_t stride, const char* name) {
    if (rows == 0 || width_ == 0) return std::size_t(0);
    if ((rows - 1) > (SIZE_MAX - width_) / stride) scatter_refuse(what_, std::string(name) + ": its rows overflow size_t");
    return (rows - 1) * stride + width_;
  };
  const std::size_t out_elements = rows_span(call_.bins, ostride_, "out");
  const std::size_t value_elements = rows_span(call_.count, vstride_, "values");
  if (width_ && call_.count > SIZE_MAX / width_) scatter_refuse(what_, "values: count * width overflows size_t");
  if (width_ && call_.bins > (SIZE_MAX - 1) / width_) scatter_refuse(what_, "out: bins * width overflows size_t");
  slots_ = call_.bins * width_;
  // Float values: the window's 64-bit sums in the slots, the rest in a 128-bit `wide` array
  // (kernels/scatter_window.cl); doubles, and outputs with few values a slot: 128-bit slots.
  const std::size_t per_slot = tuning_.window_values_per_slot;
  plan_.window = plan_.fixed && call_.type != ScatterType::f64 && (per_slot == 0 || call_.count * width_ / per_slot >= slots_);
  const cl_ulong largest = rt_.device_info().caps.max_mem_alloc_size;
  if (call_.out16 && largest && slots_ > largest / sizeof(cl_float))
    scatter_refuse(what_, "a 16-bit output of " + std::to_string(slots_) + " elements is accumulated in float scratch (" +
                              std::to_string(slots_) +
                              " floats), larger than one buffer may be on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                              std::to_string(largest) + " bytes)");
  // A strategy asked for that cannot hold this output.
  const LocalRoom room = this->room();
  if (o.strategy == ScatterStrategy::local_private && !room.copies(slots_))
    scatter_refuse(what_, "options.strategy local_private: " + std::to_string(slots_) + " slots of " + std::to_string(room.slot_bytes) +
                              " bytes do not fit in " + std::to_string(room.local) + " bytes of __local memory");
  if (o.strategy == ScatterStrategy::local_cache && !(slots_ < scatter_no_tag && room.cache_slots))
    scatter_refuse(what_, "options.strategy local_cache: no table fits in __local memory, or bins * width >= 2^32 - 1");
  index_size_ = call_.index64 ? 8 : 4;
  if (call_.segments && call_.bins == SIZE_MAX) scatter_refuse(what_, "offsets: segments + 1 overflows size_t");
  // No segments: the one offset is never read (the view and std::vector forms may pass none).
  const std::size_t index_elements = call_.segments ? (call_.bins ? call_.bins + 1 : 0) : call_.count;
  // Every range named as the entry point's refusals name it ("scatter_reduce: indices"), in the
  // overlap refusals too.
  const std::string prefix = std::string(what_) + ": ";
  const std::string out_name = prefix + "out", index_name = prefix + (call_.segments ? "offsets" : "indices");
  const std::string values_name = prefix + "values", arg_name = prefix + "arg";
  const BufferRange out_read{out_name.c_str(), call_.out, call_.out_offset, out_elements, out_size_, Access::read};
  const BufferRange out{out_name.c_str(), call_.out, call_.out_offset, out_elements, out_size_, Access::write};
  const BufferRange indices{index_name.c_str(), call_.indices, call_.indices_offset, index_elements, index_size_, Access::read};
  const BufferRange values{values_name.c_str(), call_.values, call_.values_offset, value_elements, info_.in_size, Access::read};
  for (const auto* range : {&out_read, &out, &indices, &values}) check_range(rt_, *range);
  check_disjoint(out, indices);
  check_disjoint(out, values);
  if (is_arg) {
    // arg is filled, then lowered with atomics: the device reads it too.
    const BufferRange arg_read{arg_name.c_str(), call_.arg, call_.arg_offset, call_.bins, sizeof(cl_ulong), Access::read};
    const BufferRange arg{arg_name.c_str(), call_.arg, call_.arg_offset, call_.bins, sizeof(cl_ulong), Access::write};
    check_range(rt_, arg_read);
    check_range(rt_, arg);
    check_disjoint(arg, out);
    check_disjoint(arg, indices);
    check_disjoint(arg, values);
  }
}

void Scatter::read_indices(std::size_t first, std::size_t n, cl_ulong* into) {
  if (call_.index64) {
    commands_.read(call_.indices, (call_.indices_offset + first) * 8, n * 8, into);
    return;
  }
  std::vector<cl_uint> narrow(n);
  commands_.read(call_.indices, (call_.indices_offset + first) * 4, n * 4, narrow.data());
  std::copy(narrow.begin(), narrow.end(), into);
}

ScatterResult Scatter::run_empty() const {
  return scatter_without_bins(what_, call_.options, call_.rows.width, call_.segments, call_.count);
}

// Segment offsets that decrease or pass count.
void Scatter::check_offsets(const Program& checks) {
  const LibraryKernel k = make_kernel(checks, check_offsets_kernel);
  const cl_uint none = 0xffffffffu;
  const Mem bad = make_buffer(rt_, sizeof(cl_uint), CL_MEM_READ_WRITE, &none);
  bind(k, arg("offs", call_.indices), arg("off", cl_ulong(call_.indices_offset)), arg("nentries", cl_ulong(call_.bins + 1)),
       arg("count", cl_ulong(call_.count)), arg("bad", bad));
  commands_.launch(k, small_grid(k, call_.bins + 1));
  cl_uint found = none;
  commands_.read(bad.get(), 0, sizeof found, &found);
  if (found != none) {
    // Quote the offending entry and its successor (the entries are below 2^32 - 2 but for
    // the rarest calls).
    const std::size_t k0 = found, pair = std::min<std::size_t>(2, call_.bins + 1 - k0);
    cl_ulong at[2] = {0, 0};
    read_indices(k0, pair, at);
    std::string why = "offsets[" + std::to_string(k0) + "] = " + std::to_string(at[0]);
    if (at[0] > call_.count)
      why += " passes count (" + std::to_string(call_.count) + ")";
    else
      why += " is above offsets[" + std::to_string(k0 + 1) + "] = " + std::to_string(at[1]) + ": the offsets decrease";
    scatter_refuse(what_, why);
  }
}

// Indices >= bins under OutOfRange::refuse, a launch at a time.
void Scatter::check_indices(const Program& checks) {
  const LibraryKernel k = make_kernel(checks, check_indices_kernel);
  const cl_uint start[2] = {0, 0xffffffffu};  // how many, the lowest position
  const Mem bad = make_buffer(rt_, sizeof start, CL_MEM_READ_WRITE, start);
  const std::uint64_t per_launch = launch_elements();
  for (std::size_t done = 0; done < call_.count;) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, call_.count - done));
    bind(k, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("first", cl_ulong(done)), arg("n", cl_ulong(n)),
         arg("nbins", cl_ulong(call_.bins)), arg("oor", bad));
    commands_.launch(k, small_grid(k, n));
    cl_uint found[2] = {0, 0};
    commands_.read(bad.get(), 0, sizeof found, found);
    if (found[0]) {
      // Quote the first offending index.
      const std::size_t at = done + found[1];
      cl_ulong index = 0;
      read_indices(at, 1, &index);
      const std::string others = found[0] > 1 ? ", as are " + std::to_string(found[0] - 1) + " more of the " + std::to_string(n) +
                                                    " from position " + std::to_string(done)
                                              : "";
      scatter_refuse_index(what_, "indices[" + std::to_string(at) + "] = " + std::to_string(index) + " is >= bins (" +
                                std::to_string(call_.bins) + ")" + others + ", and options.out_of_range is refuse");
    }
    done += n;
  }
}

}  // namespace clatomics::detail
