#include "histogram/numpy_bins.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

namespace clatomics::detail {
namespace {

// np.linspace(lo, hi, nbins + 1) as NumPy 2 computes it in A (numpy/_core/function_base.py):
// step = (hi - lo) / nbins; edge k = k * step + lo, each operation rounded (this file is built
// with -ffp-contract=off: no fused multiply-add); where step underflows to 0, (k / nbins) *
// (hi - lo) + lo; the last edge hi itself.
template <class A>
std::vector<A> linspace(A lo, A hi, std::size_t nbins) {
  std::vector<A> e(nbins + 1);
  const A delta = hi - lo, n = A(nbins), step = delta / n;
  for (std::size_t k = 0; k < nbins; ++k) {
    const A scaled = step == 0 ? A(k) / n * delta : A(k) * step;
    e[k] = scaled + lo;
  }
  e[nbins] = hi;
  return e;
}

// The edges the device compares T positions with, held in double.
template <class T>
std::vector<double> axis_edges(T lo, T hi, std::size_t nbins, EdgeRule rule) {
  if (std::is_same_v<T, double> || rule != EdgeRule::data_range) {
    const std::vector<double> wide = linspace<double>(lo, hi, nbins);
    if (std::is_same_v<T, double>) return wide;
    std::vector<double> edges(wide.size());
    for (std::size_t k = 0; k < wide.size(); ++k) {
      float f = float(wide[k]);  // nearest, as NumPy's astype(float32)
      // Two axes: x >= e exactly when x >= the least float >= e (x a float).
      if (rule == EdgeRule::two_d && double(f) < wide[k]) f = std::nextafter(f, std::numeric_limits<float>::infinity());
      edges[k] = f;
    }
    return edges;
  }
  const std::vector<float> narrow = linspace<float>(float(lo), float(hi), nbins);
  return std::vector<double>(narrow.begin(), narrow.end());
}

template <class T>
std::string text_of(T value) {
  if (std::isnan(value)) return "nan";  // printf may write -nan: the sign of a NaN says nothing here
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", std::is_same_v<T, float> ? 9 : 17, double(value));
  return text;
}

}  // namespace

template <class T>
Axis even_axis(const std::string& what, std::size_t nbins, T lo, T hi, EdgeRule rule) {
  if (!std::isfinite(lo)) refuse(what, "lo is " + text_of(lo) + "; the range must be finite");
  if (!std::isfinite(hi)) refuse(what, "hi is " + text_of(hi) + "; the range must be finite");
  if (lo > hi) refuse(what, "lo (" + text_of(lo) + ") is above hi (" + text_of(hi) + ")");
  // An empty range widens by half a unit on each side, as NumPy's np.histogram and histogram2d
  // do (here in T); the range used is the result's lo and hi.
  if (lo == hi) lo = T(lo - T(0.5)), hi = T(hi + T(0.5));
  if (!std::isfinite(T(hi - lo)))
    refuse(what, "hi - lo = " + text_of(hi) + " - " + text_of(lo) + " overflows " + (std::is_same_v<T, float> ? "float" : "double"));
  Axis axis;
  axis.nbins = nbins;
  axis.lo = lo;
  axis.hi = hi;
  // The first guess's factor; where it overflows in T (a range of a few ulps of zero), 0: every
  // position then finds its bin by the binary search over the edges.
  const T scale = T(double(nbins) / (double(hi) - double(lo)));
  axis.scale = std::isfinite(scale) ? scale : T(0);
  axis.rule = rule;
  axis.edges = axis_edges(lo, hi, nbins, rule);
  // Bins of no width in T: the range has fewer values than bins. NumPy refuses these for
  // np.histogram ("Too many bins for data range"); np.histogram2d leaves such bins empty.
  if (rule != EdgeRule::two_d)
    for (std::size_t k = 0; k < nbins; ++k)
      if (!(axis.edges[k] < axis.edges[k + 1]))
        refuse(what, "too many bins for the range [lo, hi]: in " + std::string(std::is_same_v<T, float> ? "float" : "double") +
                         ", edges " + std::to_string(k) + " and " + std::to_string(k + 1) + " are both " + text_of(T(axis.edges[k])) +
                         " (fewer values than bins)");
  return axis;
}

template <class T>
FoundRange<T> data_range(const std::string& what, std::size_t count, T least, T most, bool nan_seen) {
  if (count == 0) return {T(0), T(1), EdgeRule::given_range};  // NumPy's 0 and 1 are Python ints: edges in double
  if (nan_seen) least = most = std::numeric_limits<T>::quiet_NaN();
  if (!std::isfinite(least) || !std::isfinite(most))
    refuse(what, "autodetected range of [" + text_of(least) + ", " + text_of(most) + "] is not finite (NumPy refuses it too)");
  if (least == most) least = T(least - T(0.5)), most = T(most + T(0.5));
  return {least, most, EdgeRule::data_range};
}

template <class T>
FoundRange<T> host_range(const std::string& what, const std::vector<T>& values) {
  T least = std::numeric_limits<T>::infinity(), most = -least;
  bool nan_seen = false;
  for (const T v : values) {
    if (std::isnan(v)) nan_seen = true;
    least = std::min(least, v), most = std::max(most, v);  // NaN compares false: left out
  }
  return data_range(what, values.size(), least, most, nan_seen);
}

#define CLATOMICS_NUMPY_BINS(T)                                                            \
  template Axis even_axis<T>(const std::string&, std::size_t, T, T, EdgeRule);             \
  template FoundRange<T> data_range<T>(const std::string&, std::size_t, T, T, bool);       \
  template FoundRange<T> host_range<T>(const std::string&, const std::vector<T>&);
CLATOMICS_NUMPY_BINS(float)
CLATOMICS_NUMPY_BINS(double)
#undef CLATOMICS_NUMPY_BINS

}  // namespace clatomics::detail
