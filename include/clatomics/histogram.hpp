// clatomics/histogram.hpp — histograms of bytes, of integer keys, and of floats in even bins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"
#include "clatomics/group_forms.hpp"

namespace clatomics {

// How the counts are privatised before they reach the result.
enum class HistogramStrategy {
  automatic,         // from the device: see below
  local_replicated,  // GPUs: up to 32 copies of the histogram in __local memory per work-group
                     // (bin-major, copy = local id % copies: no bank conflicts, little contention),
                     // merged with one global atomic per bin and group
  local_single,      // one __local histogram per work-group, merged the same way
  global_atomics,    // every element is one atomic on the global counts: bins of any number
  private_per_item,  // CPUs: every work-item counts its contiguous chunk in private memory
                     // without atomics (PoCL runs a work-group on one thread), then merges
};
// automatic: GPUs take local_replicated with as many copies as fit in __local memory (at most
// 32), local_single when only one copy fits, global_atomics when not even one does; CPUs take
// private_per_item while the counters fit (16384 per work-item, weights included), else
// local_single when the bins fit, else global_atomics.
// A strategy asked for that cannot hold the bins (__local memory, or more than 16384 private
// counters) throws std::invalid_argument.

// How weights are summed per bin (even histograms). n_b: the weights that fall in bin b,
// S = the sum of their |w| (each w a float); u = 2^-24 (float), 2^-53 (double). The error of a
// bin's sum (exact: the real sum of the weights as given, in any order) is at most:
enum class WeightAccumulation {
  float_atomic,        // (n_b - 1) * u * S, to first order: float adds in an order that changes
                       // from run to run. Device: any. Result: the float sum.
  compensated_float2,  // 3 * u^2 / (1 - 4u) * n_b * S + 2^-53 * |sum|: a double-word (hi, lo) of
                       // floats per bin, updated as one 64-bit compare-exchange by
                       // Joldes-Muller-Popescu's AccurateDWPlusDW (relative error <= 3u^2 /
                       // (1 - 4u), u = 2^-24); a work-group's or work-item's partial sums in
                       // double where the device has fp64 (each add within 2^-53), else in pairs
                       // (a weight added by their DWPlusFP, <= 2u^2 / (1 - 2u)); a bin's pairs
                       // (in copies) read back as hi + lo, added in double. Needs
                       // cl_khr_int64_base_atomics. Sums of floats that share a grid of 2^-k
                       // (0.1f, for instance) stay exact while they span fewer than 48 bits.
                       // Infinities, NaN and sums past float's range: as float_atomic's.
  double_atomic,       // (n_b - 1) * 2^-53 * S, to first order: double adds. Needs fp64 and
                       // cl_khr_int64_base_atomics.
};

// "automatic", "local_replicated", "local_single", "global_atomics", "private_per_item";
// std::invalid_argument for a value outside the enum.
const char* strategy_name(HistogramStrategy strategy);

struct HistogramOptions {
  HistogramStrategy strategy = HistogramStrategy::automatic;
  WeightAccumulation accumulation = WeightAccumulation::float_atomic;  // even histograms' weights only
};

struct KeyHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts: keys 0 .. nbins - 1
  std::uint64_t out_of_range = 0;     // keys >= nbins
  // The one that ran (no bins: the one asked for; a DeviceGroup's: its first device's).
  HistogramStrategy strategy = HistogramStrategy::automatic;
};

struct EvenHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<std::vector<double>> sums;  // per weight channel, the nbins per-bin sums (empty: none)
  double lo = 0, hi = 0;  // the range used: the one given, or the one found in the data
  HistogramStrategy strategy = HistogramStrategy::automatic;  // the one that ran
  // How the edges were computed from lo and hi (histogram_even's comments say when each applies);
  // histograms merge only when these agree too.
  enum class Edges {
    double_linspace_to_float,  // float positions: np.linspace in double, each edge rounded to float
    float_linspace,            // float positions without a range (or a range of floats): np.linspace in float
    double_linspace,           // double positions, or float positions over a float64 range
  } edges = Edges::double_linspace_to_float;
};

// Even bins over [lo, hi] on one axis, for positions of type T (float or double). With host data
// or a view the positions say T: histogram_even(rt, values, {100, 0, 1}) takes T from values.
// The range is double whatever T, as NumPy takes it (Python floats): float positions over
// (0, 0.7) get NumPy's edges of 0.7, not of 0.7f (a float range is still taken, exactly).
//
// NumPy 2 makes the edges from the range's own types (NEP 50: Python numbers give way to NumPy
// scalars), and so does range_type here for float positions (double positions: always double):
// python_float, Python floats (or ints): np.linspace in double, each edge rounded to float, the
// range test in float. positions_type, np.float32 scalars (as (a.min(), a.max()) of float32 data
// gives): lo and hi are floats, np.linspace in float, as for a range found in the data.
// float64, np.float64 scalars: np.histogram's edges are float64 (np.linspace in double) and the
// float positions are compared with them in double (np.histogram2d, too, over a range of Python
// floats or of np.float64 scalars; over np.float32 scalars its edges are floats).
enum class RangeType { python_float, positions_type, float64 };

template <class T>
struct EvenBins {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "EvenBins: float or double positions");
  std::size_t nbins = 0;
  double lo = 0, hi = 0;
  RangeType range_type = RangeType::python_float;
};

// Weights come one way per kind of data: host positions take host weights, views take views.
// Each is a list of weight channels (up to 4, summed in one pass), one float per position:
//   histogram_even(rt, x, bins, {w})             x, w: std::vector<float> (x: or double)
//   histogram_even(rt, view<float>(b), bins, {view<float>(wb), view<float>(wb2)})
// One host weight channel: the floats of a std::vector<float>, read in place (not copied; the
// vector must outlive the call, as a temporary in the call's arguments does).
class HostFloats {
 public:
  HostFloats(const std::vector<float>& floats) noexcept : data_(floats.data()), size_(floats.size()) {}  // NOLINT: implicit, for {w}
  const float* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  const float* data_;
  std::size_t size_;
};

// Where the points of a 2-D histogram that fall in no bin lie, per axis.
struct AxisTallies {
  std::uint64_t below = 0, above = 0, nan = 0;
};

struct EvenHistogram2D {
  std::size_t nx = 0, ny = 0;
  std::vector<std::uint64_t> counts;  // nx * ny: bin (ix, iy) at counts[ix * ny + iy]
  // A point out of one axis' range counts in that axis' tally, one out of both in both tallies;
  // outside counts each point in no bin once.
  AxisTallies x, y;
  std::uint64_t outside = 0;
  std::vector<std::vector<double>> sums;  // per weight channel, nx * ny sums laid out as counts
  HistogramStrategy strategy = HistogramStrategy::automatic;  // the one that ran
  // Each axis' range used (the one given, widened when empty, or the one found in the data) and
  // how NumPy's edges follow from it: double_linspace for a given range (np.histogram2d's edges
  // are float64 then), float_linspace for float points' range found in the data. Histograms
  // merge only when these agree too.
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
  EvenHistogram::Edges x_edges = EvenHistogram::Edges::double_linspace, y_edges = EvenHistogram::Edges::double_linspace;
};

// What histogram(), histogram_keys(), histogram_even() and histogram2d_even() over count
// elements (points, for two axes) would run on rt's device (clatomics/plan.hpp), without running
// them; they refuse what the calls refuse. plan_histogram_keys refuses 0 bins (nothing would run).
Plan plan_histogram(Runtime& rt, std::size_t count, HistogramOptions options = {});
Plan plan_histogram_keys(Runtime& rt, std::size_t count, std::size_t nbins, HistogramOptions options = {});
template <class T>
Plan plan_histogram_even(Runtime& rt, std::size_t count, const EvenBins<T>& bins, std::size_t channels = 0, HistogramOptions options = {});
extern template Plan plan_histogram_even<float>(Runtime&, std::size_t, const EvenBins<float>&, std::size_t, HistogramOptions);
extern template Plan plan_histogram_even<double>(Runtime&, std::size_t, const EvenBins<double>&, std::size_t, HistogramOptions);
template <class T>
Plan plan_histogram2d_even(Runtime& rt, std::size_t count, const EvenBins<T>& xbins, const EvenBins<T>& ybins, std::size_t channels = 0,
                           HistogramOptions options = {});
extern template Plan plan_histogram2d_even<float>(Runtime&, std::size_t, const EvenBins<float>&, const EvenBins<float>&, std::size_t,
                                                  HistogramOptions);
extern template Plan plan_histogram2d_even<double>(Runtime&, std::size_t, const EvenBins<double>&, const EvenBins<double>&, std::size_t,
                                                   HistogramOptions);

namespace detail {
std::vector<std::uint64_t> histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                            HistogramOptions options);
KeyHistogram histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                   HistogramOptions options);
// The positions of one axis in a device buffer: count elements of T from offset.
struct PositionRange {
  cl_mem buffer;
  std::size_t offset;
};
struct WeightRange {
  cl_mem buffer;
  std::size_t offset;
};
// Weight views as weight channels, each as long as the positions (std::invalid_argument otherwise).
inline std::vector<WeightRange> weight_ranges(std::size_t count, const std::vector<View<float>>& weights) {
  std::vector<WeightRange> ranges;
  for (std::size_t c = 0; c < weights.size(); ++c) {
    const View<float>& w = weights[c];
    if (w.count() != count)
      throw std::invalid_argument("clatomics: histogram weights[" + std::to_string(c) + "]: a view of " + std::to_string(w.count()) +
                                  " weights for " + std::to_string(count) + " positions; they must be of the same length");
    ranges.push_back({w.handle(), w.offset()});
  }
  return ranges;
}
// The positions' type V against the bins' T: one message, not a list of overloads that did not match.
// The callers' bodies compile only when this holds (if constexpr), so the assertion is the whole error.
template <class V, class T>
constexpr bool even_types() {
  static_assert(std::is_same_v<V, float> || std::is_same_v<V, double>,
                "clatomics::histogram_even / histogram2d_even: positions must be float or double");
  static_assert(std::is_same_v<V, T>,
                "clatomics::histogram_even / histogram2d_even: EvenBins<T> must be of the positions' type (float positions: "
                "EvenBins<float>, double positions: EvenBins<double>; or write the bins as {nbins, lo, hi})");
  return (std::is_same_v<V, float> || std::is_same_v<V, double>) && std::is_same_v<V, T>;
}
template <class T>
EvenHistogram even_histogram_buffer(Runtime& rt, PositionRange values, std::size_t count, std::size_t nbins, const EvenBins<T>* bins,
                                    const std::vector<WeightRange>& weights, HistogramOptions options);
template <class T>
EvenHistogram even_histogram_host(Runtime& rt, const std::vector<T>& values, std::size_t nbins, const EvenBins<T>* bins,
                                  const std::vector<HostFloats>& weights, HistogramOptions options);
template <class T>
EvenHistogram2D even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count, const EvenBins<T>& xbins,
                                        const EvenBins<T>& ybins, const std::vector<WeightRange>& weights, HistogramOptions options);
template <class T>
EvenHistogram2D even_histogram2d_host(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                      const EvenBins<T>& ybins, const std::vector<HostFloats>& weights, HistogramOptions options);
// The same, each axis' range found in the data (nx, ny bins).
template <class T>
EvenHistogram2D even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count, std::size_t nx, std::size_t ny,
                                        const std::vector<WeightRange>& weights, HistogramOptions options);
template <class T>
EvenHistogram2D even_histogram2d_host(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, std::size_t nx, std::size_t ny,
                                      const std::vector<HostFloats>& weights, HistogramOptions options);
}  // namespace detail

// Every histogram comes in two forms: host data (std::vector, streamed through the device in
// chunks when larger than one buffer) and views of device buffers (clatomics/view.hpp:
// view<float>(buffer, offset, count), which carry their element type: a buffer of one type is
// never read as another).
// Counts are 32-bit on the device within one launch (launches stay below 2^32 elements) and are
// added into 64-bit totals: no count overflows. Every function throws std::invalid_argument
// before anything is enqueued or allocated for a null buffer or one the device cannot read, a
// range beyond its buffer or overflowing size_t, bins whose counts (8 bytes each) do not fit in
// one device buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) or in half the device's or the host's memory,
// and the bad arguments named below; every refusal quotes the values it refuses.

// 256 bins over unsigned bytes: result[b] = number of bytes equal to b.
std::vector<std::uint64_t> histogram(Runtime& rt, const std::vector<std::uint8_t>& bytes, HistogramOptions options = {});
// histogram(rt, view<cl_uchar>(buffer, offset, count)).
inline std::vector<std::uint64_t> histogram(Runtime& rt, const View<cl_uchar>& bytes, HistogramOptions options = {}) {
  return detail::histogram_buffer(rt, bytes.handle(), bytes.offset(), bytes.count(), options);
}

// Counts of cl_uint keys 0 .. nbins - 1, as np.bincount(keys, minlength=nbins) cut at nbins: keys
// >= nbins count in out_of_range. nbins == 0: no bins, every key out of range. nbins above
// 2^32 - 4: std::invalid_argument quoting it.
KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
inline KeyHistogram histogram_keys(Runtime& rt, const View<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {}) {
  return detail::histogram_keys_buffer(rt, keys.handle(), keys.offset(), keys.count(), nbins, options);
}

// bins.nbins even bins over [bins.lo, bins.hi], as np.histogram(values, nbins, (lo, hi)) with
// weights=None or the weights given (up to 4 channels, each one float per value, summed in one
// pass: EvenHistogram::sums, options.accumulation says how; values outside the bins add no
// weight). V, the positions' type, is float or double, and EvenBins is of the same type
// (histogram_even(rt, x, {100, 0, 1}) takes it from x).
// The range is the double bins.lo, bins.hi, as NumPy's Python floats. Double positions (float64
// data): the edges are np.linspace in double (edge k = (k * step) + lo, step = (hi - lo) /
// nbins, each operation rounded once; the last edge hi). Float positions (np.histogram on
// float32 data): the same double edges, each rounded to the nearest float (NumPy's linspace(...,
// dtype=float32)), and the range test in float as NumPy's: x is kept when float(lo) <= x <=
// float(hi) (0.7f, below 0.7, is in the last bin of (0, 0.7)). Bin b holds edge_b <= x <
// edge_b+1, the last bin its upper edge too. Values below the range count in below, above it in
// above (infinities too), NaN in nan (NumPy drops those; here they are tallied). Each value
// costs a bounded number of steps, whatever the range (a guess, then a binary search over the
// edges when the guess misses). No values: nbins zeros. lo == hi widens to [lo - 0.5, hi + 0.5]
// in double, as NumPy does (the result's lo and hi say so).
// Throws std::invalid_argument for nbins == 0 or above 2^32 - 4, a non-finite lo or hi (quoted:
// "lo is nan"), lo > hi (both quoted), lo, hi or hi - lo not finite in V, edges that are not strictly
// increasing (too many bins for the range: NumPy refuses those too), more than 4 weight
// channels, a channel of another length than the values (both lengths quoted), double
// positions or double_atomic sums on a device without fp64 and 64-bit atomics
// (Runtime::supports_double), compensated_float2 sums without cl_khr_int64_base_atomics.
template <class V, class T = V>
EvenHistogram histogram_even(Runtime& rt, const std::vector<V>& values, const EvenBins<T>& bins,
                             const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::even_histogram_host<V>(rt, values, bins.nbins, &bins, weights, options);
  } else {
    return {};
  }
}
// histogram_even(rt, view<double>(x), EvenBins<double>{100, 0, 1}, {view<float>(w)}).
template <class V, class T = V>
EvenHistogram histogram_even(Runtime& rt, const View<V>& values, const EvenBins<T>& bins, const std::vector<View<float>>& weights = {},
                             HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::even_histogram_buffer<V>(rt, {values.handle(), values.offset()}, values.count(), bins.nbins, &bins,
                                            detail::weight_ranges(values.count(), weights), options);
  } else {
    return {};
  }
}

// histogram_even(rt, values, nbins, lo, hi, ...) is not a form: the range is one argument, the
// bins. This overload exists only to say so in one line instead of a list of candidates.
template <class Values, class Lo, class Hi, class... Rest, std::enable_if_t<std::is_arithmetic_v<Lo> && std::is_arithmetic_v<Hi>, int> = 0>
EvenHistogram histogram_even(Runtime&, const Values&, std::size_t, Lo, Hi, Rest&&...) {
  static_assert(sizeof(Lo) == 0,
                "clatomics::histogram_even: the range goes in the bins: histogram_even(rt, values, {nbins, lo, hi}) "
                "(EvenBins of the values' type), weights after them as {w} or {w0, w1}");
  return {};
}

// Without a range, as np.histogram(values, nbins) in NumPy 2.x (numpy/lib/_histograms_impl.py,
// _get_outer_edges and _get_bin_edges; NEP 50 promotion): lo, hi = the data's minimum and maximum
// in V; data with a NaN or an infinity is refused (NumPy raises ValueError "autodetected range of
// [lo, hi] is not finite"); lo == hi widens to lo - 0.5, hi + 0.5 computed in V; no data gives
// [0, 1] as if given. The edges are then np.linspace(lo, hi, nbins + 1) computed in V itself:
// float32 data gets float32 arithmetic (step = float((hi - lo) / float(nbins)), edge k =
// float(float(k) * step) + lo, each operation rounded to float; where step underflows to 0,
// float(float(k) / nbins) * (hi - lo) + lo), edges that do not increase refused ("Too many bins
// for data range"). The bins are those edges' (bin b holds edges[b] <= x < edges[b + 1], the last
// bin hi too), which is np.histogram's result wherever its first index guess is within one bin
// of the right one (it corrects a guess by one bin at most): at least wherever the bins are more
// than a few ulps of lo and hi wide. The range used is returned in lo, hi; below, above and nan
// are 0. A view's range is found on the device (one read of the values before the histogram's),
// so bad data is refused after that read, before the histogram is enqueued.
template <class V>
EvenHistogram histogram_even(Runtime& rt, const std::vector<V>& values, std::size_t nbins, const std::vector<HostFloats>& weights = {},
                             HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, V>()) {
    return detail::even_histogram_host<V>(rt, values, nbins, nullptr, weights, options);
  } else {
    return {};
  }
}
template <class V>
EvenHistogram histogram_even(Runtime& rt, const View<V>& values, std::size_t nbins, const std::vector<View<float>>& weights = {},
                             HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, V>()) {
    return detail::even_histogram_buffer<V>(rt, {values.handle(), values.offset()}, values.count(), nbins, nullptr,
                                            detail::weight_ranges(values.count(), weights), options);
  } else {
    return {};
  }
}

// 2-D even bins over points (x[i], y[i]), as numpy.histogram2d(x, y, [nx, ny], [[xlo, xhi], [ylo,
// yhi]]) (histogramdd): each axis' edges np.linspace(lo, hi, n + 1) in double from the double
// range, whatever V (float points are compared with the double edges and range exactly: each
// edge rounded up to the next float, hi down); bin i of an axis holds edges[i] <= v < edges[i +
// 1], the last bin hi too; x is the first axis. lo == hi widens to [lo - 0.5, hi + 0.5] in
// double per axis, as histogramdd does. NumPy drops points outside; here they are tallied per
// axis (EvenHistogram2D). Weights and accumulation as for histogram_even. x and y (and each
// weight channel) must be of the same length, which the refusal quotes. Throws std::invalid_argument as histogram_even does for each axis (naming
// xbins or ybins; equal edges are allowed, as NumPy allows them here), and for nx * ny + 15 slots
// beyond 2^32 - 1.
template <class V, class T = V>
EvenHistogram2D histogram2d_even(Runtime& rt, const std::vector<V>& x, const std::vector<V>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::even_histogram2d_host<V>(rt, x, y, xbins, ybins, weights, options);
  } else {
    return {};
  }
}
template <class V, class T = V>
EvenHistogram2D histogram2d_even(Runtime& rt, const View<V>& x, const View<V>& y, const EvenBins<T>& xbins, const EvenBins<T>& ybins,
                                 const std::vector<View<float>>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    detail::require_same_count("histogram2d_even: x and y", x, y);
    return detail::even_histogram2d_buffer<V>(rt, {x.handle(), x.offset()}, {y.handle(), y.offset()}, x.count(),
                                              xbins, ybins, detail::weight_ranges(x.count(), weights), options);
  } else {
    return {};
  }
}

// Without ranges, as np.histogram2d(x, y, [nx, ny]) in NumPy 2.x: each axis' range is found in its
// data as histogram_even finds it without one (minimum and maximum in V, refused when not finite,
// widened by 0.5 in V when equal, [0, 1] without points), its edges np.linspace in V (float points:
// float arithmetic, as histogram_even's), bins of no width in V left empty (np.histogram2d leaves
// them so; np.histogram refuses them). The ranges used are returned in x_lo .. y_hi. A view's
// ranges are found on the device (one read of x and one of y before the histogram's).
template <class V>
EvenHistogram2D histogram2d_even(Runtime& rt, const std::vector<V>& x, const std::vector<V>& y, std::size_t nx, std::size_t ny,
                                 const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, V>()) {
    return detail::even_histogram2d_host<V>(rt, x, y, nx, ny, weights, options);
  } else {
    return {};
  }
}
template <class V>
EvenHistogram2D histogram2d_even(Runtime& rt, const View<V>& x, const View<V>& y, std::size_t nx, std::size_t ny,
                                 const std::vector<View<float>>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, V>()) {
    detail::require_same_count("histogram2d_even: x and y", x, y);
    return detail::even_histogram2d_buffer<V>(rt, {x.handle(), x.offset()}, {y.handle(), y.offset()}, x.count(), nx, ny,
                                              detail::weight_ranges(x.count(), weights), options);
  } else {
    return {};
  }
}

// Partial histograms: each part's histogram, merged by adding: counts and tallies exactly
// (64-bit), weight sums in double (their order of addition may change the last bits, as with
// atomics). into and from must have the same bins (and, for even histograms, the same range,
// edges and weight channels); else std::invalid_argument and into is unchanged.
void merge_into(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from);
void merge_into(KeyHistogram& into, const KeyHistogram& from);
void merge_into(EvenHistogram& into, const EvenHistogram& from);
// 2-D: the same nx, ny, weight channels, ranges and edge rules.
void merge_into(EvenHistogram2D& into, const EvenHistogram2D& from);

// Over a DeviceGroup (group_forms.hpp): host data in chunks, or data resident on the devices.
std::vector<std::uint64_t> histogram(DeviceGroup& group, const std::vector<std::uint8_t>& bytes, HistogramOptions options = {});
namespace detail {
template <class T>
EvenHistogram group_histogram_even(DeviceGroup& group, const std::vector<T>& values, const EvenBins<T>& bins,
                                   const std::vector<HostFloats>& weights, HistogramOptions options);
}
// Bins and weights as histogram_even(Runtime&, ...) takes them (float or double positions; {w}
// or {w0, w1} host weight channels), each chunk's sums merged in double.
template <class V, class T = V>
EvenHistogram histogram_even(DeviceGroup& group, const std::vector<V>& values, const EvenBins<T>& bins,
                             const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::group_histogram_even<V>(group, values, bins, weights, options);
  } else {
    return {};
  }
}
namespace detail {
template <class T>
EvenHistogram2D group_histogram2d_even(DeviceGroup& group, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                       const EvenBins<T>& ybins, const std::vector<HostFloats>& weights, HistogramOptions options);
}
// Points (x[i], y[i]), bins and weights as histogram2d_even(Runtime&, ...) takes them, each
// chunk's sums merged in double.
template <class V, class T = V>
EvenHistogram2D histogram2d_even(DeviceGroup& group, const std::vector<V>& x, const std::vector<V>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<HostFloats>& weights = {}, HistogramOptions options = {}) {
  if constexpr (detail::even_types<V, T>()) {
    return detail::group_histogram2d_even<V>(group, x, y, xbins, ybins, weights, options);
  } else {
    return {};
  }
}
KeyHistogram histogram_keys(DeviceGroup& group, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
std::vector<std::uint64_t> histogram(DeviceGroup& group, const DistributedBuffer<std::uint8_t>& bytes, HistogramOptions options = {});
KeyHistogram histogram_keys(DeviceGroup& group, const DistributedBuffer<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
// float or double positions, with even bins of the same type and float weight channels.
template <class T>
EvenHistogram histogram_even(DeviceGroup& group, const DistributedBuffer<T>& values, const EvenBins<T>& bins,
                             const std::vector<DistributedBuffer<float>>& weights = {}, HistogramOptions options = {});
// The same for points: x, y and the weight channels laid out alike.
template <class T>
EvenHistogram2D histogram2d_even(DeviceGroup& group, const DistributedBuffer<T>& x, const DistributedBuffer<T>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<DistributedBuffer<float>>& weights = {},
                                 HistogramOptions options = {});
extern template EvenHistogram histogram_even<float>(DeviceGroup&, const DistributedBuffer<float>&, const EvenBins<float>&,
                                                    const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram histogram_even<double>(DeviceGroup&, const DistributedBuffer<double>&, const EvenBins<double>&,
                                                     const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram2D histogram2d_even<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&,
                                                        const EvenBins<float>&, const EvenBins<float>&,
                                                        const std::vector<DistributedBuffer<float>>&, HistogramOptions);
extern template EvenHistogram2D histogram2d_even<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&,
                                                         const EvenBins<double>&, const EvenBins<double>&,
                                                         const std::vector<DistributedBuffer<float>>&, HistogramOptions);

}  // namespace clatomics
