// The pieces of scatter_reduce_partial and reduce_by_key_partial that a device group's engine
// uses for its chunks and parts (groups/group_scatter.cpp, groups/group_by_key.cpp): a partial
// at the op's identity, one part's run, and how parts join, which the scatter family's other
// group form (groups/group_segments.cpp) shares.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "clatomics/reduce_by_key.hpp"
#include "clatomics/scatter.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics::detail {

inline ReduceOp scatter_reduce_op(ScatterOp op) {
  switch (op) {
    case ScatterOp::prod: return ReduceOp::prod;
    case ScatterOp::min: return ReduceOp::min;
    case ScatterOp::max: return ReduceOp::max;
    default: return ReduceOp::sum;  // sum, and mean's sum
  }
}

// What an op and its options make of parts reduced on their devices from the op's identity into
// outputs of O: how they join on the host in element order, and how out's own value and a mean's
// count finish them, as one device's kernels would.
template <class O>
struct ScatterRule {
  using Acc = typename ScatterPartial<O>::Acc;  // float sums and means join in double

  ScatterOp op;
  ScatterOptions options;
  // Each bin's values counted (mean's divisor; include_self = false: which bins any value reached).
  bool counted() const { return op == ScatterOp::mean || !options.include_self; }
  // Float sums and means join in double.
  bool wide() const { return std::is_floating_point_v<O> && (op == ScatterOp::sum || op == ScatterOp::mean); }
  // Float min/max whose NaN propagates (ScatterOptions::nan).
  bool propagates() const {
    return std::is_floating_point_v<O> && (op == ScatterOp::min || op == ScatterOp::max) && options.nan == NanRule::propagate;
  }
  // The value a part's output copy starts from: a no-op under the op (float min/max: -inf/+inf
  // where NaN propagates, else NaN, the missing value; float sums: -0, which keeps a -0 of out).
  O identity() const {
    if constexpr (std::is_floating_point_v<O>) {
      if (propagates()) return op == ScatterOp::max ? -std::numeric_limits<O>::infinity() : std::numeric_limits<O>::infinity();
      if (op == ScatterOp::min || op == ScatterOp::max) return std::numeric_limits<O>::quiet_NaN();
      if (op == ScatterOp::sum || op == ScatterOp::mean) return O(-0.0);
    }
    return reduce_identity<O>(scatter_reduce_op(op));
  }
  // What no part has joined yet.
  Acc start() const { return wide() ? Acc(-0.0) : Acc(identity()); }
  // Where NaN propagates any NaN wins (the host's quiet NaN, as the device writes it), else the
  // op's order (-0 below +0; NaN the missing value under NanRule::missing).
  O combine(O a, O b) const {
    if constexpr (std::is_floating_point_v<O>)
      if (propagates() && (std::isnan(a) || std::isnan(b))) return std::numeric_limits<O>::quiet_NaN();
    return reduce_combine<O>(scatter_reduce_op(op), a, b);
  }
  // A part's value joined after the parts' before it.
  Acc join(Acc before, Acc part) const { return wide() ? before + part : Acc(combine(O(before), O(part))); }
  // out's own value op the joined parts (include_self): out as it is where nothing but the
  // identity reached it and NaN propagates (its NaN's bits included, as on one device).
  O with_self(O out, Acc joined) const {
    const O a = O(joined), start_value = identity();
    if (propagates() && std::memcmp(&a, &start_value, sizeof(O)) == 0) return out;
    return wide() ? O(Acc(out) + joined) : combine(out, a);
  }
  // mean's quotient as the device takes it (kernels/scatter_finish.cl): float through double,
  // double divided, unsigned integers truncated, signed integers rounded toward minus infinity.
  static O mean(O sum, std::uint64_t count) {
    if constexpr (std::is_floating_point_v<O>) {
      return O(double(sum) / double(count));
    } else if constexpr (std::is_unsigned_v<O>) {
      return O(std::uint64_t(sum) / count);
    } else {
      const std::int64_t s = std::int64_t(sum), c = std::int64_t(count), q = s / c;
      return O(q - ((s % c != 0 && s < 0) ? 1 : 0));
    }
  }
};

// A partial of no values: every bin at the op's identity, counts at 0 where they are kept.
template <class O>
ScatterPartial<O> empty_partial(std::size_t bins, std::size_t width, ScatterOp op, const ScatterOptions& options);

// The partial of count indices (and their rows of values) at indices_offset / values_offset of
// those buffers, the call's checks already made: each reduced on rt's device into a copy of the
// output at the op's identity, read back with the values' counts where the op needs them.
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_part(Runtime& rt, std::size_t bins, std::size_t width, ScatterOp op,
                                                  const ScatterOptions& options, cl_mem indices, std::size_t indices_offset,
                                                  cl_mem values, std::size_t values_offset, std::size_t count);

// A reduce_by_key partial of no keys: no runs, the call's op and options.
template <class K, class O>
ByKeyPartial<K, O> empty_by_key(ScatterOp op, const ScatterOptions& options) {
  ByKeyPartial<K, O> p;
  p.op = op, p.options = options;
  return p;
}

// The partial reduce_by_key of count keys and values at keys_offset / values_offset of those
// buffers, the call's checks already made: the runs found and reduced on rt's device (mean's as
// sums, with their lengths), read back.
template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> by_key_part(Runtime& rt, ScatterOp op, const ScatterOptions& options, cl_mem keys,
                                                  std::size_t keys_offset, cl_mem values, std::size_t values_offset, std::size_t count);

}  // namespace clatomics::detail
