// The checks of scatter_reduce's other entry points against the reference model, each over its
// whole matrix of sizes and layouts: scatter_reduce_arg (argmin/argmax), segment_reduce (CSR
// segments) and reduce_by_key (runs of keys). Their own suites run them, and so does the case of
// host data in many small launches (test_scatter_ops.cpp), which runs them again in chunks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "scatter_harness.hpp"

namespace scatter_test {

// ---- argmin / argmax -------------------------------------------------------------------------

// arg[b]: the lowest position whose value is out[b] afterwards (the same bits), else count.
template <class V>
std::vector<cl_ulong> arg_reference(const std::vector<Out<V>>& out, const std::vector<std::size_t>& bin_of, const std::vector<V>& values) {
  std::vector<cl_ulong> arg(out.size(), cl_ulong(bin_of.size()));
  for (std::size_t i = bin_of.size(); i-- > 0;)
    if (bin_of[i] != none && same(widen(values[i]), out[bin_of[i]])) arg[bin_of[i]] = cl_ulong(i);
  return arg;
}

inline void check_args(const std::vector<cl_ulong>& got, const std::vector<cl_ulong>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t wrong = 0;
  std::ostringstream first;
  for (std::size_t b = 0; b < got.size(); ++b)
    if (got[b] != want[b] && wrong++ < 5) first << "\n  arg[" << b << "] expected " << want[b] << ", got " << got[b];
  INFO(what, ": ", wrong, " of ", got.size(), " positions wrong", first.str());
  CHECK(wrong == 0);
}

// Values of 7 kinds only (many ties), into the even bins of 101 (the odd ones receive nothing),
// 1 in 64 out of range. With include_self, out's own value is better than every value in half
// the bins (arg: count) and worse in the others.
template <class V>
void check_arg(ScatterOp op, bool without_self) {
  using O = Out<V>;
  using I = Idx<V>;
  auto& rt = test::runtime();
  const std::size_t bins = 101;
  for (const std::size_t n : {std::size_t(1), std::size_t(10007), std::size_t(300007)})
    for (const Dist dist : {Dist::uniform, Dist::one_bin})
      for (const bool self : {true, false}) {
        if (!self && !without_self) continue;
        std::mt19937_64 gen(n + self);
        auto indices = make_indices<I>(n, 50, dist, unsigned(n), 1);
        for (auto& k : indices)
          if (std::uint64_t(k) < 50) k = I(2 * k);
        std::vector<V> values(n);
        for (auto& v : values) v = narrow<V>(O(int(gen() % 7) + 10));
        std::vector<O> init(bins);
        const O better = op == ScatterOp::min ? O(0) : O(100), worse = op == ScatterOp::min ? O(100) : O(0);
        for (std::size_t b = 0; b < bins; ++b) init[b] = self ? ((b / 2) % 2 ? better : worse) : O(int(gen() % 50));
        std::vector<std::size_t> bin_of(n);
        for (std::size_t i = 0; i < n; ++i) bin_of[i] = std::uint64_t(indices[i]) < bins ? std::size_t(indices[i]) : none;
        const auto e = reference<V>(init, 0, 1, bins, 1, bin_of, values, 0, 1, op, self, true);
        const auto want = arg_reference(e.out, bin_of, values);
        const std::string what = describe<V, I>("arg", op, n, bins, dist, self);
        // Host data.
        std::vector<O> out = init;
        ScatterResult r;
        const auto arg = clatomics::scatter_reduce_arg(rt, out, indices, values, op, options(self), &r);
        check_out(out, e, what);
        check_args(arg, want, what);
        CHECK(r.out_of_range == e.out_of_range);
        // Buffers at offsets; arg's padding untouched.
        std::vector<I> pi(2, I(0));
        pi.insert(pi.end(), indices.begin(), indices.end());
        std::vector<V> pv(7, junk<V>(op != ScatterOp::min));  // would win, were it read
        pv.insert(pv.end(), values.begin(), values.end());
        std::vector<O> po(3, sentinel<O>());
        po.insert(po.end(), init.begin(), init.end());
        std::vector<cl_ulong> pa(5 + bins + 2, cl_ulong(0xDEADBEEF));
        const cl::Buffer dout = device(po), darg = device(pa);
        const auto rb = arg_ranges<V, I>(rt, dout, 3, bins, darg, 5, device(pi), 2, device(pv), 7, n, op, options(self));
        CHECK(rb.out_of_range == e.out_of_range);
        const auto got_out = test::to_host<O>(rt, dout, po.size());
        const auto got_arg = test::to_host<cl_ulong>(rt, darg, pa.size());
        check_out(std::vector<O>(got_out.begin() + 3, got_out.end()), e, what + ", buffers");
        check_args(std::vector<cl_ulong>(got_arg.begin() + 5, got_arg.begin() + 5 + std::ptrdiff_t(bins)), want, what + ", buffers");
        CHECK(same(std::vector<O>(got_out.begin(), got_out.begin() + 3), std::vector<O>(3, sentinel<O>())));
        CHECK(std::vector<cl_ulong>(got_arg.begin(), got_arg.begin() + 5) == std::vector<cl_ulong>(5, 0xDEADBEEF));
        CHECK(std::vector<cl_ulong>(got_arg.end() - 2, got_arg.end()) == std::vector<cl_ulong>(2, 0xDEADBEEF));
      }
}

// ---- segment_reduce --------------------------------------------------------------------------

// CSR offsets over count values: 60 segments from offset 11 (a third empty, one of 200003
// values), the values past the last offset unused; 5 empty segments; one segment of everything;
// no values at all.
template <class Off>
std::vector<std::vector<Off>> segment_layouts(std::vector<std::size_t>& counts) {
  std::mt19937_64 gen(5);
  std::vector<std::vector<Off>> layouts;
  std::vector<Off> a = {Off(11)};
  for (std::size_t s = 0; s < 60; ++s) a.push_back(Off(a.back() + (s % 3 == 0 ? 0 : s == 31 ? 200003 : gen() % 400)));
  layouts.push_back(a), counts.push_back(std::size_t(a.back()) + 13);
  layouts.push_back(std::vector<Off>(6, Off(4))), counts.push_back(10);
  layouts.push_back({Off(0), Off(300007)}), counts.push_back(300007);
  layouts.push_back({Off(0), Off(0), Off(0), Off(0)}), counts.push_back(0);
  return layouts;
}

// A segment with no values, without include_self: the empty reduction (torch_scatter's
// segment_csr), 1 for prod and 0 for the others, in every column.
template <class O, class Off>
void empty_segments(Expected<O>& e, const std::vector<Off>& offsets, std::size_t out_offset, std::size_t out_stride, std::size_t width,
                    ScatterOp op, bool include_self) {
  if (include_self) return;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    if (offsets[s] == offsets[s + 1])
      for (std::size_t d = 0; d < width; ++d) e.out[out_offset + s * out_stride + d] = O(op == ScatterOp::prod ? 1 : 0);
}

template <class V, class Off>
void check_segments(ScatterOp op, std::initializer_list<bool> selves) {
  using O = Out<V>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  std::vector<std::size_t> counts;
  const auto layouts = segment_layouts<Off>(counts);
  for (std::size_t l = 0; l < layouts.size(); ++l)
    for (const bool self : selves) {
      const auto& offsets = layouts[l];
      const std::size_t segments = offsets.size() - 1, count = counts[l];
      std::vector<std::size_t> bin_of(count, none);
      for (std::size_t s = 0; s < segments; ++s)
        for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) bin_of[i] = s;
      std::ostringstream w;
      w << "segments " << type_name<V>() << " " << op_name(op) << " by " << type_name<Off>() << ", layout " << l << ", " << segments
        << " segments over " << count << (self ? ", include_self" : ", without self");
      // Host data, one column.
      {
        const auto values = make_values<V>(count, op, unsigned(l));
        const auto init = make_init<O>(segments, op, unsigned(l));
        auto e = reference<V>(init, 0, 1, segments, 1, bin_of, values, 0, 1, op, self, true);
        empty_segments(e, offsets, 0, 1, 1, op, self);
        std::vector<O> out = init;
        clatomics::segment_reduce(rt, out, offsets, values, op, options(self));
        check_out(out, e, w.str() + ", host");
      }
      // Buffers: rows of 3 with strides, everything at offsets.
      {
        Shape shape;
        shape.width = 3, shape.value_pad = 2, shape.out_pad = 1, shape.out_offset = 4, shape.value_offset = 5;
        auto p = make_problem<V, Off>(count, segments, Dist::uniform, op, unsigned(l + 50), 0, shape);
        p.indices.assign(2, Off(0));
        p.indices.insert(p.indices.end(), offsets.begin(), offsets.end());
        auto e = reference<V>(p.out, p.out_offset, p.out_stride, segments, p.width, bin_of, p.values, p.value_offset, p.value_stride,
                              op, self, true);
        empty_segments(e, offsets, p.out_offset, p.out_stride, p.width, op, self);
        const cl::Buffer out = device(p.out);
        segment_ranges<V, Off>(rt, out, p.out_offset, segments, device(p.indices), 2, device(p.values), p.value_offset, count,
                                          op, options(self), Rows{p.width, p.value_stride, p.out_stride});
        check_out(test::to_host<O>(rt, out, p.out.size()), e, w.str() + ", buffers, rows of 3");
      }
    }
}

// ---- reduce_by_key ---------------------------------------------------------------------------

// Sorted keys (runs of every length, skewed), or unsorted ones: runs of 1 to 20 equal keys from
// 8 kinds, so that neighbouring runs often have the same key and merge into one; 64-bit keys past
// 2^32.
template <class K>
std::vector<K> make_keys(std::size_t n, bool sorted, unsigned seed) {
  std::vector<K> keys;
  if (sorted) keys = make_indices<K>(n, 5000, Dist::zipf, seed);
  else {
    std::mt19937_64 gen(seed);
    while (keys.size() < n) keys.insert(keys.end(), std::min<std::size_t>(n - keys.size(), 1 + gen() % 20), K(gen() % 8));
  }
  if (sorted) std::sort(keys.begin(), keys.end());
  if (sizeof(K) == 8)
    for (auto& k : keys) k = K(k + (K(1) << 33));
  return keys;
}

template <class K, class V>
void check_by_key(ScatterOp op) {
  using O = Out<V>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  for (const bool sorted : {true, false})
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(10007), std::size_t(300007)}) {
      const unsigned seed = unsigned(n + sorted);
      const auto keys = make_keys<K>(n, sorted, seed);
      const auto values = make_values<V>(n, op, seed);
      std::vector<K> unique;
      std::vector<std::size_t> bin_of(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) unique.push_back(keys[i]);
        bin_of[i] = unique.size() - 1;
      }
      const std::size_t runs = unique.size();
      const auto e = reference<V>(std::vector<O>(runs, sentinel<O>()), 0, 1, runs, 1, bin_of, values, 0, 1, op, false, true);
      std::ostringstream w;
      w << "reduce_by_key " << type_name<V>() << " " << op_name(op) << " by " << type_name<K>() << ", n=" << n
        << (sorted ? " sorted" : " unsorted") << ", " << runs << " runs";
      // include_self is ignored: the outputs start empty.
      for (const bool self : {false, true}) {
        const auto got = clatomics::reduce_by_key<K, V, O>(rt, keys, values, op, options(self));
        CHECK(got.first == unique);
        check_out(got.second, e, w.str() + (self ? ", host, include_self (ignored)" : ", host"));
      }
      // Buffers at offsets, the outputs exactly count long.
      std::vector<K> pk(3, K(0));
      pk.insert(pk.end(), keys.begin(), keys.end());
      std::vector<V> pv(1, junk<V>(0));
      pv.insert(pv.end(), values.begin(), values.end());
      const cl::Buffer dunique = device(std::vector<K>(2 + n)), dreductions = device(std::vector<O>(4 + n));
      const std::size_t got_runs =
          by_key_ranges<K, V>(rt, device(pk), 3, device(pv), 1, n, dunique, 2, dreductions, 4, op, options(false));
      CHECK(got_runs == runs);
      if (got_runs != runs || !runs) continue;
      const auto gk = test::to_host<K>(rt, dunique, 2 + runs), gr = test::to_host<O>(rt, dreductions, 4 + runs);
      CHECK(std::vector<K>(gk.begin() + 2, gk.end()) == unique);
      check_out(std::vector<O>(gr.begin() + 4, gr.end()), e, w.str() + ", buffers");
    }
}

}  // namespace scatter_test
