// scatter_reduce's result on the host for the device group suites (host data and resident
// data): out op= values for values without NaN, integers wrapping as on the device, and values
// every op sums or multiplies exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "clatomics/scatter.hpp"
#include "support.hpp"

namespace group_test {

// a op b with integers wrapping, as on the device.
template <class O>
O wrapped(clatomics::ScatterOp op, O a, O b) {
  if constexpr (std::is_floating_point_v<O>) {
    return op == clatomics::ScatterOp::prod ? a * b : a + b;
  } else {
    using U = std::make_unsigned_t<O>;
    return O(op == clatomics::ScatterOp::prod ? U(U(a) * U(b)) : U(U(a) + U(b)));
  }
}

// scatter_reduce's result on the host: out op= values, as scatter.hpp defines it, for values
// without NaN; counts of values per bin for mean and include_self = false.
template <class O, class V, class I>
std::vector<O> scatter_reference(std::vector<O> out, const std::vector<I>& indices, const std::vector<V>& values,
                                 clatomics::ScatterOp op, bool include_self, std::size_t width, std::uint64_t& out_of_range) {
  using clatomics::ScatterOp;
  const std::size_t bins = out.size() / width;
  std::vector<O> acc(out.size());
  std::vector<std::uint64_t> count(bins, 0);
  out_of_range = 0;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= bins) {
      ++out_of_range;
      continue;
    }
    const std::size_t b = indices[i];
    for (std::size_t d = 0; d < width; ++d) {
      O& a = acc[b * width + d];
      const O v = O(values[i * width + d]);
      if (count[b] == 0) a = v;
      else if (op == ScatterOp::sum || op == ScatterOp::mean || op == ScatterOp::prod) a = wrapped(op, a, v);
      else if (op == ScatterOp::min) a = v < a ? v : a;
      else a = v > a ? v : a;
    }
    ++count[b];
  }
  for (std::size_t b = 0; b < bins; ++b) {
    if (count[b] == 0) continue;
    for (std::size_t d = 0; d < width; ++d) {
      O& o = out[b * width + d];
      O r = acc[b * width + d];
      if (include_self) {
        if (op == ScatterOp::sum || op == ScatterOp::mean || op == ScatterOp::prod) r = wrapped(op, o, r);
        else if (op == ScatterOp::min) r = o < r ? o : r;
        else r = o > r ? o : r;
      }
      if (op == ScatterOp::mean) {
        const std::uint64_t c = count[b] + (include_self ? 1 : 0);
        if constexpr (std::is_floating_point_v<O>) r = r / O(c);
        else if constexpr (std::is_unsigned_v<O>) r = O(std::uint64_t(r) / c);
        else r = O(std::int64_t(r) / std::int64_t(c) - ((std::int64_t(r) % std::int64_t(c) != 0 && r < 0) ? 1 : 0));
      }
      o = r;
    }
  }
  return out;
}

// Exact data for every op: small integers (sums exact in float), and factors of 1, 2, 0.5, -1
// for products (exact while a bin meets few of them).
template <class V>
std::vector<V> scatter_values(std::size_t n, clatomics::ScatterOp op) {
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i) * 7u + 1u);
    if (op == clatomics::ScatterOp::prod) {
      const double f[4] = {1, 2, 0.5, -1};
      v[i] = std::is_floating_point_v<V> ? V(f[h % 4]) : V(h % 5);
    } else {
      v[i] = std::is_unsigned_v<V> ? V(h % 1000) : V(int(h % 1000) - 500);
    }
  }
  return v;
}

// One case of the group scatter tests: values for op, an out with values of its own (1 or 2 for
// products), and the host's exact result of the call with include_self.
template <class V>
struct ScatterCase {
  std::vector<V> values, out, expected;
  std::uint64_t out_of_range = 0;
  clatomics::ScatterOptions options;
};
template <class V, class I>
ScatterCase<V> scatter_case(const std::vector<I>& indices, std::size_t bins, std::size_t width, clatomics::ScatterOp op,
                            bool include_self) {
  ScatterCase<V> c;
  c.values = scatter_values<V>(indices.size() * width, op);
  c.out.resize(bins * width);
  for (std::size_t j = 0; j < c.out.size(); ++j) c.out[j] = V(op == clatomics::ScatterOp::prod ? 1 + j % 2 : j % 7);
  c.expected = scatter_reference(c.out, indices, c.values, op, include_self, width, c.out_of_range);
  c.options.include_self = include_self;
  return c;
}

}  // namespace group_test
