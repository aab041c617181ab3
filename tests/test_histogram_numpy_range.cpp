// Float positions over a range that float cannot hold (0.7, -1e-3, random doubles), against a host
// reference that follows NumPy 2's code (numpy/lib/_histograms_impl.py) for float32 data and a
// range of Python floats: np.histogram's edges are the double np.linspace rounded to float32, its
// keep test compares the data with the range cast to float32, its first guess is corrected by one
// bin against those edges; np.histogram2d compares the float data with the double edges exactly.
// The range is the one given, in double: rounding it to float first moves edges, and the counts
// beside them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "histogram_strategies.hpp"
#include "support.hpp"

namespace {

using clatomics::EvenBins;
using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::view;

constexpr float inf = std::numeric_limits<float>::infinity();

// np.linspace(lo, hi, n + 1) in double, as numpy/_core/function_base.py computes it.
std::vector<double> linspace(double lo, double hi, std::size_t n) {
  std::vector<double> e(n + 1);
  const double delta = hi - lo, step = delta / double(n);
  for (std::size_t k = 0; k < n; ++k) e[k] = (step == 0 ? double(k) / double(n) * delta : double(k) * step) + lo;
  e[n] = hi;
  return e;
}

// The bin np.histogram(x, n, (lo, hi)) gives float32 x, or n (below), n + 1 (above), n + 2 (NaN):
// keep in float32, f_indices = float32(x - float32(lo)) / (hi - lo) * n in double, then one
// decrement and one increment against the float32 edges.
std::size_t numpy_bin(float x, const std::vector<float>& edges, double lo, double hi) {
  const std::size_t n = edges.size() - 1;
  if (std::isnan(x)) return n + 2;
  if (x < float(lo)) return n;
  if (x > float(hi)) return n + 1;
  std::size_t i = std::size_t(double(x - float(lo)) / (hi - lo) * double(n));
  if (i == n) --i;
  if (x < edges[i]) --i;
  if (x >= edges[i + 1] && i != n - 1) ++i;
  return i;
}

// The same for one axis of np.histogram2d (histogramdd): searchsorted(double edges, x, 'right'),
// a point equal to the last edge into the last bin, all in double.
std::size_t numpy_bin_2d(float x, const std::vector<double>& edges) {
  const std::size_t n = edges.size() - 1;
  if (std::isnan(x)) return n + 2;
  if (double(x) < edges.front()) return n;
  if (double(x) > edges.back()) return n + 1;
  std::size_t i = std::size_t(std::upper_bound(edges.begin(), edges.end(), double(x)) - edges.begin());
  if (double(x) == edges.back()) --i;
  return i - 1;
}

// Values over the range and a tenth beyond it, the float edges NumPy uses and the floats either
// side, the floats either side of each double edge, and NaN and infinities.
std::vector<float> data_for(double lo, double hi, std::size_t nbins, std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  const double margin = (hi - lo) / 10;
  std::uniform_real_distribution<double> u(lo - margin, hi + margin);
  std::vector<float> x;
  for (std::size_t i = 0; i < n; ++i) x.push_back(float(u(gen)));
  for (const double e : linspace(lo, hi, nbins)) {
    const float f = float(e), below = double(f) > e ? std::nextafter(f, -inf) : f;
    for (const float v : {f, below}) x.insert(x.end(), {v, std::nextafter(v, inf), std::nextafter(v, -inf)});
  }
  x.insert(x.end(), {std::nanf(""), inf, -inf});
  std::shuffle(x.begin(), x.end(), gen);
  return x;
}

struct Case {
  double lo, hi;
  std::size_t nbins;
};

// The bins of a case: lo and hi assigned, not braced (the test then also builds where they were float).
EvenBins<float> bins_of(const Case& c) {
  EvenBins<float> b;
  b.nbins = c.nbins;
  b.lo = c.lo;
  b.hi = c.hi;
  return b;
}

// Ranges of many magnitudes that float cannot hold, with bins wide enough that NumPy's first guess
// is within the one bin its correction moves.
std::vector<Case> cases(std::size_t random, unsigned seed) {
  std::vector<Case> out = {{0.0, 0.7, 100}, {-1e-3, 1e7, 100}, {0.1, 0.3, 7}, {1.0 / 3, 2.0 / 3, 9}, {-0.7, -0.1, 13},
                           {-1e-3, 1e-3, 10}, {1e-8, 3.3e-8, 31}, {123456.789, 123999.123, 40}};
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> unit(-1, 1), magnitude(-4, 7), width(0.05, 3);
  std::uniform_int_distribution<std::size_t> bins(1, 400);
  while (out.size() < 8 + random) {
    const double scale = std::pow(10.0, magnitude(gen)), lo = unit(gen) * scale, hi = lo + width(gen) * scale;
    const std::size_t n = bins(gen);
    if (double(float(lo)) == lo || double(float(hi)) == hi || (hi - lo) / double(n) < std::ldexp(std::max(std::fabs(lo), std::fabs(hi)), -10))
      continue;
    out.push_back({lo, hi, n});
  }
  return out;
}

TEST_CASE("float positions over a double range: np.histogram's float32 edges, keep test and counts") {
  auto& rt = test::runtime();
  for (const Case& c : cases(40, 5)) {
    INFO("range (", c.lo, ", ", c.hi, "), ", c.nbins, " bins");
    const std::vector<float> x = data_for(c.lo, c.hi, c.nbins, 2000, unsigned(c.nbins));
    const std::vector<double> wide = linspace(c.lo, c.hi, c.nbins);
    const std::vector<float> edges(wide.begin(), wide.end());
    std::vector<std::uint64_t> counts(c.nbins), tallies(3);
    for (const float v : x) {
      const std::size_t b = numpy_bin(v, edges, c.lo, c.hi);
      ++(b < c.nbins ? counts[b] : tallies[b - c.nbins]);
    }
    const auto check = [&](const clatomics::EvenHistogram& h) {
      CHECK(h.counts == counts);
      CHECK(h.below == tallies[0]);
      CHECK(h.above == tallies[1]);
      CHECK(h.nan == tallies[2]);
      CHECK(h.lo == c.lo);  // the range used is the one given, not its float rounding
      CHECK(h.hi == c.hi);
      CHECK(h.edges == clatomics::EvenHistogram::Edges::double_linspace_to_float);
    };
    for (const HistogramStrategy s : test::histogram_strategies) {
      INFO(test::name_of(s));
      const EvenBins<float> bins = bins_of(c);
      check(clatomics::histogram_even(rt, x, bins, {}, HistogramOptions{s}));
      check(clatomics::histogram_even(rt, view<float>(test::to_device(rt, x)), bins, {}, HistogramOptions{s}));
    }
  }
}

TEST_CASE("float positions over a double range: 2-D points against np.histogram2d's double edges") {
  auto& rt = test::runtime();
  const std::vector<Case> xs = cases(12, 6), ys = cases(12, 7);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const Case cx{xs[k].lo, xs[k].hi, xs[k].nbins % 40 + 1}, cy{ys[k].lo, ys[k].hi, ys[k].nbins % 30 + 1};
    INFO("x (", cx.lo, ", ", cx.hi, ") ", cx.nbins, " bins, y (", cy.lo, ", ", cy.hi, ") ", cy.nbins, " bins");
    std::vector<float> x = data_for(cx.lo, cx.hi, cx.nbins, 1500, 1), y = data_for(cy.lo, cy.hi, cy.nbins, 1500, 2);
    const std::size_t n = std::min(x.size(), y.size());
    x.resize(n), y.resize(n);
    const std::vector<double> ex = linspace(cx.lo, cx.hi, cx.nbins), ey = linspace(cy.lo, cy.hi, cy.nbins);
    std::vector<std::uint64_t> counts(cx.nbins * cy.nbins);
    clatomics::AxisTallies tx, ty;
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t bx = numpy_bin_2d(x[i], ex), by = numpy_bin_2d(y[i], ey);
      if (bx < cx.nbins && by < cy.nbins) {
        ++counts[bx * cy.nbins + by];
        continue;
      }
      ++outside;
      tx.below += bx == cx.nbins, tx.above += bx == cx.nbins + 1, tx.nan += bx == cx.nbins + 2;
      ty.below += by == cy.nbins, ty.above += by == cy.nbins + 1, ty.nan += by == cy.nbins + 2;
    }
    for (const HistogramStrategy s : test::histogram_strategies) {
      INFO(test::name_of(s));
      const auto h = clatomics::histogram2d_even(rt, x, y, bins_of(cx), bins_of(cy), {}, HistogramOptions{s});
      CHECK(h.counts == counts);
      CHECK(h.x.below == tx.below);
      CHECK(h.x.above == tx.above);
      CHECK(h.y.below == ty.below);
      CHECK(h.y.above == ty.above);
      CHECK(h.outside == outside);
    }
  }
}

TEST_CASE("the range as given: (0, 0.7) is not (0, 0.7f); a float range is still taken exactly") {
  auto& rt = test::runtime();
  // Edge 43 of (0, 0.7) in 100 bins is 0.301 in double; float(0.301) is below it, and the float
  // edge NumPy uses is that float: a value equal to it is in bin 43. Over (0, 0.7f) the edge
  // rounds to the float above, and the same value falls in bin 42.
  const std::vector<double> wide = linspace(0.0, 0.7, 100), narrow = linspace(0.0, double(0.7f), 100);
  std::vector<float> moved;
  for (std::size_t k = 1; k < 100; ++k)
    if (float(wide[k]) != float(narrow[k])) moved.push_back(std::min(float(wide[k]), float(narrow[k])));
  REQUIRE(!moved.empty());  // edges that rounding the range first would move
  const auto h = clatomics::histogram_even(rt, moved, EvenBins<float>{100, 0, 0.7});
  for (std::size_t k = 0, m = 0; k < 100; ++k) {
    std::uint64_t want = 0;
    for (const float v : moved) want += numpy_bin(v, std::vector<float>(wide.begin(), wide.end()), 0.0, 0.7) == k;
    CHECK(h.counts[k] == want);
    m += want;
    if (k == 99) CHECK(m == moved.size());
  }
  // float(0.7) is below 0.7: inside (0, 0.7), in the last bin, as NumPy keeps it (its keep test
  // casts 0.7 to float32). The float above it is outside.
  const std::vector<float> top = {0.7f, std::nextafter(0.7f, 1.0f)};
  const auto t = clatomics::histogram_even(rt, top, EvenBins<float>{10, 0.0, 0.7});
  CHECK(t.counts[9] == 1);
  CHECK(t.above == 1);
  // A float range is the same range in double: the bins of (0, 0.7f) exactly.
  const auto f = clatomics::histogram_even(rt, top, EvenBins<float>{10, 0.0f, 0.7f});
  CHECK(f.hi == double(0.7f));
  CHECK(f.counts[9] == 1);
  // lo == hi widens in double, as NumPy widens Python floats.
  const auto w = clatomics::histogram_even(rt, top, EvenBins<float>{4, 0.7, 0.7});
  CHECK(w.lo == 0.7 - 0.5);
  CHECK(w.hi == 0.7 + 0.5);
  CHECK(w.counts == std::vector<std::uint64_t>{0, 0, 2, 0});
}

TEST_CASE("a double range beyond float's is refused for float positions, quoted as given") {
  auto& rt = test::runtime();
  const std::vector<float> x = {1.0f};
  const auto message = [&](double lo, double hi) {
    return test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, x, bins_of({lo, hi, 4})); });
  };
  CHECK(test::contains(message(0, 1e39), "hi is 1e+39, beyond float's range"));
  CHECK(test::contains(message(-3e38, 3e38), "hi - lo = 3e+38 - -3e+38 overflows float"));
  CHECK(test::contains(message(0.7, 0.3), "lo (0.7) is above hi (0.3)"));
  // The same range suits double positions.
  if (rt.supports_double())
    CHECK(clatomics::histogram_even(rt, std::vector<double>{1.0}, EvenBins<double>{4, 0.0, 1e39}).counts[0] == 1);
}

}  // namespace
