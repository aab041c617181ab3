#include "histogram/numpy_bins.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

// Float positions compared with double edges exactly (np.histogram2d with a range; np.histogram
// with a range of np.float64 scalars).
bool compared_in_double(EdgeRule rule) { return rule == EdgeRule::two_d || rule == EdgeRule::given_double; }

// The range and its edges in the positions' type (a range found in the data, or given in it).
bool in_positions_type(EdgeRule rule) { return rule == EdgeRule::data_range || rule == EdgeRule::two_d_data; }

// The edges the device compares T positions with, held in double: a range in double (given, or
// np.histogram2d's) makes them in double, rounded to T; a range found in the data, in T itself.
template <class T>
std::vector<double> axis_edges(double lo, double hi, std::size_t nbins, EdgeRule rule) {
  if (std::is_same_v<T, double> || !in_positions_type(rule)) {
    const std::vector<double> wide = linspace<double>(lo, hi, nbins);
    if (std::is_same_v<T, double>) return wide;
    std::vector<double> edges(wide.size());
    for (std::size_t k = 0; k < wide.size(); ++k) {
      float f = float(wide[k]);  // nearest, as NumPy's astype(float32)
      // Two axes: x >= e exactly when x >= the least float >= e (x a float).
      if (compared_in_double(rule) && double(f) < wide[k]) f = std::nextafter(f, std::numeric_limits<float>::infinity());
      edges[k] = f;
    }
    return edges;
  }
  const std::vector<float> narrow = linspace<float>(float(lo), float(hi), nbins);
  return std::vector<double>(narrow.begin(), narrow.end());
}

// The shortest text that reads back as the same value of T ("0.7", not "0.69999999999999996").
template <class T>
std::string text_of(T value) {
  if (std::isnan(value)) return "nan";  // printf may write -nan: the sign of a NaN says nothing here
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, double(value));
    if (T(std::strtod(text, nullptr)) == value) break;
  }
  return text;
}

const char* type_name(bool doubles) { return doubles ? "double" : "float"; }

}  // namespace

template <class T>
Axis even_axis(const std::string& what, std::size_t nbins, double lo, double hi, EdgeRule rule) {
  constexpr bool doubles = std::is_same_v<T, double>;
  const bool in_t = in_positions_type(rule);
  // Quoted as it was likely written: a value float positions' type holds exactly (a range found
  // in float data, or given as floats) as a float, any other as a double.
  const auto quote = [](double v) { return double(T(v)) == v ? text_of(T(v)) : text_of(v); };
  if (!std::isfinite(lo)) refuse(what, "lo is " + quote(lo) + "; the range must be finite");
  if (!std::isfinite(hi)) refuse(what, "hi is " + quote(hi) + "; the range must be finite");
  if (lo > hi) refuse(what, "lo (" + quote(lo) + ") is above hi (" + quote(hi) + ")");
  // A range in T (found in the data, or given as RangeType::positions_type) holds values of T.
  if (in_t)
    for (const auto& [name, bound] : {std::pair<const char*, double>{"lo", lo}, {"hi", hi}})
      if (double(T(bound)) != bound)
        refuse(what, std::string(name) + " (" + text_of(bound) + ") is not a " + type_name(doubles) + ", as a range of the positions' type must be");
  // An empty range widens by half a unit on each side, as NumPy's _get_outer_edges does: in the
  // range's own type (Python floats for a given range, the data's type for one found in it).
  // The range used is the result's lo and hi.
  if (lo == hi) {
    if (in_t) lo = T(T(lo) - T(0.5)), hi = T(T(hi) + T(0.5));
    else lo -= 0.5, hi += 0.5;
  }
  // Float positions compare with the range and the edges rounded to float: beyond float's range
  // those are infinite (NumPy's bins then break: its first guess is no integer).
  if (!std::isfinite(T(lo))) refuse(what, "lo is " + quote(lo) + ", beyond " + type_name(doubles) + "'s range");
  if (!std::isfinite(T(hi))) refuse(what, "hi is " + quote(hi) + ", beyond " + type_name(doubles) + "'s range");
  if (!std::isfinite(in_t ? T(T(hi) - T(lo)) : T(hi - lo)))
    refuse(what, "hi - lo = " + quote(hi) + " - " + quote(lo) + " overflows " + type_name(doubles));
  Axis axis;
  axis.nbins = nbins;
  axis.lo = lo;
  axis.hi = hi;
  axis.rule = rule;
  axis.edges = axis_edges<T>(lo, hi, nbins, rule);
  // The positions kept. np.histogram: x >= T(lo) and x <= T(hi) in T, lo and hi rounded to
  // nearest (edges[0] and edges[nbins] are those). np.histogram2d compares float positions with
  // the double range exactly: x >= lo is x >= the least float >= lo (edges[0], rounded up), x <=
  // hi is x <= the greatest float <= hi.
  axis.first = axis.edges.front();
  axis.last = axis.edges.back();
  if (!doubles && compared_in_double(rule) && axis.last > hi) axis.last = std::nextafter(float(axis.last), -std::numeric_limits<float>::infinity());
  // The first guess's factor; where it overflows in T (a range of a few ulps of zero), 0: every
  // position then finds its bin by the binary search over the edges.
  const T scale = T(double(nbins) / (hi - lo));
  axis.scale = std::isfinite(scale) ? scale : T(0);
  // Bins of no width in T: the range has fewer values than bins. NumPy refuses these for
  // np.histogram ("Too many bins for data range"); np.histogram2d leaves such bins empty.
  // A range of np.float64 scalars: NumPy's edges are the double ones.
  if (rule != EdgeRule::two_d && rule != EdgeRule::two_d_data) {
    const bool wide = doubles || rule == EdgeRule::given_double;
    const std::vector<double> edges = rule == EdgeRule::given_double ? linspace<double>(lo, hi, nbins) : axis.edges;
    for (std::size_t k = 0; k < nbins; ++k)
      if (!(edges[k] < edges[k + 1]))
        refuse(what, "too many bins for the range [lo, hi]: in " + std::string(type_name(wide)) + ", edges " + std::to_string(k) + " and " +
                         std::to_string(k + 1) + " are both " + (wide ? text_of(edges[k]) : text_of(T(edges[k]))) + " (fewer values than bins)");
  }
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
  template Axis even_axis<T>(const std::string&, std::size_t, double, double, EdgeRule); \
  template FoundRange<T> data_range<T>(const std::string&, std::size_t, T, T, bool);       \
  template FoundRange<T> host_range<T>(const std::string&, const std::vector<T>&);
CLATOMICS_NUMPY_BINS(float)
CLATOMICS_NUMPY_BINS(double)
#undef CLATOMICS_NUMPY_BINS

}  // namespace clatomics::detail
