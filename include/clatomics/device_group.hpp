// clatomics/device_group.hpp — several devices of one host at once: host data spread over them in
// chunks taken dynamically, and data kept resident on them (DistributedBuffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/compact.hpp"
#include "clatomics/device.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/options.hpp"
#include "clatomics/partial.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/scatter.hpp"

namespace clatomics {

class DeviceGroup;
namespace detail {
class Worker;
struct Staging;
void run_on_streams(DeviceGroup& group, const std::vector<Runtime*>& streams, const std::vector<std::function<void()>>& jobs);
std::unique_lock<std::mutex> take_turn(DeviceGroup& group);  // the group's streams, for this thread's call
Staging& staging_of(DeviceGroup& group, const Runtime& stream);
}

// Safe to call from several threads: their calls take the group's streams one after another.
// Host data goes through staging buffers each stream keeps for the group's life (on GPUs, pinned
// host memory too): at most two chunks of 64 MiB per array and stream.
class DeviceGroup {
 public:
  // The devices of selector (empty: CLATOMICS_DEVICE, which may itself be a group selector such
  // as "gpu:all"), one Runtime each, made with options (its device field is ignored).
  explicit DeviceGroup(const std::string& selector = {}, Options options = {});
  // Adopts the caller's queues, one per device, each with its context and device.
  explicit DeviceGroup(const std::vector<cl::CommandQueue>& queues, Options options = {});
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  std::size_t size() const;
  Runtime& runtime(std::size_t device);
  // A second runtime on the same device, context and a queue of its own: host data is streamed
  // by both, so one's copy overlaps the other's kernels. Made on first use.
  Runtime& second_stream(std::size_t device);

 private:
  struct Member;
  detail::Worker* worker_of(const Runtime& rt);  // the thread kept for that runtime's calls
  friend void detail::run_on_streams(DeviceGroup&, const std::vector<Runtime*>&, const std::vector<std::function<void()>>&);
  friend std::unique_lock<std::mutex> detail::take_turn(DeviceGroup&);
  friend detail::Staging& detail::staging_of(DeviceGroup&, const Runtime&);
  std::vector<std::unique_ptr<Member>> members_;
  std::mutex one_call_;  // calls from several threads take the group's streams in turn
};

// Host data over the group: chunks of a size fixed by the data (never by the number of devices),
// each taken by the next device stream that is free, results merged in chunk order. Results are
// those of the single-device functions of the same name: integers and counts exact, and a
// deterministic float sum or product bit-identical to one device's over the same data, whatever
// the number of devices and which device ran which chunk. A chunk that fails on a device stops the
// hand-out; the call then throws Error (an OpenCL failure, the code kept) or the exception's own
// type, naming the device and the chunk's elements, after every other stream has stopped.
template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options = {});
std::vector<std::uint64_t> histogram(DeviceGroup& group, const std::vector<std::uint8_t>& bytes, HistogramOptions options = {});
namespace detail {
template <class T>
EvenHistogram group_histogram_even(DeviceGroup& group, const std::vector<T>& values, const EvenBins<T>& bins,
                                   const std::vector<HostFloats>& weights, HistogramOptions options);
}
// Bins and weights as histogram_even(Runtime&, ...) takes them (float or double positions; {w}
// or {w0, w1} host weight channels), each chunk's sums merged in double.
template <class V, class T = V>
EvenHistogram histogram_even(DeviceGroup& group, const std::vector<V>& values, const EvenBins<T>& bins,
                             const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::group_histogram_even<V>(group, values, bins, weights, options);
  } else {
    return {};
  }
}
namespace detail {
template <class T>
EvenHistogram2D group_histogram2d_even(DeviceGroup& group, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                       const EvenBins<T>& ybins, const std::vector<HostFloats>& weights, HistogramOptions options);
}
// Points (x[i], y[i]), bins and weights as histogram2d_even(Runtime&, ...) takes them, each
// chunk's sums merged in double.
template <class V, class T = V>
EvenHistogram2D histogram2d_even(DeviceGroup& group, const std::vector<V>& x, const std::vector<V>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::group_histogram2d_even<V>(group, x, y, xbins, ybins, weights, options);
  } else {
    return {};
  }
}
KeyHistogram histogram_keys(DeviceGroup& group, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
// float or double: the chunks' dot products added on the host in chunk order.
template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b);
// float, cl_int or cl_uint: each chunk compacted on its device, the kept elements joined in chunk
// order (with options.stable, the input's order).
template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options = {});

// scatter_reduce over host data, as scatter_reduce(Runtime&, std::vector...) (scatter.hpp): each
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

// segment_reduce over host data, as segment_reduce(Runtime&, std::vector...) (scatter.hpp): out
// holds bins rows of width, offsets bins + 1 CSR offsets into the rows of values (or none when out
// is empty). The rows are cut into chunks of whole segments: each chunk ends at the last segment
// boundary within the chunk size the engine takes (fixed by the data, never by the number of
// devices), so that only a segment longer than a chunk is cut. Each chunk is reduced on the device
// that takes it (its values the contiguous slice, its offsets rebased), and the chunks' results are
// concatenated on the host in order; the pieces of a cut segment join by the op (float sums and
// means in double, rounded once; a mean divides the pieces' sum by the segment's length, plus one
// with include_self), then out's own value with include_self. out is written once every chunk has
// succeeded; offsets that decrease or pass the rows of values are refused on the host before
// anything runs, with one device's message (std::invalid_argument, out untouched). Integers, min
// and max are one device's results (options.nan included), and so is every segment that no chunk
// cuts: deterministic float sums and means too, bit for bit, wherever ScatterOptions::deterministic
// sums them exactly on the chunk's grid as on the whole call's (values within 2^73 (float) or 2^44
// (double) of the chunk's largest, and out's own value, with include_self, no larger than its
// binade). A cut segment may differ from one device's in the last place; its bits depend on the
// data alone, never on the number of devices. Empty segments as on one device. ScatterResult:
// out_of_range 0; strategy, the first chunk's. out: of the values' type, and float for half_t and
// bfloat16_t values.
namespace detail {
template <class V, class I>
ScatterResult group_segment_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& offsets,
                                   const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width);
}  // namespace detail
template <class V, class I, class O>
ScatterResult segment_reduce(DeviceGroup& group, std::vector<O>& out, const std::vector<I>& offsets, const std::vector<V>& values,
                             ScatterOp op, ScatterOptions options = {}, std::size_t width = 1) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_segment_reduce<V, I>(group, out, offsets, values, op, options, width);
}

// reduce_by_key over host data, as reduce_by_key(Runtime&, std::vector...) (scatter.hpp): the
// keys of the runs of equal consecutive keys and their reductions (of the values' type, and float
// for half_t and bfloat16_t values). The keys and values are cut into the engine's chunks (fixed
// by the data, never by the number of devices, every chunk a multiple of 64 elements), each
// chunk's runs reduced on the device that takes it, and the runs concatenated on the host in
// order, a chunk's last run joined to the next chunk's first where their keys are equal: by the
// op (float sums and means in double, rounded once; a mean divides the pieces' sum by the run's
// length). Integers, min and max are one device's results (options.nan included), and so is
// every run that no chunk boundary cuts: deterministic float sums and means too, bit for bit,
// wherever ScatterOptions::deterministic sums them exactly on the chunk's grid as on the whole
// call's (values within 2^73 (float) or 2^44 (double) of the chunk's largest). A cut run may
// differ from one device's in the last place; its bits depend on the data alone, never on the
// number of devices. Refused as on one device (std::invalid_argument, before anything runs).
namespace detail {
template <class K, class V>
std::pair<std::vector<K>, std::vector<group_scatter_output_t<V>>> group_reduce_by_key(DeviceGroup& group, const std::vector<K>& keys,
                                                                                     const std::vector<V>& values, ScatterOp op,
                                                                                     ScatterOptions options);
}  // namespace detail
template <class K, class V, class O = detail::group_scatter_output_t<V>>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(DeviceGroup& group, const std::vector<K>& keys, const std::vector<V>& values,
                                                        ScatterOp op, ScatterOptions options = {}) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_reduce_by_key<K, V>(group, keys, values, op, options);
}

// Data resident on the group's devices: device d holds elements [first[d], first[d] + count[d])
// in parts[d] (a buffer of its runtime's context, from its first byte). distribute()'s parts hold
// whole deterministic tiles (but the last), in proportion to nothing but the device count; parts
// the user makes may split the elements anywhere, and be any buffers of the devices' contexts:
// the user's host memory (CL_MEM_USE_HOST_PTR, each element at a multiple of its size),
// sub-buffers, buffers the host may not read.
template <class T>
struct DistributedBuffer {
  std::vector<cl::Buffer> parts;
  std::vector<std::size_t> first, count;
  std::size_t size = 0;
};
// Copies data onto the group's devices. With width > 1, data is rows of width elements (the
// values of scatter_reduce's rows), split between rows as distribute() splits one element each:
// part d holds the rows of the elements part d of distribute(group, indices) holds, first[d] and
// count[d] counted in elements (width times the rows'). Refused (std::invalid_argument) when
// data is not whole rows (width 0: data must be empty).
template <class T>
DistributedBuffer<T> distribute(DeviceGroup& group, const std::vector<T>& data, std::size_t width = 1);

// Every algorithm over data resident on the group: each device works on its part at the same
// time (on a thread of its own), and the results merge as the host-data forms' do, in element
// order. Refused (std::invalid_argument, before anything runs) unless every array is laid out as
// distribute() lays it: one part per device of this group, each part's elements right after the
// previous part's from element 0, size elements in all; each part a buffer of its device's
// context holding count[d]; the arrays of one call (dot's a and b, positions and weights) laid out
// alike. A failure on a device is thrown as the host-data forms throw it, naming the device and
// the part's elements. A deterministic float sum or product over parts that do not start at
// multiples of reduce_tile runs in the host-data form's chunks (whole tiles) instead, with the
// same bits: a chunk that spans two parts is first copied through the host onto the device
// holding its first element.
template <class T>
T reduce(DeviceGroup& group, const DistributedBuffer<T>& data, ReduceOp op, ReduceOptions options = {});
std::vector<std::uint64_t> histogram(DeviceGroup& group, const DistributedBuffer<std::uint8_t>& bytes, HistogramOptions options = {});
KeyHistogram histogram_keys(DeviceGroup& group, const DistributedBuffer<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
// float or double positions, with even bins of the same type and float weight channels.
template <class T>
EvenHistogram histogram_even(DeviceGroup& group, const DistributedBuffer<T>& values, const EvenBins<T>& bins,
                             const std::vector<DistributedBuffer<float>>& weights = {}, HistogramOptions options = {});
// The same for points: x, y and the weight channels laid out alike.
template <class T>
EvenHistogram2D histogram2d_even(DeviceGroup& group, const DistributedBuffer<T>& x, const DistributedBuffer<T>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<DistributedBuffer<float>>& weights = {},
                                 HistogramOptions options = {});
template <class T>
T dot(DeviceGroup& group, const DistributedBuffer<T>& a, const DistributedBuffer<T>& b);
template <class T>
std::vector<T> compact(DeviceGroup& group, const DistributedBuffer<T>& in, const Predicate& predicate, CompactOptions options = {});
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

// segment_reduce over resident values, the offsets on the host (they say which rows each
// device's segments take, and are few next to the values): the host-data form's results,
// refusals and contract. values holds rows of width, every part whole rows (as
// distribute(group, values, width) lays them out; refused otherwise). Each device reduces the
// segments of its part, a segment that crosses parts in pieces that join by the op as a cut
// segment's do. Deterministic float sums and means run in the chunks of whole segments the
// host-data form cuts the same data into, so that their bits are that form's: a chunk that spans
// two devices' parts is first copied through the host onto the device holding its first row.
namespace detail {
template <class V, class I>
ScatterResult group_segment_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& offsets,
                                   const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options, std::size_t width);
}  // namespace detail
// Parts: DistributedBuffer, deduced, as scatter_reduce's resident form does.
template <class V, class I, class O, template <class> class Parts,
          std::enable_if_t<std::is_same_v<Parts<V>, DistributedBuffer<V>>, int> = 0>
ScatterResult segment_reduce(DeviceGroup& group, std::vector<O>& out, const std::vector<I>& offsets, const Parts<V>& values, ScatterOp op,
                             ScatterOptions options = {}, std::size_t width = 1) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_segment_reduce<V, I>(group, out, offsets, values, op, options, width);
}

// reduce_by_key over resident keys and values, laid out alike (refused otherwise): the
// host-data form's results, refusals and contract. Each device reduces the runs of its part, a
// part's last run joined to the next part's first where their keys are equal. Deterministic float
// sums and means run in the chunks the host-data form cuts the same data into, so that their bits
// are that form's: a chunk that spans two devices' parts is first copied through the host onto
// the device holding its first element.
namespace detail {
template <class K, class V>
std::pair<std::vector<K>, std::vector<group_scatter_output_t<V>>> group_reduce_by_key(DeviceGroup& group, const DistributedBuffer<K>& keys,
                                                                                     const DistributedBuffer<V>& values, ScatterOp op,
                                                                                     ScatterOptions options);
}  // namespace detail
template <class K, class V, class O = detail::group_scatter_output_t<V>, template <class> class Parts,
          std::enable_if_t<std::is_same_v<Parts<K>, DistributedBuffer<K>> && std::is_same_v<Parts<V>, DistributedBuffer<V>>, int> = 0>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(DeviceGroup& group, const Parts<K>& keys, const Parts<V>& values, ScatterOp op,
                                                        ScatterOptions options = {}) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_reduce_by_key<K, V>(group, keys, values, op, options);
}

#define CLATOMICS_GROUP_EXTERN(T)                                                                     \
  extern template T reduce<T>(DeviceGroup&, const std::vector<T>&, ReduceOp, ReduceOptions);         \
  extern template DistributedBuffer<T> distribute<T>(DeviceGroup&, const std::vector<T>&, std::size_t); \
  extern template T reduce<T>(DeviceGroup&, const DistributedBuffer<T>&, ReduceOp, ReduceOptions);
CLATOMICS_GROUP_EXTERN(float)
CLATOMICS_GROUP_EXTERN(double)
CLATOMICS_GROUP_EXTERN(cl_int)
CLATOMICS_GROUP_EXTERN(cl_uint)
CLATOMICS_GROUP_EXTERN(cl_long)
CLATOMICS_GROUP_EXTERN(cl_ulong)
#undef CLATOMICS_GROUP_EXTERN
extern template DistributedBuffer<std::uint8_t> distribute<std::uint8_t>(DeviceGroup&, const std::vector<std::uint8_t>&, std::size_t);
extern template DistributedBuffer<half_t> distribute<half_t>(DeviceGroup&, const std::vector<half_t>&, std::size_t);
extern template DistributedBuffer<bfloat16_t> distribute<bfloat16_t>(DeviceGroup&, const std::vector<bfloat16_t>&, std::size_t);
extern template float dot<float>(DeviceGroup&, const std::vector<float>&, const std::vector<float>&);
extern template double dot<double>(DeviceGroup&, const std::vector<double>&, const std::vector<double>&);
extern template std::vector<float> compact<float>(DeviceGroup&, const std::vector<float>&, const Predicate&, CompactOptions);
extern template std::vector<cl_int> compact<cl_int>(DeviceGroup&, const std::vector<cl_int>&, const Predicate&, CompactOptions);
extern template std::vector<cl_uint> compact<cl_uint>(DeviceGroup&, const std::vector<cl_uint>&, const Predicate&, CompactOptions);
extern template float dot<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&);
extern template double dot<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&);
extern template std::vector<float> compact<float>(DeviceGroup&, const DistributedBuffer<float>&, const Predicate&, CompactOptions);
extern template std::vector<cl_int> compact<cl_int>(DeviceGroup&, const DistributedBuffer<cl_int>&, const Predicate&, CompactOptions);
extern template std::vector<cl_uint> compact<cl_uint>(DeviceGroup&, const DistributedBuffer<cl_uint>&, const Predicate&, CompactOptions);
extern template EvenHistogram histogram_even<float>(DeviceGroup&, const DistributedBuffer<float>&, const EvenBins<float>&,
                                                    const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram histogram_even<double>(DeviceGroup&, const DistributedBuffer<double>&, const EvenBins<double>&,
                                                     const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram2D histogram2d_even<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&,
                                                        const EvenBins<float>&, const EvenBins<float>&,
                                                        const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram2D histogram2d_even<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&,
                                                         const EvenBins<double>&, const EvenBins<double>&,
                                                         const std::vector<DistributedBuffer<float>>&, HistogramOptions);
#define CLATOMICS_GROUP_SCATTER_EXTERN(V)                                                                                   \
  extern template ScatterResult detail::group_scatter_reduce<V, cl_uint>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&, \
                                                                         const std::vector<cl_uint>&, const std::vector<V>&, ScatterOp,  \
                                                                         ScatterOptions, std::size_t);                                   \
  extern template ScatterResult detail::group_scatter_reduce<V, cl_ulong>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&, \
                                                                          const std::vector<cl_ulong>&, const std::vector<V>&, ScatterOp, \
                                                                          ScatterOptions, std::size_t);                                   \
  extern template ScatterResult detail::group_scatter_reduce<V, cl_uint>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&, \
                                                                         const DistributedBuffer<cl_uint>&, const DistributedBuffer<V>&, \
                                                                         ScatterOp, ScatterOptions, std::size_t);                        \
  extern template ScatterResult detail::group_scatter_reduce<V, cl_ulong>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&, \
                                                                          const DistributedBuffer<cl_ulong>&, const DistributedBuffer<V>&, \
                                                                          ScatterOp, ScatterOptions, std::size_t);
CLATOMICS_GROUP_SCATTER_EXTERN(float)
CLATOMICS_GROUP_SCATTER_EXTERN(double)
CLATOMICS_GROUP_SCATTER_EXTERN(cl_int)
CLATOMICS_GROUP_SCATTER_EXTERN(cl_uint)
CLATOMICS_GROUP_SCATTER_EXTERN(cl_long)
CLATOMICS_GROUP_SCATTER_EXTERN(cl_ulong)
CLATOMICS_GROUP_SCATTER_EXTERN(half_t)
CLATOMICS_GROUP_SCATTER_EXTERN(bfloat16_t)
#undef CLATOMICS_GROUP_SCATTER_EXTERN
#define CLATOMICS_GROUP_SEGMENTS_EXTERN(V, I)                                                                                           \
  extern template ScatterResult detail::group_segment_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,   \
                                                                   const std::vector<I>&, const std::vector<V>&, ScatterOp,          \
                                                                   ScatterOptions, std::size_t);                                       \
  extern template ScatterResult detail::group_segment_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,   \
                                                                   const std::vector<I>&, const DistributedBuffer<V>&, ScatterOp,    \
                                                                   ScatterOptions, std::size_t);                                       \
  extern template std::pair<std::vector<I>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key<I, V>(      \
      DeviceGroup&, const std::vector<I>&, const std::vector<V>&, ScatterOp, ScatterOptions);                                        \
  extern template std::pair<std::vector<I>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key<I, V>(      \
      DeviceGroup&, const DistributedBuffer<I>&, const DistributedBuffer<V>&, ScatterOp, ScatterOptions);
#define CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(V) CLATOMICS_GROUP_SEGMENTS_EXTERN(V, cl_uint) CLATOMICS_GROUP_SEGMENTS_EXTERN(V, cl_ulong)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(float)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(double)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(cl_int)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(cl_uint)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(cl_long)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(cl_ulong)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(half_t)
CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES(bfloat16_t)
#undef CLATOMICS_GROUP_SEGMENTS_EXTERN_TYPES
#undef CLATOMICS_GROUP_SEGMENTS_EXTERN

}  // namespace clatomics
