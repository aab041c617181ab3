// clatomics/segment_reduce.hpp — segment reductions over CSR offsets (torch_scatter's segment_csr), of the
// scatter_reduce family (scatter.hpp: its ops, options, rows and contracts).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "clatomics/group_forms.hpp"
#include "clatomics/scatter.hpp"

namespace clatomics {

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

// Partial segment_reduce needs no type of its own: a part of whole segments is segment_reduce()
// over those segments, offsets rebased, the parts' rows joined in order (mpi::concatenate joins
// them over ranks).

// Over a DeviceGroup (group_forms.hpp): host data in chunks of whole segments, or values resident
// on the devices with the offsets on the host.
// segment_reduce over host data, as segment_reduce(Runtime&, std::vector...), above: out
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

#define CLATOMICS_GROUP_SEGMENTS(EXTERN, V, I)                                                                                             \
  EXTERN template ScatterResult detail::group_segment_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,          \
                                                                  const std::vector<I>&, const std::vector<V>&, ScatterOp, ScatterOptions, \
                                                                  std::size_t);                                                            \
  EXTERN template ScatterResult detail::group_segment_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,          \
                                                                  const std::vector<I>&, const DistributedBuffer<V>&, ScatterOp,           \
                                                                  ScatterOptions, std::size_t);
#define CLATOMICS_GROUP_SEGMENTS_EXTERN(V, I) CLATOMICS_GROUP_SEGMENTS(extern, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_SEGMENTS_EXTERN)
#undef CLATOMICS_GROUP_SEGMENTS_EXTERN

}  // namespace clatomics
