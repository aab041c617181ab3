// The even histograms (numpy.histogram, numpy.histogram2d) and the key histogram (bincount) over
// device arrays. The results come back as NumPy arrays; the edges are NumPy's, from the library's
// own rules (histogram/numpy_bins.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "common.hpp"
#include "histogram/numpy_bins.hpp"

namespace clatomics_py {

namespace {

template <class T>
py::array_t<T> to_numpy(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

clatomics::HistogramOptions histogram_options(const std::string& accumulation) {
  clatomics::HistogramOptions options;
  if (accumulation == "float") options.accumulation = clatomics::WeightAccumulation::float_atomic;
  else if (accumulation == "compensated") options.accumulation = clatomics::WeightAccumulation::compensated_float2;
  else if (accumulation == "double") options.accumulation = clatomics::WeightAccumulation::double_atomic;
  else throw py::value_error("clatomics: accumulation '" + accumulation + "' is not one of float, compensated, double");
  return options;
}

std::vector<clatomics::View<float>> weight_views(const py::list& weights) {
  std::vector<clatomics::View<float>> views;
  for (const auto& w : weights) views.push_back(array_of(w).view<float>());
  return views;
}

py::list sums_of(const std::vector<std::vector<double>>& sums) {
  py::list out;
  for (const auto& s : sums) out.append(to_numpy(s));
  return out;
}

// NumPy's edges of one axis of a result, in the dtype NumPy gives them: np.linspace over the
// range the result used, as its kind says (float32 edges from float arithmetic, or from the
// double ones rounded; else float64). The library checked that range when it made the bins.
template <class T>
py::array edges_of(double lo, double hi, clatomics::EvenHistogram::Edges kind, std::size_t nbins) {
  using Edges = clatomics::EvenHistogram::Edges;
  using clatomics::detail::EdgeRule;
  using clatomics::detail::even_axis;
  // np.histogram2d allows equal edges (np.histogram's were refused before its bins were made).
  if (kind == Edges::double_linspace) return to_numpy(even_axis<double>("histogram", nbins, lo, hi, EdgeRule::two_d).edges);
  const EdgeRule rule = kind == Edges::float_linspace ? EdgeRule::two_d_data : EdgeRule::given_range;
  const auto edges = even_axis<T>("histogram", nbins, lo, hi, rule).edges;
  return to_numpy(std::vector<T>(edges.begin(), edges.end()));
}

// A range from Python: (lo, hi, how NumPy 2 takes its types: "python", "positions", "float64").
template <class T>
clatomics::EvenBins<T> bins_of(std::size_t nbins, const py::handle& range) {
  const auto r = range.cast<std::tuple<double, double, std::string>>();
  const std::string& type = std::get<2>(r);
  clatomics::EvenBins<T> bins{nbins, std::get<0>(r), std::get<1>(r)};
  if (type == "positions") bins.range_type = clatomics::RangeType::positions_type;
  else if (type == "float64") bins.range_type = clatomics::RangeType::float64;
  else if (type != "python") throw py::value_error("clatomics: a range's type '" + type + "' is not one of python, positions, float64");
  return bins;
}

// np.histogram(values, nbins, range, weights): range (lo, hi, type), or None to take it from the
// data (NumPy 2's rule).
py::dict histogram(std::intptr_t queue, const std::string& dtype, const py::handle& values, std::size_t nbins,
                   const py::object& range, const py::list& weights, const std::string& accumulation) {
  const Array a = array_of(values);
  const auto options = histogram_options(accumulation);
  const auto w = weight_views(weights);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_double>(dtype, "histogram", [&](auto t) -> py::object {
    using T = decltype(t);
    const auto view = a.view<T>();
    clatomics::EvenHistogram h;
    if (range.is_none()) {
      py::gil_scoped_release unlocked;
      h = clatomics::histogram_even(*rt, view, nbins, w, options);
    } else {
      const clatomics::EvenBins<T> bins = bins_of<T>(nbins, range);
      py::gil_scoped_release unlocked;
      h = clatomics::histogram_even(*rt, view, bins, w, options);
    }
    py::dict d;
    d["counts"] = to_numpy(h.counts);
    d["below"] = h.below, d["above"] = h.above, d["nan"] = h.nan;
    d["lo"] = h.lo, d["hi"] = h.hi;
    d["sums"] = sums_of(h.sums);
    d["edges"] = edges_of<T>(h.lo, h.hi, h.edges, nbins);
    d["strategy"] = clatomics::strategy_name(h.strategy);
    return std::move(d);
  }).cast<py::dict>();
}

py::dict tallies(const clatomics::AxisTallies& t) {
  py::dict d;
  d["below"] = t.below, d["above"] = t.above, d["nan"] = t.nan;
  return d;
}

// np.histogram2d(x, y, [nx, ny], range, weights): range ((xlo, xhi, type), (ylo, yhi, type)), or
// None to take each axis' from its data (NumPy 2's rule).
py::dict histogram2d(std::intptr_t queue, const std::string& dtype, const py::handle& x, const py::handle& y, std::size_t nx,
                     std::size_t ny, const py::object& range, const py::list& weights, const std::string& accumulation) {
  const Array ax = array_of(x), ay = array_of(y);
  const auto options = histogram_options(accumulation);
  const auto w = weight_views(weights);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_double>(dtype, "histogram2d", [&](auto t) -> py::object {
    using T = decltype(t);
    const auto vx = ax.view<T>(), vy = ay.view<T>();
    clatomics::EvenHistogram2D h;
    if (range.is_none()) {
      py::gil_scoped_release unlocked;
      h = clatomics::histogram2d_even(*rt, vx, vy, nx, ny, w, options);
    } else {
      const auto ranges = range.cast<py::tuple>();
      const clatomics::EvenBins<T> bx = bins_of<T>(nx, ranges[0]), by = bins_of<T>(ny, ranges[1]);
      py::gil_scoped_release unlocked;
      h = clatomics::histogram2d_even(*rt, vx, vy, bx, by, w, options);
    }
    py::dict d;
    d["counts"] = to_numpy(h.counts);
    d["nx"] = h.nx, d["ny"] = h.ny;
    d["x"] = tallies(h.x), d["y"] = tallies(h.y), d["outside"] = h.outside;
    d["sums"] = sums_of(h.sums);
    d["xedges"] = edges_of<T>(h.x_lo, h.x_hi, h.x_edges, nx);
    d["yedges"] = edges_of<T>(h.y_lo, h.y_hi, h.y_edges, ny);
    return std::move(d);
  }).cast<py::dict>();
}

// np.bincount of uint32 keys into exactly nbins bins; keys >= nbins are counted apart.
py::tuple histogram_keys(std::intptr_t queue, const py::handle& keys, std::size_t nbins) {
  const auto view = array_of(keys).view<cl_uint>();
  auto rt = runtime_for(queue);
  clatomics::KeyHistogram h;
  {
    py::gil_scoped_release unlocked;
    h = clatomics::histogram_keys(*rt, view, nbins);
  }
  return py::make_tuple(to_numpy(h.counts), h.out_of_range);
}

}  // namespace

void register_histograms(py::module_& m) {
  m.def("histogram", &histogram);
  m.def("histogram2d", &histogram2d);
  m.def("histogram_keys", &histogram_keys);
}

}  // namespace clatomics_py
