// scatter_reduce against the host reference model (scatter_reference.hpp): every op and value
// type with both index types and with and without include_self; all-in-one-bin, uniform, sorted
// and skewed indices at sizes 0, 1, a prime and larger than a launch's tile; sums that round,
// within their bound; every forced strategy against the automatic one; host data in many small
// launches. The matrix is chosen for the programs it builds on PoCL (scatter_harness.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "scatter_family_checks.hpp"
#include "scatter_harness.hpp"

using namespace scatter_test;

namespace {

// Every op on uniform indices over 97 bins (some receive nothing), 1 in 32 out of range, a prime
// count; with include_self, and without it for mean (the same program) and the ops listed. The
// std::vector overload for some ops, buffers at offsets for the others.
template <class V>
void every_op(std::initializer_list<ScatterOp> without_self = {}) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  const std::size_t n = 10007, bins = 97;
  for (const ScatterOp op : all_ops)
    for (const bool self : {true, false}) {
      if (!self && op != ScatterOp::mean && std::find(without_self.begin(), without_self.end(), op) == without_self.end()) continue;
      const unsigned seed = unsigned(int(op) * 2 + self);
      const bool host = (int(op) + self) % 2 == 0;
      Shape shape;
      if (!host) shape.out_offset = 3, shape.index_offset = 5, shape.value_offset = 2;
      const auto p = make_problem<V, I>(n, bins, Dist::uniform, op, seed, 2, shape);
      check_scatter(p, op, options(self), host ? Api::host : Api::buffers, true,
                    describe<V, I>(host ? "host" : "buffers", op, n, bins, Dist::uniform, self));
    }
}

// Every distribution at sizes 0, 1, a prime and past a launch's tile, over 7 and 4099 bins (more
// bins than __local memory holds: the strategies case); the std::vector overload with
// include_self, buffers without.
template <class V>
void every_distribution(ScatterOp op, bool without_self = true) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  for (const Dist dist : all_dists)
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(10007), std::size_t(300007)})
      for (const std::size_t bins : {std::size_t(7), std::size_t(4099)})
        for (const bool self : {true, false}) {
          if (!self && !without_self) continue;
          const unsigned seed = unsigned(n + bins + int(dist) * 7 + self);
          const unsigned oor = (dist == Dist::uniform || dist == Dist::zipf) ? 1 : 0;
          ScatterOptions o = options(self);
          o.indices_are_sorted = dist == Dist::sorted || dist == Dist::one_bin;
          const auto p = make_problem<V, I>(n, bins, dist, op, seed, oor);
          check_scatter(p, op, o, self ? Api::host : Api::buffers, true,
                        describe<V, I>(self ? "host" : "buffers", op, n, bins, dist, self));
        }
}

}  // namespace

TEST_CASE("every op and value type, both index types, with and without include_self") {
  every_op<float>({ScatterOp::sum, ScatterOp::min, ScatterOp::max});
  every_op<double>({ScatterOp::sum});
  every_op<cl_int>({ScatterOp::sum});
  every_op<cl_uint>();
  every_op<cl_long>({ScatterOp::max});
  every_op<cl_ulong>();
  every_op<half_t>();
  every_op<bfloat16_t>();
}

TEST_CASE("every distribution and size: one bin, uniform, sorted, skewed; 0, 1, a prime, past a tile") {
  every_distribution<float>(ScatterOp::sum);
  every_distribution<cl_int>(ScatterOp::sum);
  every_distribution<float>(ScatterOp::min);
  every_distribution<cl_long>(ScatterOp::max);
  every_distribution<cl_ulong>(ScatterOp::sum, false);
  every_distribution<half_t>(ScatterOp::sum, false);
  every_distribution<cl_int>(ScatterOp::mean);
  every_distribution<double>(ScatterOp::mean);
}

TEST_CASE("indices_are_sorted is a hint: unsorted indices with it give the same results") {
  ScatterOptions o = options(false);
  o.indices_are_sorted = true;
  for (const Dist dist : {Dist::uniform, Dist::zipf}) {
    const auto p = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::sum, 11, 1);
    check_scatter(p, ScatterOp::sum, o, Api::buffers, true, "float sum, wrongly hinted sorted, " + dist_name(dist));
    const auto q = make_problem<cl_int, cl_uint>(10007, 1000, dist, ScatterOp::sum, 12, 1);
    check_scatter(q, ScatterOp::sum, o, Api::host, true, "int sum, wrongly hinted sorted, " + dist_name(dist));
  }
}

namespace {

// Floating-point sums and means of values that round, against the long double reference within
// the bound of reference() (n * eps * sum |terms|).
template <class V>
void rounded_sums(bool sum_without_self) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
    for (const Dist dist : {Dist::one_bin, Dist::uniform, Dist::zipf})
      for (const bool self : {true, false}) {
        if (!self && op == ScatterOp::sum && !sum_without_self) continue;
        Problem<V, I> p = make_problem<V, I>(300007, 1000, dist, op, 21, 1);
        const auto rounding = rounding_values<V>(p.count, 22);
        std::copy(rounding.begin(), rounding.end(), p.values.begin());
        for (auto& v : p.out) v = O(v) / O(3);  // out's own values round too
        check_scatter(p, op, options(self), Api::host, false, describe<V, I>("rounded", op, p.count, p.bins, dist, self));
      }
}

}  // namespace

TEST_CASE("rounded float, double and half sums and means stay within n eps sum|v| of the reference") {
  rounded_sums<float>(true);
  rounded_sums<double>(true);
  rounded_sums<half_t>(false);
}

namespace {

// Every forced strategy gives what automatic gives (and the reference: exact data), reports
// itself, and automatic follows its rule (scatter.hpp): local_private where the bins fit in
// __local memory; else local_cache for hot, unsorted indices; else global_atomics. local_private
// with bins past __local memory is refused before anything is enqueued.
template <class V>
void strategies_agree(ScatterOp op, std::size_t width, bool self) {
  using O = Out<V>;
  using I = Idx<V>;
  auto& rt = test::runtime();
  const std::size_t big = big_bins<O>() / width;
  Shape shape;
  shape.width = width;
  if (width > 1) shape.value_pad = 1, shape.out_pad = 2, shape.out_offset = 1, shape.value_offset = 3, shape.index_offset = 2;
  for (const Dist dist : all_dists)
    for (const std::size_t bins : {std::size_t(1000), big}) {
        const unsigned seed = unsigned(int(dist) * 4 + (bins == big) * 2 + self);
        const auto p = make_problem<V, I>(300007, bins, dist, op, seed, dist == Dist::uniform ? 1 : 0, shape);
        const auto a = check_scatter(p, op, options(self), Api::buffers, true, describe<V, I>("strategies", op, p.count, bins, dist, self));
        if (bins == 1000) CHECK(a.result.strategy == ScatterStrategy::local_private);
        else if (dist == Dist::zipf) CHECK(a.result.strategy == ScatterStrategy::local_cache);
        else if (dist != Dist::one_bin) CHECK(a.result.strategy == ScatterStrategy::global_atomics);
        for (const ScatterStrategy s : forced_strategies) {
          const std::string what = describe<V, I>("strategies", op, p.count, bins, dist, self, s);
          INFO(what);
          if (s == ScatterStrategy::local_private && bins == big) {
            const cl::Buffer out = device(p.out), indices = device(p.indices), values = device(p.values);
            clatomics::ProfileScope enqueued;
            CHECK_THROWS_AS((scatter_ranges<V, I>(rt, out, p.out_offset, p.bins, indices, p.index_offset, values, p.value_offset,
                                                            p.count, op, options(self, s), Rows{p.width, p.value_stride, p.out_stride})),
                            std::invalid_argument);
            CHECK(enqueued.commands() == 0);
            CHECK(same(test::to_host<O>(rt, out, p.out.size()), p.out));
            continue;
          }
          const auto f = check_scatter(p, op, options(self, s), Api::buffers, true, what);
          CHECK(same(f.out, a.out));
        }
      }
}

}  // namespace

TEST_CASE("every forced strategy gives the automatic results and reports itself") {
  strategies_agree<cl_int>(ScatterOp::sum, 1, true);
  strategies_agree<float>(ScatterOp::min, 1, true);
  strategies_agree<float>(ScatterOp::sum, 3, false);
}

TEST_CASE("host data in many small launches (and chunks, where it streams): the same results") {
  const StreamLimits limits(16 << 10, 4099);  // 4096 floats a chunk, 4099 elements a launch
  for (const Dist dist : all_dists)
    for (const bool self : {true, false}) {
      const unsigned seed = unsigned(int(dist) * 2 + self + 300);
      const auto fs = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::sum, seed, 1);
      check_scatter(fs, ScatterOp::sum, options(self), Api::host, true,
                    describe<float, cl_uint>("chunked", ScatterOp::sum, 300007, 1000, dist, self));
      const auto is = make_problem<cl_int, cl_uint>(300007, 7, dist, ScatterOp::sum, seed, 1);
      check_scatter(is, ScatterOp::sum, options(self), Api::host, true,
                    describe<cl_int, cl_uint>("chunked", ScatterOp::sum, 300007, 7, dist, self));
      const auto fm = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::min, seed, 1);
      check_scatter(fm, ScatterOp::min, options(self), Api::host, true,
                    describe<float, cl_uint>("chunked", ScatterOp::min, 300007, 1000, dist, self));
      const auto im = make_problem<cl_int, cl_uint>(300007, 1000, dist, ScatterOp::mean, seed, 1);
      check_scatter(im, ScatterOp::mean, options(self), Api::host, true,
                    describe<cl_int, cl_uint>("chunked", ScatterOp::mean, 300007, 1000, dist, self));
    }
  // Rows of 32 through the std::vector overload: a chunk holds 128 rows.
  Shape rows;
  rows.width = 32;
  const auto wide = make_problem<float, cl_uint>(10007, 61, Dist::uniform, ScatterOp::sum, 4, 1, rows);
  check_scatter(wide, ScatterOp::sum, options(true), Api::host, true, "chunked rows of 32");
  // argmin: ties across chunks, the lowest position wins.
  check_arg<float>(ScatterOp::min, true);
  // A segment over many chunks, and runs of keys across their boundaries.
  check_segments<float, cl_ulong>(ScatterOp::sum, {true, false});
  check_by_key<cl_uint, float>(ScatterOp::sum);
  check_by_key<cl_uint, cl_int>(ScatterOp::mean);
}
