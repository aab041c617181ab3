// scatter_reduce_partial, merge_into and finish_scatter (partial.hpp): the data cut into parts
// (one empty, one of a single index), each part's partial merged in order and applied to out,
// against one scatter_reduce over all the data; every op, with and without out's values, rows,
// integer and float values, views and host vectors; refusals leave their outputs untouched.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "clatomics/partial.hpp"
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
