// Histograms (bytes, keys, even bins with and without weights) with every strategy against a
// host reference: uniform random data, all elements in one bin (full contention), NaN and
// out-of-range values, sizes 0, 1, a prime and larger than one work-group's share, aligned and
// unaligned offsets; launches and streamed chunks merged into 64-bit totals; bad input refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "histogram_strategies.hpp"
#include "support.hpp"

namespace {

using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;

using test::name_of;
const auto& strategies = test::histogram_strategies;

const std::size_t sizes[] = {0, 1, 100003, (std::size_t(1) << 20) + 7};
const std::size_t offsets[] = {0, 5};

template <class T>
cl::Buffer device(const std::vector<T>& host) {
  std::vector<T> padded = host;
  if (padded.empty()) padded.push_back(T());  // OpenCL has no empty buffers
  return test::to_device(test::runtime(), padded);
}

struct EvenReference {
  std::vector<std::uint64_t> counts;
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<double> weights, abs_weights;
};

EvenReference even_reference(const std::vector<float>& x, std::size_t first, std::size_t n, std::size_t nbins, float lo, float hi,
                             const std::vector<float>* w = nullptr, std::size_t w_first = 0) {
  EvenReference r;
  r.counts.assign(nbins, 0);
  r.weights.assign(nbins, 0);
  r.abs_weights.assign(nbins, 0);
  const auto edges = test::numpy_edges(nbins, lo, hi);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s = test::even_slot(x[first + i], edges);
    if (s < nbins) {
      ++r.counts[s];
      if (w) r.weights[s] += (*w)[w_first + i], r.abs_weights[s] += std::fabs((*w)[w_first + i]);
    }
    if (s == nbins) ++r.below;
    if (s == nbins + 1) ++r.above;
    if (s == nbins + 2) ++r.nan;
  }
  return r;
}

void check_even(const clatomics::EvenHistogram& h, const EvenReference& r, bool weighted, bool exact_weights) {
  CHECK(h.counts == r.counts);
  CHECK(h.below == r.below);
  CHECK(h.above == r.above);
  CHECK(h.nan == r.nan);
  if (!weighted) {
    CHECK(h.sums.empty());
    return;
  }
  REQUIRE(h.sums.size() == 1);
  REQUIRE(h.sums[0].size() == r.weights.size());
  for (std::size_t b = 0; b < r.weights.size(); ++b) {
    INFO("bin ", b);
    if (exact_weights)
      CHECK(h.sums[0][b] == r.weights[b]);
    else  // float sums in any order: within 1e-5 of the sum of |w| (about 170 ulp)
      CHECK(std::fabs(h.sums[0][b] - r.weights[b]) <= 1e-5 * r.abs_weights[b]);
  }
}

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<std::uint8_t> x(n);
  for (auto& v : x) v = std::uint8_t(gen());
  return x;
}

std::vector<std::uint64_t> byte_reference(const std::vector<std::uint8_t>& x, std::size_t first, std::size_t n) {
  std::vector<std::uint64_t> h(256);
  for (std::size_t i = first; i < first + n; ++i) ++h[x[i]];
  return h;
}

// Values in [lo - 1.5, hi + 1.5], with NaN, infinities, the edges and values just beside them.
std::vector<float> even_values(std::size_t n, std::size_t nbins, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo - 1.5f, hi + 1.5f);
  const float width = (hi - lo) / float(nbins);
  std::vector<float> x(n);
  for (auto& v : x) {
    const unsigned pick = gen() % 64;
    if (pick == 0) v = std::numeric_limits<float>::quiet_NaN();
    else if (pick == 1) v = (gen() & 1) ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    else if (pick == 2) v = lo;
    else if (pick == 3) v = hi;
    else if (pick == 4) v = std::nextafter(hi, 1e30f);
    else if (pick == 5) v = std::nextafter(lo, -1e30f);
    else if (pick == 6) v = lo + float(gen() % nbins) * width;  // near an interior edge
    else v = dist(gen);
  }
  return x;
}

// Weights that are multiples of 1/8 below 2: every partial sum of fewer than 2^20 of them is exact.
std::vector<float> exact_weights(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<float> w(n);
  for (auto& v : w) v = float(gen() % 16) / 8.0f;
  return w;
}

}  // namespace

TEST_CASE("byte histograms, every strategy") {
  auto& rt = test::runtime();
  for (const HistogramStrategy s : strategies) {
    const HistogramOptions options{s};
    for (const std::size_t n : sizes)
      for (const std::size_t off : offsets) {
        const auto x = random_bytes(n + off, unsigned(n + off));
        INFO(name_of(s), " uniform n=", n, " offset=", off);
        CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(device(x), off, n), options) == byte_reference(x, off, n));
      }
    // Full contention: every byte in one bin.
    const std::vector<std::uint8_t> same((std::size_t(1) << 21) + 3, std::uint8_t(200));
    INFO(name_of(s), " one bin");
    CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(device(same), 3, same.size() - 3), options) == byte_reference(same, 3, same.size() - 3));
    CHECK(clatomics::histogram(rt, same, options) == byte_reference(same, 0, same.size()));
  }
}

TEST_CASE("key histograms count keys >= nbins as out of range, every strategy") {
  auto& rt = test::runtime();
  for (const std::size_t nbins : {std::size_t(1), std::size_t(100), std::size_t(5000)})
    for (const HistogramStrategy s : strategies)
      for (const std::size_t n : sizes)
        for (const std::size_t off : {std::size_t(0), std::size_t(3)}) {
          std::mt19937 gen(unsigned(n + nbins));
          std::vector<cl_uint> keys(n + off);
          for (auto& k : keys) k = (gen() % 8 == 0) ? cl_uint(gen()) : cl_uint(gen() % (nbins + nbins / 5 + 1));
          std::vector<std::uint64_t> counts(nbins);
          std::uint64_t out = 0;
          for (std::size_t i = off; i < off + n; ++i) keys[i] < nbins ? ++counts[keys[i]] : ++out;
          INFO(name_of(s), " nbins=", nbins, " n=", n, " offset=", off);
          const auto h = clatomics::histogram_keys(rt, clatomics::view<cl_uint>(device(keys), off, n), nbins, HistogramOptions{s});
          CHECK(h.counts == counts);
          CHECK(h.out_of_range == out);
          CHECK(test::ran_as_asked(s, h.strategy));
        }
}

TEST_CASE("bins that do not fit in __local memory") {
  auto& rt = test::runtime();
  const std::size_t nbins = std::size_t(rt.device_info().caps.local_mem_size / 4) + 10;
  std::vector<cl_uint> keys(100003);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = cl_uint((i * 7919) % (nbins + 100));
  std::vector<std::uint64_t> counts(nbins);
  std::uint64_t out = 0;
  for (const cl_uint k : keys) k < nbins ? ++counts[k] : ++out;
  for (const HistogramStrategy s : {HistogramStrategy::automatic, HistogramStrategy::global_atomics}) {
    const auto h = clatomics::histogram_keys(rt, keys, nbins, HistogramOptions{s});
    CHECK(h.counts == counts);
    CHECK(h.out_of_range == out);
  }
  for (const HistogramStrategy s : {HistogramStrategy::local_replicated, HistogramStrategy::local_single})
    CHECK_THROWS_AS(clatomics::histogram_keys(rt, keys, nbins, HistogramOptions{s}), std::invalid_argument);
  // Private counters do not live in __local memory: refused only past their own cap (a device with
  // little __local memory, such as a GPU's 48 KiB, takes these bins privately).
  try {
    const auto h = clatomics::histogram_keys(rt, keys, nbins, HistogramOptions{HistogramStrategy::private_per_item});
    CHECK(h.counts == counts);
    CHECK(h.out_of_range == out);
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("private counters") != std::string::npos);
  }
}

TEST_CASE("bins that fill __local memory to the last words: computed, or refused before the launch") {
  // Near the top of the usable __local memory (DeviceInfo::local_mem_usable) the automatic
  // strategy always gives the exact counts, and local_single either does or is refused with
  // std::invalid_argument before anything runs, never a launch the device refuses (the counters
  // share the room with a second __local argument: 4 bytes without weights, and its alignment).
  auto& rt = test::runtime();
  const std::size_t words = std::size_t(rt.device_info().local_mem_usable / 4);
  std::size_t computed = 0, refused = 0;
  for (std::size_t nbins = words - 8; nbins < words + 1; ++nbins) {
    std::vector<cl_uint> keys(20011);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = cl_uint((i * 7919) % (nbins + 100));
    std::vector<std::uint64_t> counts(nbins);
    std::uint64_t out = 0;
    for (const cl_uint k : keys) k < nbins ? ++counts[k] : ++out;
    INFO("nbins=", nbins, " of ", words, " usable words of __local memory");
    const auto h = clatomics::histogram_keys(rt, keys, nbins);
    CHECK(h.counts == counts);
    CHECK(h.out_of_range == out);
    try {
      const auto l = clatomics::histogram_keys(rt, keys, nbins, HistogramOptions{HistogramStrategy::local_single});
      CHECK(l.counts == counts);
      ++computed;
    } catch (const std::invalid_argument&) {
      ++refused;
    }
  }
  CHECK(computed > 0);  // the top words are in use,
  CHECK(refused > 0);   // and the last ones refused
}

TEST_CASE("even bins follow NumPy's edge rule") {
  auto& rt = test::runtime();
  const float lo = -2.0f, hi = 6.0f;  // 4 bins of width 2: [-2,0) [0,2) [2,4) [4,6]
  // bin 0: lo, the float below 0; bin 1: 0, -0, the float below 2; bin 2: 2; bin 3: 4, 5.999, hi;
  // below: the float below lo, -inf; above: the float above hi, inf; NaN.
  const std::vector<float> x = {lo, hi, std::nextafter(hi, 1e30f), std::nextafter(lo, -1e30f), 0.0f, -0.0f, 2.0f,
                                std::nextafter(2.0f, -1e30f), 4.0f, 5.999f, std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                                std::nextafter(0.0f, -1e30f)};
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto h = clatomics::histogram_even(rt, x, {4, lo, hi}, {}, HistogramOptions{s});
    CHECK(h.counts == std::vector<std::uint64_t>{2, 3, 1, 3});
    CHECK(h.below == 2);
    CHECK(h.above == 2);
    CHECK(h.nan == 1);
  }
}

TEST_CASE("even bins: values beside the float32 edges land where NumPy puts them") {
  auto& rt = test::runtime();
  const std::size_t nbins = 37;
  const float lo = -1.3f, hi = 2.7f;
  const auto edges = test::numpy_edges(nbins, lo, hi);
  std::vector<float> x;
  for (const float e : edges) {
    x.push_back(e);
    float down = e, up = e;
    for (int i = 0; i < 3; ++i) x.push_back(down = std::nextafter(down, -1e30f)), x.push_back(up = std::nextafter(up, 1e30f));
  }
  // The first guess floor((x - lo) * scale) alone puts some of these in a neighbouring bin: the
  // data must be able to catch a kernel that skips the correction against the edges.
  const float scale = float(double(nbins) / (double(hi) - double(lo)));
  std::size_t differ = 0;
  for (const float v : x)
    if (v >= lo && v <= hi && std::min<std::size_t>(std::size_t((v - lo) * scale), nbins - 1) != test::even_slot(v, edges)) ++differ;
  REQUIRE(differ > 0);
  const auto r = even_reference(x, 0, x.size(), nbins, lo, hi);
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    check_even(clatomics::histogram_even(rt, x, {nbins, lo, hi}, {}, HistogramOptions{s}), r, false, false);
  }
}

// Past 2^20 bins the guard is a bin or more: no value's first guess is sure, each is checked
// against the edges; past 2^22 the vector guess (1.5 * 2^23 added) leaves no whole number, and
// past about 1.25 * 2^24 it is wrong by two or more (t - its rounded value reaches 2, above a
// guard of 1): every value must still be checked.
TEST_CASE("even bins past 2^22 and 2^24: values on, beside and between the edges land where NumPy puts them") {
  auto& rt = test::runtime();
  for (const std::size_t nbins : {std::size_t(5000000), std::size_t(1) << 25}) {
    INFO("bins ", nbins);
    const float half = float(nbins / 2), lo = -half, hi = half;  // bins of width 1: the edges are the integers
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> dist(lo - 10.0f, hi + 10.0f);
    std::vector<float> x;
    // Whole 16-byte loads of values whose vector guess is wrong past 1.25 * 2^24 bins.
    for (const float v : {4194306.0f, 4194310.0f, 8000002.0f, 16777214.0f, 2222222.0f, -0.0f})
      for (int k = 0; k < 8; ++k) x.push_back(v);
    for (int i = 0; i < 20000; ++i) {
      const float e = float(std::int64_t(gen() % (nbins + 1)) - std::int64_t(nbins / 2));
      x.insert(x.end(), {e, std::nextafter(e, -1e30f), std::nextafter(e, 1e30f), dist(gen)});
    }
    check_even(clatomics::histogram_even(rt, x, {nbins, lo, hi}), even_reference(x, 0, x.size(), nbins, lo, hi), false, false);
    // Two axes take the same slots per axis: the points' bins (x, 0) of one bin over y.
    const std::vector<float> y(x.size(), 0.0f);
    const auto h2 = clatomics::histogram2d_even(rt, x, y, {nbins, lo, hi}, {1, -1.0f, 1.0f});
    const auto r = even_reference(x, 0, x.size(), nbins, lo, hi);
    CHECK(h2.counts == r.counts);
  }
}

TEST_CASE("even histograms, every strategy, with and without weights") {
  auto& rt = test::runtime();
  for (const std::size_t nbins : {std::size_t(1), std::size_t(10), std::size_t(1000)})
    for (const HistogramStrategy s : strategies)
      for (const std::size_t n : sizes)
        for (const std::size_t off : {std::size_t(0), std::size_t(1)}) {
          const float lo = -2.5f, hi = 7.5f;
          const auto x = even_values(n + off, nbins, lo, hi, unsigned(n + nbins));
          INFO(name_of(s), " nbins=", nbins, " n=", n, " offset=", off);
          const clatomics::EvenBins<float> bins{nbins, lo, hi};
          const auto h = clatomics::histogram_even(rt, clatomics::view<float>(device(x), off, n), bins, {}, HistogramOptions{s});
          check_even(h, even_reference(x, off, n, nbins, lo, hi), false, false);
          // Weights from another offset (another alignment than the values) on the smaller sizes.
          if (n > 200000) continue;
          const auto w = exact_weights(n + 2, unsigned(n));
          const cl::Buffer dw = device(w);
          const auto hw = clatomics::histogram_even(rt, clatomics::view<float>(device(x), off, n), bins, {clatomics::view<float>(dw, 2, n)},
                                                    HistogramOptions{s});
          check_even(hw, even_reference(x, off, n, nbins, lo, hi, &w, 2), true, true);
        }
}

TEST_CASE("weighted histograms with rounded float sums") {
  auto& rt = test::runtime();
  const std::size_t n = (std::size_t(1) << 20) + 11;
  const auto x = even_values(n, 64, 0.0f, 1.0f, 3);
  std::mt19937 gen(4);
  std::uniform_real_distribution<float> dist(-1.0f, 2.0f);
  std::vector<float> w(n);
  for (auto& v : w) v = dist(gen);
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto h = clatomics::histogram_even(rt, x, {64, 0.0f, 1.0f}, {w}, HistogramOptions{s});
    check_even(h, even_reference(x, 0, n, 64, 0.0f, 1.0f, &w, 0), true, false);
  }
}

TEST_CASE("launches and streamed chunks add up in 64-bit totals, directly and through 32-bit merges") {
  auto& rt = test::runtime();
  const auto bytes = random_bytes((std::size_t(1) << 20) + 77, 8);
  std::vector<cl_uint> keys(300007);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = cl_uint(i % 300);
  const auto x = even_values(300007, 50, 0.0f, 10.0f, 9);
  const auto w = exact_weights(x.size(), 10);
  // Small chunks and launches, so that every merge path runs many times.
  for (const bool merge_32bit : {false, true}) {
    for (const HistogramStrategy s : strategies) {
      clatomics::testing::set_stream_limits({std::size_t(64) << 10, 10007, merge_32bit});
      INFO(name_of(s) << (merge_32bit ? ", 32-bit counts merged per launch" : ", 64-bit totals directly"));
      const HistogramOptions options{s};
      CHECK(clatomics::histogram(rt, bytes, options) == byte_reference(bytes, 0, bytes.size()));
      CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(device(bytes), 1, bytes.size() - 1), options) == byte_reference(bytes, 1, bytes.size() - 1));
      const auto hk = clatomics::histogram_keys(rt, keys, 256, options);
      std::vector<std::uint64_t> counts(256);
      std::uint64_t out = 0;
      for (const cl_uint k : keys) k < 256 ? ++counts[k] : ++out;
      CHECK(hk.counts == counts);
      CHECK(hk.out_of_range == out);
      check_even(clatomics::histogram_even(rt, x, {50, 0.0f, 10.0f}, {w}, options), even_reference(x, 0, x.size(), 50, 0.0f, 10.0f, &w, 0),
                 true, true);
    }
  }
  clatomics::testing::set_stream_limits({});
  // Launches count in 32 bits: a larger launch is refused.
  CHECK_THROWS_AS(clatomics::testing::set_stream_limits({0, (std::uint64_t(1) << 31) + 1}), std::invalid_argument);
  // Empty host data: zeros.
  CHECK(clatomics::histogram(rt, std::vector<std::uint8_t>{}) == std::vector<std::uint64_t>(256));
  const auto empty = clatomics::histogram_even(rt, std::vector<float>{}, {3, 0.0f, 1.0f});
  CHECK(empty.counts == std::vector<std::uint64_t>(3));
  CHECK(empty.below + empty.above + empty.nan == 0);
}

TEST_CASE("bad input is refused before anything runs") {
  auto& rt = test::runtime();
  const cl::Buffer bytes = device(std::vector<std::uint8_t>(100, 1));
  const cl::Buffer floats = device(std::vector<float>(100, 1.0f));
  const cl::Buffer short_weights = device(std::vector<float>(50, 1.0f));
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  using IA = std::invalid_argument;
  const auto b = [&](std::size_t offset, std::size_t count) { return clatomics::view<cl_uchar>(bytes, offset, count); };
  const auto f = [&](std::size_t offset, std::size_t count) { return clatomics::view<float>(floats, offset, count); };
  const auto k = [&](std::size_t offset, std::size_t count) { return clatomics::view<cl_uint>(floats, offset, count); };
  const auto w50 = [&](std::size_t offset, std::size_t count) { return clatomics::view<float>(short_weights, offset, count); };
  using Bins = clatomics::EvenBins<float>;
  clatomics::ProfileScope enqueued;  // records every command the calls below enqueue
  CHECK_THROWS_AS(clatomics::histogram(rt, clatomics::view<cl_uchar>(cl::Buffer(), 0, 1)), IA);
  CHECK_THROWS_AS(clatomics::histogram(rt, b(0, 101)), IA);
  CHECK_THROWS_AS(clatomics::histogram(rt, b(101, 0)), IA);
  CHECK_THROWS_AS(clatomics::histogram(rt, b(max, 2)), IA);
  CHECK_THROWS_AS(clatomics::histogram(rt, b(0, 10), HistogramOptions{static_cast<HistogramStrategy>(9)}), IA);
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, k(0, 101), 10), IA);
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, k(0, 101), 0), IA);  // no bins: the range is still checked
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, k(0, 10), 0, HistogramOptions{static_cast<HistogramStrategy>(9)}), IA);
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, k(0, 10), std::size_t(1) << 32), IA);
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, k(0, 10), 20000, HistogramOptions{HistogramStrategy::private_per_item}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{0, 0.0f, 1.0f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, 2.0f, 1.0f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, nan, 1.0f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, 0.0f, nan}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, -inf, 1.0f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, 0.0f, inf}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, -3e38f, 3e38f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{100000, 0.0f, 1e-40f}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 60), Bins{4, 0.0f, 1.0f}, {w50(0, 60)}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 50), Bins{4, 0.0f, 1.0f}, {w50(1, 50)}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, f(0, 10), Bins{4, 0.0f, 1.0f}, {f(max, 10)}), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, std::vector<float>(5), Bins{4, 0.0f, 1.0f}, {std::vector<float>(4)}), IA);
  // Every refusal quotes what it refuses.
  const auto refusal = [](auto call) -> std::string {
    try {
      call();
    } catch (const IA& e) {
      return e.what();
    }
    return "no exception";
  };
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 50), Bins{4, 0.0f, 1.0f}, {f(0, 40)}); }) ==
        "clatomics: histogram weights[0]: a view of 40 weights for 50 positions; they must be of the same length");
  CHECK(refusal([&] { clatomics::histogram_even(rt, std::vector<float>(5), Bins{4, 0.0f, 1.0f}, {std::vector<float>(5), std::vector<float>(4)}); }) ==
        "clatomics: histogram_even: weights[1] has 4 elements, values has 5; they must be of the same length");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{4, 2.0f, 1.0f}); }) == "clatomics: histogram_even: lo (2) is above hi (1)");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{4, 0.0f, inf}); }) ==
        "clatomics: histogram_even: hi is inf; the range must be finite");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{4, -inf, 1.0f}); }) ==
        "clatomics: histogram_even: lo is -inf; the range must be finite");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{4, nan, 1.0f}); }) ==
        "clatomics: histogram_even: lo is nan; the range must be finite");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{4, -3e38f, 3e38f}); }) ==
        "clatomics: histogram_even: hi - lo = 3e+38 - -3e+38 overflows float");
  CHECK(refusal([&] { clatomics::histogram_even(rt, f(0, 10), Bins{0, 0.0f, 1.0f}); }) ==
        "clatomics: histogram_even: nbins is 0; it must be at least 1");
  CHECK(refusal([&] { clatomics::histogram_keys(rt, k(0, 10), std::size_t(1) << 32); }) ==
        "clatomics: histogram_keys: nbins is 4294967296; it must be at most 2^32 - 4");
  CHECK(enqueued.commands() == 0);
  // In range: fine.
  const auto h = clatomics::histogram_even(rt, f(0, 50), Bins{4, 0.0f, 1.0f}, {w50(0, 50)});
  CHECK(h.counts == std::vector<std::uint64_t>{0, 0, 0, 50});
  CHECK(h.sums == std::vector<std::vector<double>>{{0, 0, 0, 50}});
}

TEST_CASE("no key bins: every key out of range, as np.bincount's counts cut at 0 bins") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> keys = {0, 3, 7, 0, 4294967295u};
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto host = clatomics::histogram_keys(rt, keys, 0, HistogramOptions{s});
    CHECK(host.counts.empty());
    CHECK(host.out_of_range == 5);
    const auto resident = clatomics::histogram_keys(rt, clatomics::view<cl_uint>(device(keys), 1, 3), 0, HistogramOptions{s});
    CHECK(resident.counts.empty());
    CHECK(resident.out_of_range == 3);
    const auto none = clatomics::histogram_keys(rt, std::vector<cl_uint>{}, 0, HistogramOptions{s});
    CHECK(none.counts.empty());
    CHECK(none.out_of_range == 0);
  }
}

TEST_CASE("no values: nbins zeros, from host data and from an empty view") {
  auto& rt = test::runtime();
  const cl::Buffer floats = device(std::vector<float>(4, 0.5f));
  const cl::Buffer doubles = test::runtime().supports_double() ? device(std::vector<double>(4, 0.5)) : cl::Buffer();
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto host = clatomics::histogram_even(rt, std::vector<float>{}, {5, 0.0f, 1.0f}, {std::vector<float>{}}, HistogramOptions{s});
    CHECK(host.counts == std::vector<std::uint64_t>(5));
    CHECK(host.sums == std::vector<std::vector<double>>{std::vector<double>(5)});
    const auto view = clatomics::histogram_even(rt, clatomics::view<float>(floats, 2, 0), {5, 0.0f, 1.0f},
                                                {clatomics::view<float>(floats, 4, 0)}, HistogramOptions{s});
    CHECK(view.counts == std::vector<std::uint64_t>(5));
    CHECK(view.below + view.above + view.nan == 0);
    CHECK(view.sums == std::vector<std::vector<double>>{std::vector<double>(5)});
    if (doubles()) {
      const auto d = clatomics::histogram_even(rt, clatomics::view<double>(doubles, 0, 0), {3, 0.0, 1.0}, {}, HistogramOptions{s});
      CHECK(d.counts == std::vector<std::uint64_t>(3));
    }
  }
}

TEST_CASE("an empty range widens by half a unit on each side, as NumPy's") {
  auto& rt = test::runtime();
  const cl::Buffer floats = test::to_device(rt, std::vector<float>{1, 1, 1, 0.6f, 1.4f, 2, 0, 1, 1, 1});
  const auto widened = clatomics::histogram_even(rt, clatomics::view<float>(floats), {4, 1.0f, 1.0f});
  CHECK(widened.lo == 0.5);
  CHECK(widened.hi == 1.5);
  CHECK(widened.counts == std::vector<std::uint64_t>{1, 0, 6, 1});  // np.histogram(data, 4, (1, 1))
  CHECK(widened.below == 1);
  CHECK(widened.above == 1);
}
