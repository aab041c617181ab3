// segment_reduce over a device group: host data in chunks of whole segments, or each device's
// resident part, reduced on its device by the one-device call over its pieces of segments (their
// offsets rebased onto its rows); the pieces concatenated on the host in element order, those of
// a segment that a chunk or part boundary cut joined there.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "clatomics/device_group.hpp"
#include "clatomics/scatter.hpp"
#include "core/launch.hpp"
#include "groups/engine.hpp"
#include "scatter/partial.hpp"
#include "scatter/types.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("clatomics: segment_reduce: " + why); }

// Offsets that decrease or pass the rows, refused as one device's check of them refuses them
// (kernels/scatter_checks.cl): the lowest entry at fault, quoted with its successor.
template <class I>
void check_offsets(const std::vector<I>& offsets, std::size_t rows) {
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const std::string at = "offsets[" + std::to_string(k) + "] = " + std::to_string(offsets[k]);
    if (std::uint64_t(offsets[k]) > rows) refuse(at + " passes count (" + std::to_string(rows) + ")");
    if (k + 1 < offsets.size() && offsets[k] > offsets[k + 1])
      refuse(at + " is above offsets[" + std::to_string(k + 1) + "] = " + std::to_string(offsets[k + 1]) + ": the offsets decrease");
  }
}

// One chunk's or part's pieces of segments: each piece's segment, whether it holds the whole
// segment (its value then final, out's own value included with include_self) and its row of
// reductions. Empty where no segment reaches the chunk's rows.
template <class O>
struct Pieces {
  ScatterResult result;
  std::vector<std::size_t> segments;
  std::vector<unsigned char> whole;
  std::vector<O> values;
};

// One call over host or resident data (groups/engine.hpp): the rows of values. Each chunk or
// part reduces its pieces into a copy of their rows, each at the op's identity or, for a whole
// segment with include_self, at out's own row; the pieces join in element order (float sums in
// double, the rest by the op itself); finish() applies them to out.
template <class V, class I>
struct SegmentsOnGroup {
  using O = detail::group_scatter_output_t<V>;  // float for 16-bit values: the one-device calls write it unrounded
  using Rule = detail::ScatterRule<O>;
  using Acc = typename Rule::Acc;
  using Part = Pieces<O>;
  struct Total {
    ScatterResult result;
    bool any = false;  // a part has joined: the first one's strategy is the result's
    std::vector<Acc> acc;
    std::vector<unsigned char> reached, whole;  // a piece of the segment has joined; it came whole from one part
  };
  // The engine's chunk size a multiple of 64 rows (chunk_bounds() then cuts at segments): a
  // segment reduction has no reduction tiles to keep whole.
  static constexpr std::size_t multiple = 64;

  const std::vector<O>* out;  // read by the parts (out's own rows), written by finish() alone
  const std::vector<I>* offsets;
  const std::vector<V>* values;  // host data; null for resident data
  std::size_t n, bins, width;    // rows of values, segments, values a row
  ScatterOp op;
  ScatterOptions options;
  Rule rule{op, options};

  std::uint64_t offset(std::size_t s) const { return (*offsets)[s]; }

  Total start(Runtime&) const {
    Total total;
    total.acc.assign(bins * width, rule.start());
    total.reached.assign(bins, 0);
    total.whole.assign(bins, 0);
    return total;
  }

  // Chunks of whole segments: each ends at the last segment boundary within chunk rows of its
  // start (a segment longer than that is cut at chunk rows), from the first segment's first row
  // to the last one's end; rows outside the segments are never copied.
  std::vector<std::size_t> chunk_bounds(std::size_t chunk) const {
    const std::uint64_t begin = offset(0), end = offset(bins);
    std::vector<std::size_t> bounds;
    if (begin >= end) return bounds;
    bounds.push_back(begin);
    for (std::uint64_t at = begin; at < end;) {
      std::uint64_t next = end;
      if (end - at > chunk) {
        const auto past = std::upper_bound(offsets->begin(), offsets->begin() + bins + 1, at + chunk);  // offsets[0] <= at + chunk
        next = std::uint64_t(*(past - 1)) > at ? std::uint64_t(*(past - 1)) : at + chunk;
      }
      bounds.push_back(next);
      at = next;
    }
    return bounds;
  }

  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t first, std::size_t count) const {
    Part r;
    const std::uint64_t end = first + count;
    // The pieces, rebased onto the part's rows: the empty segments between them take no room, so
    // the pieces' offsets are those of a CSR of their own.
    std::vector<cl_ulong> starts;
    std::size_t s = std::size_t(std::upper_bound(offsets->begin(), offsets->begin() + bins, first) - offsets->begin());
    std::uint64_t last = first;
    for (s = s ? s - 1 : 0; s < bins && offset(s) < end; ++s) {
      const std::uint64_t lo = std::max<std::uint64_t>(offset(s), first), hi = std::min<std::uint64_t>(offset(s + 1), end);
      if (lo >= hi) continue;
      starts.push_back(lo - first);
      r.segments.push_back(s);
      r.whole.push_back(offset(s) >= first && offset(s + 1) <= end);
      last = hi;
    }
    if (r.segments.empty()) return r;
    starts.push_back(last - first);
    const std::size_t pieces = r.segments.size(), bytes = pieces * width * sizeof(O);
    r.values.assign(pieces * width, rule.identity());
    for (std::size_t k = 0; k < pieces; ++k)
      if (r.whole[k] && options.include_self)
        std::copy_n(out->begin() + r.segments[k] * width, width, r.values.begin() + k * width);
    const detail::Mem copy = detail::make_buffer(rt, bytes, CL_MEM_READ_WRITE, r.values.data());
    const detail::Mem rebased = detail::make_buffer(rt, starts.size() * sizeof(cl_ulong), CL_MEM_READ_ONLY, starts.data());
    ScatterOptions copy_options = options;
    copy_options.include_self = true;  // each row starts at the identity or, where it is to join, out's own value
    detail::ScatterCall call = detail::scatter_call<V, cl_ulong, O>(op == ScatterOp::mean ? ScatterOp::sum : op, copy_options, true, copy.get(), 0,
                                                                 pieces, rebased.get(), 0, at[0].buffer, at[0].offset, count);
    call.rows.width = width;
    r.result = detail::scatter_buffers(rt, call);
    detail::Commands(rt).read(copy.get(), 0, bytes, r.values.data());
    return r;
  }

  void merge(Total& total, Part&& r) const {
    if (r.segments.empty()) return;
    if (!total.any) total.result.strategy = r.result.strategy, total.any = true;
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
      const std::size_t s = r.segments[k];
      for (std::size_t d = 0; d < width; ++d) {
        Acc& a = total.acc[s * width + d];
        const O v = r.values[k * width + d];
        a = total.reached[s] ? rule.join(a, v) : Acc(v);
      }
      total.reached[s] = 1;
      total.whole[s] = r.whole[k];
    }
  }

  std::vector<detail::HostArray> host() const { return {{values ? values->data() : nullptr, width * sizeof(V), width}}; }
  std::size_t size() const { return n; }
  // At most one piece a row: its row of out, its offset, and the segment reduction's slots
  // (16-byte fixed point and flags when deterministic) and count.
  std::size_t device_bytes() const { return width * (sizeof(O) + 20) + sizeof(cl_ulong) + 8; }

  // The joined pieces applied to out.
  ScatterResult finish(std::vector<O>& out_rows, const Total& total) const {
    ScatterResult result = total.result;
    if (!total.any) result.strategy = detail::scatter_asked_strategy(options);
    for (std::size_t s = 0; s < bins; ++s) {
      const std::uint64_t length = offset(s + 1) - offset(s);
      for (std::size_t d = 0; d < width; ++d) {
        O& o = out_rows[s * width + d];
        // No values: out's value with include_self, else the empty reduction (torch_scatter's).
        if (length == 0) {
          if (!options.include_self) o = O(op == ScatterOp::prod ? 1 : 0);
          continue;
        }
        const Acc a = total.acc[s * width + d];
        O r = options.include_self && !total.whole[s] ? rule.with_self(o, a) : O(a);
        if (op == ScatterOp::mean) r = Rule::mean(r, length + (options.include_self ? 1 : 0));
        o = r;
      }
    }
    return result;
  }
};

// Every device refuses what it cannot run (op, type, options, rows) on a call of one empty
// segment, as it would refuse the call itself.
template <class V, class I>
void probe_devices(DeviceGroup& group, ScatterOp op, const ScatterOptions& options, std::size_t width) {
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<detail::group_scatter_output_t<V>> probe(width);
    (void)segment_reduce<V, I>(group.runtime(d), probe, std::vector<I>{0, 0}, std::vector<V>{}, op, options, width);
  }
}

}  // namespace

template <class V, class I>
ScatterResult detail::group_segment_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& offsets,
                                           const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  const detail::HostRows rows = detail::host_rows("segment_reduce", width, true, out.size(), offsets.size(), values.size());
  // No segments (an empty out, or rows of width 0): nothing runs, as on one device.
  if (rows.bins == 0) return segment_reduce<V, I>(group.runtime(0), out, offsets, values, op, options, width);
  probe_devices<V, I>(group, op, options, width);
  check_offsets(offsets, rows.count);
  const SegmentsOnGroup<V, I> call{&out, &offsets, &values, rows.count, rows.bins, width, op, options};
  return call.finish(out, detail::run_spread(group, call));
}

template <class V, class I>
ScatterResult detail::group_segment_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& offsets,
                                           const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  detail::check_layout(group, values);
  const detail::HostRows rows = detail::host_rows("segment_reduce", width, true, out.size(), offsets.size(), values.size);
  // The engine's elements are the rows: each part's first row and rows.
  std::vector<std::size_t> first(group.size()), count(group.size());
  std::vector<std::vector<detail::At>> arrays(group.size());
  for (std::size_t d = 0; d < group.size(); ++d) {
    if (width && (values.first[d] % width || values.count[d] % width))
      refuse("values are not whole rows of width " + std::to_string(width) + " on every device: device " + std::to_string(d) + " holds " +
             detail::elements_of(values.first[d], values.count[d]) + " (distribute(group, values, width) lays them out so)");
    first[d] = width ? values.first[d] / width : 0, count[d] = width ? values.count[d] / width : 0;
    arrays[d] = {{values.parts[d](), 0, sizeof(V), width}};
  }
  if (rows.bins == 0) {
    detail::check_parts(group, arrays, count);
    return segment_reduce<V, I>(group.runtime(0), out, offsets, std::vector<V>{}, op, options, width);
  }
  probe_devices<V, I>(group, op, options, width);
  check_offsets(offsets, rows.count);
  const SegmentsOnGroup<V, I> call{&out, &offsets, nullptr, rows.count, rows.bins, width, op, options};
  // Where the bits depend on the chunks, the host-data form's chunks.
  const bool chunked = options.deterministic && call.rule.wide();
  return call.finish(out, chunked ? detail::run_resident_chunks(group, call, arrays, first, count)
                                  : detail::run_resident(group, call, arrays, first, count));
}

#define CLATOMICS_GROUP_SEGMENTS_MADE(V, I) CLATOMICS_GROUP_SEGMENTS(, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_SEGMENTS_MADE)

}  // namespace clatomics
