// scatter_reduce over a device group: each chunk of host (indices, values), or each device's
// resident part, reduced on its device into a copy of the output at the op's identity, the copies
// joined into out on the host in element order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/device_group.hpp"
#include "clatomics/scatter.hpp"
#include "core/launch.hpp"
#include "core/testing.hpp"
#include "groups/engine.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("clatomics: scatter_reduce: " + why); }

ReduceOp reduce_op(ScatterOp op) {
  switch (op) {
    case ScatterOp::prod: return ReduceOp::prod;
    case ScatterOp::min: return ReduceOp::min;
    case ScatterOp::max: return ReduceOp::max;
    default: return ReduceOp::sum;  // sum, and mean's sum
  }
}

// Float min/max whose NaN propagates (ScatterOptions::nan).
bool propagates(ScatterOp op, const ScatterOptions& options) {
  return (op == ScatterOp::min || op == ScatterOp::max) && options.nan == NanRule::propagate;
}

// The value a chunk's output copy starts from: a no-op under the op (float min/max: -inf/+inf
// where NaN propagates, else NaN, the missing value; float sums: -0, which keeps a -0 of out).
template <class O>
O identity(ScatterOp op, const ScatterOptions& options) {
  if constexpr (std::is_floating_point_v<O>) {
    if (propagates(op, options)) return op == ScatterOp::max ? -std::numeric_limits<O>::infinity() : std::numeric_limits<O>::infinity();
    if (op == ScatterOp::min || op == ScatterOp::max) return std::numeric_limits<O>::quiet_NaN();
    if (op == ScatterOp::sum || op == ScatterOp::mean) return O(-0.0);
  }
  return detail::reduce_identity<O>(reduce_op(op));
}

// One chunk's or part's output copy, and how many values reached each bin (when the op or
// include_self needs it). Empty for a resident part of no elements.
template <class O>
struct ChunkResult {
  ScatterResult result;
  std::vector<O> values;
  std::vector<std::uint64_t> counts;
};

// mean's quotient as the device takes it (kernels/scatter.cl): floats divide, unsigned integers
// truncate, signed integers round toward minus infinity.
template <class O>
O mean_of(O sum, std::uint64_t count) {
  if constexpr (std::is_floating_point_v<O>) {
    return sum / O(count);
  } else if constexpr (std::is_unsigned_v<O>) {
    return O(std::uint64_t(sum) / count);
  } else {
    const std::int64_t s = std::int64_t(sum), c = std::int64_t(count), q = s / c;
    return O(q - ((s % c != 0 && s < 0) ? 1 : 0));
  }
}

// One call over host or resident data (groups/engine.hpp): indices, then values in rows of
// width. Each chunk or part is reduced into a copy of out at the op's identity; the copies join
// in element order, float sums in double, the rest by the op itself; finish() applies them to out.
template <class V, class I>
struct ScatterOnGroup {
  using O = detail::group_scatter_output_t<V>;  // float for 16-bit values: the one-device calls write it unrounded
  using Acc = std::conditional_t<std::is_floating_point_v<O>, double, O>;
  using Part = ChunkResult<O>;
  struct Total {
    ScatterResult result;
    bool any = false;  // a part has joined: the first one's strategy is the result's
    std::vector<Acc> acc;
    std::vector<std::uint64_t> reached;
  };
  // Chunks of whole 64-row blocks: a scatter has no reduction tiles to keep whole.
  static constexpr std::size_t multiple = 64;

  const std::vector<I>* indices;  // host data; null for resident data
  const std::vector<V>* values;
  std::size_t n, bins, width;
  ScatterOp op;
  ScatterOptions options;

  bool counted() const { return op == ScatterOp::mean || !options.include_self; }
  // Float sums and means join in double.
  bool wide() const { return std::is_floating_point_v<O> && (op == ScatterOp::sum || op == ScatterOp::mean); }
  bool prop() const { return std::is_floating_point_v<O> && propagates(op, options); }
  std::size_t slots() const { return bins * width; }
  // Float min/max where NaN propagates: any NaN wins (the host's quiet NaN, as the device writes
  // it), else the op's order (-0 below +0).
  O combine(O a, O b) const {
    if (prop() && (std::isnan(a) || std::isnan(b))) return std::numeric_limits<O>::quiet_NaN();
    return detail::reduce_combine<O>(reduce_op(op), a, b);
  }

  Total start(Runtime&) const {
    Total total;
    total.acc.assign(slots(), wide() ? Acc(-0.0) : Acc(identity<O>(op, options)));
    total.reached.assign(counted() ? bins : 0, 0);
    return total;
  }

  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    Part r;
    if (count == 0) return r;
    const std::size_t bytes = slots() * sizeof(O);
    const O start_value = identity<O>(op, options);
    const detail::Mem copy = detail::make_buffer(rt, bytes);
    detail::Commands(rt).fill(copy.get(), &start_value, sizeof(O), bytes);
    ScatterOptions copy_options = options;
    copy_options.include_self = true;  // the copy starts at the identity: including it changes nothing
    detail::ScatterCall call = detail::scatter_call<V, I, O>(op == ScatterOp::mean ? ScatterOp::sum : op, copy_options, false, copy.get(), 0,
                                                          bins, at[0].buffer, at[0].offset, at[1].buffer, at[1].offset, count);
    call.rows.width = width;
    r.result = detail::scatter_buffers(rt, call);
    r.values.resize(slots());
    detail::Commands(rt).read(copy.get(), 0, bytes, r.values.data());
    if (counted()) r.counts = count_values(rt, at[0], count);
    return r;
  }

  // A scatter of ones into cl_uint counts, in pieces of at most 2^24 values (one ones buffer
  // serves them all: a resident part may be far larger than a chunk; smaller pieces where the
  // tests force small chunks, so that they reach several), the counts read back and added up on
  // the host before 2^32 values could wrap a bin's.
  std::vector<std::uint64_t> count_values(Runtime& rt, const detail::At& at, std::size_t count) const {
    const std::size_t forced = testing::stream_limits().chunk_bytes / sizeof(cl_uint);
    const std::size_t piece = std::min<std::size_t>({count, std::size_t(1) << 24, forced ? forced : count});
    const detail::Mem ones = detail::make_buffer(rt, piece * sizeof(cl_uint)), counts = detail::make_buffer(rt, bins * sizeof(cl_uint));
    const cl_uint one = 1;
    detail::Commands(rt).fill(ones.get(), &one, sizeof one, piece * sizeof(cl_uint));
    ScatterOptions count_options;
    count_options.indices_are_sorted = options.indices_are_sorted;
    std::vector<std::uint64_t> total(bins, 0);
    std::vector<cl_uint> read(bins);
    std::size_t pending = 0;  // values counted on the device since its counts were last read
    for (std::size_t done = 0; done < count;) {
      if (pending == 0) detail::Commands(rt).fill_zero(counts.get(), bins * sizeof(cl_uint));
      const std::size_t m = std::min(piece, count - done);
      (void)detail::scatter_buffers(rt, detail::scatter_call<cl_uint, I>(ScatterOp::sum, count_options, false, counts.get(), 0, bins, at.buffer,
                                                                         at.offset + done, ones.get(), 0, m));
      done += m, pending += m;
      if (done == count || pending + piece > std::numeric_limits<cl_uint>::max()) {
        detail::Commands(rt).read(counts.get(), 0, bins * sizeof(cl_uint), read.data());
        for (std::size_t b = 0; b < bins; ++b) total[b] += read[b];
        pending = 0;
      }
    }
    return total;
  }

  void merge(Total& total, Part&& r) const {
    if (r.values.empty()) return;  // a resident part of no elements
    if (!total.any) total.result.strategy = r.result.strategy, total.any = true;
    total.result.out_of_range += r.result.out_of_range;
    for (std::size_t j = 0; j < total.acc.size(); ++j)
      total.acc[j] = wide() ? total.acc[j] + Acc(r.values[j]) : Acc(combine(O(total.acc[j]), r.values[j]));
    for (std::size_t b = 0; b < total.reached.size(); ++b) total.reached[b] += r.counts[b];
  }

  std::vector<detail::HostArray> host() const {
    return {{indices ? indices->data() : nullptr, sizeof(I)}, {values ? values->data() : nullptr, width * sizeof(V), width}};
  }
  std::size_t size() const { return n; }
  std::size_t device_bytes() const { return counted() ? sizeof(cl_uint) : 0; }

  // The joined copies applied to out.
  ScatterResult finish(std::vector<O>& out, const Total& total) const {
    ScatterResult result = total.result;
    if (!total.any) result.strategy = options.strategy == ScatterStrategy::automatic ? ScatterStrategy::global_atomics : options.strategy;
    const O start_value = identity<O>(op, options);
    for (std::size_t b = 0; b < bins; ++b) {
      if (counted() && total.reached[b] == 0) continue;  // no values: the bin keeps its value
      for (std::size_t d = 0; d < width; ++d) {
        const std::size_t j = b * width + d;
        // Nothing but the identity reached it: out op identity is out, its NaN's bits included
        // (as on one device).
        const O a = O(total.acc[j]);
        if (prop() && options.include_self && std::memcmp(&a, &start_value, sizeof(O)) == 0) continue;
        O r;
        if (wide())
          r = O(options.include_self ? double(out[j]) + total.acc[j] : total.acc[j]);
        else
          r = options.include_self ? combine(out[j], O(total.acc[j])) : O(total.acc[j]);
        if (op == ScatterOp::mean) r = mean_of<O>(r, total.reached[b] + (options.include_self ? 1 : 0));
        out[j] = r;
      }
    }
    return result;
  }
};

// Every device refuses what it cannot run (op, type, options) on a call with no elements (its
// probe is one row: no larger than out), and an out larger than one of its buffers; device 0's
// probe gives the result of a call with no bins.
template <class V, class I>
ScatterResult probe_devices(DeviceGroup& group, std::size_t out_size, std::size_t bins, ScatterOp op, const ScatterOptions& options,
                            std::size_t width) {
  using O = detail::group_scatter_output_t<V>;
  ScatterResult first;
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<O> probe(bins ? width : 0);
    const ScatterResult r = scatter_reduce<V, I>(group.runtime(d), probe, std::vector<I>{}, std::vector<V>{}, op, options, width);
    if (d == 0) first = r;
    if (out_size * sizeof(O) > group.runtime(d).device_info().caps.max_mem_alloc_size)
      refuse("out (" + std::to_string(out_size * sizeof(O)) + " bytes) is larger than one buffer of device " + std::to_string(d));
  }
  return first;
}

}  // namespace

template <class V, class I>
ScatterResult detail::group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& indices,
                                           const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  using O = group_scatter_output_t<V>;
  const detail::HostRows rows = detail::host_rows("scatter_reduce", width, false, out.size(), indices.size(), values.size());
  (void)probe_devices<V, I>(group, out.size(), rows.bins, op, options, width);
  // An empty output (as one device gives it): nothing runs; with no bins every index is out of
  // range (counted, or refused with OutOfRange::refuse).
  if (rows.bins == 0) {
    std::vector<O> none;
    return scatter_reduce<V, I>(group.runtime(0), none, indices, values, op, options, width);
  }
  const ScatterOnGroup<V, I> call{&indices, &values, rows.count, rows.bins, width, op, options};
  return call.finish(out, detail::run_spread(group, call));
}

template <class V, class I>
ScatterResult detail::group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const DistributedBuffer<I>& indices,
                                           const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  detail::check_layout(group, indices);
  detail::check_layout(group, values);
  const detail::HostRows rows = detail::host_rows("scatter_reduce", width, false, out.size(), indices.size, values.size);
  for (std::size_t d = 0; d < group.size(); ++d)
    if (values.first[d] != indices.first[d] * width || values.count[d] != indices.count[d] * width)
      refuse("values are not laid out as the rows of the indices: device " + std::to_string(d) + " holds indices' " +
             detail::elements_of(indices.first[d], indices.count[d]) + " and values' " + detail::elements_of(values.first[d], values.count[d]) +
             ", where their rows of width " + std::to_string(width) + " are values' " +
             detail::elements_of(indices.first[d] * width, indices.count[d] * width) + " (distribute(group, values, width) lays them out so)");
  std::vector<std::vector<detail::At>> arrays(group.size());
  for (std::size_t d = 0; d < group.size(); ++d)
    arrays[d] = {{indices.parts[d](), 0, sizeof(I)}, {values.parts[d](), 0, sizeof(V), width}};
  const ScatterResult empty = probe_devices<V, I>(group, out.size(), rows.bins, op, options, width);
  if (rows.bins == 0) {
    // No bins: every index is out of range, as one device counts or refuses them (rows of width
    // 0 carry no value: nothing counted).
    detail::check_parts(group, arrays, indices.count);
    ScatterResult result = empty;
    result.out_of_range = width ? rows.count : 0;
    if (result.out_of_range && options.out_of_range == OutOfRange::refuse)
      refuse("bins is 0, so all " + std::to_string(rows.count) + " indices are out of range, and options.out_of_range is refuse");
    return result;
  }
  const ScatterOnGroup<V, I> call{nullptr, nullptr, rows.count, rows.bins, width, op, options};
  // Where the bits depend on the chunks, the host-data form's chunks.
  const bool chunked = options.deterministic && call.wide();
  return call.finish(out, chunked ? detail::run_resident_chunks(group, call, arrays, indices.first, indices.count)
                                  : detail::run_resident(group, call, arrays, indices.first, indices.count));
}

#define CLATOMICS_GROUP_SCATTER(V, I)                                                                                                    \
  template ScatterResult detail::group_scatter_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,         \
                                                            const std::vector<I>&, const std::vector<V>&, ScatterOp, ScatterOptions, std::size_t); \
  template ScatterResult detail::group_scatter_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&,         \
                                                            const DistributedBuffer<I>&, const DistributedBuffer<V>&, ScatterOp,   \
                                                            ScatterOptions, std::size_t);
#define CLATOMICS_GROUP_SCATTER_TYPES(V) CLATOMICS_GROUP_SCATTER(V, cl_uint) CLATOMICS_GROUP_SCATTER(V, cl_ulong)
CLATOMICS_GROUP_SCATTER_TYPES(float)
CLATOMICS_GROUP_SCATTER_TYPES(double)
CLATOMICS_GROUP_SCATTER_TYPES(cl_int)
CLATOMICS_GROUP_SCATTER_TYPES(cl_uint)
CLATOMICS_GROUP_SCATTER_TYPES(cl_long)
CLATOMICS_GROUP_SCATTER_TYPES(cl_ulong)
CLATOMICS_GROUP_SCATTER_TYPES(half_t)
CLATOMICS_GROUP_SCATTER_TYPES(bfloat16_t)

}  // namespace clatomics
