// The registry's histogram, histogram_keys, histogram_even and histogram2d_even (algorithm_cases.hpp).
#include <cmath>
#include <limits>

#include "algorithm_entries.hpp"

namespace test::algorithms {
namespace {

using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::Runtime;
using Counts = std::vector<std::uint64_t>;

constexpr HistogramStrategy strategies[] = {HistogramStrategy::automatic, HistogramStrategy::local_replicated, HistogramStrategy::local_single,
                                            HistogramStrategy::global_atomics, HistogramStrategy::private_per_item};

// f over each strategy; a strategy this device cannot run for these bins is refused before
// anything is built.
template <class F>
void each_strategy(F&& f) {
  for (const HistogramStrategy s : strategies) try {
      f(HistogramOptions{s});
    } catch (const std::invalid_argument&) {
    }
}

struct Data {
  std::vector<std::uint8_t> bytes;
  std::vector<cl_uint> keys;
  std::vector<float> x, w;
};
Data kernel_data() {
  Data d;
  d.bytes.resize(300000), d.keys.resize(300000), d.x.resize(300000);
  for (std::size_t i = 0; i < d.bytes.size(); ++i) d.bytes[i] = std::uint8_t(i * 7), d.keys[i] = cl_uint(i % 700), d.x[i] = float(i % 97) - 40.0f;
  d.w.assign(d.x.size(), 0.25f);
  return d;
}

// The even-bin result the host expects over edges (see test::even_slot), weights summed per channel.
struct Even {
  Counts counts;
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<double> sums;
};
Even host_even(const std::vector<float>& v, const std::vector<float>* w, const std::vector<float>& edges) {
  const std::size_t nbins = edges.size() - 1;
  Even e;
  e.counts.assign(nbins, 0);
  std::vector<float> sums(nbins, 0.0f);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::size_t slot = test::even_slot(v[i], edges);
    if (slot == nbins) ++e.below;
    else if (slot == nbins + 1) ++e.above;
    else if (slot == nbins + 2) ++e.nan;
    else {
      ++e.counts[slot];
      if (w) sums[slot] += (*w)[i];  // small integers: exact
    }
  }
  if (w) e.sums.assign(sums.begin(), sums.end());
  return e;
}

// np.histogram(values, nbins) without a range: the data's own, edges in float arithmetic.
std::vector<float> found_edges(const std::vector<float>& v, std::size_t nbins) {
  if (v.empty()) return test::numpy_edges(nbins, 0.0f, 1.0f);
  float lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  if (lo == hi) lo -= 0.5f, hi += 0.5f;
  const float step = (hi - lo) / float(nbins);
  std::vector<float> edges(nbins + 1);
  for (std::size_t k = 0; k < nbins; ++k) edges[k] = float(k) * step + lo;
  edges[nbins] = hi;
  return edges;
}

void check_even(const clatomics::EvenHistogram& got, const Even& want, std::size_t channels) {
  CHECK(got.counts == want.counts);
  CHECK(got.below == want.below);
  CHECK(got.above == want.above);
  CHECK(got.nan == want.nan);
  REQUIRE(got.sums.size() == channels);
  for (const auto& sums : got.sums) CHECK(sums == want.sums);
}

// bins given (nbins 0 or a bad range: a refused call), or found in the data; channels of the weights.
Call even_call(std::size_t nbins, float lo, float hi, bool given, std::size_t channels, clatomics::WeightAccumulation accumulation) {
  Call c;
  c.what = std::to_string(nbins) + " bins " + (given ? "over [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" : "over the data's range") +
           ", " + std::to_string(channels) + " weight channels" +
           (accumulation == clatomics::WeightAccumulation::compensated_float2 ? ", compensated_float2" : "");
  c.valid = nbins > 0 && (!given || (std::isfinite(lo) && std::isfinite(hi) && lo <= hi));
  c.leaves_out = channels ? 0u : 2u;
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto values = view<float>(r[0]);
    const std::vector<clatomics::View<float>> weights(channels, view<float>(r[1]));
    HistogramOptions options;
    options.accumulation = accumulation;
    const auto got = given ? clatomics::histogram_even(rt, values, clatomics::EvenBins<float>{nbins, lo, hi}, weights, options)
                           : clatomics::histogram_even(rt, values, nbins, weights, options);
    if (!before) return;
    const auto v = as<float>((*before)[0]), w = as<float>((*before)[1]);
    const bool widened = given && lo == hi;  // NumPy's empty range: half a unit on each side
    const auto edges = given ? test::numpy_edges(nbins, widened ? lo - 0.5f : lo, widened ? hi + 0.5f : hi) : found_edges(v, nbins);
    check_even(got, host_even(v, channels ? &w : nullptr, edges), channels);
    if (!given && !v.empty()) {
      CHECK(got.lo == double(edges.front()));
      CHECK(got.hi == double(edges.back()));
    }
  };
  return c;
}

// np.linspace(lo, hi, n + 1) in double, and the bin of x over it (n, n + 1, n + 2: below, above, NaN).
std::vector<double> double_edges(const clatomics::EvenBins<float>& b) {
  std::vector<double> e(b.nbins + 1);
  const double step = (double(b.hi) - double(b.lo)) / double(b.nbins);
  for (std::size_t k = 0; k < b.nbins; ++k) e[k] = double(k) * step + double(b.lo);
  e[b.nbins] = b.hi;
  return e;
}
std::size_t double_slot(float x, const std::vector<double>& e) {
  const std::size_t n = e.size() - 1;
  if (std::isnan(x)) return n + 2;
  if (double(x) < e.front()) return n;
  if (double(x) > e.back()) return n + 1;
  return std::size_t(std::upper_bound(e.begin(), e.end() - 1, double(x)) - e.begin()) - 1;
}
void tally(clatomics::AxisTallies& t, std::size_t slot, std::size_t n) {
  if (slot == n) ++t.below;
  else if (slot == n + 1) ++t.above;
  else if (slot == n + 2) ++t.nan;
}

Call even2d_call(bool weighted) {
  Call c;
  c.what = weighted ? "weighted" : "no weights";
  c.leaves_out = weighted ? 0u : 4u;
  c.run = [weighted](Runtime& rt, const Ranges& r, const Contents* before) {
    const clatomics::EvenBins<float> xbins{37, -8.0f, 8.0f}, ybins{7, -4.0f, 4.0f};
    std::vector<clatomics::View<float>> weights;
    if (weighted) weights.push_back(view<float>(r[2]));
    const auto got = clatomics::histogram2d_even(rt, view<float>(r[0]), view<float>(r[1]), xbins, ybins, weights);
    if (!before) return;
    const auto x = as<float>((*before)[0]), y = as<float>((*before)[1]), w = as<float>((*before)[2]);
    const auto ex = double_edges(xbins), ey = double_edges(ybins);
    Counts counts(xbins.nbins * ybins.nbins, 0);
    std::vector<float> sums(counts.size(), 0.0f);
    clatomics::AxisTallies tx, ty;
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::size_t ix = double_slot(x[i], ex), iy = double_slot(y[i], ey);
      tally(tx, ix, xbins.nbins), tally(ty, iy, ybins.nbins);
      if (ix >= xbins.nbins || iy >= ybins.nbins) {
        ++outside;
        continue;
      }
      ++counts[ix * ybins.nbins + iy];
      if (weighted) sums[ix * ybins.nbins + iy] += w[i];
    }
    CHECK(got.nx == xbins.nbins);
    CHECK(got.ny == ybins.nbins);
    CHECK(got.counts == counts);
    CHECK((got.x.below == tx.below && got.x.above == tx.above && got.x.nan == tx.nan));
    CHECK((got.y.below == ty.below && got.y.above == ty.above && got.y.nan == ty.nan));
    CHECK(got.outside == outside);
    REQUIRE(got.sums.size() == (weighted ? 1u : 0u));
    if (weighted) CHECK(got.sums[0] == std::vector<double>(sums.begin(), sums.end()));
  };
  return c;
}

Call keys_call(std::size_t nbins) {
  Call c;
  c.what = std::to_string(nbins) + " bins";
  c.valid = nbins <= (std::size_t(1) << 32) - 4;  // nbins 0: no bins, every key out of range
  c.run = [nbins](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::histogram_keys(rt, view<cl_uint>(r[0]), nbins);
    if (!before) return;
    Counts want(nbins, 0);
    std::uint64_t out = 0;
    for (const cl_uint key : as<cl_uint>((*before)[0])) key < nbins ? ++want[key] : ++out;
    CHECK(got.counts == want);
    CHECK(got.out_of_range == out);
  };
  return c;
}

}  // namespace

Algorithm histogram_entry() {
  Algorithm a;
  a.name = "histogram";
  a.operands = {{"histogram: bytes", Role::input, 1, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    Bytes b(s.length);
    for (auto& e : b) e = static_cast<unsigned char>(gen());
    return Contents{b};
  };
  Call c;
  c.what = "256 bins";
  c.run = [](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::histogram(rt, view<cl_uchar>(r[0]));
    if (!before) return;
    Counts want(256, 0);
    for (const unsigned char b : (*before)[0]) ++want[b];
    CHECK(got == want);
  };
  a.calls = {c};
  a.refusals = {refusal("strategy outside HistogramStrategy", "options.strategy (42)", [](Runtime& rt, const Ranges& r) {
    (void)clatomics::histogram(rt, view<cl_uchar>(r[0]), HistogramOptions{static_cast<HistogramStrategy>(42)});
  })};
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) { (void)clatomics::histogram(rt, d.bytes, o); });
    clatomics::testing::set_stream_limits({0, 0, true});  // the 32-bit counts merged afterwards
    (void)clatomics::histogram(rt, d.bytes);
    clatomics::testing::set_stream_limits({});
  };
  return a;
}

Algorithm histogram_keys_entry() {
  Algorithm a;
  a.name = "histogram_keys";
  a.operands = {{"histogram_keys: keys", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    return Contents{bytes_of(below(s.length, gen, 330))};  // some beyond the bins
  };
  a.calls = {keys_call(300)};
  a.refusals = {saying(keys_call((std::size_t(1) << 32) - 3), "nbins is 4294967293"),
                refusal("strategy outside HistogramStrategy", "options.strategy (42)", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::histogram_keys(rt, view<cl_uint>(r[0]), 300, HistogramOptions{static_cast<HistogramStrategy>(42)});
                })};
  a.random_call = [](std::mt19937_64& g) {
    return keys_call(g() % 5 == 0 ? (g() % 2) * ((std::size_t(1) << 32) - 3) : 1 + g() % 300);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) { (void)clatomics::histogram_keys(rt, d.keys, 600, o); });
    clatomics::testing::set_stream_limits({0, 0, true});
    (void)clatomics::histogram_keys(rt, d.keys, 600);
    clatomics::testing::set_stream_limits({});
  };
  return a;
}

Algorithm histogram_even_entry() {
  using clatomics::WeightAccumulation;
  Algorithm a;
  a.name = "histogram_even";
  a.operands = {{"histogram_even: values", Role::input, 4, Extent::length}, {"histogram_even: weights", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto values = small_floats(s.length, gen, -9, 9);  // some beyond [-8, 8]
    return Contents{bytes_of(values), bytes_of(small_floats(s.length, gen, -4, 4))};
  };
  const auto plain = WeightAccumulation::float_atomic;
  a.calls = {even_call(37, -8.0f, 8.0f, true, 1, plain), even_call(37, -8.0f, 8.0f, true, 2, WeightAccumulation::compensated_float2),
             even_call(37, -8.0f, 8.0f, true, 0, plain), even_call(37, 0.0f, 0.0f, false, 0, plain)};
  const auto with_weights = [](std::string what, std::string says, std::size_t channels, bool longer_weights, WeightAccumulation accumulation) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      const std::vector<clatomics::View<float>> weights(channels, view<float>(longer_weights ? longer(r[1]) : r[1]));
      HistogramOptions options;
      options.accumulation = accumulation;
      (void)clatomics::histogram_even(rt, view<float>(r[0]), clatomics::EvenBins<float>{37, -8.0f, 8.0f}, weights, options);
    });
  };
  a.refusals = {saying(even_call(0, -8.0f, 8.0f, true, 1, plain), "nbins is 0"),
                saying(even_call(37, 3.0f, -3.0f, true, 1, plain), "lo (3) is above hi (-3)"),
                saying(even_call(37, NAN, 8.0f, true, 1, plain), "lo is nan"),
                saying(even_call(37, -8.0f, INFINITY, true, 1, plain), "hi is inf"),
                saying(even_call(0, 0.0f, 0.0f, false, 0, plain), "nbins is 0"),
                with_weights("5 weight channels", "weights: 5 channels", 5, false, plain),
                with_weights("weights of another length", "weights[0]: a view of", 1, true, plain),
                with_weights("accumulation outside WeightAccumulation", "options.accumulation is not a WeightAccumulation", 1, false,
                             static_cast<WeightAccumulation>(42))};
  a.random_call = [plain](std::mt19937_64& g) {
    const std::size_t nbins = g() % 8 == 0 ? 0 : 1 + g() % 64;
    const float ranges[][2] = {{-4.0f, 4.0f}, {-2.5f, 3.0f}, {0.0f, 0.0f}, {3.0f, -3.0f}, {NAN, 1.0f}, {-INFINITY, 0.0f}};
    const auto& range = ranges[g() % 6];
    return even_call(nbins, range[0], range[1], true, g() % 2, plain);
  };
  a.fp64_name = "histogram_even: double positions";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::histogram_even(rt, clatomics::view<double>(pools[0], 0, n), clatomics::EvenBins<double>{4, 0.0, 1.0},
                                    {clatomics::view<float>(pools[1], 0, n)});
  };
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) {
      (void)clatomics::histogram_even(rt, d.x, clatomics::EvenBins<float>{50, -40.0f, 56.0f}, {d.w}, o);
      (void)clatomics::histogram_even(rt, d.x, std::size_t(50), {}, o);  // the range found in the data
    });
    if (rt.supports_double()) {
      std::vector<double> x(d.x.begin(), d.x.end());
      (void)clatomics::histogram_even(rt, x, clatomics::EvenBins<double>{20, -40.0, 56.0}, {d.w},
                                      {HistogramStrategy::automatic, WeightAccumulation::double_atomic});
    }
    const cl::Buffer xb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d.x.size() * sizeof(float), const_cast<float*>(d.x.data()));
    (void)clatomics::histogram_even(rt, clatomics::view<float>(xb), std::size_t(30));  // the range found on the device
    (void)clatomics::histogram_even(rt, d.x, clatomics::EvenBins<float>{20, -40.0f, 56.0f}, {d.w},
                                    {HistogramStrategy::automatic,
                                     rt.supports_double() ? WeightAccumulation::compensated_float2 : WeightAccumulation::float_atomic});
  };
  return a;
}

Algorithm histogram2d_even_entry() {
  Algorithm a;
  a.name = "histogram2d_even";
  a.operands = {{"histogram2d_even: x", Role::input, 4, Extent::length},
                {"histogram2d_even: y", Role::input, 4, Extent::length},
                {"histogram2d_even: weights", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto x = small_floats(s.length, gen, -9, 9), y = small_floats(s.length, gen, -5, 5);
    return Contents{bytes_of(x), bytes_of(y), bytes_of(small_floats(s.length, gen, -4, 4))};
  };
  a.calls = {even2d_call(true), even2d_call(false)};
  const auto with = [](std::string what, std::string says, clatomics::EvenBins<float> xbins, clatomics::EvenBins<float> ybins, bool longer_y,
                       std::size_t channels) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      const std::vector<clatomics::View<float>> weights(channels, view<float>(r[2]));
      (void)clatomics::histogram2d_even(rt, view<float>(r[0]), view<float>(longer_y ? longer(r[1]) : r[1]), xbins, ybins, weights);
    });
  };
  const clatomics::EvenBins<float> x{37, -8.0f, 8.0f}, y{7, -4.0f, 4.0f};
  a.refusals = {with("xbins.nbins 0", "xbins.nbins is 0", {0, -8.0f, 8.0f}, y, false, 1),
                with("ybins.lo NaN", "ybins: lo is nan", x, {7, NAN, 4.0f}, false, 1),
                with("xbins.lo > xbins.hi", "xbins: lo (8) is above hi (-8)", {37, 8.0f, -8.0f}, y, false, 0),
                with("y of another length", "x and y: views of", x, y, true, 1),
                with("5 weight channels", "weights: 5 channels", x, y, false, 5)};
  a.fp64_name = "histogram2d_even: double positions";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    const clatomics::EvenBins<double> bins{4, 0.0, 1.0};
    (void)clatomics::histogram2d_even(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n), bins, bins);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) {
      (void)clatomics::histogram2d_even(rt, d.x, d.x, clatomics::EvenBins<float>{10, -40.0f, 56.0f}, clatomics::EvenBins<float>{12, -40.0f, 56.0f},
                                        {d.w}, o);
    });
  };
  return a;
}

}  // namespace test::algorithms
