// Even histograms as a pyFAI-style user needs them, each against a host reference that follows
// NumPy 2's code step by step (numpy/lib/_histograms_impl.py: the first index guess and its
// one-bin correction, not only the edge rule): double positions, up to 4 weight channels in one
// pass, the three weight accumulations and their stated error bounds, 2-D bins
// (numpy.histogram2d), and the range found in the data as np.histogram finds it. Counts exact;
// bad input refused before anything is enqueued.
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
using clatomics::WeightAccumulation;
using clatomics::view;

using test::name_of;
const auto& strategies = test::histogram_strategies;
const auto& accumulations = test::weight_accumulations;
using test::accumulation_names;

template <class T>
cl::Buffer device(const std::vector<T>& host) {
  std::vector<T> padded = host;
  if (padded.empty()) padded.push_back(T());  // OpenCL has no empty buffers
  return test::to_device(test::runtime(), padded);
}

// np.linspace(lo, hi, n + 1) in A, as numpy/_core/function_base.py computes it.
template <class A>
std::vector<A> linspace(A lo, A hi, std::size_t n) {
  std::vector<A> e(n + 1);
  const A delta = hi - lo, step = delta / A(n);
  for (std::size_t k = 0; k < n; ++k) {
    const A scaled = step == 0 ? A(k) / A(n) * delta : A(k) * step;
    e[k] = scaled + lo;
  }
  e[n] = hi;
  return e;
}

// One-axis reference: the bin np.histogram gives x, or n (below), n + 1 (above), n + 2 (NaN). E:
// the edges' type, G: the type of the first guess ((x - lo) / (hi - lo) * n).
template <class T, class E, class G>
std::size_t numpy_bin(T x, const std::vector<E>& edges, G lo, G hi) {
  const std::size_t n = edges.size() - 1;
  if (std::isnan(x)) return n + 2;
  if (x < edges.front()) return n;
  if (x > edges.back()) return n + 1;
  const G f = (G(E(x)) - lo) / (hi - lo) * G(n);
  std::size_t i = std::size_t(f);
  if (i == n) --i;
  if (E(x) < edges[i]) --i;
  if (E(x) >= edges[i + 1] && i != n - 1) ++i;
  return i;
}

struct Reference {
  std::vector<std::uint64_t> counts;
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<std::vector<double>> sums, abs_sums;
  std::vector<std::uint64_t> per_bin;  // weights per bin (n_b of the bounds)
};

// Neumaier's sum in double: the reference's own error is far below every bound tested.
struct ExactishSum {
  double s = 0, c = 0;
  void add(double v) {
    const double t = s + v;
    c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
    s = t;
  }
  double value() const { return s + c; }
};

void add_reference(Reference& r, std::size_t slot, std::size_t nbins, const std::vector<const std::vector<float>*>& w, std::size_t i,
                   std::vector<std::vector<ExactishSum>>& sums) {
  if (slot < nbins) {
    ++r.counts[slot];
    ++r.per_bin[slot];
    for (std::size_t c = 0; c < w.size(); ++c) sums[c][slot].add((*w[c])[i]), r.abs_sums[c][slot] += std::fabs((*w[c])[i]);
  }
  if (slot == nbins) ++r.below;
  if (slot == nbins + 1) ++r.above;
  if (slot == nbins + 2) ++r.nan;
}

Reference make_reference(std::size_t nbins, std::size_t channels) {
  Reference r;
  r.counts.assign(nbins, 0);
  r.per_bin.assign(nbins, 0);
  r.sums.assign(channels, std::vector<double>(nbins));
  r.abs_sums.assign(channels, std::vector<double>(nbins));
  return r;
}

// np.histogram(x, nbins, (lo, hi), weights=w) with the range given as Python floats: edges in
// double, the data's type; the guess in double.
template <class T>
Reference given_range_reference(const std::vector<T>& x, std::size_t nbins, T lo, T hi, const std::vector<const std::vector<float>*>& w = {}) {
  Reference r = make_reference(nbins, w.size());
  std::vector<std::vector<ExactishSum>> sums(w.size(), std::vector<ExactishSum>(nbins));
  const std::vector<double> wide = linspace<double>(lo, hi, nbins);
  const std::vector<T> edges(wide.begin(), wide.end());
  for (std::size_t i = 0; i < x.size(); ++i) add_reference(r, numpy_bin(x[i], edges, double(lo), double(hi)), nbins, w, i, sums);
  for (std::size_t c = 0; c < w.size(); ++c)
    for (std::size_t b = 0; b < nbins; ++b) r.sums[c][b] = sums[c][b].value();
  return r;
}

// np.histogram(x, nbins) with no range: NumPy's _get_outer_edges, then everything in T.
template <class T>
Reference data_range_reference(const std::vector<T>& x, std::size_t nbins, T& lo, T& hi) {
  lo = 0, hi = 1;
  if (!x.empty()) {
    lo = *std::min_element(x.begin(), x.end()), hi = *std::max_element(x.begin(), x.end());
    if (lo == hi) lo = T(lo - T(0.5)), hi = T(hi + T(0.5));
  }
  Reference r = make_reference(nbins, 0);
  std::vector<std::vector<ExactishSum>> none;
  const std::vector<T> edges = linspace<T>(lo, hi, nbins);
  for (std::size_t i = 0; i < x.size(); ++i) add_reference(r, numpy_bin(x[i], edges, lo, hi), nbins, {}, i, none);
  return r;
}

void check_counts(const clatomics::EvenHistogram& h, const Reference& r) {
  CHECK(h.counts == r.counts);
  CHECK(h.below == r.below);
  CHECK(h.above == r.above);
  CHECK(h.nan == r.nan);
}

// The bound each accumulation states (histogram.hpp), for n weights of absolute sum s.
double stated_bound(WeightAccumulation a, double n, double s, double sum) {
  const double u = std::ldexp(1.0, -24);
  switch (a) {
    case WeightAccumulation::float_atomic: return 1.01 * std::max(0.0, n - 1) * u * s + 1e-30;
    case WeightAccumulation::compensated_float2: return 3 * u * u / (1 - 4 * u) * n * s + std::ldexp(std::fabs(sum), -53) + 1e-30;
    default: return 1.01 * std::max(0.0, n - 1) * std::ldexp(1.0, -53) * s + 1e-30;
  }
}

void check_sums(const std::vector<std::vector<double>>& sums, const Reference& r, WeightAccumulation a, bool exact) {
  REQUIRE(sums.size() == r.sums.size());
  for (std::size_t c = 0; c < sums.size(); ++c) {
    REQUIRE(sums[c].size() == r.sums[c].size());
    for (std::size_t b = 0; b < sums[c].size(); ++b) {
      INFO("channel ", c, " bin ", b);
      if (exact)
        CHECK(sums[c][b] == r.sums[c][b]);
      else
        CHECK(std::fabs(sums[c][b] - r.sums[c][b]) <= stated_bound(a, double(r.per_bin[b]), r.abs_sums[c][b], r.sums[c][b]));
    }
  }
}

// Positions in [lo - 1.5, hi + 1.5] with NaN, infinities, the edges (of both the given type and
// double) and the values just beside them.
template <class T>
std::vector<T> positions(std::size_t n, std::size_t nbins, T lo, T hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(double(lo) - 1.5, double(hi) + 1.5);
  const std::vector<double> edges = linspace<double>(lo, hi, nbins);
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> x(n);
  for (auto& v : x) {
    const unsigned pick = gen() % 32;
    if (pick == 0) v = std::numeric_limits<T>::quiet_NaN();
    else if (pick == 1) v = (gen() & 1) ? inf : -inf;
    else if (pick < 8) {
      v = T(edges[gen() % edges.size()]);
      for (int k = int(gen() % 7) - 3; k != 0; k += k > 0 ? -1 : 1) v = std::nextafter(v, k > 0 ? inf : -inf);
    } else v = T(dist(gen));
  }
  return x;
}

// Weights that are multiples of 1/8 below 2: every partial sum of fewer than 2^20 is exact in float.
std::vector<float> exact_weights(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<float> w(n);
  for (auto& v : w) v = float(gen() % 16) / 8.0f - 1.0f;
  return w;
}

std::vector<const std::vector<float>*> pointers(const std::vector<std::vector<float>>& w, std::size_t channels) {
  std::vector<const std::vector<float>*> p;
  for (std::size_t c = 0; c < channels; ++c) p.push_back(&w[c]);
  return p;
}

// The first channels of w as host weight channels.
std::vector<clatomics::HostFloats> channels_of(const std::vector<std::vector<float>>& w, std::size_t channels) {
  return std::vector<clatomics::HostFloats>(w.begin(), w.begin() + std::ptrdiff_t(channels));
}

}  // namespace

TEST_CASE("double positions: NumPy's float64 bins, which rounding to float would change") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  const std::size_t nbins = 100;
  const double lo = 0.1, hi = 0.1 + 1e-6;  // bins 1e-8 wide: float rounding moves values across them
  const auto x = positions<double>(20011, nbins, lo, hi, 1);
  const auto r = given_range_reference(x, nbins, lo, hi);
  std::size_t moved = 0;
  const auto float_edges = linspace<double>(float(lo), float(hi), nbins);
  for (const double v : x)
    if (v >= lo && v <= hi && numpy_bin(float(v), std::vector<float>(float_edges.begin(), float_edges.end()), double(float(lo)), double(float(hi))) !=
                                  numpy_bin(v, linspace<double>(lo, hi, nbins), lo, hi))
      ++moved;
  CHECK(moved > 100);
  for (const HistogramStrategy s : strategies)
    for (const std::size_t off : {std::size_t(0), std::size_t(1)}) {
      INFO(name_of(s), " offset ", off);
      std::vector<double> shifted(off, 0.0);
      shifted.insert(shifted.end(), x.begin(), x.end());
      const auto h = clatomics::histogram_even(rt, view<double>(device(shifted), off, x.size()), EvenBins<double>{nbins, lo, hi}, {}, HistogramOptions{s});
      check_counts(h, r);
      CHECK(h.lo == lo);
      CHECK(h.hi == hi);
      check_counts(clatomics::histogram_even(rt, x, EvenBins<double>{nbins, lo, hi}, {}, HistogramOptions{s}), r);
    }
}

TEST_CASE("up to 4 weight channels in one pass, every strategy and accumulation, exact sums") {
  auto& rt = test::runtime();
  const std::size_t n = 100003, nbins = 37;
  const float lo = -2.5f, hi = 7.5f;
  const auto x = positions<float>(n + 3, nbins, lo, hi, 2);
  std::vector<std::vector<float>> w;
  for (unsigned c = 0; c < 4; ++c) w.push_back(exact_weights(n + 3, 10 + c));
  for (const WeightAccumulation a : accumulations) {
    if (a == WeightAccumulation::double_atomic && !rt.supports_double()) continue;
    if (a == WeightAccumulation::compensated_float2 && !rt.device_info().caps.int64_base_atomics) continue;
    for (const HistogramStrategy s : strategies)
      for (const std::size_t channels : {std::size_t(1), std::size_t(4)}) {
        INFO(std::string(accumulation_names[int(a)]), " ", name_of(s), " channels ", channels);
        const HistogramOptions options{s, a};
        // Host data: the values from 0; device buffers: the values from 1, channel c from c (other alignments).
        const std::vector<float> xs(x.begin() + 1, x.begin() + 1 + std::ptrdiff_t(n));
        std::vector<std::vector<float>> ws;
        for (std::size_t c = 0; c < channels; ++c) ws.emplace_back(w[c].begin() + std::ptrdiff_t(c), w[c].begin() + std::ptrdiff_t(c + n));
        const auto r = given_range_reference(xs, nbins, lo, hi, pointers(ws, channels));
        const auto h = clatomics::histogram_even(rt, xs, EvenBins<float>{nbins, lo, hi}, channels_of(ws, channels), options);
        check_counts(h, r);
        check_sums(h.sums, r, a, true);
        std::vector<clatomics::View<float>> wb;
        for (std::size_t c = 0; c < channels; ++c) wb.push_back(view<float>(device(w[c]), c, n));
        const auto hb = clatomics::histogram_even(rt, view<float>(device(x), 1, n), EvenBins<float>{nbins, lo, hi}, wb, options);
        check_counts(hb, r);
        check_sums(hb.sums, r, a, true);
        CHECK(test::ran_as_asked(s, h.strategy));
        CHECK(hb.strategy == h.strategy);
      }
  }
}

TEST_CASE("weight sums within each accumulation's stated bound; compensated and double exact on 0.1f") {
  auto& rt = test::runtime();
  // Rounded sums: 2^20 weights spread over 4 bins, magnitudes over 2^20.
  const std::size_t n = std::size_t(1) << 20;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> x(n), w(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 4), w[i] = std::ldexp(unit(gen), int(gen() % 20));
  const auto r = given_range_reference(x, 4, 0.0f, 4.0f, {&w});
  // 10^7 weights of 0.1f in one bin: multiples of 2^-27 below 2^20 (47 bits): a pair holds every
  // partial sum exactly, so does a double; the float sum drifts.
  const std::size_t big = 10000000;
  const std::vector<float> one_bin(big, 0.5f), tenths(big, 0.1f);
  const double exact = double(big) * double(0.1f);
  for (const WeightAccumulation a : accumulations) {
    if (a == WeightAccumulation::double_atomic && !rt.supports_double()) continue;
    if (a == WeightAccumulation::compensated_float2 && !rt.device_info().caps.int64_base_atomics) continue;
    for (const HistogramStrategy s : strategies) {
      INFO(std::string(accumulation_names[int(a)]), " ", name_of(s));
      check_sums(clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, 4.0f}, {w}, HistogramOptions{s, a}).sums, r, a, false);
    }
    INFO(std::string(accumulation_names[int(a)]), ", 10^7 weights of 0.1f");
    const auto h = clatomics::histogram_even(rt, one_bin, EvenBins<float>{1, 0.0f, 1.0f}, {tenths}, HistogramOptions{{}, a});
    CHECK(h.counts[0] == big);
    if (a == WeightAccumulation::float_atomic) {
      MESSAGE("float_atomic: 10^7 * 0.1f summed to ", h.sums[0][0], ", off by ", h.sums[0][0] - exact);
      CHECK(std::fabs(h.sums[0][0] - exact) <= stated_bound(a, double(big), exact, exact));
    } else {
      CHECK(h.sums[0][0] == exact);
    }
  }
}

TEST_CASE("2-D even bins: numpy.histogram2d's bins, per-axis tallies, weights") {
  auto& rt = test::runtime();
  const std::size_t nx = 13, ny = 7, n = 50021;
  const auto run = [&](auto zero) {
    using T = decltype(zero);
    const T xlo = T(-1.3), xhi = T(2.7), ylo = T(0.1), yhi = T(0.35);
    const auto x = positions<T>(n + 1, nx, xlo, xhi, 7);
    const auto y = positions<T>(n + 2, ny, ylo, yhi, 8);
    const auto w0 = exact_weights(n, 9), w1 = exact_weights(n, 10);
    // numpy.histogramdd: double edges, searchsorted(side='right'), the last edge into the last bin.
    const auto ex = linspace<double>(xlo, xhi, nx), ey = linspace<double>(ylo, yhi, ny);
    const auto axis_bin = [](double v, const std::vector<double>& e) -> std::size_t {
      const std::size_t nb = e.size() - 1;
      if (std::isnan(v)) return nb + 2;
      if (v < e.front()) return nb;
      if (v > e.back()) return nb + 1;
      std::size_t i = std::size_t(std::upper_bound(e.begin(), e.end(), v) - e.begin());
      if (v == e.back()) --i;
      return i - 1;
    };
    std::vector<std::uint64_t> counts(nx * ny);
    std::vector<double> s0(nx * ny), s1(nx * ny);
    clatomics::AxisTallies tx, ty;
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t bx = axis_bin(double(x[i + 1]), ex), by = axis_bin(double(y[i + 2]), ey);
      if (bx < nx && by < ny) {
        ++counts[bx * ny + by], s0[bx * ny + by] += w0[i], s1[bx * ny + by] += w1[i];
        continue;
      }
      ++outside;
      tx.below += bx == nx, tx.above += bx == nx + 1, tx.nan += bx == nx + 2;
      ty.below += by == ny, ty.above += by == ny + 1, ty.nan += by == ny + 2;
    }
    const std::vector<T> xs(x.begin() + 1, x.end()), ys(y.begin() + 2, y.end());
    for (const HistogramStrategy s : strategies) {
      INFO((sizeof(T) == 4 ? "float " : "double "), name_of(s));
      const auto check = [&](const clatomics::EvenHistogram2D& h, bool weighted) {
        CHECK(test::ran_as_asked(s, h.strategy));
        CHECK(h.nx == nx);
        CHECK(h.ny == ny);
        CHECK(h.counts == counts);
        CHECK(h.x.below == tx.below);
        CHECK(h.x.above == tx.above);
        CHECK(h.x.nan == tx.nan);
        CHECK(h.y.below == ty.below);
        CHECK(h.y.above == ty.above);
        CHECK(h.y.nan == ty.nan);
        CHECK(h.outside == outside);
        if (weighted) {
          REQUIRE(h.sums.size() == 2);
          CHECK(h.sums[0] == s0);
          CHECK(h.sums[1] == s1);
        } else {
          CHECK(h.sums.empty());
        }
      };
      check(clatomics::histogram2d_even(rt, xs, ys, EvenBins<T>{nx, xlo, xhi}, EvenBins<T>{ny, ylo, yhi}, {w0, w1}, HistogramOptions{s}),
            true);
      check(clatomics::histogram2d_even(rt, view<T>(device(x), 1, n), view<T>(device(y), 2, n), EvenBins<T>{nx, xlo, xhi},
                                        EvenBins<T>{ny, ylo, yhi}, {}, HistogramOptions{s}),
            false);
    }
  };
  run(0.0f);
  if (rt.supports_double()) run(0.0);
}

TEST_CASE("2-D float points are compared with NumPy's double edges, not float ones") {
  auto& rt = test::runtime();
  // 0.1 is no float: an edge at 0.1 in double lies between two floats; the float above 0.1 is in
  // bin 1 in NumPy (it is >= the double edge), as is float(0.1) itself when it rounds up.
  const std::size_t n = 10;
  const float lo = 0.0f, hi = 1.0f;
  const auto edges = linspace<double>(lo, hi, n);
  std::vector<float> x, y;
  std::vector<std::uint64_t> expected(n * 1);
  for (std::size_t k = 1; k < n; ++k)
    for (const float v : {float(edges[k]), std::nextafter(float(edges[k]), 0.0f), std::nextafter(float(edges[k]), 2.0f)}) {
      x.push_back(v);
      y.push_back(0.5f);
      ++expected[double(v) >= edges[k] ? k : k - 1];
    }
  const auto h = clatomics::histogram2d_even(rt, x, y, EvenBins<float>{n, lo, hi}, EvenBins<float>{1, lo, hi});
  CHECK(h.counts == expected);
}

TEST_CASE("no range: np.histogram's range from the data, float32 edge arithmetic for float data") {
  auto& rt = test::runtime();
  // Ranges whose float32 linspace differs from the double one rounded to float somewhere, with
  // values on and beside every edge of both: the device must follow the float32 arithmetic.
  std::mt19937 gen(11);
  std::size_t differing = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t nbins = 50 + gen() % 200;
    const float lo = float(gen() % 1000) / 7.0f - 70.0f, hi = lo + float(1 + gen() % 100) / 3.0f;
    const auto f_edges = linspace<float>(lo, hi, nbins);
    const auto d_edges = linspace<double>(lo, hi, nbins);
    std::vector<float> x = {lo, hi};
    for (std::size_t k = 0; k <= nbins; ++k) {
      differing += f_edges[k] != float(d_edges[k]);
      for (const float e : {f_edges[k], float(d_edges[k])})
        for (const float v : {e, std::nextafter(e, -1e30f), std::nextafter(e, 1e30f)})
          if (v >= lo && v <= hi) x.push_back(v);
    }
    float rlo = 0, rhi = 0;
    const auto r = data_range_reference(x, nbins, rlo, rhi);
    for (const HistogramStrategy s : strategies) {
      INFO("trial ", trial, " ", name_of(s));
      const auto h = clatomics::histogram_even(rt, x, nbins, {}, HistogramOptions{s});
      check_counts(h, r);
      CHECK(h.lo == rlo);
      CHECK(h.hi == rhi);
      check_counts(clatomics::histogram_even(rt, view<float>(device(x)), nbins, {}, HistogramOptions{s}), r);
    }
  }
  CHECK(differing > 0);
  // Random data, at an offset; double data (edges in double).
  std::uniform_real_distribution<float> dist(-3.0f, 5.0f);
  std::vector<float> x(300007);
  for (auto& v : x) v = dist(gen);
  float rlo = 0, rhi = 0;
  const auto r = data_range_reference(std::vector<float>(x.begin() + 3, x.end()), 1000, rlo, rhi);
  check_counts(clatomics::histogram_even(rt, view<float>(device(x), 3, x.size() - 3), 1000), r);
  if (rt.supports_double()) {
    const std::vector<double> xd(x.begin(), x.end());
    double dlo = 0, dhi = 0;
    const auto rd = data_range_reference(xd, 77, dlo, dhi);
    const auto h = clatomics::histogram_even(rt, view<double>(device(xd)), 77);
    check_counts(h, rd);
    CHECK(h.lo == dlo);
    CHECK(h.hi == dhi);
    check_counts(clatomics::histogram_even(rt, xd, std::size_t(77)), rd);
  }
}

// The range pass reads the elements before the first 16-byte boundary and after the last whole
// vector apart from the rest: an extreme or a NaN in any of those parts must be seen.
template <class T>
void check_extremes_anywhere(clatomics::Runtime& rt) {
  for (const std::size_t count : {1, 2, 3, 5, 8, 67, 1001, 4101})
    for (std::size_t offset = 0; offset < 4; ++offset)
      for (const std::size_t at : {std::size_t(0), std::size_t(1), count / 2, count - 2, count - 1}) {
        const std::size_t other = count - 1 - at;  // the other extreme's place
        if (at >= count || (at == other && count > 1)) continue;
        std::vector<T> x(offset + count);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(i % 7) / T(8);  // within [0, 1)
        x[offset + other] = T(9), x[offset + at] = T(-9);  // one element (count 1): -9 alone
        INFO("count ", count, " offset ", offset, " at ", at);
        const cl::Buffer buffer = device(x);
        const auto h = clatomics::histogram_even(rt, view<T>(buffer, offset, count), 5);
        CHECK(h.lo == (count == 1 ? -9.5 : -9.0));
        CHECK(h.hi == (count == 1 ? -8.5 : 9.0));
        x[offset + at] = std::numeric_limits<T>::quiet_NaN();
        const cl::Buffer with_nan = device(x);
        CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, view<T>(with_nan, offset, count), 5); }),
                             "autodetected range"));
      }
}

TEST_CASE("no range: the least, the greatest and a NaN are found at any place, offset and length") {
  auto& rt = test::runtime();
  check_extremes_anywhere<float>(rt);
  if (rt.supports_double()) check_extremes_anywhere<double>(rt);
}

// One axis of np.histogram2d (histogramdd): searchsorted(edges, v, 'right') - 1, a point on the last
// edge into the last bin; edges in A.
template <class A>
std::size_t bin_2d(A v, const std::vector<A>& edges) {
  const std::size_t b = std::size_t(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin()) - 1;
  return std::min(b, edges.size() - 2);
}

// Values on and beside every edge of [lo, hi] in float and in double arithmetic (lo and hi
// included), in a shuffled order: where the two edge computations differ, a point's bin does.
std::vector<float> values_at_edges(float lo, float hi, std::size_t nbins, std::mt19937& gen) {
  const auto f_edges = linspace<float>(lo, hi, nbins);
  const auto d_edges = linspace<double>(lo, hi, nbins);
  std::vector<float> x = {lo, hi};
  for (std::size_t k = 0; k <= nbins; ++k)
    for (const float e : {f_edges[k], float(d_edges[k])})
      for (const float v : {e, std::nextafter(e, -1e30f), std::nextafter(e, 1e30f)})
        if (v >= lo && v <= hi) x.push_back(v);
  std::shuffle(x.begin(), x.end(), gen);
  return x;
}

TEST_CASE("no ranges (2-D): each axis' range from its data and edges in its type, as np.histogram2d in NumPy 2") {
  auto& rt = test::runtime();
  std::mt19937 gen(12);
  std::size_t differing = 0;  // points whose bin the double edges would move
  for (int trial = 0; trial < 4; ++trial) {
    const std::size_t nx = 40 + gen() % 100, ny = 30 + gen() % 100;
    const float xlo = float(gen() % 1000) / 7.0f - 70.0f, xhi = xlo + float(1 + gen() % 100) / 3.0f;
    const float ylo = float(gen() % 1000) / 9.0f - 30.0f, yhi = ylo + float(1 + gen() % 100) / 7.0f;
    std::vector<float> x = values_at_edges(xlo, xhi, nx, gen), y = values_at_edges(ylo, yhi, ny, gen);
    const std::size_t n = std::min(x.size(), y.size());
    x.resize(n), y.resize(n);
    x.push_back(xlo), y.push_back(yhi), x.push_back(xhi), y.push_back(ylo);  // both ranges' ends among the points
    const float fxlo = *std::min_element(x.begin(), x.end()), fxhi = *std::max_element(x.begin(), x.end());
    const float fylo = *std::min_element(y.begin(), y.end()), fyhi = *std::max_element(y.begin(), y.end());
    const auto ex = linspace<float>(fxlo, fxhi, nx), ey = linspace<float>(fylo, fyhi, ny);
    const auto dx = linspace<double>(fxlo, fxhi, nx), dy = linspace<double>(fylo, fyhi, ny);
    std::vector<std::uint64_t> want(nx * ny, 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::size_t bx = bin_2d(x[i], ex), by = bin_2d(y[i], ey);
      ++want[bx * ny + by];
      differing += bx != bin_2d(double(x[i]), dx) || by != bin_2d(double(y[i]), dy);
    }
    INFO("trial ", trial);
    for (const auto& h : {clatomics::histogram2d_even(rt, x, y, nx, ny), clatomics::histogram2d_even(rt, view<float>(device(x)), view<float>(device(y)), nx, ny)}) {
      CHECK(h.counts == want);
      CHECK(h.outside == 0);
      CHECK(h.x_lo == fxlo);
      CHECK(h.x_hi == fxhi);
      CHECK(h.y_lo == fylo);
      CHECK(h.y_hi == fyhi);
      CHECK(h.x_edges == clatomics::EvenHistogram::Edges::float_linspace);
      CHECK(h.y_edges == clatomics::EvenHistogram::Edges::float_linspace);
    }
  }
  CHECK(differing > 0);

  // Equal values widen by 0.5 in float; bins of no width (a range of one ulp in 64 bins) are left
  // empty, not refused; no points: [0, 1], edges in double.
  const std::vector<float> same(10, 3.0f), ulp{1.0f, std::nextafter(1.0f, 2.0f), 1.0f};
  const auto h = clatomics::histogram2d_even(rt, ulp, std::vector<float>(same.begin(), same.begin() + 3), 64, 4);
  CHECK(h.y_lo == 2.5);
  CHECK(h.y_hi == 3.5);
  const auto ue = linspace<float>(1.0f, std::nextafter(1.0f, 2.0f), 64);
  std::vector<std::uint64_t> want(64 * 4, 0);
  for (const float v : ulp) ++want[bin_2d(v, ue) * 4 + 2];
  CHECK(h.counts == want);
  const auto none = clatomics::histogram2d_even(rt, view<float>(device(std::vector<float>{}), 0, 0), view<float>(device(std::vector<float>{}), 0, 0), 3, 3);
  CHECK(none.x_lo == 0.0);
  CHECK(none.x_hi == 1.0);
  CHECK(none.x_edges == clatomics::EvenHistogram::Edges::double_linspace);
  CHECK(none.counts == std::vector<std::uint64_t>(9, 0));

  // A NaN or an infinity in either axis is refused, naming it; ranges given and found do not merge.
  std::vector<float> bad(same);
  bad[7] = std::numeric_limits<float>::quiet_NaN();
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram2d_even(rt, view<float>(device(same)), view<float>(device(bad)), 4, 4); }),
                       "histogram2d_even: y: autodetected range of [nan, nan] is not finite"));
  bad[7] = std::numeric_limits<float>::infinity();
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram2d_even(rt, bad, same, 4, 4); }),
                       "histogram2d_even: x: autodetected range of [3, inf] is not finite"));
  auto found = clatomics::histogram2d_even(rt, same, same, 4, 4);
  const auto given = clatomics::histogram2d_even(rt, same, same, EvenBins<float>{4, 2.5, 3.5}, EvenBins<float>{4, 2.5, 3.5});
  CHECK(given.x_edges == clatomics::EvenHistogram::Edges::double_linspace);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_into(found, given); }), "edges were computed differently"));

  // Every point at the type's largest value: the range cannot widen (max - 0.5 is max), the bins
  // have no width and no first guess; np.histogram2d puts the points in the last bin.
  const float big = std::numeric_limits<float>::max();
  for (const float sign : {1.0f, -1.0f}) {
    const std::vector<float> at_max{sign * big, sign * big}, ys{0.0f, 1.0f};
    CHECK(clatomics::histogram2d_even(rt, at_max, ys, 2, 2).counts == std::vector<std::uint64_t>{0, 0, 1, 1});
    CHECK(clatomics::histogram2d_even(rt, view<float>(device(at_max)), view<float>(device(ys)), 2, 2).counts == std::vector<std::uint64_t>{0, 0, 1, 1});
    if (rt.supports_double()) {
      const double dbig = sign * std::numeric_limits<double>::max();
      const std::vector<double> dmax{dbig, dbig}, dys{0.0, 1.0};
      CHECK(clatomics::histogram2d_even(rt, view<double>(device(dmax)), view<double>(device(dys)), 2, 2).counts == std::vector<std::uint64_t>{0, 0, 1, 1});
    }
  }
  if (rt.supports_double()) {
    const std::vector<double> xd{-1.0, 0.25, 2.0}, yd{5.0, 5.0, 6.0};
    const auto hd = clatomics::histogram2d_even(rt, view<double>(device(xd)), view<double>(device(yd)), 3, 2);
    CHECK(hd.counts == std::vector<std::uint64_t>{1, 0, 1, 0, 0, 1});  // (-1, 5), (0.25, 5), (2, 6)
    CHECK(hd.x_edges == clatomics::EvenHistogram::Edges::double_linspace);
    CHECK(hd.y_lo == 5.0);
  }
}

// np.histogram's bin of x over edges of type E (a range given as E scalars): below (n), above
// (n + 1), else searchsorted(edges, x, 'right') - 1 with the last edge in the last bin, compared in E.
template <class E>
std::size_t bin_over(float x, const std::vector<E>& edges) {
  const std::size_t n = edges.size() - 1;
  if (E(x) < edges.front()) return n;
  if (E(x) > edges.back()) return n + 1;
  return std::min(std::size_t(std::upper_bound(edges.begin(), edges.end(), E(x)) - edges.begin()) - 1, n - 1);
}

template <class E>
void check_bins_over(const clatomics::EvenHistogram& h, const std::vector<float>& x, const std::vector<E>& edges) {
  const std::size_t n = edges.size() - 1;
  std::vector<std::uint64_t> want(n + 2, 0);
  for (const float v : x) ++want[bin_over(v, edges)];
  CHECK(h.counts == std::vector<std::uint64_t>(want.begin(), want.begin() + std::ptrdiff_t(n)));
  CHECK(h.below == want[n]);
  CHECK(h.above == want[n + 1]);
}

TEST_CASE("a range of the positions' type or of float64: NumPy 2's edges for each (EvenBins::range_type)") {
  auto& rt = test::runtime();
  std::mt19937 gen(13);
  std::uniform_real_distribution<float> dist(-1.0f, 2.0f);
  std::size_t moved = 0;  // points the Python-float rule bins elsewhere
  for (int trial = 0; trial < 4; ++trial) {
    const std::size_t nbins = 20 + gen() % 90;
    const double lo = 0.1 + 0.01 * trial, hi = 0.7 + 0.03 * trial;  // not floats
    const float flo = float(lo), fhi = float(hi);
    const auto e32 = linspace<float>(flo, fhi, nbins);
    const auto e64 = linspace<double>(lo, hi, nbins);
    std::vector<float> x(2000);
    for (auto& v : x) v = dist(gen);
    for (const double e : e64)
      for (const float v : {float(e), std::nextafter(float(e), -9.0f), std::nextafter(float(e), 9.0f)}) x.push_back(v);
    for (const float e : e32) x.push_back(e), x.push_back(std::nextafter(e, 9.0f));
    INFO("trial ", trial, ", ", nbins, " bins");
    const auto as_floats = clatomics::histogram_even(rt, view<float>(device(x)), EvenBins<float>{nbins, flo, fhi, clatomics::RangeType::positions_type});
    CHECK(as_floats.edges == clatomics::EvenHistogram::Edges::float_linspace);
    check_bins_over(as_floats, x, e32);
    const auto as_doubles = clatomics::histogram_even(rt, x, EvenBins<float>{nbins, lo, hi, clatomics::RangeType::float64});
    CHECK(as_doubles.edges == clatomics::EvenHistogram::Edges::double_linspace);
    check_bins_over(as_doubles, x, e64);
    const auto as_python = clatomics::histogram_even(rt, x, EvenBins<float>{nbins, lo, hi});
    moved += as_python.counts != as_doubles.counts;
  }
  CHECK(moved > 0);
  // The range found in the data, given as floats, is the same histogram as none given.
  std::vector<float> x(5000);
  for (auto& v : x) v = dist(gen);
  const float least = *std::min_element(x.begin(), x.end()), most = *std::max_element(x.begin(), x.end());
  const auto found = clatomics::histogram_even(rt, x, 77);
  const auto given = clatomics::histogram_even(rt, x, EvenBins<float>{77, least, most, clatomics::RangeType::positions_type});
  CHECK(given.counts == found.counts);
  CHECK(given.edges == found.edges);
  // Too many bins is judged by the edges NumPy makes: float64 ones for a float64 range.
  const auto refused = test::message_of<std::invalid_argument>(
      [&] { clatomics::histogram_even(rt, x, EvenBins<float>{1000, 1.0, 1.0 + 1e-14, clatomics::RangeType::float64}); });
  CHECK(test::contains(refused, "too many bins for the range [lo, hi]: in double"));
  // A range of the positions' type must hold values of it; a range_type must be a RangeType.
  CHECK(test::contains(test::message_of<std::invalid_argument>(
                           [&] { clatomics::histogram_even(rt, x, EvenBins<float>{10, 0.1, 0.5, clatomics::RangeType::positions_type}); }),
                       "histogram_even: lo (0.1) is not a float, as a range of the positions' type must be"));
  CHECK(test::contains(test::message_of<std::invalid_argument>(
                           [&] { clatomics::histogram_even(rt, x, EvenBins<float>{10, 0.0, 1.0, clatomics::RangeType(7)}); }),
                       "range_type is not a RangeType"));
  // Two axes: a range of floats makes float edges; a float64 one, double edges, as a Python float's.
  const auto h2 = clatomics::histogram2d_even(rt, x, x, EvenBins<float>{9, least, most, clatomics::RangeType::positions_type},
                                              EvenBins<float>{9, -1.0, 2.0, clatomics::RangeType::float64});
  CHECK(h2.x_edges == clatomics::EvenHistogram::Edges::float_linspace);
  CHECK(h2.y_edges == clatomics::EvenHistogram::Edges::double_linspace);
  std::vector<std::uint64_t> over_x(9, 0);  // the x axis' bins are histogram_even's over the data's range
  for (std::size_t b = 0; b < h2.counts.size(); ++b) over_x[b / 9] += h2.counts[b];
  CHECK(over_x == clatomics::histogram_even(rt, x, 9).counts);
  CHECK(h2.outside == 0);
}

TEST_CASE("no range: equal values widen by 0.5, no data is [0, 1], NaN and infinities are refused") {
  auto& rt = test::runtime();
  const auto same = clatomics::histogram_even(rt, std::vector<float>(1000, 3.0f), 4);
  CHECK(same.lo == 2.5);
  CHECK(same.hi == 3.5);
  CHECK(same.counts == std::vector<std::uint64_t>{0, 0, 1000, 0});
  const auto none = clatomics::histogram_even(rt, view<float>(device(std::vector<float>{}), 0, 0), 4);
  CHECK(none.lo == 0.0);
  CHECK(none.hi == 1.0);
  // 1e8 - 0.5 is 1e8 in float: the widened range is still empty, and NumPy finds too many bins.
  CHECK_THROWS_AS(clatomics::histogram_even(rt, std::vector<float>(10, 1e8f), 4), std::invalid_argument);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const float bad : {nan, inf, -inf}) {
    std::vector<float> x(5000, 1.0f);
    x[4321] = bad;
    INFO(bad);
    const auto what = test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, x, 10); });
    CHECK(test::contains(what, "autodetected range"));
    const cl::Buffer buffer = device(x);
    clatomics::ProfileScope enqueued;
    const auto what_device = test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, view<float>(buffer), 10); });
    CHECK(test::contains(what_device, "autodetected range"));
    CHECK(test::contains(what_device, bad != bad ? "nan" : "inf"));
    CHECK(enqueued.commands() == 2);  // the range pass and its read; no histogram
  }
}

TEST_CASE("no range over a spread of a few ulps of zero: NumPy 2's bins, though nbins / (hi - lo) overflows") {
  auto& rt = test::runtime();
  const float tiny = std::numeric_limits<float>::min();  // 2^-126
  // NumPy 2.4: np.histogram(np.float32([0, tiny / 2, tiny]), 4) -> [1 0 1 1]; np.float32([0, 1e-45]), 1 -> [2].
  const std::vector<float> x{0.0f, tiny / 2, tiny};
  CHECK(clatomics::histogram_even(rt, x, 4).counts == std::vector<std::uint64_t>{1, 0, 1, 1});
  CHECK(clatomics::histogram_even(rt, view<float>(device(x)), 4).counts == std::vector<std::uint64_t>{1, 0, 1, 1});
  CHECK(clatomics::histogram_even(rt, std::vector<float>{0.0f, 1e-45f}, 1).counts == std::vector<std::uint64_t>{2});
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto h = clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, tiny}, {}, HistogramOptions{s});
    CHECK(h.counts == std::vector<std::uint64_t>{1, 0, 1, 1});
  }
  if (rt.supports_double())  // np.histogram(np.float64([0, 1e-310]), 2) -> [1 1]
    CHECK(clatomics::histogram_even(rt, std::vector<double>{0.0, 1e-310}, 2).counts == std::vector<std::uint64_t>{1, 1});
}

TEST_CASE("which edges a histogram has: no data is [0, 1] as if given; merge_into refuses histograms of other edges") {
  auto& rt = test::runtime();
  using Edges = clatomics::EvenHistogram::Edges;
  CHECK(clatomics::histogram_even(rt, std::vector<float>{}, 10).edges == Edges::double_linspace_to_float);
  CHECK(clatomics::histogram_even(rt, view<float>(device(std::vector<float>{}), 0, 0), 10).edges == Edges::double_linspace_to_float);
  const std::vector<float> part{0.1f, 0.279999971f, 0.7f};
  auto found = clatomics::histogram_even(rt, part, 10);
  const auto given = clatomics::histogram_even(rt, part, EvenBins<float>{10, 0.1f, 0.7f});
  CHECK(found.edges == Edges::float_linspace);
  CHECK(given.edges == Edges::double_linspace_to_float);
  REQUIRE(found.lo == given.lo);
  REQUIRE(found.hi == given.hi);
  CHECK(found.counts != given.counts);  // edge 3 is 0.279999971 in float arithmetic, 0.280000001 from double
  const auto before = found.counts;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_into(found, given); }), "edges"));
  CHECK(found.counts == before);
  if (rt.supports_double()) {
    const auto wide = clatomics::histogram_even(rt, std::vector<double>(part.begin(), part.end()), EvenBins<double>{10, 0.1f, 0.7f});
    CHECK(wide.edges == Edges::double_linspace);
    auto narrow = given;
    CHECK_THROWS_AS(clatomics::merge_into(narrow, wide), std::invalid_argument);
  }
}

TEST_CASE("compensated sums of infinities, NaN and sums past float's range: as float sums, in every strategy") {
  auto& rt = test::runtime();
  if (!rt.device_info().caps.int64_base_atomics) return;
  const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
  // Bin 0: +inf and 1; bin 1: -inf; bin 2: max + max; bin 3: +inf and -inf.
  const std::vector<float> x{0.5f, 0.5f, 1.5f, 2.5f, 2.5f, 3.5f, 3.5f};
  const std::vector<float> w{inf, 1.0f, -inf, big, big, inf, -inf};
  for (const HistogramStrategy s : strategies) {
    INFO(name_of(s));
    const auto h = clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, 4.0f}, {w}, HistogramOptions{s, WeightAccumulation::compensated_float2});
    REQUIRE(h.sums.size() == 1);
    CHECK(h.sums[0][0] == double(inf));
    CHECK(h.sums[0][1] == -double(inf));
    CHECK(h.sums[0][2] == double(inf));
    CHECK(std::isnan(h.sums[0][3]));
  }
}

TEST_CASE("bad even-histogram input is refused before anything is enqueued") {
  auto& rt = test::runtime();
  const cl::Buffer floats = device(std::vector<float>(100, 1.0f));
  const std::vector<float> host(100, 1.0f), short_host(99, 1.0f);
  using IA = std::invalid_argument;
  clatomics::ProfileScope enqueued;
  const auto message = [](auto&& call) { return test::message_of<IA>(call); };
  const EvenBins<float> bins{4, 0.0f, 1.0f};
  const auto f = [&](std::size_t offset, std::size_t count) { return view<float>(floats, offset, count); };
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, f(0, 10), bins, std::vector<clatomics::View<float>>(5, f(0, 10))); }),
                       "weights: 5 channels, at most 4"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, f(0, 60), bins, {f(0, 60), f(50, 60)}); }), "weights[1]"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, f(0, 60), bins, {f(0, 60), f(50, 50)}); }),
                       "weights[1]: a view of 50 weights for 60 positions"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, bins, {host, short_host}); }), "weights[1] has 99 elements, values has 100"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, bins, {short_host}); }), "weights[0]"));
  CHECK(test::contains(message([&] {
          clatomics::histogram_even(rt, host, bins, {host}, HistogramOptions{{}, static_cast<WeightAccumulation>(7)});
        }),
        "accumulation"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, EvenBins<float>{0, 0.0f, 1.0f}); }), "nbins"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, std::size_t(0)); }), "nbins"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, f(0, 101), 4); }), "values"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, EvenBins<float>{4, 2.0f, 1.0f}); }), "lo (2) is above hi (1)"));
  CHECK(test::contains(message([&] { clatomics::histogram_even(rt, host, EvenBins<float>{100, 1.0f, 1.000001f}); }), "too many bins"));
  const auto xb = EvenBins<float>{4, 0.0f, 1.0f};
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, xb, EvenBins<float>{4, 2.0f, 1.0f}); }), "ybins"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, EvenBins<float>{4, 0.0f, NAN}, xb); }), "xbins"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, short_host, xb, xb); }), "y has 99 elements, x has 100"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, f(0, 100), f(0, 99), xb, xb); }), "views of 100 and 99 elements"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, EvenBins<float>{4, 0.0f, NAN}, xb); }), "xbins: hi is nan"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, xb, EvenBins<float>{4, 3.0f, 1.0f}); }),
                       "ybins: lo (3) is above hi (1)"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, EvenBins<float>{70000, 0.0f, 1.0f}, EvenBins<float>{70000, 0.0f, 1.0f}); }),
                       "bins exceed"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, f(0, 100), f(1, 100), xb, xb); }), "y"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, xb, EvenBins<float>{0, 0.0f, 1.0f}); }), "ybins.nbins"));
  CHECK(test::contains(message([&] { clatomics::histogram2d_even(rt, host, host, EvenBins<float>{0, 0.0f, 1.0f}, xb); }), "xbins.nbins"));
  // private_per_item where the counters fit but the weight sums do not: says so.
  const std::vector<float> w(host.size(), 1.0f);
  if (rt.supports_double())
    CHECK(test::contains(message([&] {
                           clatomics::histogram_even(rt, host, EvenBins<float>{3000, 0.0f, 1.0f}, {w, w, w, w},
                                                     HistogramOptions{HistogramStrategy::private_per_item, WeightAccumulation::double_atomic});
                         }),
                         "weight sums"));
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("double positions and double sums on a device without fp64 (Options::hide_fp64) are refused clearly") {
  clatomics::Options options = clatomics::Options::from_env();
  options.hide_fp64 = true;
  clatomics::Runtime rt(options);
  const std::vector<double> xd(10, 0.5);
  const std::vector<float> x(10, 0.5f);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, xd, EvenBins<double>{4, 0.0, 1.0}); }),
                       "double positions"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, 1.0f}, {x}, HistogramOptions{{}, WeightAccumulation::double_atomic});
                       }),
                       "double_atomic"));
  // Without weights, no accumulation is needed: nothing to refuse.
  CHECK(clatomics::histogram_even(rt, x, EvenBins<float>{4, 0.0f, 1.0f}, {}, HistogramOptions{{}, WeightAccumulation::double_atomic})
            .counts == std::vector<std::uint64_t>{0, 0, 10, 0});
}

TEST_CASE("lo == hi widens by half a unit on each side, as NumPy does") {
  // np.histogram([1, 1, 1, 0.6, 1.4], 4, (1, 1)) == [1, 0, 3, 1] over edges [0.5, 0.75, 1, 1.25,
  // 1.5]; histogram2d widens each axis alike.
  auto& rt = test::runtime();
  const std::vector<float> ones{1.0f, 1.0f, 1.0f, 0.6f, 1.4f};
  const auto same = clatomics::histogram_even(rt, ones, EvenBins<float>{4, 1.0f, 1.0f});
  CHECK(same.counts == std::vector<std::uint64_t>{1, 0, 3, 1});
  CHECK(same.lo == 0.5);
  CHECK(same.hi == 1.5);
  const auto same2 = clatomics::histogram2d_even(rt, ones, ones, EvenBins<float>{4, 1.0f, 1.0f}, EvenBins<float>{1, 1.0f, 1.0f});
  CHECK(same2.counts == std::vector<std::uint64_t>{1, 0, 3, 1});
  // Views, and both axes widened: y's one bin [0.5, 1.5] holds every point.
  const cl::Buffer d = device(ones);
  const auto view_same = clatomics::histogram_even(rt, view<float>(d), EvenBins<float>{4, 1.0f, 1.0f});
  CHECK(view_same.counts == std::vector<std::uint64_t>{1, 0, 3, 1});
  CHECK(view_same.lo == 0.5);
  CHECK(view_same.hi == 1.5);
  const auto view_same2 = clatomics::histogram2d_even(rt, view<float>(d), view<float>(d), EvenBins<float>{2, 1.0f, 1.0f},
                                                      EvenBins<float>{2, 1.0f, 1.0f});
  CHECK(view_same2.counts == std::vector<std::uint64_t>{1, 0, 0, 4});  // (0.6, 0.6) in (0, 0); the rest in (1, 1)
  CHECK(view_same2.outside == 0);
  if (!rt.supports_double()) return;
  // Double positions widen in double: np.histogram(np.float64([...]), 4, (1, 1)).
  const std::vector<double> dones{1.0, 1.0, 1.0, 0.6, 1.4, 0.5, 1.5, 0.4999999999999999};
  const auto dsame = clatomics::histogram_even(rt, dones, EvenBins<double>{4, 1.0, 1.0});
  CHECK(dsame.counts == std::vector<std::uint64_t>{2, 0, 3, 2});
  CHECK(dsame.below == 1);
  CHECK(dsame.lo == 0.5);
  CHECK(dsame.hi == 1.5);
  const auto dview = clatomics::histogram_even(rt, view<double>(device(dones)), EvenBins<double>{4, 1.0, 1.0});
  CHECK(dview.counts == dsame.counts);
  CHECK(dview.below == 1);
  const auto dsame2 = clatomics::histogram2d_even(rt, dones, dones, EvenBins<double>{4, 1.0, 1.0}, EvenBins<double>{1, 1.0, 1.0});
  CHECK(dsame2.counts == std::vector<std::uint64_t>{2, 0, 3, 2});
  CHECK(dsame2.x.below == 1);
  CHECK(dsame2.y.below == 1);
  CHECK(dsame2.outside == 1);
}

TEST_CASE("the bins take the positions' type: double values with float-looking bounds, {nbins, lo, hi}") {
  // histogram_even(rt, values, {nbins, lo, hi}, {weights}): EvenBins of the values' type, whatever
  // the bounds are written as (EvenBins<float> with double values is a static_assert).
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  const std::vector<double> values{0.05, 0.15, 0.15, 0.95, 1.0, -1.0, 0.5};
  const std::vector<float> weights{1, 2, 3, 4, 5, 6, 7};
  const auto h = clatomics::histogram_even(rt, values, {10, 0.f, 1.f}, {weights});
  CHECK(h.counts == std::vector<std::uint64_t>{1, 2, 0, 0, 0, 1, 0, 0, 0, 2});
  CHECK(h.sums == std::vector<std::vector<double>>{{1, 5, 0, 0, 0, 7, 0, 0, 0, 9}});
  CHECK(h.below == 1);
  CHECK(h.edges == clatomics::EvenHistogram::Edges::double_linspace);
  const auto d = clatomics::histogram_even(rt, view<double>(device(values)), {10, 0.f, 1.f}, {view<float>(device(weights))});
  CHECK(d.counts == h.counts);
  CHECK(d.sums == h.sums);
}

TEST_CASE("2-D histograms of parts merge into the histogram of the whole; other shapes are refused, into unchanged") {
  auto& rt = test::runtime();
  std::vector<float> x(3001), y(3001), w(3001);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = float(int(test::mix(std::uint32_t(i)) % 140) - 20) * 0.01f;  // [-0.2, 1.2): some below, some above
    y[i] = float(int(test::mix(std::uint32_t(i) + 7u) % 130) - 10) * 0.01f;
    w[i] = float(i % 5);  // small integers: the sums are exact in any order
  }
  x[17] = std::nanf("");
  const clatomics::EvenBins<float> bx{7, 0.0f, 1.0f}, by{5, 0.0f, 1.0f};
  const clatomics::EvenHistogram2D whole = clatomics::histogram2d_even(rt, x, y, bx, by, {w});
  const auto part = [&](std::size_t a, std::size_t b) {
    return clatomics::histogram2d_even(rt, std::vector<float>(x.begin() + a, x.begin() + b), std::vector<float>(y.begin() + a, y.begin() + b),
                                       bx, by, {std::vector<float>(w.begin() + a, w.begin() + b)});
  };
  clatomics::EvenHistogram2D merged = part(0, 1000);
  clatomics::merge_into(merged, part(1000, 1000));
  clatomics::merge_into(merged, part(1000, 3001));
  CHECK(merged.counts == whole.counts);
  CHECK(merged.sums == whole.sums);
  CHECK(merged.outside == whole.outside);
  CHECK(merged.x.below == whole.x.below);
  CHECK(merged.x.above == whole.x.above);
  CHECK(merged.x.nan == whole.x.nan);
  CHECK(merged.x.nan == 1);
  CHECK(merged.y.below == whole.y.below);
  CHECK(merged.y.above == whole.y.above);
  const clatomics::EvenHistogram2D before = merged;
  CHECK_THROWS_AS(clatomics::merge_into(merged, clatomics::histogram2d_even(rt, x, y, bx, clatomics::EvenBins<float>{6, 0.0f, 1.0f}, {w})),
                  std::invalid_argument);
  CHECK_THROWS_AS(clatomics::merge_into(merged, clatomics::histogram2d_even(rt, x, y, bx, by)), std::invalid_argument);
  CHECK(merged.counts == before.counts);
  CHECK(merged.outside == before.outside);
}
