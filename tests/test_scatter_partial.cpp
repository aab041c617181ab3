// scatter_reduce_partial, merge_into and finish_scatter (scatter.hpp): the data cut into parts
// (one empty, one of a single index), each part's partial merged in order and applied to out,
// against one scatter_reduce over all the data; every op, with and without out's values, rows,
// integer and float values, views and host vectors; refusals leave their outputs untouched.
// reduce_by_key_partial, merge_into and finish_by_key: runs cut by the parts, merged in order,
// against one reduce_by_key over all the data.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "clatomics/algorithms.hpp"
#include "support.hpp"

namespace {

using clatomics::ScatterOp;
using IA = std::invalid_argument;

constexpr std::size_t bins = 37;
// The parts' ends: an empty part, a part of one index, and the rest unevenly.
const std::vector<std::size_t> cuts = {0, 0, 1, 700, 2000, 3001};

template <class V>
std::vector<V> values_of(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<V> v(n);
  for (auto& e : v) e = V(int(gen() % 9) + 1);  // small positive integers: every sum and product below is exact in any order
  return v;
}

// Indices that leave some bins unreached, with out-of-range ones where asked.
std::vector<cl_uint> indices_of(std::size_t n, unsigned seed, bool out_of_range) {
  std::mt19937 gen(seed);
  std::vector<cl_uint> idx(n);
  for (auto& i : idx) i = cl_uint(gen() % (bins - 5)) + (out_of_range && gen() % 50 == 0 ? 1000u : 0u);
  return idx;
}

template <class T>
std::vector<T> slice(const std::vector<T>& v, std::size_t a, std::size_t b) {
  return std::vector<T>(v.begin() + a, v.begin() + b);
}

// The parts merged in order and applied to out, and the same call over all the data.
template <class V>
void check_against_one_call(ScatterOp op, bool include_self, std::size_t width) {
  auto& rt = test::runtime();
  const std::size_t n = cuts.back();
  const std::vector<cl_uint> idx = indices_of(n, 5, true);
  const std::vector<V> val = values_of<V>(n * width, 6);
  clatomics::ScatterOptions options;
  options.include_self = include_self;
  options.indices_are_sorted = false;
  clatomics::ScatterPartial<V> merged;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const auto part = clatomics::scatter_reduce_partial<V, cl_uint>(rt, bins, slice(idx, cuts[k], cuts[k + 1]),
                                                                    slice(val, cuts[k] * width, cuts[k + 1] * width), op, options, width);
    if (k == 0) merged = part;
    else clatomics::merge_into(merged, part);
  }
  std::vector<V> out(bins * width), expected;
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = V(int(j % 4) + 1);
  expected = out;
  const clatomics::ScatterResult got = clatomics::finish_scatter(out, merged);
  const clatomics::ScatterResult one = clatomics::scatter_reduce<V, cl_uint>(rt, expected, idx, val, op, options, width);
  CHECK(out == expected);
  CHECK(got.out_of_range == one.out_of_range);
  CHECK(got.out_of_range > 0);
}

}  // namespace

TEST_CASE("scatter partials merged in order equal one scatter_reduce over all the data: every op, include_self, rows") {
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean})
    for (const bool include_self : {true, false})
      for (const std::size_t width : {std::size_t(1), std::size_t(3)}) {
        CAPTURE(int(op));
        CAPTURE(include_self);
        CAPTURE(width);
        check_against_one_call<cl_int>(op, include_self, width);
        check_against_one_call<float>(op, include_self, width);
      }
}

TEST_CASE("a scatter partial of views equals the partial of the same host data, and the view's offset counts") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> idx = indices_of(500, 8, false);
  const std::vector<float> val = values_of<float>(500, 9);
  std::vector<cl_uint> padded_idx(3, 999u);
  padded_idx.insert(padded_idx.end(), idx.begin(), idx.end());
  const cl::Buffer on_device_idx = test::to_device(rt, padded_idx), on_device_val = test::to_device(rt, val);
  const auto from_views = clatomics::scatter_reduce_partial(rt, bins, clatomics::view<cl_uint>(on_device_idx, 3, 500),
                                                            clatomics::view<float>(on_device_val), ScatterOp::max);
  const auto from_host = clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::max);
  CHECK(from_views.values == from_host.values);
  CHECK(from_views.result.out_of_range == 0);
  CHECK(from_views.any);
}

TEST_CASE("deterministic float sums: a partial's bits are the same on every run; the parts add in order in double") {
  auto& rt = test::runtime();
  std::mt19937 gen(11);
  std::vector<float> val(20000);
  for (auto& v : val) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(gen);
  const std::vector<cl_uint> idx = indices_of(val.size(), 12, false);
  clatomics::ScatterOptions options;
  options.deterministic = true;
  const auto a = clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::sum, options);
  const auto b = clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::sum, options);
  REQUIRE(a.values.size() == b.values.size());
  CHECK(std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0);
  // Two partials merge by adding their double values, bin by bin.
  auto merged = a;
  clatomics::merge_into(merged, b);
  for (std::size_t j = 0; j < bins; ++j) CHECK(merged.values[j] == a.values[j] + b.values[j]);
}

TEST_CASE("scatter partials: refusals name the call and leave their outputs untouched") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> idx = {1, 2, 3};
  const std::vector<float> val = {1, 2, 3};
  // Values that are not one row an index.
  CHECK(test::contains(test::message_of<IA>([&] {
                         (void)clatomics::scatter_reduce_partial(rt, bins, idx, std::vector<float>{1, 2}, ScatterOp::sum);
                       }),
                       "scatter_reduce_partial"));
  CHECK_THROWS_AS((void)clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::sum, {}, 2), IA);
  CHECK_THROWS_AS((void)clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp(17)), IA);
  // A view beyond its buffer, and views of rows that do not match.
  const cl::Buffer on_device_idx = test::to_device(rt, idx), on_device_val = test::to_device(rt, val);
  CHECK(test::contains(test::message_of<IA>([&] {
                         (void)clatomics::scatter_reduce_partial(rt, bins, clatomics::view<cl_uint>(on_device_idx, 1, 3),
                                                                 clatomics::view<float>(on_device_val), ScatterOp::sum);
                       }),
                       "scatter_reduce_partial: indices"));
  CHECK_THROWS_AS((void)clatomics::scatter_reduce_partial(rt, bins, clatomics::view<cl_uint>(on_device_idx),
                                                          clatomics::view<float>(on_device_val, 0, 2), ScatterOp::sum),
                  IA);
  // No bins: every index is out of range, counted, or refused with OutOfRange::refuse.
  CHECK(clatomics::scatter_reduce_partial(rt, 0, idx, val, ScatterOp::sum).result.out_of_range == 3);
  clatomics::ScatterOptions refuse;
  refuse.out_of_range = clatomics::OutOfRange::refuse;
  CHECK_THROWS_AS((void)clatomics::scatter_reduce_partial(rt, 0, idx, val, ScatterOp::sum, refuse), IA);
  CHECK_THROWS_AS((void)clatomics::scatter_reduce_partial(rt, 3, idx, val, ScatterOp::sum, refuse), IA);  // index 3 >= 3 bins
  // Partials of other calls do not merge; into is unchanged.
  auto into = clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::sum);
  const auto before = into;
  CHECK_THROWS_AS(clatomics::merge_into(into, clatomics::scatter_reduce_partial(rt, bins + 1, idx, val, ScatterOp::sum)), IA);
  CHECK_THROWS_AS(clatomics::merge_into(into, clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::max)), IA);
  clatomics::ScatterOptions without_self;
  without_self.include_self = false;
  CHECK_THROWS_AS(clatomics::merge_into(into, clatomics::scatter_reduce_partial(rt, bins, idx, val, ScatterOp::sum, without_self)), IA);
  CHECK(into.values == before.values);
  CHECK(into.result.out_of_range == before.result.out_of_range);
  // An out of another size is refused and untouched.
  std::vector<float> out(bins + 1, 5.0f);
  CHECK_THROWS_AS((void)clatomics::finish_scatter(out, into), IA);
  CHECK(out == std::vector<float>(bins + 1, 5.0f));
}

namespace {

// Sorted keys in runs of 1 to 6, one run spanning elements 695 to 715 (across the cuts at 700
// and 710), and values of 1 and 2 for prod (every product exact and within int), else 1 to 9.
std::vector<cl_uint> run_keys(std::size_t n) {
  std::mt19937 gen(21);
  std::vector<cl_uint> keys(n);
  cl_uint key = 3;
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= 695 && i <= 715) keys[i] = keys[694] + 1;
    else keys[i] = key += (gen() % 4 == 0 ? 1u + cl_uint(gen() % 3) : 0u);
    if (i == 715) key = keys[i];
  }
  return keys;
}

template <class V>
std::vector<V> run_values(std::size_t n, ScatterOp op) {
  std::mt19937 gen(22);
  std::vector<V> v(n);
  for (auto& e : v) e = V(op == ScatterOp::prod ? int(gen() % 2) + 1 : int(gen() % 9) + 1);
  return v;
}

// The parts (one empty, one a piece of a run alone) merged in order and finished, and one
// reduce_by_key over all the data.
template <class K, class V>
void check_by_key(ScatterOp op) {
  auto& rt = test::runtime();
  const std::vector<std::size_t> ends = {0, 700, 700, 710, 3001};
  const std::vector<cl_uint> all_keys = run_keys(ends.back());
  const std::vector<K> keys(all_keys.begin(), all_keys.end());
  const std::vector<V> val = run_values<V>(keys.size(), op);
  REQUIRE(keys[699] == keys[700]);
  REQUIRE(keys[709] == keys[710]);
  clatomics::ByKeyPartial<K, V> merged;
  for (std::size_t k = 0; k + 1 < ends.size(); ++k) {
    const auto part = clatomics::reduce_by_key_partial(rt, slice(keys, ends[k], ends[k + 1]), slice(val, ends[k], ends[k + 1]), op);
    if (k == 0) merged = part;
    else clatomics::merge_into(merged, part);
  }
  const auto got = clatomics::finish_by_key(merged);
  const auto one = clatomics::reduce_by_key(rt, keys, val, op);
  CHECK(got.first == one.first);
  CHECK(got.second == one.second);
  CHECK(got.first.size() > 100);
}

}  // namespace

TEST_CASE("reduce_by_key partials merged in order equal one reduce_by_key over all the data: every op, runs across the cuts") {
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean}) {
    CAPTURE(int(op));
    check_by_key<cl_uint, cl_int>(op);
    check_by_key<cl_uint, float>(op);
    check_by_key<cl_ulong, float>(op);
  }
}

TEST_CASE("reduce_by_key partials: views as host data, refusals leave into untouched") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> keys = {1, 1, 2, 2, 2, 5};
  const std::vector<cl_int> val = {1, 2, 3, 4, 5, 6};
  std::vector<cl_uint> padded(2, 9u);
  padded.insert(padded.end(), keys.begin(), keys.end());
  const cl::Buffer on_device_keys = test::to_device(rt, padded), on_device_val = test::to_device(rt, val);
  const auto from_views = clatomics::reduce_by_key_partial(rt, clatomics::view<cl_uint>(on_device_keys, 2, 6),
                                                           clatomics::view<cl_int>(on_device_val), ScatterOp::mean);
  const auto from_host = clatomics::reduce_by_key_partial(rt, keys, val, ScatterOp::mean);
  CHECK(from_views.keys == std::vector<cl_uint>{1, 2, 5});
  CHECK(from_views.values == std::vector<cl_int>{3, 12, 6});  // mean's sums, divided when finished
  CHECK(from_views.lengths == std::vector<std::uint64_t>{2, 3, 1});
  CHECK(from_host.keys == from_views.keys);
  CHECK(from_host.values == from_views.values);
  CHECK(from_host.lengths == from_views.lengths);
  CHECK(clatomics::finish_by_key(from_host).second == std::vector<cl_int>{1, 4, 6});
  CHECK(test::contains(test::message_of<IA>([&] {
                         (void)clatomics::reduce_by_key_partial(rt, clatomics::view<cl_uint>(on_device_keys, 4, 6),
                                                                clatomics::view<cl_int>(on_device_val), ScatterOp::sum);
                       }),
                       "reduce_by_key_partial: keys"));
  CHECK_THROWS_AS((void)clatomics::reduce_by_key_partial(rt, keys, std::vector<cl_int>{1, 2}, ScatterOp::sum), IA);
  CHECK_THROWS_AS((void)clatomics::reduce_by_key_partial(rt, keys, val, ScatterOp(17)), IA);
  // Partials of other calls do not merge, nor malformed ones; into is unchanged.
  auto into = from_host;
  CHECK_THROWS_AS(clatomics::merge_into(into, clatomics::reduce_by_key_partial(rt, keys, val, ScatterOp::sum)), IA);
  const std::vector<float> fval = {1, 2, 3, 4, 5, 6};
  auto fmax = clatomics::reduce_by_key_partial(rt, keys, fval, ScatterOp::max);
  clatomics::ScatterOptions missing;
  missing.nan = clatomics::NanRule::missing;
  CHECK_THROWS_AS(clatomics::merge_into(fmax, clatomics::reduce_by_key_partial(rt, keys, fval, ScatterOp::max, missing)), IA);
  CHECK(fmax.values == std::vector<double>{2, 5, 6});
  auto lengthless = from_host;
  lengthless.lengths.clear();
  CHECK_THROWS_AS(clatomics::merge_into(into, lengthless), IA);
  CHECK_THROWS_AS((void)clatomics::finish_by_key(lengthless), IA);
  CHECK(into.keys == from_host.keys);
  CHECK(into.values == from_host.values);
  CHECK(into.lengths == from_host.lengths);
  // A merge of the same partial twice: the run of key 5 does not meet 1, so nothing joins.
  clatomics::merge_into(into, from_host);
  CHECK(into.keys == std::vector<cl_uint>{1, 2, 5, 1, 2, 5});
  // No keys: no runs.
  CHECK(clatomics::reduce_by_key_partial(rt, std::vector<cl_uint>{}, std::vector<cl_int>{}, ScatterOp::sum).keys.empty());
}
