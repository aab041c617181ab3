// Even histograms over one axis or two: NumPy's range rules (numpy_bins.hpp) applied to the
// range given or found in the data (on the host, or on the device by kernels/histogram/range.cl),
// then the counts and weight sums as np.histogram and np.histogram2d lay them out.
#include <functional>
#include <limits>
#include <type_traits>

#include "clatomics/histogram.hpp"
#include "core/buffer_checks.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"
#include "histogram/host_stream.hpp"
#include "histogram/numpy_bins.hpp"
#include "histogram/requests.hpp"
#include "histogram/run.hpp"
#include "histogram/tuning.hpp"

namespace clatomics {
namespace {

using detail::Axis;
using detail::EdgeRule;
using detail::data_range;
using detail::even_axis;
using detail::host_range;
using detail::refuse;
using detail::hist::Run;
using detail::hist::Setup;
using detail::hist::add_host;
using detail::hist::check_buffer_weights;
using detail::hist::check_host_weights;
using detail::hist::even_request;
using detail::hist::even_setup_2d;

const detail::Signature range_kernel{"clat_hist_range", "global in, offset, count, global out, local found"};

// The range of values[offset, offset + count) on the device: every work-group's minimum, maximum
// and NaN count (kernels/histogram/range.cl), combined here.
template <class T>
detail::FoundRange<T> device_range(Runtime& rt, const std::string& what, cl_mem values, std::size_t offset, std::size_t count) {
  if (count == 0) return data_range(what, count, T(0), T(0), false);
  const auto& caps = rt.device_info().caps;
  const detail::hist::HistogramTuning tuning = detail::hist::histogram_tuning(caps);
  const detail::Program program = detail::build_library_file(
      rt, "kernels/histogram/range.cl",
      detail::type_define<T>("CLAT_POS") +
          detail::define("CLAT_CONTIGUOUS", tuning.contiguous ? 1 : 0));
  const detail::LibraryKernel kernel = detail::make_kernel(program, range_kernel);
  const detail::Grid grid = detail::make_grid(rt, kernel, count, tuning.range_group, detail::resident_groups(caps));
  const detail::Mem out = detail::make_buffer(rt, grid.groups * 3 * sizeof(T));
  detail::Commands commands(rt);
  detail::bind(kernel, detail::arg("in", values), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
               detail::arg("out", out), detail::arg("found", detail::LocalBytes{grid.group * 3 * sizeof(T)}));
  commands.launch(kernel, grid);
  std::vector<T> found(grid.groups * 3);
  commands.read(out.get(), 0, found.size() * sizeof(T), found.data());
  T least = std::numeric_limits<T>::infinity(), most = -least;
  bool nan_seen = false;
  for (std::size_t i = 0; i < grid.groups; ++i)
    least = std::min(least, found[3 * i]), most = std::max(most, found[3 * i + 1]), nan_seen |= found[3 * i + 2] > 0;
  return data_range(what, count, least, most, nan_seen);
}

// How an axis' edges were computed, as a result says it: by its rule, for one axis or two.
EvenHistogram::Edges edges_kind(const Setup& setup, const Axis& axis) {
  using Edges = EvenHistogram::Edges;
  if (setup.doubles) return Edges::double_linspace;
  switch (axis.rule) {
    case EdgeRule::given_range: return Edges::double_linspace_to_float;
    case EdgeRule::data_range:
    case EdgeRule::two_d_data: return Edges::float_linspace;
    default: return Edges::double_linspace;  // two_d, given_double: float positions compared with double edges
  }
}

EvenHistogram even_result(Run& run, const Setup& setup) {
  const auto totals = run.totals();
  EvenHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(setup.nbins));
  h.below = totals[setup.nbins];
  h.above = totals[setup.nbins + 1];
  h.nan = totals[setup.nbins + 2];
  h.lo = setup.x.lo;
  h.hi = setup.x.hi;
  h.strategy = run.strategy();
  h.edges = edges_kind(setup, setup.x);
  if (setup.channels) h.sums = run.weight_sums();
  return h;
}

EvenHistogram2D even_result_2d(Run& run, const Setup& setup) {
  const auto totals = run.totals();
  const std::size_t bins = setup.bins();
  EvenHistogram2D h;
  h.nx = setup.x.nbins;
  h.ny = setup.y.nbins;
  h.strategy = run.strategy();
  h.x_lo = setup.x.lo, h.x_hi = setup.x.hi, h.x_edges = edges_kind(setup, setup.x);
  h.y_lo = setup.y.lo, h.y_hi = setup.y.hi, h.y_edges = edges_kind(setup, setup.y);
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(bins));
  // Slot bins + 4 * cx + cy - 1: cx, cy = 0 in range, 1 below, 2 above, 3 NaN (kernels/histogram/slots.cl).
  std::uint64_t* x_tally[4] = {nullptr, &h.x.below, &h.x.above, &h.x.nan};
  std::uint64_t* y_tally[4] = {nullptr, &h.y.below, &h.y.above, &h.y.nan};
  for (std::size_t cx = 0; cx < 4; ++cx)
    for (std::size_t cy = 0; cy < 4; ++cy) {
      if (!cx && !cy) continue;
      const std::uint64_t n = totals[bins + 4 * cx + cy - 1];
      if (cx) *x_tally[cx] += n;
      if (cy) *y_tally[cy] += n;
      h.outside += n;
    }
  if (setup.channels) h.sums = run.weight_sums();
  return h;
}

// One-axis even histograms: the bins given (bins non-null) or nbins over the range found in the
// data (after every other check, by find_range()).
template <class T, class FindRange>
EvenHistogram even_histogram(Runtime& rt, std::size_t nbins, const EvenBins<T>* bins, std::size_t channels, HistogramOptions options,
                             FindRange find_range, const std::function<void(Run&)>& count) {
  const std::string what = "histogram_even";
  Setup setup = even_request<T>(rt, what, nbins, 0, false, channels, options.accumulation);
  if (bins) {
    setup.x = detail::hist::given_axis<T>(what, *bins, false);
  } else {
    const detail::FoundRange<T> r = find_range(what);
    setup.x = even_axis<T>(what, nbins, r.lo, r.hi, r.rule);
  }
  Run run(rt, setup, options);
  count(run);
  return even_result(run, setup);
}

// Two-axis even histograms: the bins given (bins[0] for x, bins[1] for y; find_range nullptr) or
// nx and ny bins over each axis' range found in the data (after every other check, by
// find_range(what, first axis?)), as np.histogram2d finds it.
template <class T, class FindRange>
EvenHistogram2D even_histogram2d(Runtime& rt, const EvenBins<T>* bins, std::size_t nx, std::size_t ny, std::size_t channels,
                                 HistogramOptions options, FindRange find_range, const std::function<void(Run&)>& count) {
  Setup setup;
  if constexpr (std::is_null_pointer_v<FindRange>) {
    setup = even_setup_2d(rt, bins[0], bins[1], channels, options.accumulation);
  } else {
    const std::string what = "histogram2d_even";
    setup = even_request<T>(rt, what, nx, ny, true, channels, options.accumulation);
    // A range found in the data has its edges in T; no points give NumPy's [0, 1] of Python
    // ints, edges in double as a given range's.
    const auto rule = [](EdgeRule found) { return found == EdgeRule::data_range ? EdgeRule::two_d_data : EdgeRule::two_d; };
    const detail::FoundRange<T> rx = find_range(what + ": x", true);
    const detail::FoundRange<T> ry = find_range(what + ": y", false);
    setup.x = even_axis<T>(what + ": x", nx, rx.lo, rx.hi, rule(rx.rule));
    setup.y = even_axis<T>(what + ": y", ny, ry.lo, ry.hi, rule(ry.rule));
  }
  Run run(rt, setup, options);
  count(run);
  return even_result_2d(run, setup);
}

template <class T>
void check_points(Runtime& rt, detail::PositionRange x, detail::PositionRange y, std::size_t count, const std::vector<detail::WeightRange>& weights) {
  detail::check_range(rt, {"histogram2d_even: x", x.buffer, x.offset, count, sizeof(T), detail::Access::read});
  detail::check_range(rt, {"histogram2d_even: y", y.buffer, y.offset, count, sizeof(T), detail::Access::read});
  check_buffer_weights(rt, "histogram2d_even", weights, count);
}

template <class T>
void check_host_points(const std::vector<T>& x, const std::vector<T>& y, const std::vector<HostFloats>& weights) {
  if (y.size() != x.size())
    refuse("histogram2d_even", "y has " + std::to_string(y.size()) + " elements, x has " + std::to_string(x.size()));
  check_host_weights("histogram2d_even", weights, x.size());
}

void add_points(Run& run, detail::PositionRange x, detail::PositionRange y, std::size_t count, const std::vector<detail::WeightRange>& weights) {
  run.start();
  run.add({x.buffer, x.offset, y.buffer, y.offset, weights}, count);
}

}  // namespace

template <class T>
EvenHistogram detail::even_histogram_buffer(Runtime& rt, PositionRange values, std::size_t count, std::size_t nbins, const EvenBins<T>* bins,
                                            const std::vector<WeightRange>& weights, HistogramOptions options) {
  check_range(rt, {"histogram_even: values", values.buffer, values.offset, count, sizeof(T), Access::read});
  check_buffer_weights(rt, "histogram_even", weights, count);
  return even_histogram<T>(
      rt, nbins, bins, weights.size(), options,
      [&](const std::string& what) { return device_range<T>(rt, what, values.buffer, values.offset, count); },
      [&](Run& run) {
        run.start();
        run.add({values.buffer, values.offset, nullptr, 0, weights}, count);
      });
}

template <class T>
EvenHistogram detail::even_histogram_host(Runtime& rt, const std::vector<T>& values, std::size_t nbins, const EvenBins<T>* bins,
                                          const std::vector<HostFloats>& weights, HistogramOptions options) {
  check_host_weights("histogram_even", weights, values.size());
  return even_histogram<T>(
      rt, nbins, bins, weights.size(), options, [&](const std::string& what) { return host_range(what, values); },
      [&](Run& run) { add_host(rt, run, values, nullptr, weights); });
}

template <class T>
EvenHistogram2D detail::even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count,
                                                const EvenBins<T>& xbins, const EvenBins<T>& ybins,
                                                const std::vector<WeightRange>& weights, HistogramOptions options) {
  check_points<T>(rt, x, y, count, weights);
  const EvenBins<T> bins[2] = {xbins, ybins};
  return even_histogram2d<T>(rt, bins, 0, 0, weights.size(), options, nullptr, [&](Run& run) { add_points(run, x, y, count, weights); });
}

template <class T>
EvenHistogram2D detail::even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count, std::size_t nx,
                                                std::size_t ny, const std::vector<WeightRange>& weights, HistogramOptions options) {
  check_points<T>(rt, x, y, count, weights);
  return even_histogram2d<T>(
      rt, nullptr, nx, ny, weights.size(), options,
      [&](const std::string& what, bool first) {
        const PositionRange& axis = first ? x : y;
        return device_range<T>(rt, what, axis.buffer, axis.offset, count);
      },
      [&](Run& run) { add_points(run, x, y, count, weights); });
}

template <class T>
EvenHistogram2D detail::even_histogram2d_host(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                              const EvenBins<T>& ybins, const std::vector<HostFloats>& weights, HistogramOptions options) {
  check_host_points(x, y, weights);
  const EvenBins<T> bins[2] = {xbins, ybins};
  return even_histogram2d<T>(rt, bins, 0, 0, weights.size(), options, nullptr, [&](Run& run) { add_host(rt, run, x, &y, weights); });
}

template <class T>
EvenHistogram2D detail::even_histogram2d_host(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, std::size_t nx, std::size_t ny,
                                              const std::vector<HostFloats>& weights, HistogramOptions options) {
  check_host_points(x, y, weights);
  return even_histogram2d<T>(
      rt, nullptr, nx, ny, weights.size(), options, [&](const std::string& what, bool first) { return host_range(what, first ? x : y); },
      [&](Run& run) { add_host(rt, run, x, &y, weights); });
}

#define CLATOMICS_EVEN_HISTOGRAMS(T)                                                                                                    \
  template EvenHistogram detail::even_histogram_buffer<T>(Runtime&, PositionRange, std::size_t, std::size_t, const EvenBins<T>*,                \
                                                          const std::vector<WeightRange>&, HistogramOptions);                         \
  template EvenHistogram detail::even_histogram_host<T>(Runtime&, const std::vector<T>&, std::size_t, const EvenBins<T>*,                      \
                                                        const std::vector<HostFloats>&, HistogramOptions);                           \
  template EvenHistogram2D detail::even_histogram2d_buffer<T>(Runtime&, PositionRange, PositionRange, std::size_t, const EvenBins<T>&, \
                                                              const EvenBins<T>&, const std::vector<WeightRange>&, HistogramOptions); \
  template EvenHistogram2D detail::even_histogram2d_host<T>(Runtime&, const std::vector<T>&, const std::vector<T>&,                 \
                                                            const EvenBins<T>&, const EvenBins<T>&, const std::vector<HostFloats>&, \
                                                            HistogramOptions);                                                     \
  template EvenHistogram2D detail::even_histogram2d_buffer<T>(Runtime&, PositionRange, PositionRange, std::size_t, std::size_t,      \
                                                              std::size_t, const std::vector<WeightRange>&, HistogramOptions);    \
  template EvenHistogram2D detail::even_histogram2d_host<T>(Runtime&, const std::vector<T>&, const std::vector<T>&, std::size_t,    \
                                                            std::size_t, const std::vector<HostFloats>&, HistogramOptions);
CLATOMICS_EVEN_HISTOGRAMS(float)
CLATOMICS_EVEN_HISTOGRAMS(double)
#undef CLATOMICS_EVEN_HISTOGRAMS

}  // namespace clatomics
