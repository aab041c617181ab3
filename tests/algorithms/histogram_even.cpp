// The registry's histogram_even (algorithm_cases.hpp).
#include <cmath>

#include "algorithms/histograms.hpp"

namespace test::algorithms {
namespace {

using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::Runtime;

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

Algorithm histogram_even_entry() {
  using clatomics::WeightAccumulation;
  Algorithm a = algorithm_of("histogram_even", {{"values", Role::input, 4, Extent::length}, {"weights", Role::input, 4, Extent::length}});
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

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(histogram_even_entry);

}  // namespace test::algorithms
