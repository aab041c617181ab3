// How even histograms sum their weight channels, path by path, against an exact host reference:
// the __local copies of the weights' partial sums with 1 to 4 channels (2 and 4 in two phases of
// work-items, 1 and 3 in one), bins whose sums fit in __local memory only with fewer copies or
// not at all, compensated pairs on a device without fp64 (pairs all the way, no double partial
// sums), and the copies of the pairs' global sums (their plan, and sums past float's range
// spread over them). The suite's cas variant runs it all on the compare-exchange loops.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "histogram_strategies.hpp"
#include "support.hpp"

namespace {

using clatomics::EvenBins;
using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::WeightAccumulation;
using clatomics::view;

using test::name_of;
const auto& accumulations = test::weight_accumulations;
using test::accumulation_names;

bool runs(const clatomics::Runtime& rt, WeightAccumulation a) {
  if (a == WeightAccumulation::double_atomic) return rt.supports_double();
  if (a == WeightAccumulation::compensated_float2) return rt.device_info().caps.int64_base_atomics;
  return true;
}

// Positions at bin centres of nbins unit bins over [0, nbins) (no edge to argue about), half of
// them in bin 0 (contention on its copies), 1 in 16 below, above or NaN; weights multiples of 1/8
// in [-1, 1): every partial sum below 2^21 is exact in float, so every accumulation is exact.
struct Data {
  std::vector<float> x;
  std::vector<std::vector<float>> w;  // 4 channels
};
Data make_data(std::size_t n, std::size_t nbins, unsigned seed) {
  std::mt19937 gen(seed);
  Data d;
  d.x.resize(n);
  for (auto& v : d.x) {
    const unsigned pick = gen() % 32;
    if (pick == 0) v = std::numeric_limits<float>::quiet_NaN();
    else if (pick == 1) v = -1.5f;
    else if (pick == 2) v = float(nbins) + 0.5f;
    else v = (gen() & 1) ? 0.5f : float(gen() % nbins) + 0.5f;
  }
  for (unsigned c = 0; c < 4; ++c) {
    std::vector<float> w(n);
    for (auto& v : w) v = float(int(gen() % 16) - 8) / 8.0f;
    d.w.push_back(std::move(w));
  }
  return d;
}

struct Reference {
  std::vector<std::uint64_t> counts;
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<std::vector<double>> sums;
};
Reference reference(const Data& d, std::size_t nbins, std::size_t channels) {
  Reference r;
  r.counts.assign(nbins, 0);
  r.sums.assign(channels, std::vector<double>(nbins, 0.0));
  for (std::size_t i = 0; i < d.x.size(); ++i) {
    const float v = d.x[i];
    if (std::isnan(v)) ++r.nan;
    else if (v < 0) ++r.below;
    else if (v > float(nbins)) ++r.above;
    else {
      const std::size_t b = std::size_t(v);
      ++r.counts[b];
      for (std::size_t c = 0; c < channels; ++c) r.sums[c][b] += double(d.w[c][i]);
    }
  }
  return r;
}

void check_exact(const clatomics::EvenHistogram& h, const Reference& r) {
  CHECK(h.counts == r.counts);
  CHECK(h.below == r.below);
  CHECK(h.above == r.above);
  CHECK(h.nan == r.nan);
  REQUIRE(h.sums.size() == r.sums.size());
  for (std::size_t c = 0; c < r.sums.size(); ++c) {
    INFO("channel ", c);
    CHECK(h.sums[c] == r.sums[c]);
  }
}

std::vector<clatomics::HostFloats> channels_of(const Data& d, std::size_t channels) {
  return std::vector<clatomics::HostFloats>(d.w.begin(), d.w.begin() + std::ptrdiff_t(channels));
}

// Bins whose 32-bit counts and sums for `channels` channels of `acc` bytes take `bytes`.
std::size_t bins_taking(std::size_t bytes, std::size_t channels, std::size_t acc) { return bytes / (4 + channels * acc) - 3; }

}  // namespace

TEST_CASE("1 to 4 weight channels through __local copies, every accumulation: exact sums") {
  auto& rt = test::runtime();
  const std::size_t n = 50021, nbins = 23;
  const Data d = make_data(n, nbins, 1);
  for (const WeightAccumulation a : accumulations) {
    if (!runs(rt, a)) continue;
    for (const HistogramStrategy s : {HistogramStrategy::local_replicated, HistogramStrategy::local_single})
      for (std::size_t channels = 1; channels <= 4; ++channels) {
        INFO(accumulation_names[int(a)], " ", name_of(s), " channels ", channels);
        const Reference r = reference(d, nbins, channels);
        const auto h = clatomics::histogram_even(rt, d.x, EvenBins<float>{nbins, 0.0f, float(nbins)}, channels_of(d, channels), HistogramOptions{s, a});
        CHECK(h.strategy == s);
        check_exact(h, r);
      }
  }
}

TEST_CASE("weight sums whose bins fit in __local memory with fewer copies, or not at all") {
  auto& rt = test::runtime();
  const std::size_t usable = std::size_t(rt.device_info().local_mem_usable);
  for (const WeightAccumulation a : accumulations) {
    if (!runs(rt, a)) continue;
    const std::size_t acc = a == WeightAccumulation::float_atomic ? 4 : 8;
    // Two copies of counts and sums fit, not the four that make up a phase's banks: fewer copies.
    const std::size_t some = bins_taking(usable / 2, 4, acc);
    // Not one copy: local strategies are refused, the others sum the weights in global memory.
    const std::size_t none = bins_taking(usable, 4, acc) + 8;
    const Data d = make_data(20011, some, 2);
    const Data e = make_data(20011, none, 3);
    INFO(accumulation_names[int(a)], ": ", some, " and ", none, " bins");
    const auto fewer = clatomics::histogram_even(rt, d.x, EvenBins<float>{some, 0.0f, float(some)}, channels_of(d, 4),
                                                 HistogramOptions{HistogramStrategy::local_replicated, a});
    check_exact(fewer, reference(d, some, 4));
    CHECK_THROWS_AS(clatomics::histogram_even(rt, e.x, EvenBins<float>{none, 0.0f, float(none)}, channels_of(e, 4),
                                              HistogramOptions{HistogramStrategy::local_single, a}),
                    std::invalid_argument);
    for (const HistogramStrategy s : {HistogramStrategy::automatic, HistogramStrategy::global_atomics}) {
      INFO(name_of(s));
      const auto h = clatomics::histogram_even(rt, e.x, EvenBins<float>{none, 0.0f, float(none)}, channels_of(e, 4), HistogramOptions{s, a});
      CHECK(h.strategy != HistogramStrategy::local_single);
      CHECK(h.strategy != HistogramStrategy::local_replicated);
      check_exact(h, reference(e, none, 4));
    }
  }
}

TEST_CASE("compensated pairs on a device without fp64 (Options::hide_fp64): pairs all the way, within the stated bound") {
  clatomics::Options options = clatomics::Options::from_env();
  options.hide_fp64 = true;
  clatomics::Runtime rt(options);
  if (!rt.device_info().caps.int64_base_atomics) return;
  REQUIRE(!rt.supports_double());
  const HistogramOptions pairs{HistogramStrategy::automatic, WeightAccumulation::compensated_float2};
  const std::size_t nbins = 37;
  const Data d = make_data(40009, nbins, 4);
  const Reference r = reference(d, nbins, 4);
  // Rounded sums: weights of magnitudes over 2^20 in 4 bins; |error| <= 3u^2 / (1 - 4u) n_b S + 2^-53 |sum|.
  const std::size_t n = std::size_t(1) << 18;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> x(n), w(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 4) + 0.5f, w[i] = std::ldexp(unit(gen), int(gen() % 20));
  const double u = std::ldexp(1.0, -24);
  for (const HistogramStrategy s : test::histogram_strategies) {
    INFO(name_of(s));
    HistogramOptions o = pairs;
    o.strategy = s;
    check_exact(clatomics::histogram_even(rt, d.x, EvenBins<float>{nbins, 0.0f, float(nbins)}, channels_of(d, 4), o), r);
    const auto h = clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, 4.0f}, {w}, o);
    for (std::size_t b = 0; b < 4; ++b) {
      double exact = 0, abs_sum = 0;
      for (std::size_t i = b; i < n; i += 4) exact += double(w[i]), abs_sum += std::fabs(double(w[i]));
      INFO("bin ", b);
      CHECK(std::fabs(h.sums[0][b] - exact) <= 3 * u * u / (1 - 4 * u) * double(n / 4) * abs_sum + std::ldexp(std::fabs(exact), -53));
    }
  }
  // 10^7 weights of 0.1f in one bin: multiples of 2^-27 below 2^20, which a pair holds exactly.
  const std::size_t big = 10000000;
  const auto h = clatomics::histogram_even(rt, std::vector<float>(big, 0.5f), EvenBins<float>{1, 0.0f, 1.0f}, {std::vector<float>(big, 0.1f)}, pairs);
  CHECK(h.sums[0][0] == double(big) * double(0.1f));
  // Infinities, NaN and sums past float's range: as float sums.
  const float inf = std::numeric_limits<float>::infinity(), most = std::numeric_limits<float>::max();
  const auto special = clatomics::histogram_even(rt, std::vector<float>{0.5f, 0.5f, 1.5f, 2.5f, 2.5f, 3.5f, 3.5f}, EvenBins<float>{4, 0.0f, 4.0f},
                                                 {std::vector<float>{inf, 1.0f, -inf, most, most, inf, -inf}}, pairs);
  CHECK(special.sums[0][0] == double(inf));
  CHECK(special.sums[0][1] == -double(inf));
  CHECK(special.sums[0][2] == double(inf));
  CHECK(std::isnan(special.sums[0][3]));
}

TEST_CASE("compensated pairs' global sums in copies: the plan shows them; sums past float's range over copies are infinities") {
  auto& rt = test::runtime();
  if (!rt.device_info().caps.int64_base_atomics) return;
  const HistogramOptions pairs{HistogramStrategy::automatic, WeightAccumulation::compensated_float2};
  // 100 bins, 4 channels: 103 slots of 8-byte sums a channel, 32 copies in 128 KiB.
  CHECK(test::tuning_value(clatomics::plan_histogram_even(rt, 1 << 20, EvenBins<float>{100, 0.0f, 1.0f}, 4, pairs), "copies of the global weight sums") == "32");
  CHECK(test::tuning_value(clatomics::plan_histogram_even(rt, 1 << 20, EvenBins<float>{100, 0.0f, 1.0f}, 4), "copies of the global weight sums") == "");
  CHECK(test::tuning_value(clatomics::plan_histogram_even(rt, 1 << 20, EvenBins<float>{100000, 0.0f, 1.0f}, 4, pairs), "copies of the global weight sums") == "");
  // Every element in bin 0 or bin 1; two float maxima of each sign far apart (other work-items,
  // other groups): bin 0's sum past float's range above, bin 1's below.
  const std::size_t n = std::size_t(1) << 20;
  const float most = std::numeric_limits<float>::max();
  std::vector<float> x(n), w(n, 0.25f);
  for (std::size_t i = 0; i < n; ++i) x[i] = (i & 1) ? 1.5f : 0.5f;
  w[0] = w[n / 2] = most;
  w[1] = w[n - 1] = -most;
  for (const HistogramStrategy s : test::histogram_strategies) {
    INFO(name_of(s));
    HistogramOptions o = pairs;
    o.strategy = s;
    const auto h = clatomics::histogram_even(rt, x, EvenBins<float>{2, 0.0f, 2.0f}, {w}, o);
    CHECK(h.sums[0][0] == std::numeric_limits<double>::infinity());
    CHECK(h.sums[0][1] == -std::numeric_limits<double>::infinity());
    const auto b = clatomics::histogram_even(rt, view<float>(test::to_device(rt, x), 0, n), EvenBins<float>{2, 0.0f, 2.0f},
                                             {view<float>(test::to_device(rt, w), 0, n)}, o);
    CHECK(b.sums == h.sums);
  }
}
