// The registry's histogram2d_even (algorithm_cases.hpp).
#include <cmath>

#include "algorithms/histograms.hpp"

namespace test::algorithms {
namespace {

using clatomics::HistogramOptions;
using clatomics::Runtime;

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

// No ranges: each axis' found in its data, its edges in float arithmetic (every point inside).
Call even2d_found_call() {
  Call c;
  c.what = "ranges found in the data";
  c.run = [](Runtime& rt, const Ranges& r, const Contents* before) {
    const std::size_t nx = 23, ny = 5;
    const auto got = clatomics::histogram2d_even(rt, view<float>(r[0]), view<float>(r[1]), nx, ny, {view<float>(r[2])});
    if (!before) return;
    const auto x = as<float>((*before)[0]), y = as<float>((*before)[1]), w = as<float>((*before)[2]);
    const auto ex = found_edges(x, nx), ey = found_edges(y, ny);
    const auto bin = [](float v, const std::vector<float>& e) {
      return std::min(std::size_t(std::upper_bound(e.begin(), e.end(), v) - e.begin()) - 1, e.size() - 2);
    };
    Counts counts(nx * ny, 0);
    std::vector<float> sums(counts.size(), 0.0f);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::size_t slot = bin(x[i], ex) * ny + bin(y[i], ey);
      ++counts[slot];
      sums[slot] += w[i];
    }
    CHECK(got.counts == counts);
    CHECK(got.outside == 0);
    CHECK(got.x_lo == (x.empty() ? 0.0 : double(ex.front())));
    CHECK(got.y_hi == (y.empty() ? 1.0 : double(ey.back())));
    REQUIRE(got.sums.size() == 1u);
    CHECK(got.sums[0] == std::vector<double>(sums.begin(), sums.end()));
  };
  return c;
}

Algorithm histogram2d_even_entry() {
  Algorithm a = algorithm_of("histogram2d_even", {{"x", Role::input, 4, Extent::length}, {"y", Role::input, 4, Extent::length},
                                                  {"weights", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto x = small_floats(s.length, gen, -9, 9), y = small_floats(s.length, gen, -5, 5);
    return Contents{bytes_of(x), bytes_of(y), bytes_of(small_floats(s.length, gen, -4, 4))};
  };
  a.calls = {even2d_call(true), even2d_call(false), even2d_found_call()};
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

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(histogram2d_even_entry);

}  // namespace test::algorithms
