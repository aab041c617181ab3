// scatter_reduce's deterministic sums and means: the same bits on every run, strategy, overload,
// chunking and finish (over every slot or the bins reached), with the runtime's scratch fresh or
// kept, within an ulp (sums) or two (means) of the exact result of fixed-point data; out's
// own value kept where nothing reached a bin; zeros as the fast mode gives them; integer ops and
// min/max exact as ever, floating-point products refused; infinities and NaN as IEEE sums give
// them, atomic and deterministic.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "scatter_fixed_model.hpp"
#include "scatter_harness.hpp"
#include "scatter/device_call.hpp"

using namespace scatter_test;

namespace {

// One of the library's testing switches (clatomics::testing) set one way for a scope, back to
// automatic after it.
template <class Choice, void (*set)(Choice)>
struct Forced {
  explicit Forced(Choice choice) { set(choice); }
  ~Forced() { set(Choice::automatic); }
  Forced(const Forced&) = delete;
  Forced& operator=(const Forced&) = delete;
};
// The deterministic sums' finish; the rows grouped by bin or summed in place.
using FinishOf = Forced<clatomics::testing::ScatterFinish, clatomics::testing::set_scatter_finish>;
using RowsOf = Forced<clatomics::testing::ScatterRows, clatomics::testing::set_scatter_rows>;

}  // namespace

TEST_CASE("deterministic sums with include_self: a bin no value reached, or whose values cancel, keeps its own value") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  ScatterOptions o;
  o.deterministic = true;
  using clatomics::testing::ScatterFinish;
  for (const ScatterFinish finish : {ScatterFinish::every_slot, ScatterFinish::listed, ScatterFinish::marked}) {
    CAPTURE(int(finish));
    const FinishOf forced(finish);
    std::vector<float> out{0.0f, 1e-30f, 3e-30f, -0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
    // Bin 0 takes 1e30 (the grid's scale), bin 2 takes +1 and -1 (exactly 0), bin 4 -1 and +1, the others nothing.
    clatomics::scatter_reduce<float, cl_uint>(rt, out, {0, 2, 2, 4, 4}, {1e30f, 1.0f, -1.0f, -1.0f, 1.0f}, ScatterOp::sum, o);
    CHECK(out[0] == 1e30f);
    CHECK(out[1] == 1e-30f);
    CHECK(out[2] == 3e-30f);
    CHECK((out[3] == 0.0f && !std::signbit(out[3])));  // an exact 0 is +0 in this mode, reached or not
    CHECK((out[4] == 0.0f && !std::signbit(out[4])));
    CHECK(std::isnan(out[5]));
    // A mean counts its values: a bin none reached keeps its value as it is, -0 too.
    std::vector<float> means{-0.0f, 2.0f, -0.0f};
    clatomics::scatter_reduce<float, cl_uint>(rt, means, {1}, {4.0f}, ScatterOp::mean, o);
    CHECK((means[0] == 0.0f && std::signbit(means[0])));
    CHECK(means[1] == 3.0f);
    CHECK((means[2] == 0.0f && std::signbit(means[2])));
  }
  std::vector<double> wide{0.0, 1e-200};
  clatomics::scatter_reduce<double, cl_uint>(rt, wide, {0}, {1e200}, ScatterOp::sum, o);
  CHECK(wide[1] == 1e-200);
}

TEST_CASE("deterministic sums finished over the marked blocks leave the other blocks as the finish of every slot leaves them") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  using clatomics::testing::ScatterFinish;
  // 4,099 bins (blocks of 256 slots, and three past the last whole four), global slots, values into
  // bin 5 only: out holds -0 (becomes +0), NaN with a payload and negative NaN (kept bit for bit),
  // +0, subnormals and numbers (kept) everywhere, at offset 0 and at offset 1 of its buffer.
  const std::size_t bins = 4099;
  const float nan_payload = test::from_bits<float>(0x7fc01234u), neg_nan = test::from_bits<float>(0xffc00001u);
  const float pattern[] = {-0.0f, 1.5f, nan_payload, 0.0f, -0.0f, -2.25f, neg_nan, 1e-45f, -0.0f, -0.0f, -0.0f, -0.0f, 3e38f};
  std::vector<float> init(bins + 1);
  for (std::size_t b = 0; b < init.size(); ++b) init[b] = pattern[(b * 7 + b / 5) % 13];
  const std::vector<cl_uint> idx(1000, 5);
  const std::vector<float> values(1000, 0.25f);
  for (const std::size_t offset : {std::size_t(0), std::size_t(1)}) {
    CAPTURE(offset);
    std::vector<float> results[2];
    for (const ScatterFinish finish : {ScatterFinish::every_slot, ScatterFinish::marked}) {
      const FinishOf forced(finish);
      const cl::Buffer ob = device(init), ib = device(idx), vb = device(values);
      const clatomics::View<float> out = clatomics::view<float>(ob, offset, bins);
      const ScatterOptions o = options(true, ScatterStrategy::global_atomics, true);
      CHECK(test::contains(test::tuning_value(clatomics::plan_scatter_reduce(rt, out, clatomics::view<cl_uint>(ib, 0, idx.size()),
                                                                              clatomics::view<float>(vb, 0, values.size()), ScatterOp::sum, o),
                                              "accumulator"),
                           "blocks of slots") == (finish == ScatterFinish::marked));
      clatomics::scatter_reduce(rt, out, clatomics::view<cl_uint>(ib, 0, idx.size()), clatomics::view<float>(vb, 0, values.size()),
                                ScatterOp::sum, o);
      results[finish == ScatterFinish::marked] = test::to_host<float>(rt, ob, init.size());
    }
    for (std::size_t b = 0; b < init.size(); ++b) {
      CAPTURE(b);
      const float before = init[b], after = results[1][b];
      CHECK(test::bits(after) == test::bits(results[0][b]));
      if (b < offset || b >= offset + bins) CHECK(test::bits(after) == test::bits(before));  // outside the view
      else if (b == offset + 5) CHECK(after == before + 250.0f);
      else if (before == 0.0f) CHECK(test::bits(after) == test::bits(0.0f));
      else CHECK(test::bits(after) == test::bits(before));
    }
  }
}

TEST_CASE("deterministic sums: a bin that only NaN or an infinity reached takes it, whatever the finish") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  ScatterOptions o;
  o.deterministic = true;
  o.strategy = ScatterStrategy::global_atomics;  // __local copies would hand every slot on
  using clatomics::testing::ScatterFinish;
  for (const ScatterFinish finish : {ScatterFinish::every_slot, ScatterFinish::listed, ScatterFinish::marked}) {
    CAPTURE(int(finish));
    const FinishOf forced(finish);
    // Bins far apart (in blocks of slots of their own), doubles (the 128-bit path: no window).
    std::vector<double> out(4096, 2.0);
    clatomics::scatter_reduce<double, cl_uint>(rt, out, {5, 1000, 3000, 4000}, {1.0, NAN, INFINITY, -INFINITY}, ScatterOp::sum, o);
    CHECK(out[5] == 3.0);
    CHECK(std::isnan(out[1000]));
    CHECK(out[3000] == INFINITY);
    CHECK(out[4000] == -INFINITY);
    CHECK(out[6] == 2.0);
  }
}

namespace {

// ---- Deterministic sums and means ----------------------------------------------------------

// Fixed-point data: every value is k * 2^-scale with an integer k, so that a bin's exact sum is
// an int64 (below 2^44 units a value, at most 300008 terms), its correctly rounded value one
// conversion away. The magnitudes vary over 2^20 (float: 24-bit k times 2^0..2^20) or 2^30
// (double: 43-bit k shifted right by 0..29): many adds round, and the fixed point's sums carry
// from its low 64-bit word into the high one (values far below the largest).
template <class V>
int scale_of() {
  return std::is_same_v<V, double> || std::is_same_v<V, float> ? 40 : 30;  // 16-bit values: 30
}
template <class O>
std::vector<O> fixed_values(std::size_t n, unsigned seed, int scale) {
  std::mt19937_64 gen(seed);
  std::vector<O> x(n);
  for (auto& v : x) {
    std::int64_t k;
    if constexpr (std::is_same_v<O, double>) k = std::int64_t(gen() % (std::uint64_t(1) << 43)) >> (gen() % 30);
    else k = std::int64_t(gen() % (std::uint64_t(1) << 24)) << (gen() % 21);
    v = std::ldexp(O(gen() % 3 == 0 ? -k : k), -scale);
  }
  return x;
}
std::int64_t units(long double v, int scale) {
  const long double x = std::ldexp(v, scale);
  const auto k = std::int64_t(x);
  if ((long double)k != x) throw std::logic_error("test data: not a fixed-point value");
  return k;
}
// How many representable values lie between a and b (0: the same).
template <class O>
std::uint64_t ulps_apart(O a, O b) {
  const auto ordered = [](O v) {
    const auto u = test::bits(v);
    using S = std::make_signed_t<decltype(u)>;
    return S(u) < 0 ? std::numeric_limits<S>::min() - S(u) : S(u);
  };
  const auto x = ordered(a), y = ordered(b);
  return x > y ? std::uint64_t(x - y) : std::uint64_t(y - x);
}

template <class V>
std::vector<V> deterministic_values(std::size_t n, unsigned seed) {
  if constexpr (std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>) return rounding_values<V>(n, seed);
  else return fixed_values<V>(n, seed, scale_of<V>());
}

// The same bits on 3 runs, every forced strategy, both overloads (buffers at offsets) and host
// data in small launches; the sum within an ulp of the exact sum (rounded about once; with
// include_self out's own value is one of its terms), the mean within 2 of the exact mean. The
// forced strategies for mean and sum without include_self (the same programs: counts kept), for
// float and double; 16-bit values with include_self only.
template <class V>
void deterministic(ScatterOp op) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  constexpr bool sixteen = std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>;
  auto& rt = test::runtime();
  const int scale = scale_of<V>();
  const std::size_t n = 300007;
  for (const Dist dist : {Dist::one_bin, Dist::uniform, Dist::zipf})
    for (const bool self : {true, false}) {
      if (sixteen && !self) continue;
      const bool every_strategy = !sixteen && (op == ScatterOp::mean || !self);
      const std::size_t bins = dist == Dist::one_bin ? 3 : 1000;
      const unsigned seed = unsigned(int(dist) * 2 + self + int(op) * 10);
      const auto indices = make_indices<I>(n, bins, dist, seed, dist == Dist::uniform ? 1 : 0);
      const auto values = deterministic_values<V>(n, seed);
      const auto init = fixed_values<O>(bins, seed + 1, scale);
      std::vector<std::int64_t> exact(bins);
      std::vector<std::uint64_t> terms(bins);
      for (std::size_t b = 0; b < bins; ++b)
        if (self) exact[b] = units(init[b], scale), terms[b] = 1;
      std::vector<std::size_t> received(bins);
      for (std::size_t i = 0; i < n; ++i)
        if (indices[i] < bins) exact[indices[i]] += units(widen(values[i]), scale), ++terms[indices[i]], ++received[indices[i]];
      const std::string what = describe<V, I>("deterministic", op, n, bins, dist, self);
      INFO(what);

      std::vector<std::vector<O>> outs;
      std::vector<std::string> how;
      const auto host = [&](ScatterStrategy s) {
        std::vector<O> out = init;
        const auto r = clatomics::scatter_reduce(rt, out, indices, values, op, options(self, s, true));
        check_strategy(r, options(self, s, true), n);
        outs.push_back(out), how.push_back("host, " + name_of(s));
      };
  for (int run = 0; run < 3; ++run) host(ScatterStrategy::automatic);
      if (every_strategy)
        for (const ScatterStrategy s : forced_strategies) host(s);
      {
        std::vector<I> padded_indices(2, 0);
        padded_indices.insert(padded_indices.end(), indices.begin(), indices.end());
        std::vector<V> padded_values(5, junk<V>(0));
        padded_values.insert(padded_values.end(), values.begin(), values.end());
        std::vector<O> padded_out(3, sentinel<O>());
        padded_out.insert(padded_out.end(), init.begin(), init.end());
        const cl::Buffer out = device(padded_out);
        scatter_ranges<V, I>(rt, out, 3, bins, device(padded_indices), 2, device(padded_values), 5, n, op,
                                              options(self, ScatterStrategy::automatic, true));
        const auto got = test::to_host<O>(rt, out, padded_out.size());
        CHECK(same(std::vector<O>(got.begin(), got.begin() + 3), std::vector<O>(3, sentinel<O>())));
        outs.emplace_back(got.begin() + 3, got.end()), how.push_back("buffers at offsets");
      }
      {
        const FinishOf listed(clatomics::testing::ScatterFinish::listed);
        host(ScatterStrategy::automatic);
        how.back() = "host, the finish over the bins reached";
      }
      {
        const FinishOf marked(clatomics::testing::ScatterFinish::marked);
        host(ScatterStrategy::automatic);
        how.back() = "host, the finish over the blocks of slots updated";
      }
      {
        const StreamLimits limits(16 << 10, 4099);
        host(ScatterStrategy::automatic);
        how.back() = "host, chunks of 16 KiB, launches of 4099";
      }
      for (std::size_t k = 1; k < outs.size(); ++k) {
        INFO("the same bits as the first run: ", how[k]);
        CHECK(same(outs[k], outs[0]));
      }
      // Every run near the exact result (so that a failure names the runs that are off).
      for (std::size_t k = 0; k < outs.size(); ++k) {
        std::size_t wrong = 0;
        std::ostringstream first;
        for (std::size_t b = 0; b < bins; ++b) {
          const O got = outs[k][b];
          O want;
          std::uint64_t allowed = 0;
          if (!received[b]) want = init[b];
          else if (op == ScatterOp::sum) want = O(std::ldexp((long double)exact[b], -scale)), allowed = 1;
          else want = O(std::ldexp((long double)exact[b] / (long double)terms[b], -scale)), allowed = 2;
          if (ulps_apart(got, want) <= allowed || wrong++ >= 3) continue;
          first << "\n  bin " << b << ": exact " << show(want) << ", got " << show(got) << " (" << ulps_apart(got, want) << " ulp)";
        }
        INFO(how[k], ": ", wrong, " bins off the exact result", first.str());
        CHECK(wrong == 0);
      }
    }
}

}  // namespace

TEST_CASE("deterministic sums and means: the same bits on every run, strategy and chunking, near the exact result") {
  deterministic<float>(ScatterOp::sum);
  deterministic<float>(ScatterOp::mean);
  deterministic<double>(ScatterOp::sum);
  deterministic<double>(ScatterOp::mean);
  deterministic<half_t>(ScatterOp::sum);
  deterministic<bfloat16_t>(ScatterOp::sum);
}

TEST_CASE("deterministic sums and means whose values are all zero: out and the out-of-range tally as the fast mode's") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> indices{0, 0, 1, 9};
  const auto check_type = [&](auto zero) {
    using V = decltype(zero);
    using O = clatomics::scatter_output_t<V>;
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
      for (const bool self : {true, false}) {
        CAPTURE(int(op));
        CAPTURE(self);
        const std::vector<V> values(indices.size(), zero);
        std::vector<O> fast(3, O(5)), det(3, O(5));
        ScatterOptions o;
        o.include_self = self;
        const auto r_fast = clatomics::scatter_reduce(rt, fast, indices, values, op, o);
        o.deterministic = true;
        const auto r_det = clatomics::scatter_reduce(rt, det, indices, values, op, o);
        CHECK(r_det.out_of_range == 1);
        CHECK(r_fast.out_of_range == 1);
        for (std::size_t b = 0; b < 3; ++b) CHECK(double(det[b]) == double(fast[b]));
        // Bins 0 and 1 were reached by zeros: 0 (or out's 5 added, or 5 / 3 and 5 / 2 for means).
        CHECK(double(det[2]) == 5.0);
        CHECK(double(det[0]) == (self ? (op == ScatterOp::mean ? double(O(5) / O(3)) : 5.0) : 0.0));
        CHECK(double(det[1]) == (self ? (op == ScatterOp::mean ? 2.5 : 5.0) : 0.0));
      }
  };
  check_type(0.0f);
  if (rt.supports_double()) check_type(0.0);
}

TEST_CASE("deterministic mode: integer ops and min/max are exact as ever, floating-point prod is refused") {
  auto& rt = test::runtime();
  for (const bool self : {true, false}) {
    const auto is = make_problem<cl_int, cl_uint>(10007, 97, Dist::zipf, ScatterOp::sum, 1, 1);
    check_scatter(is, ScatterOp::sum, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic int sum");
    const auto fm = make_problem<float, cl_uint>(10007, 97, Dist::zipf, ScatterOp::min, 2, 1);
    check_scatter(fm, ScatterOp::min, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic float min");
    const auto um = make_problem<cl_uint, cl_ulong>(10007, 97, Dist::uniform, ScatterOp::mean, 3, 1);
    check_scatter(um, ScatterOp::mean, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic uint mean");
  }
  const ScatterOptions det = options(true, ScatterStrategy::automatic, true);
  const std::vector<cl_uint> indices = {0, 1, 1};
  std::vector<float> out(2, 1.0f);
  const cl::Buffer dout = device(out), dindices = device(indices), dvalues = device(std::vector<float>{2, 3, 4});
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         clatomics::scatter_reduce(rt, out, indices, std::vector<float>{2, 3, 4}, ScatterOp::prod, det);
                       }),
                       "determin"));
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, out, indices, std::vector<half_t>(3, half_t{0x3c00}), ScatterOp::prod, det)),
                  std::invalid_argument);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, dout, 0, 2, dindices, 0, dvalues, 0, 3, ScatterOp::prod, det)),
                  std::invalid_argument);
  if (rt.supports_double()) {
    std::vector<double> dout_host(2, 1.0);
    CHECK_THROWS_AS((clatomics::scatter_reduce(rt, dout_host, indices, std::vector<double>{2, 3, 4}, ScatterOp::prod, det)),
                    std::invalid_argument);
  }
  CHECK(enqueued.commands() == 0);
  CHECK(out == std::vector<float>(2, 1.0f));
  CHECK(test::to_host<float>(rt, dout, 2) == std::vector<float>(2, 1.0f));
}

namespace {

// Infinities and NaN, as IEEE sums give them: bin 0 has one +inf among finite values (+inf),
// bin 1 +inf and -inf (NaN), bin 2 one NaN (NaN), bin 3 two -inf (-inf), bin 4 finite values
// only (near the exact sum), bin 5 nothing (its own value). Atomic and deterministic; every
// strategy where the deterministic programs of the case above are (mean, sum without self), the
// deterministic bits the same on all.
template <class O>
void special_sums() {
  using I = Idx<O>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  const O inf = std::numeric_limits<O>::infinity(), nan = std::numeric_limits<O>::quiet_NaN();
  const std::size_t n = 10007;
  const int scale = scale_of<O>();
  std::vector<I> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = I(i % 5);
  auto values = fixed_values<O>(n, 3, scale);
  values[5000] = inf;                      // bin 0
  values[1] = inf, values[9001] = -inf;    // bin 1
  values[7002] = nan;                      // bin 2
  values[3] = -inf, values[10003] = -inf;  // bin 3
  const std::vector<O> init = {O(1), O(2), O(3), O(4), O(0.5), O(-7)};
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
    for (const bool self : {true, false})
      for (const bool det : {false, true}) {
        std::vector<O> first;
        for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                        ScatterStrategy::local_cache}) {
          if (s != ScatterStrategy::automatic && !(det && (op == ScatterOp::mean || !self))) continue;
          INFO(test::cl_type_name<O>(), " ", op_name(op), self ? ", include_self" : ", without self", det ? ", deterministic" : ", atomic",
               ", ", name_of(s));
          std::vector<O> out = init;
          clatomics::scatter_reduce(rt, out, indices, values, op, options(self, s, det));
          CHECK(out[0] == inf);
          CHECK(std::isnan(out[1]));
          CHECK(std::isnan(out[2]));
          CHECK(out[3] == -inf);
          CHECK(same(out[5], init[5]));
          std::int64_t exact = self ? units(init[4], scale) : 0;
          long double abs_sum = self ? std::fabs(init[4]) : 0;
          std::uint64_t terms = self;
          for (std::size_t i = 4; i < n; i += 5) exact += units(values[i], scale), abs_sum += std::fabs(values[i]), ++terms;
          const long double want = std::ldexp((long double)exact, -scale) / (op == ScatterOp::mean ? (long double)terms : 1.0L);
          if (det) CHECK(ulps_apart(out[4], O(want)) <= 2);
          else CHECK(std::fabs(out[4] - want) <= double(terms) * std::numeric_limits<O>::epsilon() * abs_sum);
          if (!det) continue;
          if (first.empty()) first = out;
          else CHECK(same(out, first));
        }
      }
}

}  // namespace

TEST_CASE("sums of infinities and NaN are IEEE's, atomic and deterministic") {
  special_sums<float>();
  special_sums<double>();
}

namespace {

// Float data for the bit-for-bit model: each set takes different paths through the device's
// accumulators (kernels/scatter_window.cl): the window's 64-bit sums, the 128-bit one, both in
// one bin, rounding to the grid, the grid redone for a value the sample missed.
std::vector<float> model_values(int set, std::size_t n, std::mt19937_64& gen) {
  std::normal_distribution<float> normal;
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = gen();
    float x = 0;
    switch (set) {
      case 0: x = normal(gen); break;  // within the window but for the smallest
      case 1: {                        // any finite float: mostly outside the window, subnormals too
        std::uint32_t u = std::uint32_t(r);
        if (((u >> 23) & 0xff) == 0xff) u &= 0xbfffffffu;
        std::memcpy(&x, &u, 4);
        break;
      }
      case 2: x = i % 3 == 0 ? 1e20f : i % 3 == 1 ? -1e20f : normal(gen) * 1e-10f; break;  // cancels to what lies below
      case 3: {  // zeros of both signs, subnormals, infinities and NaN among normal values
        const int k = int(r % 16);
        x = k == 0 ? 0.0f : k == 1 ? -0.0f : k == 2 ? std::ldexp(float(r >> 40 & 0x7fffff), -149) : k == 3 ? INFINITY : k == 4 ? -INFINITY
          : k == 5 && i % 1000 == 0 ? NAN : normal(gen);
        break;
      }
      case 4: x = i == n / 2 + 4 ? 3e37f : normal(gen); break;  // far above the sample (40009 values: not a 9th): the grid is redone
      case 5: x = -std::ldexp(float(r % 1000000 + 1), 20) + (i % 5 == 0 ? std::ldexp(1.0f, -40) : 0.0f); break;  // negative window sums with a positive 128-bit part
      case 6: x = std::nextafter(2.0f, 0.0f) * 1024.0f; break;  // every value at the window's top: its 64-bit sums near their limit
      default: x = std::ldexp(normal(gen), int(r % 120) - 60); break;  // exponents over 2^120
    }
    v[i] = x;
  }
  return v;
}

}  // namespace

TEST_CASE("deterministic float sums: bit for bit the 128-bit fixed point's result, whatever path a value takes") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  std::mt19937_64 gen(7);
  for (int set = 0; set < 8; ++set)
    // local_private fits 3000 bins in 48 KiB; 2^20 + 1 bins have too few values a slot for the
    // window (the 128-bit path alone).
    for (const std::size_t bins : {std::size_t(1), std::size_t(61), std::size_t(3000), (std::size_t(1) << 20) + 1}) {
      const std::size_t n = set == 6 ? 300007 : 40009;
      std::vector<cl_uint> idx(n);
      for (std::size_t i = 0; i < n; ++i) idx[i] = cl_uint(i % 97 == 0 ? bins : gen() % bins);  // a few out of range
      const auto values = model_values(set, n, gen);
      std::vector<float> init(bins);
      for (auto& x : init) x = float(std::ldexp(double(gen() % 1000) - 500, int(gen() % 40) - 20));
      if (bins > 2) init[0] = INFINITY, init[1] = 1e38f, init[2] = -0.0f;
      for (const bool self : {true, false}) {
        const auto want = FixedModel::sum(init, idx, values, self);
        using clatomics::testing::ScatterFinish;
        for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                        ScatterStrategy::local_cache})
          for (const ScatterFinish finish : {ScatterFinish::automatic, ScatterFinish::listed, ScatterFinish::marked, ScatterFinish::every_slot}) {
            if (bins > 3000 && s != ScatterStrategy::automatic && s != ScatterStrategy::global_atomics) continue;
            if (finish != ScatterFinish::automatic && s != ScatterStrategy::automatic) continue;
            INFO("set ", set, ", bins ", bins, ", include_self ", self, ", ", name_of(s), ", finish ", int(finish));
            const FinishOf forced(finish);
            std::vector<float> out = init;
            clatomics::scatter_reduce(rt, out, idx, values, ScatterOp::sum, options(self, s, true));
            std::size_t wrong = 0;
            std::ostringstream first;
            for (std::size_t b = 0; b < bins; ++b)
              if (!same(out[b], want[b]) && wrong++ < 3) first << "\n  bin " << b << ": model " << show(want[b]) << ", got " << show(out[b]);
            INFO(wrong, " bins differ", first.str());
            CHECK(wrong == 0);
          }
      }
    }
}

namespace {

// Rows of `width` a stride apart (pad between them) from rows that are contiguous, after `before`
// elements of pad.
template <class T>
std::vector<T> strided(const std::vector<T>& rows, std::size_t width, std::size_t stride, std::size_t before, T pad) {
  std::vector<T> out(before + rows.size() / width * stride, pad);
  for (std::size_t i = 0; i < rows.size(); ++i) out[before + i / width * stride + i % width] = rows[i];
  return out;
}

// Deterministic rows grouped by bin wherever a call can take it, for a scope.
// One layout of grouped rows, of float or double: sums and means bit for bit the rows summed in
// place (local_cache), in one launch and in launches of 4500 rows; float sums also the model's.
template <class V>
void grouped_rows(std::size_t width, int set, std::mt19937_64& gen) {
  auto& rt = test::runtime();
  const std::size_t bins = 1000, n = 20011;
  const std::size_t vstride = width + std::size_t(set % 2) * 3, ostride = width + std::size_t(set % 3);
  const bool self = set % 2 == 0;
  const std::size_t voff = set % 4 < 2 ? 4 : 5;  // the values from 16 bytes, or from 20
  std::vector<cl_uint> idx(2, 0u);  // two entries before the call's
  std::size_t oor = 0;
  for (std::size_t i = 0; i < n; ++i) {
    idx.push_back(cl_uint(i % 89 == 5 ? bins + i % 3 : gen() % bins));
    oor += idx.back() >= bins;
  }
  const auto floats = model_values(set, n * width, gen);
  std::vector<float> init(bins * width);
  for (auto& x : init) x = float(std::ldexp(double(gen() % 1000) - 500, int(gen() % 40) - 20));
  const std::vector<V> values(floats.begin(), floats.end());
  const std::vector<V> out_host = strided(std::vector<V>(init.begin(), init.end()), width, ostride, 3, V(77));
  const cl::Buffer ib = device(idx), vb = device(strided(values, width, vstride, voff, V(99)));
  const Rows rows(width, vstride, ostride);
  INFO((sizeof(V) == 4 ? "float" : "double"), ", width ", width, ", set ", set, ", value stride ", vstride, " from ", voff, ", out stride ", ostride,
       ", include_self ", self);
  const ScatterOptions o = options(self, ScatterStrategy::global_atomics, true);  // automatic keeps few bins in __local memory
  const RowsOf sorted(clatomics::testing::ScatterRows::sorted);  // on CPUs too
  {
    const cl::Buffer out = device(out_host);
    const clatomics::Plan plan = clatomics::plan_scatter_reduce(rt, rows_view<V>(out, 3, bins, width, ostride), clatomics::view<cl_uint>(ib, 2, n),
                                                     rows_view<V>(vb, voff, n, width, vstride), ScatterOp::sum, o, rows);
    CHECK(test::contains(test::tuning_value(plan, "accumulator"), "rows sorted by bin"));
    CHECK(plan.kernel == "clat_sr_sum");
  }
  for (const std::uint64_t launch : {std::uint64_t(0), std::uint64_t(4500) * width}) {
    INFO((launch ? "launches of 4500 rows" : "one launch"));
    const StreamLimits limits(0, launch);
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
      if (op == ScatterOp::mean && set >= 4) continue;  // means on the first four value sets: the time goes to the sums
      const cl::Buffer out = device(out_host), in_place = device(out_host);
      const auto r = scatter_ranges<V, cl_uint>(rt, out, 3, bins, ib, 2, vb, voff, n, op, o, rows);
      CHECK(r.out_of_range == oor);
      (void)scatter_ranges<V, cl_uint>(rt, in_place, 3, bins, ib, 2, vb, voff, n, op, options(self, ScatterStrategy::local_cache, true), rows);
      const auto got = test::to_host<V>(rt, out, out_host.size());
      CHECK(same(got, test::to_host<V>(rt, in_place, out_host.size())));
      if (op != ScatterOp::sum || sizeof(V) != 4) continue;
      const auto want = strided(FixedModel::sum(init, std::vector<cl_uint>(idx.begin() + 2, idx.end()), floats, self, width), width, ostride, 3,
                                77.0f);
      std::size_t wrong = 0;
      std::ostringstream first;
      for (std::size_t k = 0; k < want.size(); ++k)
        if (!same(float(got[k]), want[k]) && wrong++ < 3) first << "\n  element " << k << ": model " << show(want[k]) << ", got " << show(float(got[k]));
      INFO(wrong, " elements differ from the model", first.str());
      CHECK(wrong == 0);
    }
  }
}

}  // namespace

// Deterministic rows whose bins are spread are grouped by bin before they are summed
// (kernels/scatter_sorted_rows.cl), through views at offsets with strides past the width, with
// indices out of range tallied and the padding untouched (the model's and in-place results keep
// it).
TEST_CASE("deterministic rows grouped by bin: bit for bit the fixed point's sums and the rows summed in place") {
  if (!test::runtime().supports_double()) return;
  std::mt19937_64 gen(11);
  for (const std::size_t width : {std::size_t(4), std::size_t(5), std::size_t(32)})
    for (int set = 0; set < 8; ++set) {
      grouped_rows<float>(width, set, gen);
      if (set < 2) grouped_rows<double>(width, set, gen);
    }
}

TEST_CASE("deterministic sums keep their zeroed scratch for the next call; a call that stops before its finish gives none back") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  std::mt19937_64 gen(11);
  const std::size_t bins = 3000, n = 40009;  // 13 values a slot: the window's sums, flags and 128-bit sums
  std::vector<cl_uint> idx(n);
  for (auto& b : idx) b = cl_uint(gen() % bins);
  const std::vector<float> init(bins, 0.25f);
  const auto call = [&](const std::vector<float>& values) {
    std::vector<float> out = init;
    clatomics::scatter_reduce(rt, out, idx, values, ScatterOp::sum, options(true, ScatterStrategy::automatic, true));
    const auto want = FixedModel::sum(init, idx, values, true);
    std::size_t wrong = 0;
    for (std::size_t b = 0; b < bins; ++b) wrong += !same(out[b], want[b]);
    CHECK(wrong == 0);
    return out;
  };
  rt.release_scratch();
  CHECK(rt.kept_scratch_bytes() == 0);
  const auto specials = model_values(3, n, gen);  // NaN and infinities set flags, tiny values the 128-bit sums
  const auto first = call(specials);
  const std::size_t kept = rt.kept_scratch_bytes();
  CHECK(kept >= bins * (sizeof(cl_long) + sizeof(cl_uint) + 2 * sizeof(cl_ulong)));
  CHECK(same(call(specials), first));  // the kept scratch again: nothing left of the first call
  CHECK(rt.kept_scratch_bytes() == kept);
  const auto commands_of = [&](const std::vector<float>& values) {
    const clatomics::ProfileScope scope;
    call(values);
    return scope.commands();
  };
  const std::size_t once = commands_of(model_values(0, n, gen));  // no NaN or infinity where the flags were set
  // A value above the sample: the first accumulation stops (its scratch is released) and the
  // grid is redone, which takes more commands; the next call has zeroed scratch.
  CHECK(commands_of(model_values(4, n, gen)) > once);
  call(model_values(1, n, gen));
  rt.release_scratch();
  CHECK(rt.kept_scratch_bytes() == 0);
  CHECK(same(call(specials), first));  // fresh scratch: the same bits
}

// The window's 64-bit sums at any number of values a slot on CPUs, from 2 a slot on GPUs, from 8
// a slot for hot spread indices (ScatterTuning::window_values_per_slot): the plan says which
// accumulator a call takes.
TEST_CASE("deterministic float sums take the window at any number of values a slot on CPUs, from 2 on GPUs, from 8 for hot spread indices") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  const bool gpu = rt.device_info().caps.is_gpu();
  std::mt19937 gen(5);
  const auto window = [&](std::size_t bins, std::size_t n, bool hot) {
    std::vector<cl_uint> idx(n);
    // Hot: about half of them, at random positions (the sample is evenly spaced), on 64 bins.
    for (std::size_t i = 0; i < n; ++i) idx[i] = cl_uint(hot && gen() % 2 ? gen() % 64 : gen() % bins);
    const cl::Buffer ib = device(idx), vb = device(std::vector<float>(n, 1.0f)), out = device(std::vector<float>(bins));
    const clatomics::Plan plan = clatomics::plan_scatter_reduce(rt, clatomics::view<float>(out, 0, bins), clatomics::view<cl_uint>(ib, 0, n),
                                                                clatomics::view<float>(vb, 0, n), ScatterOp::sum,
                                                                options(true, ScatterStrategy::automatic, true));
    INFO(bins, " bins, ", n, " values", (hot ? ", hot" : ""), ": ", test::tuning_value(plan, "accumulator"));
    return test::contains(test::tuning_value(plan, "accumulator"), "64-bit window");
  };
  CHECK(window(1 << 18, 1 << 20, false));        // 4 a slot
  CHECK(!window(1 << 18, 1 << 20, true));        // 4 a slot, hot
  CHECK(window(1 << 16, 1 << 20, true));         // 16 a slot, hot
  CHECK(window(1 << 16, 1 << 20, false));        // 16 a slot
  CHECK(window(1 << 20, 1 << 20, false) != gpu); // 1 a slot
  CHECK(window(1 << 22, 1 << 20, false) != gpu); // a quarter a slot
}

TEST_CASE("deterministic sums finish over the bins reached where the values are fewer than half the bins, over the marked blocks where the values reach few bins") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  std::mt19937 gen(9);
  const auto finish = [&](std::size_t bins, std::size_t n, std::size_t reached) {
    std::vector<cl_uint> idx(n);
    for (auto& i : idx) i = cl_uint(gen() % reached * (bins / reached));
    const cl::Buffer ib = device(idx), vb = device(std::vector<float>(n, 1.0f)), out = device(std::vector<float>(bins));
    const clatomics::Plan plan = clatomics::plan_scatter_reduce(rt, clatomics::view<float>(out, 0, bins), clatomics::view<cl_uint>(ib, 0, n),
                                                                clatomics::view<float>(vb, 0, n), ScatterOp::sum,
                                                                options(true, ScatterStrategy::automatic, true));
    const std::string accumulator = test::tuning_value(plan, "accumulator");
    INFO(bins, " bins, ", n, " values on ", reached, ": ", accumulator);
    return test::contains(accumulator, "bins reached") ? "listed" : test::contains(accumulator, "blocks of slots") ? "marked" : "every slot";
  };
  CHECK(std::string(finish(1 << 20, 1 << 16, 1 << 10)) == "listed");      // fewer values than half the bins, on few of them
  CHECK(std::string(finish(1 << 20, 1 << 20, 3)) == "marked");            // many values, 3 bins of many
  CHECK(std::string(finish(1 << 16, 1 << 18, 3)) == "every slot");        // 3 bins of a few: every slot is cheap
  CHECK(std::string(finish(1 << 16, 1 << 18, 1 << 16)) == "every slot");  // many values, every bin
}

TEST_CASE("the private copies' 32-bit limbs: their bound, and exact sums of large values of both signs where NVIDIA takes them") {
  // What a copy may take in one group: the low limb holds clz(per_copy) bits, the high one's sum
  // per_copy * 2^(value_bits - limb) + per_copy must stay below 2^31.
  using clatomics::detail::scatter_limbs_hold;
  CHECK(scatter_limbs_hold(8064, 36));    // 64M values on 528 groups of 16 copies: limb 19, 8064 * 2^17 + 8064
  CHECK(!scatter_limbs_hold(16384, 36));  // limb 17: 2^14 * 2^19
  CHECK(scatter_limbs_hold(128, 47));     // limb 24: 2^7 * 2^23 + 128
  CHECK(!scatter_limbs_hold(128, 48));    // 2^7 * 2^24 = 2^31
  CHECK(scatter_limbs_hold(1, 61));       // limb 31: 2^30 + 1
  CHECK(!scatter_limbs_hold(1, 62));
  CHECK(scatter_limbs_hold(0, 61));       // no value: as one
  CHECK(!scatter_limbs_hold(std::uint64_t(1) << 32, 0));

  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  // 2^22 values of +-(1 + k / 8) * 2^20 (exact in a float and in the window) into 7 bins: sums far
  // beyond 2^32 units of the window, of both signs, exact in a double.
  const std::size_t bins = 7, n = std::size_t(1) << 22;
  std::vector<cl_uint> idx(n);
  std::vector<float> values(n);
  std::vector<double> expected(bins, 0.0);
  std::mt19937 gen(11);
  for (std::size_t i = 0; i < n; ++i) {
    idx[i] = cl_uint(gen() % bins);
    values[i] = float((gen() % 3 == 0 ? -1.0 : 1.0) * (1.0 + double(gen() % 8) / 8.0) * 1048576.0);
    expected[idx[i]] += double(values[i]);
  }
  const cl::Buffer ib = device(idx), vb = device(values), ob = device(std::vector<float>(bins, 0.0f));
  const ScatterOptions o = options(true, ScatterStrategy::automatic, true);
  const clatomics::Plan plan = clatomics::plan_scatter_reduce(rt, clatomics::view<float>(ob, 0, bins), clatomics::view<cl_uint>(ib, 0, n),
                                                              clatomics::view<float>(vb, 0, n), ScatterOp::sum, o);
  INFO(plan.strategy, ", ", test::tuning_value(plan, "accumulator"));
  CHECK(plan.strategy == "local_private");
  CHECK(test::contains(test::tuning_value(plan, "accumulator"), "32-bit limbs") == (rt.device_info().caps.nvidia && rt.device_info().caps.is_gpu()));
  std::vector<float> out(bins, 0.0f);
  clatomics::scatter_reduce(rt, out, idx, values, ScatterOp::sum, o);
  for (std::size_t b = 0; b < bins; ++b) CHECK(test::bits(out[b]) == test::bits(float(expected[b])));
}
