// scatter_reduce over a device group: each chunk of (indices, values) reduced on the device that
// takes it into a copy of the output at the op's identity, the copies joined into out on the host
// in chunk order.
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
#include "groups/group_spread.hpp"
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

// One chunk's output copy, and how many values reached each bin (when the op or include_self
// needs it).
template <class O>
struct ChunkResult {
  ScatterResult result;
  std::vector<O> values;
  std::vector<cl_uint> counts;
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

}  // namespace

template <class V, class I>
ScatterResult detail::group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& indices,
                                           const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  using O = group_scatter_output_t<V>;  // float for 16-bit values: the one-device calls below write it unrounded
  const detail::HostRows rows = detail::host_rows("scatter_reduce", width, false, out.size(), indices.size(), values.size());
  const std::size_t bins = rows.bins, n = rows.count;
  // Every device refuses what it cannot run (op, type, options) on a call with no elements (its
  // probe is one row: no larger than out).
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<O> probe(bins ? width : 0);
    (void)scatter_reduce<V, I>(group.runtime(d), probe, std::vector<I>{}, std::vector<V>{}, op, options, width);
    if (out.size() * sizeof(O) > group.runtime(d).device_info().caps.max_mem_alloc_size)
      refuse("out (" + std::to_string(out.size() * sizeof(O)) + " bytes) is larger than one buffer of device " + std::to_string(d));
  }
  // An empty output (as one device gives it): nothing runs; with no bins every index is out of
  // range (counted, or refused with OutOfRange::refuse).
  if (bins == 0) {
    std::vector<O> none;
    return scatter_reduce<V, I>(group.runtime(0), none, indices, values, op, options, width);
  }

  const bool counted = op == ScatterOp::mean || !options.include_self;
  const std::vector<detail::HostArray> arrays{{indices.data(), sizeof(I)}, {values.data(), width * sizeof(V)}};
  const std::size_t chunk = detail::group_chunk(group, n, arrays, 64, counted ? sizeof(cl_uint) : 0);
  const std::size_t values_at = detail::staging_offset(arrays, 1, std::min(chunk, n)) / sizeof(V);
  ScatterOptions chunk_options = options;
  chunk_options.include_self = true;  // the copy starts at the identity: including it changes nothing
  const O start = identity<O>(op, options);
  const bool prop = std::is_floating_point_v<O> && propagates(op, options);
  // Float min/max where NaN propagates: any NaN wins (the host's quiet NaN, as the device writes
  // it), else the op's order (-0 below +0).
  const auto combine = [&](O a, O b) {
    if (prop && (std::isnan(a) || std::isnan(b))) return std::numeric_limits<O>::quiet_NaN();
    return detail::reduce_combine<O>(reduce_op(op), a, b);
  };
  const auto part = [&](Runtime& rt, cl_mem staging, std::size_t, std::size_t count) {
    ChunkResult<O> r;
    const detail::Mem copy = detail::make_buffer(rt, out.size() * sizeof(O));
    detail::Commands(rt).fill(copy.get(), &start, sizeof(O), out.size() * sizeof(O));
    detail::ScatterCall call = detail::scatter_call<V, I, O>(op == ScatterOp::mean ? ScatterOp::sum : op, chunk_options, false, copy.get(), 0,
                                                          bins, staging, 0, staging, values_at, count);
    call.rows.width = width;
    r.result = detail::scatter_buffers(rt, call);
    r.values.resize(out.size());
    detail::Commands(rt).read(copy.get(), 0, out.size() * sizeof(O), r.values.data());
    if (counted) {  // a scatter of ones
      const detail::Mem ones = detail::make_buffer(rt, count * sizeof(cl_uint)), counts = detail::make_buffer(rt, bins * sizeof(cl_uint));
      const cl_uint one = 1;
      detail::Commands fills(rt);
      fills.fill(ones.get(), &one, sizeof one, count * sizeof(cl_uint));
      fills.fill_zero(counts.get(), bins * sizeof(cl_uint));
      ScatterOptions count_options;
      count_options.indices_are_sorted = options.indices_are_sorted;
      (void)detail::scatter_buffers(rt, detail::scatter_call<cl_uint, I>(ScatterOp::sum, count_options, false, counts.get(), 0, bins, staging, 0,
                                                                         ones.get(), 0, count));
      r.counts.resize(bins);
      detail::Commands(rt).read(counts.get(), 0, bins * sizeof(cl_uint), r.counts.data());
    }
    return r;
  };

  // The chunks' copies joined in chunk order: float sums in double, the rest by the op itself.
  using Acc = std::conditional_t<std::is_floating_point_v<O>, double, O>;
  const bool wide = std::is_floating_point_v<O> && (op == ScatterOp::sum || op == ScatterOp::mean);
  std::vector<Acc> acc(out.size(), wide ? Acc(-0.0) : Acc(start));
  std::vector<std::uint64_t> reached(counted ? bins : 0);
  ScatterResult total;
  detail::spread<ChunkResult<O>>(group, n, arrays, chunk, part, [&](std::size_t c, ChunkResult<O>&& r) {
    if (c == 0) total.strategy = r.result.strategy;
    total.out_of_range += r.result.out_of_range;
    for (std::size_t j = 0; j < out.size(); ++j)
      acc[j] = wide ? acc[j] + Acc(r.values[j]) : Acc(combine(O(acc[j]), r.values[j]));
    for (std::size_t b = 0; b < reached.size(); ++b) reached[b] += r.counts[b];
  });
  if (n == 0) total.strategy = options.strategy == ScatterStrategy::automatic ? ScatterStrategy::global_atomics : options.strategy;

  for (std::size_t b = 0; b < bins; ++b) {
    if (counted && reached[b] == 0) continue;  // no values: the bin keeps its value
    for (std::size_t d = 0; d < width; ++d) {
      const std::size_t j = b * width + d;
      // Nothing but the identity reached it: out op identity is out, its NaN's bits included
      // (as on one device).
      const O a = O(acc[j]);
      if (prop && options.include_self && std::memcmp(&a, &start, sizeof(O)) == 0) continue;
      O r;
      if (wide)
        r = O(options.include_self ? double(out[j]) + acc[j] : acc[j]);
      else
        r = options.include_self ? combine(out[j], O(acc[j])) : O(acc[j]);
      if (op == ScatterOp::mean) r = mean_of<O>(r, reached[b] + (options.include_self ? 1 : 0));
      out[j] = r;
    }
  }
  return total;
}

#define CLATOMICS_GROUP_SCATTER(V, I)                                                                                            \
  template ScatterResult detail::group_scatter_reduce<V, I>(DeviceGroup&, std::vector<detail::group_scatter_output_t<V>>&, \
                                                            const std::vector<I>&, const std::vector<V>&, ScatterOp, ScatterOptions, std::size_t);
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
