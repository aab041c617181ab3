// clatomics/scatter.hpp — scatter-reduce (`out[idx[i]] op= values[i]`, np.add.at, index_add_),
// segment reductions over CSR offsets, and reduce_by_key over sorted keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"

namespace clatomics {

// 16-bit float values, stored as their bits; accumulated in float (see scatter_output_t for
// what is written).
struct half_t {
  cl_ushort bits;
};
struct bfloat16_t {
  cl_ushort bits;
};

// mean: the sum divided by the number of values (integers: rounded toward minus infinity, as
// PyTorch's scatter_reduce "mean").
enum class ScatterOp { sum, prod, min, max, mean };

// Every strategy first folds runs of equal consecutive indices in registers (what makes sorted
// indices and a single bin cheap); they differ in where a finished run goes.
enum class ScatterStrategy {
  automatic,       // from the bins, the device and a sample of the indices: see below
  global_atomics,  // one atomic on the output per run (warp-aggregated on NVIDIA)
  local_private,   // every work-group keeps copies of the whole output in __local memory and
                   // merges them with one atomic per slot: bins * width must fit
  local_cache,     // every work-group keeps the bins it meets first in a tagged __local table
                   // (hot bins stay there), the others go to the output by global atomics
};
// automatic: local_private when the bins fit in __local memory; else local_cache when a sample of
// 4096 indices shows hot bins (at least a fifth of the sample, and twice what spread indices
// would put there, on bins seen twice or more; the sample not sorted); else global_atomics.

enum class OutOfRange {
  count,   // an index >= bins is skipped and counted (ScatterResult::out_of_range)
  refuse,  // the indices are checked first: any index >= bins throws std::invalid_argument
           // before the output is touched (one more pass over the indices)
};

// NaN in floating-point min and max (float, double, half, bfloat16).
enum class NanRule {
  propagate,  // a NaN reaching a bin (a value, or out's own with include_self) makes it NaN, as
              // torch.scatter_reduce_ amax/amin and np.maximum.at / np.minimum.at
  missing,    // NaN is missing data: max(1, NaN) = 1, NaN only where every value is (np.fmax.at /
              // np.fmin.at, clat_atomic_min/max and reduce)
};

struct ScatterOptions {
  // true: out's own values take part (out = out op values...); false: each bin that receives a
  // value gets the reduction of its values alone, bins that receive none keep their values
  // (PyTorch's scatter_reduce include_self).
  bool include_self = true;
  // A hint: the indices never decrease. Results are correct either way.
  bool indices_are_sorted = false;
  // float/double/half/bfloat16 sum and mean: bit-identical results on every run and strategy.
  // The values of a call are summed in 128-bit fixed point scaled to its largest magnitude
  // (integer adds: their order does not matter), then rounded to the output type: the exact sum
  // rounded about once, for values within 2^44 (double) or 2^73 (float) of the largest one;
  // smaller ones are rounded to a step of the largest magnitude times 2^-100. With include_self,
  // out's own value joins that exact sum when it is no larger than the grid allows; a larger
  // one is added to the values' rounded sum (two roundings); a bin whose values add to exactly
  // 0 (or that none reached) keeps a nonzero own value as it is. A sum of exactly 0 is +0 (the
  // fast mode gives -0 where every addend was -0). NaN and infinities
  // give what IEEE sums give (NaN, or the infinity). Integer ops and min/max are deterministic in
  // every mode; prod of floating-point values has no deterministic mode (std::invalid_argument).
  // Needs cl_khr_fp64 and 64-bit atomics.
  bool deterministic = false;
  OutOfRange out_of_range = OutOfRange::count;
  ScatterStrategy strategy = ScatterStrategy::automatic;
  // min/max of floating-point values (every entry point: scatter_reduce, scatter_reduce_arg,
  // segment_reduce, reduce_by_key, the DeviceGroup form; deterministic or not: min/max are exact
  // either way). -0 orders below +0 under both rules. A NaN result is written as the positive
  // quiet NaN (0x7fc00000 float, 0x7ff8000000000000 double: std::numeric_limits' quiet_NaN on
  // common hosts); a bin no value reaches keeps out's value, its NaN's bits included.
  NanRule nan = NanRule::propagate;
};

// "automatic", "global_atomics", "local_private", "local_cache"; std::invalid_argument for a
// value outside the enum.
const char* strategy_name(ScatterStrategy strategy);

struct ScatterResult {
  std::uint64_t out_of_range = 0;  // elements skipped for an index >= bins
  ScatterStrategy strategy = ScatterStrategy::automatic;  // the strategy that ran
};

// Row layout: element i holds `width` values at values[i * value_stride + d], d < width, and
// bin b is out[b * out_stride + d]. Strides 0 mean width (contiguous rows). A plain number is a
// width: scatter_reduce(rt, out, indices, values, op, {}, 4) reduces rows of 4.
struct Rows {
  std::size_t width = 1;
  std::size_t value_stride = 0;
  std::size_t out_stride = 0;
  Rows(std::size_t width = 1, std::size_t value_stride = 0, std::size_t out_stride = 0)  // NOLINT: a width converts
      : width(width), value_stride(value_stride), out_stride(out_stride) {}
};

// The output element type for values of type V: V itself. half_t and bfloat16_t values are
// accumulated in float; a 16-bit output (the default, as a half tensor's scatter_reduce_ gives
// half in PyTorch) holds each result rounded once to the 16-bit type at the end (round to
// nearest even, NaN stays NaN, half overflows to inf). A float output is the second choice for
// 16-bit values: the float accumulation written as it is, unrounded (views: View<float> out;
// host vectors: std::vector<float> out; reduce_by_key's host form: O = float). Either way out's
// own values (include_self) enter exactly, as widening a 16-bit value to float is exact.
// Deterministic sums and means into a 16-bit output round twice (ScatterOptions::deterministic's
// result in float, then that float to 16 bits): still the same bits on every run and strategy.
template <class V>
using scatter_output_t = V;

namespace detail {
template <class V>
constexpr bool scatter_sixteen_bits() {
  return std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>;
}
// Whether an output of O for values of V is a 16-bit one (rounded from float at the end); an
// output type the values cannot have does not compile.
template <class O, class V>
constexpr bool scatter_out16() {
  static_assert(std::is_same_v<O, V> || (scatter_sixteen_bits<V>() && std::is_same_v<O, float>),
                "clatomics: scatter: out's elements must be of the values' type (or float for half_t and bfloat16_t values)");
  return scatter_sixteen_bits<V>() && std::is_same_v<O, V>;
}
enum class ScatterType { f32, f64, i32, u32, i64, u64, f16, bf16 };
template <class V>
constexpr ScatterType scatter_type_of() {
  if constexpr (std::is_same_v<V, float>) return ScatterType::f32;
  else if constexpr (std::is_same_v<V, double>) return ScatterType::f64;
  else if constexpr (std::is_same_v<V, cl_int>) return ScatterType::i32;
  else if constexpr (std::is_same_v<V, cl_uint>) return ScatterType::u32;
  else if constexpr (std::is_same_v<V, cl_long>) return ScatterType::i64;
  else if constexpr (std::is_same_v<V, cl_ulong>) return ScatterType::u64;
  else if constexpr (std::is_same_v<V, half_t>) return ScatterType::f16;
  else {
    static_assert(std::is_same_v<V, bfloat16_t>, "scatter values: float, double, cl_int, cl_uint, cl_long, cl_ulong, half_t, bfloat16_t");
    return ScatterType::bf16;
  }
}
template <class I>
constexpr bool scatter_index64() {
  static_assert(std::is_same_v<I, cl_uint> || std::is_same_v<I, cl_ulong>, "scatter indices, offsets and keys: cl_uint or cl_ulong");
  return std::is_same_v<I, cl_ulong>;
}

// One call, as the entry points describe it. Element positions are relative to values_offset.
struct ScatterCall {
  ScatterType type = ScatterType::f32;
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;
  Rows rows;
  cl_mem out = nullptr;
  std::size_t out_offset = 0, bins = 0;
  // Where element i goes: indices[indices_offset + i], or (segments) the s with
  // offsets[s] <= i < offsets[s + 1], s < bins (offsets: bins + 1 entries at offsets_offset).
  bool segments = false, index64 = false;
  cl_mem indices = nullptr;
  std::size_t indices_offset = 0;
  cl_mem values = nullptr;
  std::size_t values_offset = 0, count = 0;
  // out holds the values' 16-bit type (half_t, bfloat16_t): the call accumulates into float
  // scratch widened from out and rounds each slot once into out at the end. Otherwise out holds
  // the values' type, float for 16-bit values.
  bool out16 = false;
  bool with_arg = false;  // argmin/argmax into arg: cl_ulong positions, bins of them
  cl_mem arg = nullptr;
  std::size_t arg_offset = 0;
};
ScatterResult scatter_buffers(Runtime& rt, const ScatterCall& call);
// A call's types (as ScatterCall names them), op and options; the entry points fill in its
// buffers and sizes.
inline ScatterCall scatter_call(ScatterType type, bool out16, bool index64, ScatterOp op, const ScatterOptions& options, bool segments) {
  ScatterCall call;
  call.type = type, call.out16 = out16, call.index64 = index64;
  call.segments = segments, call.op = op, call.options = options;
  return call;
}
// The same from the entry point's element types.
template <class V, class I, class O = V>
ScatterCall scatter_call(ScatterOp op, const ScatterOptions& options, bool segments = false) {
  return scatter_call(scatter_type_of<V>(), scatter_out16<O, V>(), scatter_index64<I>(), op, options, segments);
}
// A call with its buffer ranges.
inline ScatterCall with_ranges(ScatterCall call, cl_mem out, std::size_t out_offset, std::size_t bins, cl_mem indices,
                               std::size_t indices_offset, cl_mem values, std::size_t values_offset, std::size_t count) {
  call.out = out, call.out_offset = out_offset, call.bins = bins;
  call.indices = indices, call.indices_offset = indices_offset;
  call.values = values, call.values_offset = values_offset, call.count = count;
  return call;
}
template <class V, class I, class O = V>
ScatterCall scatter_call(ScatterOp op, const ScatterOptions& options, bool segments, cl_mem out, std::size_t out_offset,
                         std::size_t bins, cl_mem indices, std::size_t indices_offset, cl_mem values, std::size_t values_offset,
                         std::size_t count) {
  return with_ranges(scatter_call<V, I, O>(op, options, segments), out, out_offset, bins, indices, indices_offset, values, values_offset,
                     count);
}
// Host data: out is read and written back; indices (or offsets) and values are copied in.
ScatterResult scatter_host(Runtime& rt, const ScatterCall& call, void* out, std::size_t out_elements, const void* indices,
                           std::size_t index_elements, const void* values, std::size_t value_elements, cl_ulong* arg);
// One reduce_by_key call on device buffers: count keys and values, and room for count unique keys
// and reductions. out16: the reductions are of the values' 16-bit type (ScatterCall::out16).
struct KeysCall {
  ScatterType type = ScatterType::f32;
  bool out16 = false, key64 = false;
  cl_mem keys = nullptr;
  std::size_t keys_offset = 0;
  cl_mem values = nullptr;
  std::size_t values_offset = 0, count = 0;
  cl_mem unique_keys = nullptr;
  std::size_t unique_offset = 0;
  cl_mem reductions = nullptr;
  std::size_t reductions_offset = 0;
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;
};
// run_starts (when given): each run's first position and then count, runs + 1 of them (what a
// device group needs to join the runs of its parts).
std::size_t reduce_by_key_buffers(Runtime& rt, const KeysCall& call, std::vector<cl_ulong>* run_starts = nullptr);
Plan reduce_by_key_plan(Runtime& rt, const KeysCall& call);
std::size_t reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values, std::size_t count,
                               void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options);
[[noreturn]] void scatter_size_mismatch(const char* what, std::size_t keys, std::size_t values);
// Host data's rows, checked as every host-data form checks them: out holds `bins` rows of width,
// values `count` rows, with one index a row (segments: bins + 1 offsets, or none when bins is
// 0). Rows of width 0 hold no values: out and values empty, any number of indices (count).
struct HostRows {
  std::size_t bins = 0, count = 0;
};
HostRows host_rows(const char* what, std::size_t width, bool segments, std::size_t out_elements, std::size_t index_elements,
                   std::size_t value_elements);
}  // namespace detail

// Contracts of every entry point below (README, "Contracts"): std::invalid_argument before
// anything is enqueued, and the output untouched, for a null buffer or one whose flags forbid
// its role, a view beyond its buffer, a stride below the width, views whose lengths do not fit
// together, an output sharing memory with an input, an op or option outside its enum, double
// values on a device without fp64, an option the call cannot honour (the message quotes the
// offending values). Any buffer alignment and out-of-order queues are fine, as for every
// algorithm. Device data comes as views (clatomics/view.hpp), which carry their element types:
// an index buffer of cl_ulong is read as cl_ulong, and an output of the wrong type does not
// compile.
// Empty outputs are no error (NumPy and PyTorch give empty results): bins == 0 (no segments) or
// rows of width 0 return at once, enqueueing nothing and touching no buffer (the buffers and
// options are still checked). With bins == 0 every index is out of range: they are counted in
// ScatterResult::out_of_range, or with OutOfRange::refuse (and any index) refused as torch
// refuses an index out of range. Width 0: no values, nothing counted or refused.

namespace detail {
// The whole rows of `width` a view of `count` elements holds when a row starts every `stride`
// elements (the last row needs only its width: tight and pitched layouts both count).
inline std::size_t rows_in(std::size_t count, std::size_t width, std::size_t stride) {
  return count < width || width == 0 ? 0 : (count - width) / stride + 1;
}
// A call over views: out holds `bins` rows (bins + 1 offsets for segments), values one row an
// index; the output type must be the values' own, or float for half_t and bfloat16_t
// (scatter_output_t says which is which).
template <class O, class I, class V>
ScatterCall view_call(const char* what, ScatterOp op, const ScatterOptions& options, bool segments, const View<O>& out,
                      const View<I>& indices, const View<V>& values, const Rows& rows) {
  const auto refuse = [&](const std::string& why) { throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why); };
  const std::size_t width = rows.width, vs = rows.value_stride ? rows.value_stride : width;
  const std::size_t os = rows.out_stride ? rows.out_stride : width;
  // Rows of width 0 hold nothing: out and values must be empty, and the call does nothing.
  if (width == 0 && (out.count() || values.count()))
    refuse("width 0 with " + std::to_string(out.count()) + " out and " + std::to_string(values.count()) +
           " value elements; rows of width 0 hold none");
  // Contiguous rows must fill their views; pitched ones may end after the last row's width.
  if (width && vs == width && values.count() % width)
    refuse("values hold " + std::to_string(values.count()) + " elements, not whole rows of " + std::to_string(width));
  if (width && os == width && out.count() % width)
    refuse("out holds " + std::to_string(out.count()) + " elements, not whole rows of " + std::to_string(width));
  const std::size_t bins = rows_in(out.count(), width, os);
  const std::size_t value_rows = width ? rows_in(values.count(), width, vs) : segments ? 0 : indices.count();
  if (!segments && indices.count() != value_rows)
    refuse(std::to_string(indices.count()) + " indices for " + std::to_string(value_rows) + " rows of values; one index a row");
  // No segments: an offsets view of 0 or 1 entries (none is read).
  if (segments && width && indices.count() != bins + 1 && !(bins == 0 && indices.count() == 0))
    refuse(std::to_string(indices.count()) + " offsets for " + std::to_string(bins) + " segments; segments + 1 are needed");
  ScatterCall call = scatter_call<V, I, O>(op, options, segments, out.handle(), out.offset(), bins, indices.handle(), indices.offset(),
                                        values.handle(), values.offset(), value_rows);
  call.rows = Rows(width, rows.value_stride, rows.out_stride);
  return call;
}
}  // namespace detail

// out[indices[i] * out_stride + d] op= values[i * value_stride + d] for each index i and d <
// rows.width (every position relative to its view). out: bins rows of V (View<half_t> for
// half_t values: rounded to 16 bits once; View<float>: the float accumulation);
// indices: cl_uint or cl_ulong, one a row of values. Floating-point min and max propagate NaN by
// default (options.nan) and order -0 below +0; a bin no index reaches keeps its value (PyTorch's
// scatter_reduce rule, include_self either way).
//   scatter_reduce(rt, view<float>(out), view<cl_uint>(idx), view<float>(val), ScatterOp::sum)
template <class O, class I, class V>
ScatterResult scatter_reduce(Runtime& rt, const View<O>& out, const View<I>& indices, const View<V>& values, ScatterOp op,
                             ScatterOptions options = {}, Rows rows = {}) {
  return detail::scatter_buffers(rt, detail::view_call("scatter_reduce", op, options, false, out, indices, values, rows));
}

// What scatter_reduce() with these arguments would run on rt's device (clatomics/plan.hpp): the
// call's checks and the sample of its indices (read on the device) run, nothing is written.
namespace detail {
Plan scatter_plan(Runtime& rt, const ScatterCall& call);
}
template <class O, class I, class V>
Plan plan_scatter_reduce(Runtime& rt, const View<O>& out, const View<I>& indices, const View<V>& values, ScatterOp op,
                         ScatterOptions options = {}, Rows rows = {}) {
  return detail::scatter_plan(rt, detail::view_call("scatter_reduce", op, options, false, out, indices, values, rows));
}

// Host data: bins = out.size() / width (out.size() must be a multiple of width, values.size()
// = indices.size() * width). The std::vector overloads copy their arrays to the device whole
// (the output stays there while every value reaches it): an array larger than one device buffer
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE) is refused with std::invalid_argument; use views of its parts.
// out: of V, or float for 16-bit values.
template <class V, class I, class O>
ScatterResult scatter_reduce(Runtime& rt, std::vector<O>& out, const std::vector<I>& indices, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options);
  call.rows.width = width;
  return detail::scatter_host(rt, call, out.data(), out.size(), indices.data(), indices.size(), values.data(), values.size(), nullptr);
}

// argmin / argmax (op ScatterOp::min or max, one value a row): out as scatter_reduce gives it,
// and arg[b] = the lowest position i (in values) whose value is out[b] afterwards, or the
// number of values when no element reached it (no values, or out's own value won with
// include_self). arg holds one position a bin; the device lowers it with atomics, so it reads arg
// too (a CL_MEM_WRITE_ONLY arg is refused, as out is). Needs 64-bit atomics.
template <class O, class I, class V>
ScatterResult scatter_reduce_arg(Runtime& rt, const View<O>& out, const View<cl_ulong>& arg, const View<I>& indices, const View<V>& values,
                                 ScatterOp op, ScatterOptions options = {}) {
  detail::ScatterCall call = detail::view_call("scatter_reduce_arg", op, options, false, out, indices, values, Rows{});
  if (arg.count() != call.bins)
    throw std::invalid_argument("clatomics: scatter_reduce_arg: arg holds " + std::to_string(arg.count()) + " positions for " +
                                std::to_string(call.bins) + " bins; one a bin");
  call.with_arg = true;
  call.arg = arg.handle();
  call.arg_offset = arg.offset();
  return detail::scatter_buffers(rt, call);
}
// Host data: returns arg (out.size() positions).
template <class V, class I, class O>
std::vector<cl_ulong> scatter_reduce_arg(Runtime& rt, std::vector<O>& out, const std::vector<I>& indices,
                                         const std::vector<V>& values, ScatterOp op, ScatterOptions options = {},
                                         ScatterResult* result = nullptr) {
  detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options);
  call.with_arg = true;  // arg.data() may be null when out is empty
  std::vector<cl_ulong> arg(out.size());
  const ScatterResult r =
      detail::scatter_host(rt, call, out.data(), out.size(), indices.data(), indices.size(), values.data(), values.size(), arg.data());
  if (result) *result = r;
  return arg;
}

// Segments given by CSR offsets (cl_uint or cl_ulong, segments + 1 of them, never decreasing):
// out[s] op= the rows of values from offsets[s] to offsets[s + 1] (positions in values, rows as
// in scatter_reduce), with out holding `segments` rows; rows outside [offsets[0],
// offsets[segments]) take no part. Offsets that decrease or pass the rows values hold throw
// std::invalid_argument (checked on the device, before out is touched). A segment with no
// values (offsets[s] == offsets[s + 1]) gets the empty reduction when include_self is false, as
// torch_scatter's segment_csr writes it: 0 for sum, mean, min and max, 1 for prod (typed: +0.0
// for floating point); with include_self it keeps out's value (out op nothing). scatter_reduce's
// bins differ: a bin no index reaches keeps its value (PyTorch). No segments: nothing is read
// (the offsets included) or written.
template <class O, class I, class V>
ScatterResult segment_reduce(Runtime& rt, const View<O>& out, const View<I>& offsets, const View<V>& values, ScatterOp op,
                             ScatterOptions options = {}, Rows rows = {}) {
  return detail::scatter_buffers(rt, detail::view_call("segment_reduce", op, options, true, out, offsets, values, rows));
}
// What segment_reduce() with these arguments would run on rt's device (clatomics/plan.hpp): the
// call's checks run but the device's check of the offsets; nothing is read on the device or
// written (segments need no sample of their indices).
template <class O, class I, class V>
Plan plan_segment_reduce(Runtime& rt, const View<O>& out, const View<I>& offsets, const View<V>& values, ScatterOp op,
                         ScatterOptions options = {}, Rows rows = {}) {
  return detail::scatter_plan(rt, detail::view_call("segment_reduce", op, options, true, out, offsets, values, rows));
}
// Host data: offsets.size() = out.size() / width + 1 (or 0 when out is empty).
template <class V, class O, class Out>
ScatterResult segment_reduce(Runtime& rt, std::vector<Out>& out, const std::vector<O>& offsets, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::ScatterCall call = detail::scatter_call<V, O, Out>(op, options, true);
  call.rows.width = width;
  return detail::scatter_host(rt, call, out.data(), out.size(), offsets.data(), offsets.size(), values.data(), values.size(), nullptr);
}

namespace detail {
// A reduce_by_key call over views, their lengths checked.
template <class K, class V, class O>
KeysCall keys_call(const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions, ScatterOp op,
                   const ScatterOptions& options) {
  require_same_count("reduce_by_key: keys and values", keys, values);
  require_view_holds("reduce_by_key: unique_keys", unique_keys, keys.count());
  require_view_holds("reduce_by_key: reductions", reductions, keys.count());
  // Every view's whole range, in the order the call checks its arguments.
  require_view_in_buffer("reduce_by_key: keys", keys);
  require_view_in_buffer("reduce_by_key: values", values);
  require_view_in_buffer("reduce_by_key: unique_keys", unique_keys);
  require_view_in_buffer("reduce_by_key: reductions", reductions);
  KeysCall call;
  call.type = scatter_type_of<V>();
  call.out16 = scatter_out16<O, V>();  // O: V, or float for 16-bit values
  call.key64 = scatter_index64<K>();
  call.keys = keys.handle(), call.keys_offset = keys.offset();
  call.values = values.handle(), call.values_offset = values.offset(), call.count = keys.count();
  call.unique_keys = unique_keys.handle(), call.unique_offset = unique_keys.offset();
  call.reductions = reductions.handle(), call.reductions_offset = reductions.offset();
  call.op = op;
  call.options = options;
  return call;
}
}  // namespace detail

// Runs of equal consecutive keys (K: cl_uint or cl_ulong; sorted keys give unique keys), as
// thrust::reduce_by_key: unique_keys[u] is the key of run u and reductions[u] the reduction of
// its values (options.include_self is ignored: the outputs start empty; options.nan applies).
// Returns the number of runs (0 for no keys). unique_keys and reductions must hold keys.count()
// elements. The runs are reduced into reductions with atomics, so the device reads it too (a
// CL_MEM_WRITE_ONLY reductions buffer is refused).
template <class K, class V, class O>
std::size_t reduce_by_key(Runtime& rt, const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions,
                          ScatterOp op, ScatterOptions options = {}) {
  return detail::reduce_by_key_buffers(rt, detail::keys_call(keys, values, unique_keys, reductions, op, options));
}
// What reduce_by_key() with these arguments would run on rt's device (clatomics/plan.hpp): the
// reduction of the runs, as segment_reduce's plan gives it, after the call's checks and the count
// of the runs (the keys are read on the device, nothing is written); the runs' kernels and their
// count among the tuning values. No keys: nothing would run, and the plan is the strategy alone.
template <class K, class V, class O>
Plan plan_reduce_by_key(Runtime& rt, const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions,
                        ScatterOp op, ScatterOptions options = {}) {
  return detail::reduce_by_key_plan(rt, detail::keys_call(keys, values, unique_keys, reductions, op, options));
}
// Host data: the reductions of O (scatter_output_t<V>, or float for 16-bit values:
// reduce_by_key<cl_uint, half_t, float>).
template <class K, class V, class O = scatter_output_t<V>>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(Runtime& rt, const std::vector<K>& keys, const std::vector<V>& values,
                                                        ScatterOp op, ScatterOptions options = {}) {
  constexpr bool out16 = detail::scatter_out16<O, V>();
  if (keys.size() != values.size()) detail::scatter_size_mismatch("reduce_by_key", keys.size(), values.size());
  std::pair<std::vector<K>, std::vector<O>> result(keys.size(), keys.size());
  const std::size_t runs = detail::reduce_by_key_host(rt, detail::scatter_type_of<V>(), out16, detail::scatter_index64<K>(), keys.data(),
                                                      values.data(), keys.size(), result.first.data(), result.second.data(), op, options);
  result.first.resize(runs);
  result.second.resize(runs);
  return result;
}

// How much of an output scatter_reduce keeps in __local memory on rt's device (what `clatomics
// info` prints), for outputs of value_bytes (4: float, int, uint, half, bfloat16; 8: double,
// long, ulong) in the fast or the deterministic mode (16-byte slots), sum/prod/min/max with
// include_self (mean and include_self false count elements too: 4 bytes more a slot).
struct ScatterCapacity {
  std::size_t private_slots = 0;  // local_private takes bins * width up to this many
  std::size_t spread_slots = 0;   // ... with `copies` bank-spread copies up to this many
  std::size_t copies = 1;
  std::size_t cache_slots = 0;    // local_cache's table (0: none fits)
};
ScatterCapacity scatter_capacity(const Runtime& rt, std::size_t value_bytes, bool deterministic = false);

}  // namespace clatomics
