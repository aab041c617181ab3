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
};

// "automatic", "global_atomics", "local_private", "local_cache"; std::invalid_argument for a
// value outside the enum.
const char* strategy_name(ScatterStrategy strategy);

struct ScatterResult {
  std::uint64_t out_of_range = 0;  // elements skipped for an index >= bins
  ScatterStrategy strategy = ScatterStrategy::automatic;  // the strategy that ran
};

// Row layout: element i holds `width` values at values[i * value_stride + d], d < width, and
// bin b is out[b * out_stride + d]. Strides 0 mean width (contiguous rows).
struct Rows {
  std::size_t width = 1;
  std::size_t value_stride = 0;
  std::size_t out_stride = 0;
};

// The output element type for values of type V: V itself. half_t and bfloat16_t values are
// accumulated in float as before; a 16-bit output (the default, as a half tensor's
// scatter_reduce_ gives half in PyTorch) holds each result rounded once to the 16-bit type at the
// end (round to nearest even, NaN stays NaN, half overflows to inf). A float output is the
// second choice for 16-bit values: the float accumulation written as it is, unrounded (views:
// View<float> out; cl::Buffer calls: O = float; host vectors: std::vector<float> out;
// reduce_by_key's host form: O = float). Either way out's own values (include_self) enter
// exactly, as widening a 16-bit value to float is exact. Deterministic sums and means into a
// 16-bit output round twice (ScatterOptions::deterministic's result in float, then that float to
// 16 bits): still the same bits on every run and strategy.
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
// A call's types, op and options; the entry points fill in its buffers and sizes.
template <class V, class I, class O = V>
ScatterCall scatter_call(ScatterOp op, const ScatterOptions& options, bool segments = false) {
  ScatterCall call;
  call.type = scatter_type_of<V>();
  call.out16 = scatter_out16<O, V>();
  call.index64 = scatter_index64<I>();
  call.segments = segments;
  call.op = op;
  call.options = options;
  return call;
}
// The same with the buffer ranges of the cl::Buffer entry points.
template <class V, class I, class O = V>
ScatterCall scatter_call(ScatterOp op, const ScatterOptions& options, bool segments, cl_mem out, std::size_t out_offset,
                         std::size_t bins, cl_mem indices, std::size_t indices_offset, cl_mem values, std::size_t values_offset,
                         std::size_t count) {
  ScatterCall call = scatter_call<V, I, O>(op, options, segments);
  call.out = out;
  call.out_offset = out_offset;
  call.bins = bins;
  call.indices = indices;
  call.indices_offset = indices_offset;
  call.values = values;
  call.values_offset = values_offset;
  call.count = count;
  return call;
}
// Host data: out is read and written back; indices (or offsets) and values are copied in.
ScatterResult scatter_host(Runtime& rt, const ScatterCall& call, void* out, std::size_t out_elements, const void* indices,
                           std::size_t index_elements, const void* values, std::size_t value_elements, cl_ulong* arg);
// out16: the reductions are of the values' 16-bit type (ScatterCall::out16).
std::size_t reduce_by_key_buffers(Runtime& rt, ScatterType type, bool out16, bool key64, cl_mem keys, std::size_t keys_offset, cl_mem values,
                                  std::size_t values_offset, std::size_t count, cl_mem unique_keys, std::size_t unique_offset,
                                  cl_mem reductions, std::size_t reductions_offset, ScatterOp op, ScatterOptions options);
std::size_t reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values, std::size_t count,
                               void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options);
[[noreturn]] void scatter_size_mismatch(const char* what, std::size_t keys, std::size_t values);
}  // namespace detail

// Contracts of every entry point below (README, "Contracts"): std::invalid_argument before
// anything is enqueued, and the output untouched, for a null buffer or one whose flags forbid
// its role, a range beyond its buffer or overflowing size_t, bins == 0, a width of 0 or a stride
// below it, an output sharing memory with an input, an op outside ScatterOp, double values on a
// device without fp64, an option the call cannot honour (named in the message). Any buffer
// alignment and out-of-order queues are fine, as for every algorithm.

// out[out_offset + indices[i] * out_stride + d] op= values[values_offset + i * value_stride + d]
// for i < count, d < rows.width. out: `bins` rows of O (scatter_output_t<V>, or float for 16-bit
// values: scatter_reduce<half_t, cl_uint, float>); indices: cl_uint or cl_ulong. float/double
// min and max treat NaN as missing data and order -0 below +0 (as clat_atomic_min/max and
// reduce do); a bin of no values keeps its value.
template <class V, class I, class O = scatter_output_t<V>>
ScatterResult scatter_reduce(Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& indices,
                             std::size_t indices_offset, const cl::Buffer& values, std::size_t values_offset, std::size_t count,
                             ScatterOp op, ScatterOptions options = {}, Rows rows = {}) {
  detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options, false, out(), out_offset, bins, indices(), indices_offset,
                                                        values(), values_offset, count);
  call.rows = rows;
  return detail::scatter_buffers(rt, call);
}

// Host data: bins = out.size() / width (out.size() must be a multiple of width, values.size()
// = indices.size() * width). The std::vector overloads copy their arrays to the device whole
// (the output stays there while every value reaches it): an array larger than one device buffer
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE) is refused with std::invalid_argument; use the cl::Buffer
// overloads on parts of it. out: of V (scatter_output_t<V>), or float for 16-bit values.
template <class V, class I, class O>
ScatterResult scatter_reduce(Runtime& rt, std::vector<O>& out, const std::vector<I>& indices, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options);
  call.rows.width = width;
  return detail::scatter_host(rt, call, out.data(), out.size(), indices.data(), indices.size(), values.data(), values.size(), nullptr);
}

namespace detail {
// A call over views: out holds rows of `width` (its count a multiple of width), values hold
// `rows` rows; the output type must be the values' own, or float for half_t and bfloat16_t
// (scatter_output_t says which is which).
template <class O, class I, class V>
ScatterCall view_call(const char* what, ScatterOp op, const ScatterOptions& options, bool segments, const View<O>& out,
                      const View<I>& indices, const View<V>& values, std::size_t width) {
  const auto refuse = [&](const std::string& why) { throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why); };
  if (width == 0) refuse("a row width of 0");
  if (out.count() % width) refuse("out holds " + std::to_string(out.count()) + " elements, not whole rows of " + std::to_string(width));
  if (values.count() % width) refuse("values hold " + std::to_string(values.count()) + " elements, not whole rows of " + std::to_string(width));
  const std::size_t rows = values.count() / width, bins = out.count() / width;
  if (!segments && indices.count() != rows)
    refuse(std::to_string(indices.count()) + " indices for " + std::to_string(rows) + " rows of values; one index a row");
  if (segments && indices.count() != bins + 1)
    refuse(std::to_string(indices.count()) + " offsets for " + std::to_string(bins) + " segments; segments + 1 are needed");
  ScatterCall call = scatter_call<V, I, O>(op, options, segments, out.handle(), out.offset(), bins, indices.handle(), indices.offset(),
                                        values.handle(), values.offset(), rows);
  call.rows.width = width;
  return call;
}
}  // namespace detail

// Views (clatomics/view.hpp): every type comes from the arguments, so an index buffer of
// cl_ulong is read as cl_ulong, and an output of the wrong type does not compile.
// out: bins rows of width outputs (View<half_t> for half_t values: rounded to 16 bits once;
// View<float>: the float accumulation); indices: one a row of values (cl_uint or cl_ulong).
//   scatter_reduce(rt, view<float>(out), view<cl_uint>(idx), view<float>(val), ScatterOp::sum)
template <class O, class I, class V>
ScatterResult scatter_reduce(Runtime& rt, const View<O>& out, const View<I>& indices, const View<V>& values, ScatterOp op,
                             ScatterOptions options = {}, std::size_t width = 1) {
  return detail::scatter_buffers(rt, detail::view_call("scatter_reduce", op, options, false, out, indices, values, width));
}
// Segments over views: offsets holds segments + 1 CSR offsets (cl_uint or cl_ulong), out
// `segments` rows of width.
template <class O, class I, class V>
ScatterResult segment_reduce(Runtime& rt, const View<O>& out, const View<I>& offsets, const View<V>& values, ScatterOp op,
                             ScatterOptions options = {}, std::size_t width = 1) {
  return detail::scatter_buffers(rt, detail::view_call("segment_reduce", op, options, true, out, offsets, values, width));
}

// argmin / argmax (op ScatterOp::min or max, one value per element): out as scatter_reduce
// gives it, and arg[b] = the lowest position i (relative to values_offset) whose value is out[b]
// afterwards, or count when no element reached it (no values, or out's own value won with
// include_self). Needs 64-bit atomics.
template <class V, class I, class O = scatter_output_t<V>>
ScatterResult scatter_reduce_arg(Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& arg,
                                 std::size_t arg_offset, const cl::Buffer& indices, std::size_t indices_offset, const cl::Buffer& values,
                                 std::size_t values_offset, std::size_t count, ScatterOp op, ScatterOptions options = {}) {
  detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options, false, out(), out_offset, bins, indices(), indices_offset,
                                                        values(), values_offset, count);
  call.with_arg = true;
  call.arg = arg();
  call.arg_offset = arg_offset;
  return detail::scatter_buffers(rt, call);
}
// Host data: returns arg (out.size() positions).
template <class V, class I, class O>
std::vector<cl_ulong> scatter_reduce_arg(Runtime& rt, std::vector<O>& out, const std::vector<I>& indices,
                                         const std::vector<V>& values, ScatterOp op, ScatterOptions options = {},
                                         ScatterResult* result = nullptr) {
  const detail::ScatterCall call = detail::scatter_call<V, I, O>(op, options);
  std::vector<cl_ulong> arg(out.size());
  const ScatterResult r =
      detail::scatter_host(rt, call, out.data(), out.size(), indices.data(), indices.size(), values.data(), values.size(), arg.data());
  if (result) *result = r;
  return arg;
}

// Segments given by CSR offsets (O: cl_uint or cl_ulong, segments + 1 of them, never
// decreasing): out[s] op= values[offsets[s] .. offsets[s + 1]) (positions relative to
// values_offset, rows as in scatter_reduce), with out holding `segments` rows; values outside
// [offsets[0], offsets[segments]) take no part. count: the values available; offsets that
// decrease or pass count throw std::invalid_argument (checked on the device, before out is
// touched). A segment with no values keeps out's value when include_self is false, as a bin
// with no values does.
// out: of Out (scatter_output_t<V>, or float for 16-bit values).
template <class V, class O, class Out = scatter_output_t<V>>
ScatterResult segment_reduce(Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t segments, const cl::Buffer& offsets,
                             std::size_t offsets_offset, const cl::Buffer& values, std::size_t values_offset, std::size_t count,
                             ScatterOp op, ScatterOptions options = {}, Rows rows = {}) {
  detail::ScatterCall call = detail::scatter_call<V, O, Out>(op, options, true, out(), out_offset, segments, offsets(), offsets_offset,
                                                        values(), values_offset, count);
  call.rows = rows;
  return detail::scatter_buffers(rt, call);
}
// Host data: offsets.size() = out.size() / width + 1.
template <class V, class O, class Out>
ScatterResult segment_reduce(Runtime& rt, std::vector<Out>& out, const std::vector<O>& offsets, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::ScatterCall call = detail::scatter_call<V, O, Out>(op, options, true);
  call.rows.width = width;
  return detail::scatter_host(rt, call, out.data(), out.size(), offsets.data(), offsets.size(), values.data(), values.size(), nullptr);
}

// Runs of equal consecutive keys (K: cl_uint or cl_ulong; sorted keys give unique keys), as
// thrust::reduce_by_key: unique_keys[u] is the key of run u and reductions[u] the reduction of
// its values (options.include_self is ignored: the outputs start empty). Returns the number of
// runs. unique_keys and reductions must hold count elements from their offsets. The reductions
// are of O: scatter_output_t<V>, or float for 16-bit values.
template <class K, class V, class O = scatter_output_t<V>>
std::size_t reduce_by_key(Runtime& rt, const cl::Buffer& keys, std::size_t keys_offset, const cl::Buffer& values, std::size_t values_offset,
                          std::size_t count, const cl::Buffer& unique_keys, std::size_t unique_offset, const cl::Buffer& reductions,
                          std::size_t reductions_offset, ScatterOp op, ScatterOptions options = {}) {
  return detail::reduce_by_key_buffers(rt, detail::scatter_type_of<V>(), detail::scatter_out16<O, V>(), detail::scatter_index64<K>(), keys(), keys_offset, values(),
                                       values_offset, count, unique_keys(), unique_offset, reductions(), reductions_offset, op, options);
}
// Views: unique_keys and reductions must hold keys.count() elements.
template <class K, class V, class O>
std::size_t reduce_by_key(Runtime& rt, const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions,
                          ScatterOp op, ScatterOptions options = {}) {
  constexpr bool out16 = detail::scatter_out16<O, V>();  // O: V, or float for 16-bit values
  detail::require_same_count("reduce_by_key: keys and values", keys, values);
  detail::require_view_holds("reduce_by_key: unique_keys", unique_keys, keys.count());
  detail::require_view_holds("reduce_by_key: reductions", reductions, keys.count());
  return detail::reduce_by_key_buffers(rt, detail::scatter_type_of<V>(), out16, detail::scatter_index64<K>(), keys.handle(), keys.offset(),
                                       values.handle(), values.offset(), keys.count(), unique_keys.handle(), unique_keys.offset(),
                                       reductions.handle(), reductions.offset(), op, options);
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
