// Scatter-reduce, segment reductions and reduce_by_key (kernels/scatter.cl, scatter_checks.cl): the checks, the
// choice of strategy from the device and a sample of the indices, and the launches.
#include "clatomics/scatter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "core/buffer_checks.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"

namespace clatomics {
namespace {

using detail::ArgSpace;
using detail::ScatterCall;
using detail::ScatterType;

// kernels/scatter.cl, built per op, options and plan.
const detail::Signature scatter_kernel{"clat_scatter",
                                       {{"idx", ArgSpace::global},
                                        {"idx_off", ArgSpace::value},
                                        {"val", ArgSpace::global},
                                        {"val_off", ArgSpace::value},
                                        {"first", ArgSpace::value},
                                        {"n", ArgSpace::value},
                                        {"width", ArgSpace::value},
                                        {"vstride", ArgSpace::value},
                                        {"nbins", ArgSpace::value},
                                        {"acc", ArgSpace::global},
                                        {"acc_off", ArgSpace::value},
                                        {"astride", ArgSpace::value},
                                        {"counts", ArgSpace::global},
                                        {"flags", ArgSpace::global},
                                        {"e_grid", ArgSpace::value},
                                        {"e_top", ArgSpace::value},
                                        {"oor", ArgSpace::global},
                                        {"oor_slot", ArgSpace::value},
                                        {"lslots", ArgSpace::value},
                                        {"lacc", ArgSpace::local},
                                        {"ltag", ArgSpace::local},
                                        {"lcount", ArgSpace::local}}};
const detail::Signature fill_kernel{"clat_scatter_fill", {{"acc", ArgSpace::global}, {"n", ArgSpace::value}}};
const detail::Signature finish_kernel{"clat_scatter_finish",
                                      {{"out", ArgSpace::global},
                                       {"out_off", ArgSpace::value},
                                       {"ostride", ArgSpace::value},
                                       {"width", ArgSpace::value},
                                       {"nbins", ArgSpace::value},
                                       {"acc", ArgSpace::global},
                                       {"counts", ArgSpace::global},
                                       {"flags", ArgSpace::global},
                                       {"e_grid", ArgSpace::value},
                                       {"e_top", ArgSpace::value},
                                       {"include_self", ArgSpace::value},
                                       {"mean", ArgSpace::value}}};
const detail::Signature arg_kernel{"clat_scatter_arg",
                                   {{"idx", ArgSpace::global},
                                    {"idx_off", ArgSpace::value},
                                    {"val", ArgSpace::global},
                                    {"val_off", ArgSpace::value},
                                    {"first", ArgSpace::value},
                                    {"n", ArgSpace::value},
                                    {"nbins", ArgSpace::value},
                                    {"out", ArgSpace::global},
                                    {"out_off", ArgSpace::value},
                                    {"arg", ArgSpace::global},
                                    {"arg_off", ArgSpace::value}}};
// kernels/scatter_checks.cl, built per type.
const detail::Signature top_kernel{"clat_scatter_top",
                                   {{"val", ArgSpace::global},
                                    {"val_off", ArgSpace::value},
                                    {"first", ArgSpace::value},
                                    {"n", ArgSpace::value},
                                    {"stride", ArgSpace::value},
                                    {"width", ArgSpace::value},
                                    {"vstride", ArgSpace::value},
                                    {"top", ArgSpace::global}}};
const detail::Signature fill_ulong_kernel{
    "clat_scatter_fill_ulong", {{"p", ArgSpace::global}, {"off", ArgSpace::value}, {"n", ArgSpace::value}, {"value", ArgSpace::value}}};
const detail::Signature check_indices_kernel{"clat_scatter_check_indices",
                                             {{"idx", ArgSpace::global},
                                              {"idx_off", ArgSpace::value},
                                              {"first", ArgSpace::value},
                                              {"n", ArgSpace::value},
                                              {"nbins", ArgSpace::value},
                                              {"oor", ArgSpace::global}}};
const detail::Signature check_offsets_kernel{"clat_scatter_check_offsets",
                                             {{"offs", ArgSpace::global},
                                              {"off", ArgSpace::value},
                                              {"nentries", ArgSpace::value},
                                              {"count", ArgSpace::value},
                                              {"bad", ArgSpace::global}}};
const detail::Signature fill_rows_kernel{"clat_scatter_fill_rows",
                                         {{"out", ArgSpace::global},
                                          {"off", ArgSpace::value},
                                          {"ostride", ArgSpace::value},
                                          {"width", ArgSpace::value},
                                          {"nbins", ArgSpace::value},
                                          {"one", ArgSpace::value}}};
const detail::Signature sample_kernel{"clat_scatter_sample",
                                      {{"idx", ArgSpace::global},
                                       {"idx_off", ArgSpace::value},
                                       {"n", ArgSpace::value},
                                       {"sample", ArgSpace::global},
                                       {"nsample", ArgSpace::value}}};
// A 16-bit output widened into float scratch and narrowed back: the same parameters.
const detail::Signature widen16_kernel{"clat_scatter_widen16",
                                       {{"out", ArgSpace::global},
                                        {"off", ArgSpace::value},
                                        {"stride", ArgSpace::value},
                                        {"width", ArgSpace::value},
                                        {"bins", ArgSpace::value},
                                        {"wide", ArgSpace::global}}};
const detail::Signature narrow16_kernel{"clat_scatter_narrow16", widen16_kernel.params};
const detail::Signature rbk_count_kernel{"clat_rbk_count",
                                         {{"keys", ArgSpace::global},
                                          {"off", ArgSpace::value},
                                          {"n", ArgSpace::value},
                                          {"block_counts", ArgSpace::global},
                                          {"scratch", ArgSpace::local}}};
const detail::Signature rbk_heads_kernel{"clat_rbk_heads",
                                         {{"keys", ArgSpace::global},
                                          {"off", ArgSpace::value},
                                          {"n", ArgSpace::value},
                                          {"block_offsets", ArgSpace::global},
                                          {"seg", ArgSpace::global},
                                          {"unique", ArgSpace::global},
                                          {"unique_off", ArgSpace::value},
                                          {"scratch", ArgSpace::local}}};

struct TypeInfo {
  const char* in_name;       // CLAT_SC_IN: a stored value's OpenCL C type
  const char* out_name;      // CLAT_SC_T: the type values are accumulated and written in
  const char* float16;       // CLAT_SC_FLOAT16: the 16-bit float format of the stored bits, or null
  std::size_t in_size;       // bytes of a stored value
  std::size_t out_size;      // bytes of an output element
  bool real;                 // floating point
  bool wide;                 // 64-bit integers
};

// Values of V accumulated as O (float for the 16-bit floats, whose bits are stored as ushort).
template <class V, class O = V>
TypeInfo info_of(const char* float16 = nullptr) {
  return {detail::cl_type_name<V>(), detail::cl_type_name<O>(), float16, sizeof(V), sizeof(O), std::is_floating_point_v<O>,
          std::is_integral_v<O> && sizeof(O) == 8};
}

TypeInfo type_info(ScatterType type) {
  switch (type) {
    case ScatterType::f32: return info_of<float>();
    case ScatterType::f64: return info_of<double>();
    case ScatterType::i32: return info_of<cl_int>();
    case ScatterType::u32: return info_of<cl_uint>();
    case ScatterType::i64: return info_of<cl_long>();
    case ScatterType::u64: return info_of<cl_ulong>();
    case ScatterType::f16: return info_of<half_t, float>("half");
    case ScatterType::bf16: return info_of<bfloat16_t, float>("bf16");
  }
  throw std::invalid_argument("clatomics: scatter: the value type is not a ScatterType");
}

// The kernel's op, as kernels/scatter.cl names it (mean is a sum with counts), or a refusal for a
// value outside ScatterOp.
const char* op_macro(const char* what, ScatterOp op) {
  switch (op) {
    case ScatterOp::sum:
    case ScatterOp::mean: return "CLAT_SC_OP_SUM";
    case ScatterOp::prod: return "CLAT_SC_OP_PROD";
    case ScatterOp::min: return "CLAT_SC_OP_MIN";
    case ScatterOp::max: return "CLAT_SC_OP_MAX";
  }
  throw std::invalid_argument(std::string("clatomics: ") + what + ": op (" + std::to_string(static_cast<int>(op)) +
                              ") is not a ScatterOp");
}

// Where kernels/scatter.cl hands its finished runs on, for a chosen (not automatic) strategy.
const char* mode_macro(ScatterStrategy strategy) {
  switch (strategy) {
    case ScatterStrategy::local_private: return "CLAT_SC_MODE_PRIVATE";
    case ScatterStrategy::local_cache: return "CLAT_SC_MODE_CACHE";
    case ScatterStrategy::global_atomics:
    case ScatterStrategy::automatic: break;
  }
  return "CLAT_SC_MODE_GLOBAL";
}

[[noreturn]] void refuse(const char* what, const std::string& why) {
  throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why);
}

bool sixteen_bits(ScatterType type) { return type == ScatterType::f16 || type == ScatterType::bf16; }

// Bytes of an output element: the values' own 16 bits (ScatterCall::out16), else what the type's
// accumulation writes.
std::size_t out_bytes(const char* what, ScatterType type, bool out16) {
  if (out16 && !sixteen_bits(type)) refuse(what, "a 16-bit output needs half_t or bfloat16_t values");
  return out16 ? 2 : type_info(type).out_size;
}

// Host data goes to the device whole (the output must stay there while every value reaches it):
// each array within one device buffer, or a clear refusal before anything is allocated.
void check_fits(const Runtime& rt, const char* what, const char* name, std::size_t elements, std::size_t element_size) {
  const cl_ulong largest = rt.device_info().caps.max_mem_alloc_size;
  if (largest && (elements > largest / element_size))
    refuse(what, std::string(name) + " (" + std::to_string(elements) + " elements of " + std::to_string(element_size) +
                     " bytes) is larger than one buffer may be on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " + std::to_string(largest) +
                     " bytes); the std::vector overloads copy it whole: use views of its parts");
}

constexpr std::size_t sample_size = 4096;
constexpr cl_uint no_tag = 0xffffffffu;  // CLAT_SC_EMPTY

// What __local memory holds for one slot of `slot_bytes` on a device: the launch shape and the
// strategies' capacities. CPUs: one work-item per work-group (PoCL runs a group on one thread),
// so __local memory is private and needs no atomics. GPUs: 256-item groups, a few per compute
// unit, over the whole range (few groups: each merges its __local slots once).
struct Capacity {
  bool solo = false;
  std::size_t group = 1, local = 0, slot_bytes = 4, cache_slots = 0;
  // local_private: the most copies (a power of two, at most 32 and the group) of `slots` slots
  // that fit, 0 when not one copy does.
  std::size_t copies(std::size_t slots) const {
    for (std::size_t c = solo ? 1 : std::min<std::size_t>(32, group); c >= 1; c /= 2)
      if (slots <= local / (c * slot_bytes)) return c;
    return 0;
  }
};

Capacity capacity_of(const DeviceInfo& info, std::size_t slot_bytes) {
  const Capabilities& caps = info.caps;
  Capacity c;
  c.solo = !caps.is_gpu();
  c.group = c.solo ? 1 : std::min<std::size_t>(256, caps.max_work_group_size);
  c.slot_bytes = slot_bytes;
  // What the device has, less room for the kernel's two other __local arguments when they are
  // not in use (and their alignment).
  c.local = info.local_mem_usable > 256 ? std::size_t(info.local_mem_usable) - 256 : 0;
  // local_cache: a power of two of tagged slots filling at most half the __local memory.
  for (std::size_t n = 4096; n >= 64 && !c.cache_slots; n /= 2)
    if (n * (slot_bytes + 4) <= c.local / 2) c.cache_slots = n;
  return c;
}

// What the launch is built and run with.
struct Plan {
  ScatterStrategy strategy = ScatterStrategy::global_atomics;
  bool fixed = false;   // 128-bit fixed-point sums (deterministic floating-point sum/mean)
  bool prop = false;    // floating-point min/max whose NaN propagates (never in place on out)
  bool counts = false;  // elements per bin: mean, or include_self false
  bool direct = false;  // accumulate straight into out (no scratch, no finish)
  bool agg = false, runs = false, solo = false;
  unsigned shift = 0;              // local_private: 1 << shift copies
  std::size_t cache_slots = 0;     // local_cache
  std::size_t group = 1, max_groups = 1;
  std::size_t store_bytes = 4, words = 1;  // an accumulator slot: words of store_bytes
};

// The sample's verdict: indices never decreasing, or many of them on a few bins.
struct Sample {
  bool sorted = false, hot = false;
};

class Scatter {
 public:
  Scatter(Runtime& rt, const ScatterCall& call, const char* what)
      : rt_(rt), call_(call), what_(what), info_(type_info(call.type)), commands_(rt) {}

  // The checks of the op, options and types alone (no buffers): every call makes them, empty
  // ones included.
  void check_options();
  // Every check, before anything is enqueued.
  void check();
  ScatterResult run();
  // A call with nothing to accumulate: no bins (or segments), or rows of width 0. Enqueues
  // nothing.
  static bool empty(const ScatterCall& call) { return call.bins == 0 || call.rows.width == 0; }
  ScatterResult run_empty() const;

 private:
  // The strategy a call that runs no accumulation reports: the one asked for, or global_atomics.
  ScatterStrategy asked_strategy() const {
    return call_.options.strategy == ScatterStrategy::automatic ? ScatterStrategy::global_atomics : call_.options.strategy;
  }
  // Entries [first, first + n) of the indices (or offsets) as 64-bit values, read back to quote
  // them in a refusal.
  void read_indices(std::size_t first, std::size_t n, cl_ulong* into);
  std::string base_options() const;
  Sample sample(const detail::LibraryKernel& kernel);
  void choose(const Sample& sample);
  int values_top(const detail::Program& program, std::size_t rows);
  int fixed_grid(int top) const;
  bool accumulate(const detail::Program& program, int e_grid, int e_top, ScatterResult& result);
  // __local memory's room for this call's slots (accumulator, and count when counting).
  Capacity room() const {
    return capacity_of(rt_.device_info(), plan_.store_bytes * plan_.words + (plan_.counts ? 4 : 0));
  }
  // The launch of the small kernels (checks, fills, finish): units work-items, a few groups per
  // compute unit.
  detail::Grid small_grid(const detail::Kernel& kernel, std::uint64_t units) const {
    return detail::make_grid(rt_, kernel, std::max<std::uint64_t>(units, 1), 256,
                             8 * std::max<cl_uint>(1, rt_.device_info().caps.compute_units));
  }

  // The widening or narrowing of a 16-bit output: out16's bins rows of width, `stride` apart, and
  // the float scratch wide.
  void bind_16bit(const detail::LibraryKernel& kernel, cl_mem out16, std::size_t offset, std::size_t stride, const detail::Mem& wide) const {
    detail::bind(kernel, detail::arg("out", out16), detail::arg("off", cl_ulong(offset)), detail::arg("stride", cl_ulong(stride)),
                 detail::arg("width", cl_uint(width_)), detail::arg("bins", cl_ulong(call_.bins)), detail::arg("wide", wide));
  }

  Runtime& rt_;
  ScatterCall call_;
  const char* what_;
  TypeInfo info_;
  detail::Commands commands_;
  Plan plan_;
  std::size_t width_ = 1, vstride_ = 1, ostride_ = 1, index_size_ = 4, slots_ = 0;
  std::size_t out_size_ = 4;  // bytes of an element of call_.out
};

void Scatter::check_options() {
  const auto& caps = rt_.device_info().caps;
  const ScatterOptions& o = call_.options;
  strategy_name(o.strategy);
  op_macro(what_, call_.op);
  if (o.out_of_range != OutOfRange::count && o.out_of_range != OutOfRange::refuse)
    refuse(what_, "options.out_of_range (" + std::to_string(static_cast<int>(o.out_of_range)) + ") is not an OutOfRange");
  if (o.nan != NanRule::propagate && o.nan != NanRule::missing)
    refuse(what_, "options.nan (" + std::to_string(static_cast<int>(o.nan)) + ") is not a NanRule");
  if (call_.type == ScatterType::f64) detail::require_double(rt_, what_);
  out_size_ = out_bytes(what_, call_.type, call_.out16);
  const bool is_arg = call_.with_arg;
  if (is_arg && call_.op != ScatterOp::min && call_.op != ScatterOp::max)
    refuse(what_, "arg needs op min or max, not op " + std::to_string(static_cast<int>(call_.op)));
  if (is_arg && call_.rows.width != 1)
    refuse(what_, "arg takes one value per element (rows.width 1, not " + std::to_string(call_.rows.width) + ")");
  plan_.fixed = o.deterministic && info_.real && (call_.op == ScatterOp::sum || call_.op == ScatterOp::mean);
  if (o.deterministic && info_.real && call_.op == ScatterOp::prod)
    refuse(what_, "deterministic prod of floating-point values is not offered: a product's rounding depends on its order");
  plan_.prop = info_.real && (call_.op == ScatterOp::min || call_.op == ScatterOp::max) && o.nan == NanRule::propagate;
  plan_.counts = call_.op == ScatterOp::mean || !o.include_self;
  plan_.store_bytes = plan_.fixed ? 8 : info_.out_size;
  plan_.words = plan_.fixed ? 2 : 1;
  const bool needs64 = plan_.fixed || plan_.counts || info_.wide || is_arg || call_.type == ScatterType::f64;
  if (needs64 && !caps.int64_base_atomics)
    refuse(what_, "this call needs 64-bit atomics (cl_khr_int64_base_atomics), which the device lacks");
  if (plan_.fixed && !rt_.supports_double())
    refuse(what_, "deterministic sums need double ops on the device (cl_khr_fp64 and 64-bit atomics, not hidden by Options::hide_fp64)");
}

void Scatter::check() {
  const ScatterOptions& o = call_.options;
  check_options();
  const bool is_arg = call_.with_arg;
  width_ = call_.rows.width;
  vstride_ = call_.rows.value_stride ? call_.rows.value_stride : width_;
  ostride_ = call_.rows.out_stride ? call_.rows.out_stride : width_;
  if (vstride_ < width_)
    refuse(what_, "rows.value_stride (" + std::to_string(vstride_) + ") is below rows.width (" + std::to_string(width_) + ")");
  if (ostride_ < width_)
    refuse(what_, "rows.out_stride (" + std::to_string(ostride_) + ") is below rows.width (" + std::to_string(width_) + ")");

  // Sizes: bins rows of ostride (the last row only width) and count rows of vstride; rows of
  // width 0 hold nothing.
  const auto rows_span = [&](std::size_t rows, std::size_t stride, const char* name) {
    if (rows == 0 || width_ == 0) return std::size_t(0);
    if ((rows - 1) > (SIZE_MAX - width_) / stride) refuse(what_, std::string(name) + " rows overflow size_t");
    return (rows - 1) * stride + width_;
  };
  const std::size_t out_elements = rows_span(call_.bins, ostride_, "out");
  const std::size_t value_elements = rows_span(call_.count, vstride_, "values");
  if (width_ && call_.count > SIZE_MAX / width_) refuse(what_, "count * width overflows size_t");
  if (width_ && call_.bins > (SIZE_MAX - 1) / width_) refuse(what_, "bins * width overflows size_t");
  slots_ = call_.bins * width_;
  const cl_ulong largest = rt_.device_info().caps.max_mem_alloc_size;
  if (call_.out16 && largest && slots_ > largest / sizeof(cl_float))
    refuse(what_, "a 16-bit output of " + std::to_string(slots_) + " elements is accumulated in float scratch (" +
                      std::to_string(slots_) + " floats), larger than one buffer may be on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                      std::to_string(largest) + " bytes)");
  // A strategy asked for that cannot hold this output.
  const Capacity room = this->room();
  if (o.strategy == ScatterStrategy::local_private && !room.copies(slots_))
    refuse(what_, "options.strategy local_private: " + std::to_string(slots_) + " slots of " + std::to_string(room.slot_bytes) +
                      " bytes do not fit in " + std::to_string(room.local) + " bytes of __local memory");
  if (o.strategy == ScatterStrategy::local_cache && !(slots_ < no_tag && room.cache_slots))
    refuse(what_, "options.strategy local_cache: no table fits in __local memory, or bins * width >= 2^32 - 1");
  index_size_ = call_.index64 ? 8 : 4;
  if (call_.segments && call_.bins == SIZE_MAX) refuse(what_, "segments + 1 overflows size_t");
  // No segments: the one offset is never read (the view and std::vector forms may pass none).
  const std::size_t index_elements = call_.segments ? (call_.bins ? call_.bins + 1 : 0) : call_.count;
  using detail::Access;
  const detail::BufferRange out_read{"out", call_.out, call_.out_offset, out_elements, out_size_, Access::read};
  const detail::BufferRange out{"out", call_.out, call_.out_offset, out_elements, out_size_, Access::write};
  const detail::BufferRange indices{call_.segments ? "offsets" : "indices", call_.indices, call_.indices_offset, index_elements,
                                    index_size_, Access::read};
  const detail::BufferRange values{"values", call_.values, call_.values_offset, value_elements, info_.in_size, Access::read};
  std::string prefix = std::string(what_) + ": ";
  for (const auto* range : {&out_read, &out, &indices, &values}) {
    const std::string name = prefix + range->what;
    detail::BufferRange named = *range;
    named.what = name.c_str();
    detail::check_range(rt_, named);
  }
  const std::string out_name = prefix + "out", arg_name = prefix + "arg";
  detail::BufferRange named_out = out;
  named_out.what = out_name.c_str();
  detail::check_disjoint(named_out, indices);
  detail::check_disjoint(named_out, values);
  if (is_arg) {
    const detail::BufferRange arg{arg_name.c_str(), call_.arg, call_.arg_offset, call_.bins, sizeof(cl_ulong), Access::write};
    detail::check_range(rt_, arg);
    detail::check_disjoint(arg, named_out);
    detail::check_disjoint(arg, indices);
    detail::check_disjoint(arg, values);
  }
}

// The types' options: all that kernels/scatter_checks.cl takes.
std::string type_options(const TypeInfo& info, bool index64) {
  std::string options = detail::define("CLAT_SC_IN", info.in_name) + detail::define("CLAT_SC_T", info.out_name) +
                        (index64 ? detail::type_define<cl_ulong>("CLAT_SC_IDX") : detail::type_define<cl_uint>("CLAT_SC_IDX"));
  if (info.float16) options += detail::define("CLAT_SC_FLOAT16", info.float16);
  return options;
}

std::string Scatter::base_options() const {
  return type_options(info_, call_.index64) + detail::define("CLAT_SC_OP", op_macro(what_, call_.op)) +
         detail::define("CLAT_SC_SEGMENTS", call_.segments ? 1 : 0) +
         detail::define("CLAT_SC_NAN_PROP", call_.options.nan == NanRule::propagate ? 1 : 0);
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
  ScatterResult result;
  result.strategy = asked_strategy();
  // Rows of width 0 carry no value (torch: an index tensor of no elements); segments count
  // nothing out of range; with no bins every index is out of range.
  if (call_.rows.width == 0 || call_.segments || call_.count == 0) return result;
  if (call_.options.out_of_range == OutOfRange::refuse)
    refuse(what_, "bins is 0, so all " + std::to_string(call_.count) +
                      " indices are out of range, and options.out_of_range is refuse");
  result.out_of_range = call_.count;
  return result;
}

// Indices at evenly spaced positions: sorted when they never decrease, hot when many of them
// share bins.
Sample Scatter::sample(const detail::LibraryKernel& kernel) {
  Sample s;
  if (call_.segments) {
    s.sorted = true;  // segments are sorted bins by construction
    return s;
  }
  const std::size_t n = std::min(sample_size, call_.count);
  if (n < 2) return s;
  const detail::Mem buffer = detail::make_buffer(rt_, n * sizeof(cl_ulong));
  detail::bind(kernel, detail::arg("idx", call_.indices), detail::arg("idx_off", cl_ulong(call_.indices_offset)),
               detail::arg("n", cl_ulong(call_.count)), detail::arg("sample", buffer), detail::arg("nsample", cl_uint(n)));
  commands_.launch(kernel, detail::make_grid(rt_, kernel, n, 256, (n + 255) / 256));
  std::vector<cl_ulong> picked(n);
  commands_.read(buffer.get(), 0, n * sizeof(cl_ulong), picked.data());
  s.sorted = std::is_sorted(picked.begin(), picked.end());
  std::unordered_map<cl_ulong, std::size_t> seen;
  for (cl_ulong b : picked) ++seen[b];
  // Hot: far more of the sample on repeated bins than spread indices over `bins` would put
  // there (1 - (1 - 1/bins)^(n - 1) of it), and at least a fifth.
  std::size_t repeated = 0;
  for (const auto& [bin, times] : seen)
    if (times >= 2) repeated += times;
  const double spread = 1.0 - std::pow(1.0 - 1.0 / double(call_.bins), double(n - 1));
  const double share = double(repeated) / double(n);
  s.hot = share >= 0.2 && share >= 2 * spread;
  return s;
}

void Scatter::choose(const Sample& sample) {
  const auto& caps = rt_.device_info().caps;
  const ScatterOptions& o = call_.options;
  const bool gpu = caps.is_gpu();
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const Capacity room = this->room();
  plan_.solo = room.solo;
  plan_.group = room.group;
  plan_.max_groups = detail::resident_groups(caps);
  const std::size_t copies = room.copies(slots_);
  // The table's keys (bin * width + d) stay below the tag that marks a free slot.
  const std::size_t cache = slots_ < no_tag ? room.cache_slots : 0;

  // automatic: every slot private when they fit; hot bins in the table; else straight to global
  // memory (sorted indices make few updates, runs; spread ones rarely meet). Keeping only the
  // leading slots private measured slower than global atomics on the H200 for spread indices.
  const bool sorted = sample.sorted || o.indices_are_sorted;
  ScatterStrategy s = o.strategy;
  if (s == ScatterStrategy::automatic) {
    if (copies) s = ScatterStrategy::local_private;
    else if (cache && sample.hot && !sorted) s = ScatterStrategy::local_cache;
    else s = ScatterStrategy::global_atomics;
  }
  plan_.strategy = s;
  if (s == ScatterStrategy::local_private)
    while ((std::size_t(1) << plan_.shift) < copies) ++plan_.shift;
  if (s == ScatterStrategy::local_cache) plan_.cache_slots = cache;
  if (gpu && s != ScatterStrategy::global_atomics) plan_.max_groups = 4 * cu;  // each merges its slots
  // Hot bins that reach global memory: combine a warp's updates of one address first.
  plan_.agg = s == ScatterStrategy::global_atomics && sample.hot && !sorted;
  // Sorted indices: runs that continue across neighbouring work-items combine in the warp.
  plan_.runs = s == ScatterStrategy::global_atomics && sorted;
  // Propagating min/max never run in place: out's own NaN may have bits that the ordered
  // atomics do not order (clat_scatter_finish joins it).
  plan_.direct = !plan_.fixed && !plan_.counts && !plan_.prop && o.include_self;
}

// The fixed-point grid's top: the largest biased double exponent of the values at `rows` evenly
// spaced positions (all of them when rows == count).
int Scatter::values_top(const detail::Program& program, std::size_t rows) {
  const detail::LibraryKernel kernel = detail::make_kernel(program, top_kernel);
  const cl_uint zero = 0;
  const detail::Mem top = detail::make_buffer(rt_, sizeof(cl_uint), CL_MEM_READ_WRITE, &zero);
  const std::size_t stride = call_.count / rows;
  const std::uint64_t per_launch = std::max<std::uint64_t>(1, detail::launch_elements() / width_);
  for (std::size_t done = 0; done < rows;) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, rows - done));
    detail::bind(kernel, detail::arg("val", call_.values), detail::arg("val_off", cl_ulong(call_.values_offset)),
                 detail::arg("first", cl_ulong(done * stride)), detail::arg("n", cl_ulong(n)), detail::arg("stride", cl_ulong(stride)),
                 detail::arg("width", cl_uint(width_)), detail::arg("vstride", cl_ulong(vstride_)), detail::arg("top", top));
    commands_.launch(kernel, small_grid(kernel, n * width_));
    done += n;
  }
  cl_uint biased = 0;
  commands_.read(top.get(), 0, sizeof biased, &biased);
  // Values that are all zero have no exponent: the lowest top whose grid keeps a zero (the
  // kernel keeps a float whose own exponent is at most top - 896, a double's at most top).
  return std::max(int(biased), call_.type == ScatterType::f64 ? 0 : 896);
}

// The lowest bit's weight 2^e_grid, so that the sum of count values and out's own below
// 2^(top - 1022) stays below 2^126 (two's complement in 128 bits).
int Scatter::fixed_grid(int top) const {
  int bits = 0;
  for (std::uint64_t c = std::uint64_t(call_.count) + 1; c; c >>= 1) ++bits;  // count + 1 < 2^bits
  return top - 1022 + bits - 126;
}

ScatterResult Scatter::run() {
  if (empty(call_)) return run_empty();
  ScatterResult result;
  const std::string base = base_options();
  // Checks that read the device's data: the output is untouched until they pass.
  const detail::Program checks = detail::build_library_file(rt_, "kernels/scatter_checks.cl", type_options(info_, call_.index64));
  if (call_.segments) {
    const detail::LibraryKernel k = detail::make_kernel(checks, check_offsets_kernel);
    const cl_uint none = 0xffffffffu;
    const detail::Mem bad = detail::make_buffer(rt_, sizeof(cl_uint), CL_MEM_READ_WRITE, &none);
    detail::bind(k, detail::arg("offs", call_.indices), detail::arg("off", cl_ulong(call_.indices_offset)),
                 detail::arg("nentries", cl_ulong(call_.bins + 1)), detail::arg("count", cl_ulong(call_.count)), detail::arg("bad", bad));
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
      if (at[0] > call_.count) why += " passes count (" + std::to_string(call_.count) + ")";
      else why += " is above offsets[" + std::to_string(k0 + 1) + "] = " + std::to_string(at[1]) + ": the offsets decrease";
      refuse(what_, why);
    }
  }
  if (call_.count == 0) {
    result.strategy = asked_strategy();
    if (call_.segments && !call_.options.include_self) {  // every segment is empty
      const detail::LibraryKernel fill = detail::make_kernel(checks, fill_rows_kernel);
      detail::bind(fill, detail::arg("out", call_.out), detail::arg("off", cl_ulong(call_.out_offset)), detail::arg("ostride", cl_ulong(ostride_)),
                   detail::arg("width", cl_uint(width_)), detail::arg("nbins", cl_ulong(call_.bins)),
                   detail::arg("one", cl_uint(call_.op == ScatterOp::prod ? 1 : 0)));
      commands_.launch(fill, small_grid(fill, slots_));
      cl_uint done = 0;  // the call returns with its commands done (an offset's first 4 bytes)
      commands_.read(call_.indices, call_.indices_offset * index_size_, sizeof done, &done);
    }
    if (call_.with_arg) {
      const detail::LibraryKernel fill = detail::make_kernel(checks, fill_ulong_kernel);
      detail::bind(fill, detail::arg("p", call_.arg), detail::arg("off", cl_ulong(call_.arg_offset)), detail::arg("n", cl_ulong(call_.bins)),
                   detail::arg("value", cl_ulong(0)));
      commands_.launch(fill, small_grid(fill, call_.bins));
      cl_ulong first_arg = 0;  // the call returns with its commands done
      commands_.read(call_.arg, call_.arg_offset * sizeof(cl_ulong), sizeof first_arg, &first_arg);
    }
    return result;
  }
  if (!call_.segments && call_.options.out_of_range == OutOfRange::refuse) {
    const detail::LibraryKernel k = detail::make_kernel(checks, check_indices_kernel);
    const cl_uint start[2] = {0, 0xffffffffu};  // how many, the lowest position
    const detail::Mem bad = detail::make_buffer(rt_, sizeof start, CL_MEM_READ_WRITE, start);
    const std::uint64_t per_launch = detail::launch_elements();
    for (std::size_t done = 0; done < call_.count;) {
      const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, call_.count - done));
      detail::bind(k, detail::arg("idx", call_.indices), detail::arg("idx_off", cl_ulong(call_.indices_offset)), detail::arg("first", cl_ulong(done)),
                   detail::arg("n", cl_ulong(n)), detail::arg("nbins", cl_ulong(call_.bins)), detail::arg("oor", bad));
      commands_.launch(k, small_grid(k, n));
      cl_uint found[2] = {0, 0};
      commands_.read(bad.get(), 0, sizeof found, found);
      if (found[0]) {
        // Quote the first offending index.
        const std::size_t at = done + found[1];
        cl_ulong index = 0;
        read_indices(at, 1, &index);
        refuse(what_, "indices[" + std::to_string(at) + "] = " + std::to_string(index) + " is >= bins (" + std::to_string(call_.bins) +
                          "), as are " + std::to_string(found[0] - 1) + " more of the " + std::to_string(n) + " from position " +
                          std::to_string(done) + ", and options.out_of_range is refuse");
      }
      done += n;
    }
  }
  // Every check has passed. A 16-bit output: the call runs on float scratch widened from it (its
  // rows contiguous), rounded into it once at the end (kernels/scatter_checks.cl).
  const cl_mem out16 = call_.out;
  const std::size_t out16_offset = call_.out_offset, out16_stride = ostride_;
  detail::Mem wide;
  if (call_.out16) {
    wide = detail::make_buffer(rt_, slots_ * sizeof(cl_float));
    const detail::LibraryKernel widen = detail::make_kernel(checks, widen16_kernel);
    bind_16bit(widen, out16, out16_offset, out16_stride, wide);
    commands_.launch(widen, small_grid(widen, slots_));
    call_.out = wide.get();
    call_.out_offset = 0;
    ostride_ = width_;
  }
  choose(sample(detail::make_kernel(checks, sample_kernel)));
  result.strategy = plan_.strategy;

  std::string options = base + detail::define("CLAT_SC_FIXED", plan_.fixed ? 1 : 0) +
                        detail::define("CLAT_SC_COUNTS", plan_.counts ? 1 : 0) + detail::define("CLAT_SC_SOLO", plan_.solo ? 1 : 0) +
                        detail::define("CLAT_SC_AGG", plan_.agg ? 1 : 0) + detail::define("CLAT_SC_RUNS", plan_.runs ? 1 : 0) +
                        detail::define("CLAT_SC_VEC_RED", rt_.device_info().caps.nv_compute_capability >= 90 ? 1 : 0);
  options += detail::define("CLAT_SC_MODE", mode_macro(plan_.strategy));
  if (plan_.strategy == ScatterStrategy::local_private) options += detail::define("CLAT_SC_SHIFT", plan_.shift);
  if (plan_.strategy == ScatterStrategy::local_cache) options += detail::define("CLAT_SC_SLOTS", (long long)plan_.cache_slots);
  options += detail::define("CLAT_SC_K", 16);
  if (rt_.device_info().caps.correctly_rounded_divide) options += " -cl-fp32-correctly-rounded-divide-sqrt";  // means
  const detail::Program program = detail::build_library_file(rt_, "kernels/scatter.cl", options);
  // Fixed point: a grid from a sample's largest value with 2^8 to spare; a value above it sends
  // the call round again with the grid of the true largest (found by a pass over the values).
  if (plan_.fixed) {
    const int guess = values_top(checks, std::min(sample_size, call_.count)) + 8;
    if (!accumulate(program, fixed_grid(guess), guess, result)) {
      const int top = values_top(checks, call_.count);
      if (!accumulate(program, fixed_grid(top), top, result))
        throw std::logic_error("clatomics: scatter_reduce: a value lay above the grid of the largest value");
    }
  } else {
    accumulate(program, 0, 0, result);
  }
  if (call_.with_arg) {
    const detail::LibraryKernel fill = detail::make_kernel(checks, fill_ulong_kernel);
    detail::bind(fill, detail::arg("p", call_.arg), detail::arg("off", cl_ulong(call_.arg_offset)), detail::arg("n", cl_ulong(call_.bins)),
                 detail::arg("value", cl_ulong(call_.count)));
    commands_.launch(fill, small_grid(fill, call_.bins));
    const detail::LibraryKernel arg = detail::make_kernel(program, arg_kernel);
    detail::bind(arg, detail::arg("idx", call_.indices), detail::arg("idx_off", cl_ulong(call_.indices_offset)), detail::arg("val", call_.values),
                 detail::arg("val_off", cl_ulong(call_.values_offset)), detail::arg("first", cl_ulong(0)), detail::arg("n", cl_ulong(call_.count)),
                 detail::arg("nbins", cl_ulong(call_.bins)), detail::arg("out", call_.out), detail::arg("out_off", cl_ulong(call_.out_offset)),
                 detail::arg("arg", call_.arg), detail::arg("arg_off", cl_ulong(call_.arg_offset)));
    commands_.launch(arg, small_grid(arg, call_.count));
    cl_ulong first_arg = 0;  // the call returns with its commands done
    commands_.read(call_.arg, call_.arg_offset * sizeof(cl_ulong), sizeof first_arg, &first_arg);
  }
  if (call_.out16) {
    const detail::LibraryKernel narrow = detail::make_kernel(checks, narrow16_kernel);
    bind_16bit(narrow, out16, out16_offset, out16_stride, wide);
    commands_.launch(narrow, small_grid(narrow, slots_));
    cl_ushort first = 0;  // the call returns with its commands done
    commands_.read(out16, out16_offset * sizeof first, sizeof first, &first);
  }
  return result;
}

// Every element into the accumulator, then (unless it is out itself) into out. Returns false,
// out untouched, when a fixed-point value lay above e_top (the grid must be redone).
bool Scatter::accumulate(const detail::Program& program, int e_grid, int e_top, ScatterResult& result) {
  const detail::LibraryKernel kernel = detail::make_kernel(program, scatter_kernel);
  // The accumulator: out itself, or scratch slots at the identity (plus counts and flags).
  detail::Mem scratch, counts, flags;
  cl_mem acc = call_.out;
  std::size_t acc_offset = call_.out_offset, astride = ostride_;
  if (!plan_.direct) {
    scratch = detail::make_buffer(rt_, slots_ * plan_.store_bytes * plan_.words);
    const detail::LibraryKernel fill = detail::make_kernel(program, fill_kernel);
    detail::bind(fill, detail::arg("acc", scratch), detail::arg("n", cl_ulong(slots_)));
    commands_.launch(fill, small_grid(fill, slots_));
    acc = scratch.get();
    acc_offset = 0;
    astride = width_;
  }
  if (plan_.counts) {
    counts = detail::make_buffer(rt_, call_.bins * sizeof(cl_ulong));
    commands_.fill_zero(counts.get(), call_.bins * sizeof(cl_ulong));
  }
  if (plan_.fixed) {
    flags = detail::make_buffer(rt_, slots_ * sizeof(cl_uint));
    commands_.fill_zero(flags.get(), slots_ * sizeof(cl_uint));
  }
  // Launches of fewer than 2^32 (element, column) pairs: 32-bit positions, run lengths and
  // tallies. tally[0]: a value above the grid; tally[1 + l]: launch l's indices >= bins.
  const std::uint64_t per_launch = std::max<std::uint64_t>(1, detail::launch_elements() / width_);
  const std::size_t launches = std::size_t((call_.count + per_launch - 1) / per_launch);
  const detail::Mem tally = detail::make_buffer(rt_, (launches + 1) * sizeof(cl_uint));
  commands_.fill_zero(tally.get(), (launches + 1) * sizeof(cl_uint));
  const bool private_slots = plan_.strategy == ScatterStrategy::local_private;
  const std::size_t local_slots = private_slots ? slots_ << plan_.shift
                                  : plan_.strategy == ScatterStrategy::local_cache ? plan_.cache_slots
                                                                                  : 1;
  cl_mem no_buffer = tally.get();  // any valid buffer, for arguments the program does not use
  for (std::size_t l = 0; l < launches; ++l) {
    const std::size_t first = l * per_launch, n = std::size_t(std::min<std::uint64_t>(per_launch, call_.count - first));
    const detail::Grid grid = detail::make_grid(rt_, kernel, (std::uint64_t(n) * width_ + 15) / 16, plan_.group, plan_.max_groups);
    detail::bind(kernel, detail::arg("idx", call_.indices), detail::arg("idx_off", cl_ulong(call_.indices_offset)),
                 detail::arg("val", call_.values), detail::arg("val_off", cl_ulong(call_.values_offset)), detail::arg("first", cl_ulong(first)),
                 detail::arg("n", cl_ulong(n)), detail::arg("width", cl_uint(width_)), detail::arg("vstride", cl_ulong(vstride_)),
                 detail::arg("nbins", cl_ulong(call_.bins)), detail::arg("acc", acc), detail::arg("acc_off", cl_ulong(acc_offset)),
                 detail::arg("astride", cl_ulong(astride)), detail::arg("counts", counts ? counts.get() : no_buffer),
                 detail::arg("flags", flags ? flags.get() : no_buffer), detail::arg("e_grid", cl_int(e_grid)), detail::arg("e_top", cl_int(e_top)),
                 detail::arg("oor", tally), detail::arg("oor_slot", cl_uint(1 + l)), detail::arg("lslots", cl_uint(private_slots ? slots_ : 0)),
                 detail::arg("lacc", detail::LocalBytes{local_slots * plan_.store_bytes * plan_.words}),
                 detail::arg("ltag", detail::LocalBytes{(plan_.strategy == ScatterStrategy::local_cache ? local_slots : 1) * sizeof(cl_uint)}),
                 detail::arg("lcount", detail::LocalBytes{(plan_.counts ? local_slots : 1) * sizeof(cl_uint)}));
    commands_.launch(kernel, grid);
  }
  std::vector<cl_uint> tallies(launches + 1);
  if (plan_.fixed) {
    commands_.read(tally.get(), 0, sizeof(cl_uint), tallies.data());
    if (tallies[0]) return false;
  }
  if (!plan_.direct) {
    const detail::LibraryKernel finish = detail::make_kernel(program, finish_kernel);
    detail::bind(finish, detail::arg("out", call_.out), detail::arg("out_off", cl_ulong(call_.out_offset)), detail::arg("ostride", cl_ulong(ostride_)),
                 detail::arg("width", cl_uint(width_)), detail::arg("nbins", cl_ulong(call_.bins)), detail::arg("acc", scratch),
                 detail::arg("counts", counts ? counts.get() : no_buffer), detail::arg("flags", flags ? flags.get() : no_buffer),
                 detail::arg("e_grid", cl_int(e_grid)), detail::arg("e_top", cl_int(e_top)),
                 detail::arg("include_self", cl_uint(call_.options.include_self ? 1 : 0)),
                 detail::arg("mean", cl_uint(call_.op == ScatterOp::mean ? 1 : 0)));
    commands_.launch(finish, small_grid(finish, slots_));
  }
  commands_.read(tally.get(), 0, (launches + 1) * sizeof(cl_uint), tallies.data());
  for (std::size_t l = 1; l <= launches; ++l) result.out_of_range += tallies[l];
  return true;
}

}  // namespace

ScatterResult detail::scatter_buffers(Runtime& rt, const ScatterCall& call) {
  const char* what = call.segments ? "segment_reduce" : call.with_arg ? "scatter_reduce_arg" : "scatter_reduce";
  Scatter scatter(rt, call, what);
  scatter.check();
  return scatter.run();
}

const char* strategy_name(ScatterStrategy s) {
  switch (s) {
    case ScatterStrategy::automatic: return "automatic";
    case ScatterStrategy::global_atomics: return "global_atomics";
    case ScatterStrategy::local_private: return "local_private";
    case ScatterStrategy::local_cache: return "local_cache";
  }
  throw std::invalid_argument("clatomics: scatter: options.strategy (" + std::to_string(static_cast<int>(s)) +
                              ") is not a ScatterStrategy");
}

ScatterCapacity scatter_capacity(const Runtime& rt, std::size_t value_bytes, bool deterministic) {
  const Capacity room = capacity_of(rt.device_info(), deterministic ? 16 : std::max<std::size_t>(4, value_bytes));
  ScatterCapacity c;
  c.copies = room.solo ? 1 : std::min<std::size_t>(32, room.group);
  c.private_slots = room.local / room.slot_bytes;
  c.spread_slots = room.local / (room.slot_bytes * c.copies);
  c.cache_slots = room.cache_slots;
  return c;
}

void detail::scatter_size_mismatch(const char* what, std::size_t keys, std::size_t values) {
  refuse(what, "the keys or indices have " + std::to_string(keys) + " elements, the values " + std::to_string(values));
}

detail::HostRows detail::host_rows(const char* what, std::size_t width, bool segments, std::size_t out_elements,
                                   std::size_t index_elements, std::size_t value_elements) {
  HostRows rows;
  if (width == 0) {
    // Rows of no values (segments: out names none, so an offsets array of 0 or 1 entries).
    if (out_elements || value_elements)
      refuse(what, "width 0 with " + std::to_string(out_elements) + " out and " + std::to_string(value_elements) +
                       " value elements; rows of width 0 hold none");
    rows.count = segments ? 0 : index_elements;
    return rows;
  }
  if (out_elements % width)
    refuse(what, "out has " + std::to_string(out_elements) + " elements, not a multiple of width " + std::to_string(width));
  rows.bins = out_elements / width;
  if (value_elements % width)
    refuse(what, "values has " + std::to_string(value_elements) + " elements, not a multiple of width " + std::to_string(width));
  rows.count = value_elements / width;
  if (segments) {
    if (index_elements != rows.bins + 1 && !(rows.bins == 0 && index_elements == 0))
      refuse(what, "offsets has " + std::to_string(index_elements) + " elements, out.size() / width + 1 is " + std::to_string(rows.bins + 1));
  } else if (index_elements != rows.count) {
    scatter_size_mismatch(what, index_elements, rows.count);
  }
  return rows;
}

ScatterResult detail::scatter_host(Runtime& rt, const ScatterCall& call_in, void* out, std::size_t out_elements, const void* indices,
                                   std::size_t index_elements, const void* values, std::size_t value_elements, cl_ulong* arg) {
  ScatterCall call = call_in;
  call.with_arg = call.with_arg || arg != nullptr;
  const char* what = call.segments ? "segment_reduce" : call.with_arg ? "scatter_reduce_arg" : "scatter_reduce";
  const TypeInfo info = type_info(call.type);
  const HostRows rows = host_rows(what, call.rows.width, call.segments, out_elements, index_elements, value_elements);
  call.bins = rows.bins;
  call.count = rows.count;
  if (Scatter::empty(call)) {  // nothing to copy or run: the options' checks alone
    Scatter scatter(rt, call, what);
    scatter.check_options();
    return scatter.run_empty();
  }
  const std::size_t index_size = call.index64 ? 8 : 4;
  const std::size_t out_size = out_bytes(what, call.type, call.out16);
  check_fits(rt, what, "out", out_elements, out_size);
  check_fits(rt, what, call.segments ? "offsets" : "indices", index_elements, index_size);
  check_fits(rt, what, "values", value_elements, info.in_size);
  const auto copy_of = [&](const void* host, std::size_t bytes, cl_mem_flags flags) {
    return detail::make_buffer(rt, bytes, flags, bytes ? host : nullptr);
  };
  const detail::Mem out_buffer = copy_of(out, out_elements * out_size, CL_MEM_READ_WRITE);
  const detail::Mem index_buffer = copy_of(indices, index_elements * index_size, CL_MEM_READ_ONLY);
  const detail::Mem value_buffer = copy_of(values, value_elements * info.in_size, CL_MEM_READ_ONLY);
  const detail::Mem arg_buffer = arg ? detail::make_buffer(rt, call.bins * sizeof(cl_ulong)) : detail::Mem();
  call.out = out_buffer.get();
  call.indices = index_buffer.get();
  call.values = value_buffer.get();
  call.arg = arg_buffer.get();
  call.out_offset = call.indices_offset = call.values_offset = call.arg_offset = 0;
  const ScatterResult result = scatter_buffers(rt, call);
  detail::Commands commands(rt);
  commands.read(out_buffer.get(), 0, out_elements * out_size, out);
  if (arg) commands.read(arg_buffer.get(), 0, call.bins * sizeof(cl_ulong), arg);
  return result;
}

std::size_t detail::reduce_by_key_buffers(Runtime& rt, ScatterType type, bool out16, bool key64, cl_mem keys, std::size_t keys_offset, cl_mem values,
                                          std::size_t values_offset, std::size_t count, cl_mem unique_keys, std::size_t unique_offset,
                                          cl_mem reductions, std::size_t reductions_offset, ScatterOp op, ScatterOptions options) {
  const char* what = "reduce_by_key";
  const TypeInfo info = type_info(type);
  const std::size_t key_size = key64 ? 8 : 4, out_size = out_bytes(what, type, out16);
  using detail::Access;
  const detail::BufferRange keys_range{"reduce_by_key: keys", keys, keys_offset, count, key_size, Access::read};
  const detail::BufferRange values_range{"reduce_by_key: values", values, values_offset, count, info.in_size, Access::read};
  const detail::BufferRange unique_range{"reduce_by_key: unique_keys", unique_keys, unique_offset, count, key_size, Access::write};
  const detail::BufferRange reductions_range{"reduce_by_key: reductions", reductions, reductions_offset, count, out_size, Access::write};
  for (const auto* range : {&keys_range, &values_range, &unique_range, &reductions_range}) detail::check_range(rt, *range);
  for (const auto* out : {&unique_range, &reductions_range}) {
    detail::check_disjoint(*out, keys_range);
    detail::check_disjoint(*out, values_range);
  }
  detail::check_disjoint(unique_range, reductions_range);
  op_macro(what, op);
  if (count == 0) return 0;
  // The runs' offsets (CSR) for the segment reduction; its checks run before anything is enqueued.
  const detail::Mem seg = detail::make_buffer(rt, (count + 1) * sizeof(cl_ulong));
  ScatterCall call;
  call.type = type;
  call.out16 = out16;
  call.index64 = true;
  call.segments = true;
  call.op = op;
  call.options = options;
  call.options.include_self = false;
  call.out = reductions;
  call.out_offset = reductions_offset;
  call.bins = count;  // at most count runs
  call.indices = seg.get();
  call.values = values;
  call.values_offset = values_offset;
  call.count = count;
  Scatter(rt, call, what).check();

  // Heads (a key unlike the one before) counted per block, their offsets scanned on the host,
  // then every block writes its runs' first positions and keys, and the block of the last key the end.
  const detail::Program program = detail::build_library_file(rt, "kernels/scatter_checks.cl", type_options(info, key64));
  const detail::LibraryKernel count_kernel = detail::make_kernel(program, rbk_count_kernel);
  const detail::LibraryKernel heads_kernel = detail::make_kernel(program, rbk_heads_kernel);
  const std::size_t group = std::min({std::size_t(256), detail::kernel_group_limit(rt, count_kernel), detail::kernel_group_limit(rt, heads_kernel)});
  const std::size_t block = detail::floor_pow2(group) * 8;  // CLAT_SC_RBK_K elements per work-item
  const std::size_t nblocks = (count + block - 1) / block;
  detail::Grid grid;
  grid.group = block / 8;
  grid.groups = nblocks;
  detail::Commands commands(rt);
  const detail::Mem block_counts = detail::make_buffer(rt, nblocks * sizeof(cl_uint));
  detail::bind(count_kernel, detail::arg("keys", keys), detail::arg("off", cl_ulong(keys_offset)), detail::arg("n", cl_ulong(count)),
               detail::arg("block_counts", block_counts), detail::arg("scratch", detail::LocalBytes{grid.group * sizeof(cl_uint)}));
  commands.launch(count_kernel, grid);
  std::vector<cl_uint> heads(nblocks);
  commands.read(block_counts.get(), 0, nblocks * sizeof(cl_uint), heads.data());
  std::vector<cl_ulong> block_offsets(nblocks);
  cl_ulong runs = 0;
  for (std::size_t b = 0; b < nblocks; ++b) {
    block_offsets[b] = runs;
    runs += heads[b];
  }
  const detail::Mem offsets = detail::make_buffer(rt, nblocks * sizeof(cl_ulong), CL_MEM_READ_ONLY, block_offsets.data());
  detail::bind(heads_kernel, detail::arg("keys", keys), detail::arg("off", cl_ulong(keys_offset)), detail::arg("n", cl_ulong(count)),
               detail::arg("block_offsets", offsets), detail::arg("seg", seg), detail::arg("unique", unique_keys),
               detail::arg("unique_off", cl_ulong(unique_offset)), detail::arg("scratch", detail::LocalBytes{grid.group * sizeof(cl_uint)}));
  commands.launch(heads_kernel, grid);  // seg[runs] = count too
  call.bins = std::size_t(runs);
  Scatter scatter(rt, call, what);
  scatter.check();
  scatter.run();
  return std::size_t(runs);
}

std::size_t detail::reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values, std::size_t count,
                                       void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options) {
  const TypeInfo info = type_info(type);
  const std::size_t key_size = key64 ? 8 : 4, out_size = out_bytes("reduce_by_key", type, out16);
  op_macro("reduce_by_key", op);
  if (count == 0) return 0;
  check_fits(rt, "reduce_by_key", "keys", count, key_size);
  check_fits(rt, "reduce_by_key", "values", count, std::max(info.in_size, out_size));
  const detail::Mem key_buffer = detail::make_buffer(rt, count * key_size, CL_MEM_READ_ONLY, keys);
  const detail::Mem value_buffer = detail::make_buffer(rt, count * info.in_size, CL_MEM_READ_ONLY, values);
  const detail::Mem unique_buffer = detail::make_buffer(rt, count * key_size);
  const detail::Mem reduction_buffer = detail::make_buffer(rt, count * out_size);
  const std::size_t runs = reduce_by_key_buffers(rt, type, out16, key64, key_buffer.get(), 0, value_buffer.get(), 0, count, unique_buffer.get(), 0,
                                                 reduction_buffer.get(), 0, op, options);
  detail::Commands commands(rt);
  commands.read(unique_buffer.get(), 0, runs * key_size, unique_keys);
  commands.read(reduction_buffer.get(), 0, runs * out_size, reductions);
  return runs;
}

}  // namespace clatomics
