// clatomics/scatter.hpp — scatter-reduce (`out[idx[i]] op= values[i]`, np.add.at, index_add_), and
// what its family shares: segment reductions over CSR offsets (segment_reduce.hpp) and
// reduce_by_key over sorted keys (reduce_by_key.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/group_forms.hpp"
#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/scatter_options.hpp"
#include "clatomics/view.hpp"

namespace clatomics {

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

// How much of an output scatter_reduce keeps in __local memory on rt's device (what `clatomics
// info` prints), for outputs of value_bytes (4: float, int, uint, half, bfloat16; 8: double,
// long, ulong) in the fast or the deterministic mode (16-byte slots, and 24 bytes a work-item
// for float values outside the window), sum/prod/min/max with include_self (mean and
// include_self false count elements too: 4 bytes more a slot).
struct ScatterCapacity {
  std::size_t private_slots = 0;  // local_private takes bins * width up to this many
  std::size_t spread_slots = 0;   // ... with `copies` bank-spread copies up to this many
  std::size_t copies = 1;
  std::size_t cache_slots = 0;    // local_cache's table (0: none fits)
};
ScatterCapacity scatter_capacity(const Runtime& rt, std::size_t value_bytes, bool deterministic = false);

// Partial scatter_reduce, over a part of its (indices, values): what the part gives each bin of
// an output of `bins` rows of `width`, before out's own values enter. Parts merge (merge_into) into what
// the whole data gives, which finish_scatter() then applies to out, exactly as one
// scatter_reduce(out, ...) over all the data treats out (include_self, mean, a bin no value
// reaches keeping its value). O: the values' type, float for half_t and bfloat16_t values (the
// parts are joined in float or double on the host, as a DeviceGroup joins its chunks).
// Integers, min and max merge exactly as one device computes them; float sums and means add the
// parts in double and round once per bin when finished (a deterministic part's sums are its own
// exact sums rounded once: the bits depend on the data and its split into parts, never on the
// run or the device).
template <class V>
using scatter_partial_t = std::conditional_t<detail::scatter_sixteen_bits<V>(), float, V>;
template <class O>
struct ScatterPartial {
  using Acc = std::conditional_t<std::is_floating_point_v<O>, double, O>;  // float sums and means add in double
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;  // the call's: include_self and nan decide how parts merge and finish
  std::size_t bins = 0, width = 1;
  ScatterResult result;  // out_of_range added over the parts; strategy: the first part's with values
  bool any = false;      // some part held values
  std::vector<Acc> values;            // bins * width, each at the op's identity until a value reaches it
  std::vector<std::uint64_t> counts;  // how many values reached each bin, for mean and include_self = false; else empty
};

// The partial scatter_reduce of one part: indices and values as scatter_reduce takes them (views
// of device buffers, or host vectors with width values an index), into bins rows of width.
// Refuses (std::invalid_argument, before anything is enqueued) what scatter_reduce refuses; an
// index >= bins is counted in result.out_of_range or, with OutOfRange::refuse, refused.
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const View<I>& indices, const View<V>& values,
                                                            ScatterOp op, ScatterOptions options = {}, std::size_t width = 1);
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const std::vector<I>& indices,
                                                            const std::vector<V>& values, ScatterOp op, ScatterOptions options = {},
                                                            std::size_t width = 1);
// from's values come after into's (the order float sums are added in). Refused
// (std::invalid_argument, into unchanged) unless both have the same op, bins, width, include_self
// and NaN rule.
template <class O>
void merge_into(ScatterPartial<O>& into, const ScatterPartial<O>& from);
// Applies the merged parts to out (bins * width elements, else std::invalid_argument and out
// untouched): out as one scatter_reduce over all the parts' data leaves it.
template <class O>
ScatterResult finish_scatter(std::vector<O>& out, const ScatterPartial<O>& merged);

#define CLATOMICS_SCATTER_PARTIAL(EXTERN, V, I)                                                                                                    \
  EXTERN template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, I>(Runtime&, std::size_t, const View<I>&, const View<V>&,         \
                                                                                   ScatterOp, ScatterOptions, std::size_t);                        \
  EXTERN template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, I>(Runtime&, std::size_t, const std::vector<I>&,                  \
                                                                                   const std::vector<V>&, ScatterOp, ScatterOptions, std::size_t);
#define CLATOMICS_SCATTER_PARTIAL_EXTERN(V, I) CLATOMICS_SCATTER_PARTIAL(extern, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_SCATTER_PARTIAL_EXTERN)
#undef CLATOMICS_SCATTER_PARTIAL_EXTERN
#define CLATOMICS_SCATTER_MERGE(EXTERN, O)                                                    \
  EXTERN template void merge_into<O>(ScatterPartial<O>&, const ScatterPartial<O>&);           \
  EXTERN template ScatterResult finish_scatter<O>(std::vector<O>&, const ScatterPartial<O>&);
#define CLATOMICS_SCATTER_MERGE_EXTERN(O) CLATOMICS_SCATTER_MERGE(extern, O)
CLATOMICS_FOR_SCATTER_OUTPUTS(CLATOMICS_SCATTER_MERGE_EXTERN)
#undef CLATOMICS_SCATTER_MERGE_EXTERN

// Over a DeviceGroup (group_forms.hpp): host data in chunks, or data resident on the devices.
// scatter_reduce over host data, as scatter_reduce(Runtime&, std::vector...), above: each
// chunk of (indices, values) is reduced on the device that takes it into a copy of the output at
// the op's identity (mean and include_self = false also count each bin's values), and the copies
// join out on the host in chunk order; out is written once every chunk has succeeded (a refusal,
// such as OutOfRange::refuse meeting an index >= bins, leaves it untouched). Integer results,
// min and max are those of one device (options.nan included). An empty out (or width 0) runs
// nothing, as on one device. Float sums and means add the chunks' copies in double and
// round once per bin; deterministic mode sums each chunk exactly and rounds it once, so the bits
// depend on the data and never on the number of devices or which ran which chunk (with more than
// one chunk of data, they may differ from one device's single pass in the last place).
// ScatterResult: out_of_range summed over the chunks; strategy, the first chunk's. out: of the
// values' type, and float for half_t and bfloat16_t values (the group joins the chunks in float
// or double on the host; a 16-bit output, rounded once, is one device's call only).
namespace detail {
template <class V>
using group_scatter_output_t = scatter_partial_t<V>;
// The scatter family's group forms write outputs of group_scatter_output_t<V> only.
template <class O, class V>
constexpr void check_group_scatter_output() {
  static_assert(std::is_same_v<O, group_scatter_output_t<V>>,
                "clatomics: scatter_reduce, segment_reduce or reduce_by_key over a DeviceGroup: out's elements must be of the values' "
                "type, and float for half_t and bfloat16_t values (16-bit outputs rounded once are offered by the one-device calls only)");
}
template <class V, class I>
ScatterResult group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& indices,
                                   const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width);
}  // namespace detail
template <class V, class I, class O>
ScatterResult scatter_reduce(DeviceGroup& group, std::vector<O>& out, const std::vector<I>& indices, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_scatter_reduce<V, I>(group, out, indices, values, op, options, width);
}

// scatter_reduce over resident indices and values, with the host-data group form's results,
// refusals and contract (out written once every part has succeeded, untouched on a refusal):
// each device reduces its part into a copy of out at the op's identity, and the copies join out
// on the host in element order. values holds width values an index, laid out as
// distribute(group, values, width) lays them out: the rows of the elements each device holds of
// indices (refused otherwise). Deterministic float sums and means run in the chunks the
// host-data form cuts the same data into, so that their bits are that form's: a chunk that spans
// two devices' parts is first copied through the host onto the device holding its first element.
// ScatterResult: out_of_range summed over the parts; strategy, the first non-empty part's.
namespace detail {
template <class V, class I>
ScatterResult group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const DistributedBuffer<I>& indices,
                                   const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options, std::size_t width);
}  // namespace detail
// Parts: DistributedBuffer, deduced from the arguments, so that braces ({} for indices or
// values) pick the host-data form's vectors instead of making the call ambiguous.
template <class V, class I, class O, template <class> class Parts,
          std::enable_if_t<std::is_same_v<Parts<I>, DistributedBuffer<I>> && std::is_same_v<Parts<V>, DistributedBuffer<V>>, int> = 0>
ScatterResult scatter_reduce(DeviceGroup& group, std::vector<O>& out, const Parts<I>& indices, const Parts<V>& values, ScatterOp op,
                             ScatterOptions options = {}, std::size_t width = 1) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_scatter_reduce<V, I>(group, out, indices, values, op, options, width);
}

#define CLATOMICS_GROUP_SCATTER(EXTERN, V, I)                                                                                              \
  EXTERN template ScatterResult detail::group_scatter_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,          \
                                                                  const std::vector<I>&, const std::vector<V>&, ScatterOp, ScatterOptions, \
                                                                  std::size_t);                                                            \
  EXTERN template ScatterResult detail::group_scatter_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,          \
                                                                  const DistributedBuffer<I>&, const DistributedBuffer<V>&, ScatterOp,     \
                                                                  ScatterOptions, std::size_t);
#define CLATOMICS_GROUP_SCATTER_EXTERN(V, I) CLATOMICS_GROUP_SCATTER(extern, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_SCATTER_EXTERN)
#undef CLATOMICS_GROUP_SCATTER_EXTERN

}  // namespace clatomics
