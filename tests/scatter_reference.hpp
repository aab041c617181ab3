// The scatter tests' host reference model: what an output buffer must hold after any scatter
// call (scatter_reduce, and the segments and runs of keys that map onto its bins), and the check
// of a whole output against it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "scatter_data.hpp"

namespace scatter_test {

// ---- The host reference model ----------------------------------------------------------------

// What an output buffer must hold afterwards. Integers, min/max and the sums and products of
// exact data: out, bit for bit. Other floating-point results (bound > 0): |got - ref| <= bound,
// ref the long double result. A sum of n terms (out's own value one of them with include_self)
// in any order of float adds: n * eps * sum |terms| ((n - 1) roundings of at most eps/2 of a
// partial sum, and the last); a product: n * eps * |product|; a mean, that sum's bound divided by
// n and one more rounding: eps * (sum |terms| + 2 |mean|).
template <class O>
struct Expected {
  std::vector<O> out;
  std::vector<long double> ref;
  std::vector<double> bound;
  std::uint64_t out_of_range = 0;
};

template <class W>
W floor_div(W a, W b) {  // b > 0
  W q = a / b;
  if constexpr (std::is_signed_v<W>)
    if (a % b != 0 && a < 0) --q;
  return q;
}

// Bin b, column d lives at out[out_offset + b * out_stride + d]; element i's column d at
// values[value_offset + i * value_stride + d] goes to bin bin_of[i] (none: nowhere). Bins that
// receive nothing keep their value; with include_self, a bin's own value is one more term (for
// mean: (self + sum) / (count + 1)); integer sums and products wrap as unsigned arithmetic and
// integer means round toward minus infinity; float min/max as test::ref_min/ref_max.
template <class V>
Expected<Out<V>> reference(const std::vector<Out<V>>& out0, std::size_t out_offset, std::size_t out_stride, std::size_t bins,
                           std::size_t width, const std::vector<std::size_t>& bin_of, const std::vector<V>& values,
                           std::size_t value_offset, std::size_t value_stride, ScatterOp op, bool include_self, bool exact) {
  using O = Out<V>;
  Expected<O> e;
  e.out = out0;
  e.ref.assign(out0.size(), 0);
  e.bound.assign(out0.size(), 0);
  const std::size_t cells = bins * width;
  std::vector<std::uint64_t> n(cells);
  const auto at = [&](std::size_t c) { return out_offset + (c / width) * out_stride + c % width; };
  if constexpr (std::is_integral_v<O>) {
    using U = std::make_unsigned_t<O>;
    using W = std::conditional_t<std::is_signed_v<O>, std::int64_t, std::uint64_t>;
    std::vector<U> acc(cells);
    std::vector<O> best(cells);
    for (std::size_t i = 0; i < bin_of.size(); ++i) {
      if (bin_of[i] == none) continue;
      for (std::size_t d = 0; d < width; ++d) {
        const std::size_t c = bin_of[i] * width + d;
        const O v = values[value_offset + i * value_stride + d];
        if (n[c]++ == 0) {
          acc[c] = U(v), best[c] = v;
          continue;
        }
        if (op == ScatterOp::sum || op == ScatterOp::mean) acc[c] = U(acc[c] + U(v));
        if (op == ScatterOp::prod) acc[c] = U(acc[c] * U(v));
        if (op == ScatterOp::min) best[c] = std::min(best[c], v);
        if (op == ScatterOp::max) best[c] = std::max(best[c], v);
      }
    }
    for (std::size_t c = 0; c < cells; ++c) {
      if (!n[c]) continue;
      const O self = out0[at(c)];
      O r{};
      switch (op) {
        case ScatterOp::sum: r = O(include_self ? U(U(self) + acc[c]) : acc[c]); break;
        case ScatterOp::prod: r = O(include_self ? U(U(self) * acc[c]) : acc[c]); break;
        case ScatterOp::min: r = include_self ? std::min(self, best[c]) : best[c]; break;
        case ScatterOp::max: r = include_self ? std::max(self, best[c]) : best[c]; break;
        case ScatterOp::mean: {  // the sum wraps in O, as the device's does, then floor division
          const O sum = O(include_self ? U(U(self) + acc[c]) : acc[c]);
          r = O(floor_div<W>(W(sum), W(n[c] + include_self)));
          break;
        }
      }
      e.out[at(c)] = r;
    }
  } else {
    const double eps = std::numeric_limits<O>::epsilon();
    std::vector<long double> acc(cells), abs_sum(cells);
    std::vector<O> best(cells);
    for (std::size_t i = 0; i < bin_of.size(); ++i) {
      if (bin_of[i] == none) continue;
      for (std::size_t d = 0; d < width; ++d) {
        const std::size_t c = bin_of[i] * width + d;
        const O v = widen(values[value_offset + i * value_stride + d]);
        if (n[c]++ == 0) {
          acc[c] = v, abs_sum[c] = std::fabs(v), best[c] = v;
          continue;
        }
        if (op == ScatterOp::prod) acc[c] *= v;
        else acc[c] += v;
        abs_sum[c] += std::fabs(v);
        if (op == ScatterOp::min) best[c] = test::ref_min(best[c], v);
        if (op == ScatterOp::max) best[c] = test::ref_max(best[c], v);
      }
    }
    for (std::size_t c = 0; c < cells; ++c) {
      if (!n[c]) continue;
      const std::size_t pos = at(c);
      const O self = out0[pos];
      const double terms = double(n[c] + include_self);
      const long double abs_total = abs_sum[c] + (include_self ? std::fabs(self) : 0);
      switch (op) {
        case ScatterOp::min: e.out[pos] = include_self ? test::ref_min(self, best[c]) : best[c]; break;
        case ScatterOp::max: e.out[pos] = include_self ? test::ref_max(self, best[c]) : best[c]; break;
        case ScatterOp::sum:
          e.ref[pos] = include_self ? self + acc[c] : acc[c];
          e.out[pos] = O(e.ref[pos]);
          if (!exact) e.bound[pos] = double(terms * eps * abs_total);
          break;
        case ScatterOp::prod:
          e.ref[pos] = include_self ? self * acc[c] : acc[c];
          e.out[pos] = O(e.ref[pos]);
          if (!exact) e.bound[pos] = double(terms * eps * std::fabs(e.ref[pos]));
          break;
        case ScatterOp::mean:
          e.ref[pos] = (include_self ? self + acc[c] : acc[c]) / terms;
          e.out[pos] = O(e.ref[pos]);
          e.bound[pos] = double(eps * (abs_total + 2 * std::fabs(e.ref[pos])));
          break;
      }
    }
  }
  for (std::size_t i = 0; i < bin_of.size(); ++i) e.out_of_range += bin_of[i] == none;
  return e;
}

// Compares a whole output buffer with the reference; names the first few wrong elements.
template <class O>
void check_out(const std::vector<O>& got, const Expected<O>& e, const std::string& what) {
  REQUIRE(got.size() == e.out.size());
  std::size_t wrong = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < got.size(); ++k) {
    bool ok;
    if constexpr (std::is_integral_v<O>) ok = got[k] == e.out[k];
    else if (e.bound[k] > 0) ok = std::fabs((long double)got[k] - e.ref[k]) <= e.bound[k];
    else ok = same(got[k], e.out[k]);
    if (ok || wrong++ >= 5) continue;
    first << "\n  [" << k << "] expected " << show(e.out[k]);
    if constexpr (!std::is_integral_v<O>)
      if (e.bound[k] > 0) first << " (+- " << e.bound[k] << ")";
    first << ", got " << show(got[k]);
  }
  INFO(what, ": ", wrong, " of ", got.size(), " output elements wrong", first.str());
  CHECK(wrong == 0);
}

}  // namespace scatter_test
