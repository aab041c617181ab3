// clatomics/histogram.hpp — histograms of bytes, of integer keys, and of floats in even bins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"

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
                       // floats per bin, updated as one 64-bit compare-exchange; every add is
                       // Joldes-Muller-Popescu's AccurateDWPlusDW (relative error <= 3u^2 /
                       // (1 - 4u), u = 2^-24), the pair read back as hi + lo in double. Needs
                       // cl_khr_int64_base_atomics. Sums of floats that share a grid of 2^-k
                       // (0.1f, for instance) stay exact while they span fewer than 48 bits.
                       // Infinities, NaN and sums past float's range: as float_atomic's.
  double_atomic,       // (n_b - 1) * 2^-53 * S, to first order: double adds. Needs fp64 and
                       // cl_khr_int64_base_atomics.
};

struct HistogramOptions {
  HistogramStrategy strategy = HistogramStrategy::automatic;
  WeightAccumulation accumulation = WeightAccumulation::float_atomic;  // even histograms' weights only
};

struct KeyHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts: keys 0 .. nbins - 1
  std::uint64_t out_of_range = 0;     // keys >= nbins
};

struct EvenHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<float> weights;  // channel 0's per-bin sums rounded to float, when weights were given
  std::vector<std::vector<double>> sums;  // per weight channel, the nbins per-bin sums (empty: none)
  double lo = 0, hi = 0;  // the range used: the one given, or the one found in the data
  // How the edges were computed from lo and hi (histogram_even's comments say when each applies);
  // histograms merge only when these agree too.
  enum class Edges {
    double_linspace_to_float,  // float positions: np.linspace in double, each edge rounded to float
    float_linspace,            // float positions without a range: np.linspace in float
    double_linspace,           // double positions
  } edges = Edges::double_linspace_to_float;
};

// Even bins over [lo, hi] on one axis; T is the positions' type (float or double): it says how
// a cl::Buffer of positions is read, so it is always written out (EvenBins<double>{100, 0, 1}).
template <class T>
struct EvenBins {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "EvenBins: float or double positions");
  std::size_t nbins = 0;
  T lo = 0, hi = 0;
};

// One weight channel in a device buffer: floats, one per value, from offset.
struct WeightBuffer {
  cl::Buffer buffer;
  std::size_t offset = 0;
};
// Weight channels in host memory: each one float per value (null pointers refused).
using HostWeights = std::vector<const std::vector<float>*>;

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
};

namespace detail {
std::vector<std::uint64_t> histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                            HistogramOptions options);
KeyHistogram histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                   HistogramOptions options);
EvenHistogram histogram_even_buffer(Runtime& rt, cl_mem values, std::size_t offset, std::size_t count, std::size_t nbins,
                                    float lo, float hi, bool weighted, cl_mem weights, std::size_t weights_offset,
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
std::vector<WeightRange> weight_ranges(const std::vector<WeightBuffer>& weights);
// Weight views as weight channels, each as long as the positions (std::invalid_argument otherwise).
inline std::vector<WeightRange> weight_ranges(std::size_t count, const std::vector<View<float>>& weights) {
  std::vector<WeightRange> ranges;
  for (const View<float>& w : weights) {
    if (w.count() != count)
      throw std::invalid_argument("clatomics: histogram weights: a view of " + std::to_string(w.count()) + " weights for " +
                                  std::to_string(count) + " positions; they must be of the same length");
    ranges.push_back({w.handle(), w.offset()});
  }
  return ranges;
}
template <class T>
EvenHistogram even_histogram_buffer(Runtime& rt, PositionRange values, std::size_t count, std::size_t nbins, const T* range,
                                    const std::vector<WeightRange>& weights, HistogramOptions options);
template <class T>
EvenHistogram2D even_histogram2d_buffer(Runtime& rt, PositionRange x, PositionRange y, std::size_t count, const EvenBins<T>& xbins,
                                        const EvenBins<T>& ybins, const std::vector<WeightRange>& weights, HistogramOptions options);
}  // namespace detail

// Counts are 32-bit on the device within one launch (launches stay below 2^32 elements) and are
// added into 64-bit totals: no count overflows. Every function throws std::invalid_argument
// before anything is enqueued or allocated for a null buffer or one the device cannot read, a
// range beyond its buffer or overflowing size_t, bins whose counts (8 bytes each) do not fit in
// one device buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) or in half the device's or the host's memory,
// and the bad arguments named below.

// 256 bins over unsigned bytes: result[b] = number of bytes equal to b in
// bytes[offset, offset + count).
inline std::vector<std::uint64_t> histogram(Runtime& rt, const cl::Buffer& bytes, std::size_t offset, std::size_t count,
                                            HistogramOptions options = {}) {
  return detail::histogram_buffer(rt, bytes(), offset, count, options);
}
// The same over host data, streamed through the device in chunks when larger than one buffer.
std::vector<std::uint64_t> histogram(Runtime& rt, const std::vector<std::uint8_t>& bytes, HistogramOptions options = {});
// A view of bytes: histogram(rt, view<cl_uchar>(buffer)).
inline std::vector<std::uint64_t> histogram(Runtime& rt, const View<cl_uchar>& bytes, HistogramOptions options = {}) {
  return detail::histogram_buffer(rt, bytes.handle(), bytes.offset(), bytes.count(), options);
}

// keys: cl_uint. nbins in 1 .. 2^32 - 4 (else std::invalid_argument naming nbins).
inline KeyHistogram histogram_keys(Runtime& rt, const cl::Buffer& keys, std::size_t offset, std::size_t count,
                                   std::size_t nbins, HistogramOptions options = {}) {
  return detail::histogram_keys_buffer(rt, keys(), offset, count, nbins, options);
}
KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});
inline KeyHistogram histogram_keys(Runtime& rt, const View<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {}) {
  return detail::histogram_keys_buffer(rt, keys.handle(), keys.offset(), keys.count(), nbins, options);
}

// nbins even bins over [lo, hi] for float values, NumPy's rule (np.histogram(values, nbins,
// (lo, hi)) on float32 data): the edges are np.linspace(lo, hi, nbins + 1) computed in double
// and rounded to float (edge k = float(k * ((double(hi) - double(lo)) / nbins) + lo), the last
// edge hi itself); bin b holds edge_b <= x < edge_b+1, the last bin hi too. Values < lo count in
// below, > hi in above (infinities too), NaN in nan (NumPy drops those; here they are tallied).
// Each value costs a bounded number of steps, whatever the range (a guess, then a binary search
// over the edges when the guess misses).
// Weights (optional: a null pointer for none; a pointer to a null buffer is refused; floats,
// one per value from weights_offset): per-bin sums through the float
// atomic add, in float (their order of addition varies from run to run, and so may their last
// bits); values outside the bins add no weight.
// lo == hi widens to [lo - 0.5, hi + 0.5] in float, as NumPy does (the result's lo and hi say so).
// Throws std::invalid_argument for nbins == 0 or above 2^32 - 4, non-finite lo or hi, lo > hi,
// hi - lo not finite in float, float edges that are not strictly increasing (too many bins for
// the range: NumPy refuses those too), a weights range beyond its buffer. (Where nbins / (hi -
// lo) overflows, every value finds its bin by the binary search.)
inline EvenHistogram histogram_even(Runtime& rt, const cl::Buffer& values, std::size_t offset, std::size_t count,
                                    std::size_t nbins, float lo, float hi, const cl::Buffer* weights = nullptr,
                                    std::size_t weights_offset = 0, HistogramOptions options = {}) {
  return detail::histogram_even_buffer(rt, values(), offset, count, nbins, lo, hi, weights != nullptr,
                                       weights ? (*weights)() : nullptr, weights_offset, options);
}
// weights empty: none; else weights.size() must equal values.size().
EvenHistogram histogram_even(Runtime& rt, const std::vector<float>& values, std::size_t nbins, float lo, float hi,
                             const std::vector<float>& weights = {}, HistogramOptions options = {});
// The same call for double values: the EvenBins<double> form below (edges in double, NumPy's
// float64 rule).
inline EvenHistogram histogram_even(Runtime& rt, const std::vector<double>& values, std::size_t nbins, double lo, double hi,
                                    const std::vector<float>& weights = {}, HistogramOptions options = {});

// The same for float or double positions with up to 4 weight channels summed in one pass
// (options.accumulation says how; EvenHistogram::sums holds them, `weights` channel 0 in float).
// Float positions: the rule above. Double positions: np.histogram on float64 data: the edges
// are np.linspace(lo, hi, nbins + 1) in double (edge k = (k * step) + lo with step = (hi - lo)
// / nbins, each operation rounded once; the last edge hi), compared with the values as they are.
// Throws std::invalid_argument as above, and for more than 4 channels, a weight channel's range
// beyond its buffer, double positions or double_atomic sums on a device without fp64 and 64-bit
// atomics (Runtime::supports_double), compensated_float2 sums without cl_khr_int64_base_atomics.
template <class T>
EvenHistogram histogram_even(Runtime& rt, const cl::Buffer& values, std::size_t offset, std::size_t count, const EvenBins<T>& bins,
                             const std::vector<WeightBuffer>& weights = {}, HistogramOptions options = {}) {
  const T range[2] = {bins.lo, bins.hi};
  return detail::even_histogram_buffer<T>(rt, {values(), offset}, count, bins.nbins, range, detail::weight_ranges(weights), options);
}
template <class T>
EvenHistogram histogram_even(Runtime& rt, const std::vector<T>& values, const EvenBins<T>& bins, const HostWeights& weights = {},
                             HistogramOptions options = {});
inline EvenHistogram histogram_even(Runtime& rt, const std::vector<double>& values, std::size_t nbins, double lo, double hi,
                                    const std::vector<float>& weights, HistogramOptions options) {
  HostWeights channels;
  if (!weights.empty()) channels.push_back(&weights);
  return histogram_even(rt, values, EvenBins<double>{nbins, lo, hi}, channels, options);
}
// Views: the positions' type comes with them, weights are views of floats as long as the
// positions: histogram_even(rt, view<double>(x), EvenBins<double>{100, 0, 1}, {view<float>(w)}).
template <class T>
EvenHistogram histogram_even(Runtime& rt, const View<T>& values, const EvenBins<T>& bins, const std::vector<View<float>>& weights = {},
                             HistogramOptions options = {}) {
  const T range[2] = {bins.lo, bins.hi};
  return detail::even_histogram_buffer<T>(rt, {values.handle(), values.offset()}, values.count(), bins.nbins, range,
                                          detail::weight_ranges(values.count(), weights), options);
}

// Without a range, as np.histogram(values, nbins) in NumPy 2.x (numpy/lib/_histograms_impl.py,
// _get_outer_edges and _get_bin_edges; NEP 50 promotion): lo, hi = the data's minimum and maximum
// in T; data with a NaN or an infinity is refused (NumPy raises ValueError "autodetected range of
// [lo, hi] is not finite"); lo == hi widens to lo - 0.5, hi + 0.5 computed in T; no data gives
// [0, 1] as if given. The edges are then np.linspace(lo, hi, nbins + 1) computed in T itself:
// float32 data gets float32 arithmetic (step = float((hi - lo) / float(nbins)), edge k =
// float(float(k) * step) + lo, each operation rounded to float; where step underflows to 0,
// float(float(k) / nbins) * (hi - lo) + lo), edges that do not increase refused ("Too many bins
// for data range"). The bins are those edges' (bin b holds edges[b] <= x < edges[b + 1], the last
// bin hi too), which is np.histogram's result wherever its first index guess is within one bin
// of the right one (it corrects a guess by one bin at most): at least wherever the bins are more
// than a few ulps of lo and hi wide. The range used is returned in lo, hi; below, above and nan
// are 0. The cl::Buffer form finds the range on the device (one read of the values before the
// histogram's), so bad data is refused after that read, before the histogram is enqueued; T is
// explicit: histogram_even<double>(rt, buffer, 0, n, 100).
template <class T>
EvenHistogram histogram_even(Runtime& rt, const cl::Buffer& values, std::size_t offset, std::size_t count,
                             std::size_t nbins, const std::vector<WeightBuffer>& weights = {},
                             HistogramOptions options = {}) {
  return detail::even_histogram_buffer<T>(rt, {values(), offset}, count, nbins, nullptr, detail::weight_ranges(weights), options);
}
template <class T>
EvenHistogram histogram_even(Runtime& rt, const std::vector<T>& values, std::size_t nbins, const HostWeights& weights = {},
                             HistogramOptions options = {});
template <class T>
EvenHistogram histogram_even(Runtime& rt, const View<T>& values, std::size_t nbins, const std::vector<View<float>>& weights = {},
                             HistogramOptions options = {}) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "clatomics::histogram_even: float or double positions");
  return detail::even_histogram_buffer<T>(rt, {values.handle(), values.offset()}, values.count(), nbins, nullptr,
                                          detail::weight_ranges(values.count(), weights), options);
}

// 2-D even bins over points (x[i], y[i]), as numpy.histogram2d(x, y, [nx, ny], [[xlo, xhi], [ylo,
// yhi]]) (histogramdd): each axis' edges np.linspace(lo, hi, n + 1) in double, whatever T (float
// points are compared with the double edges exactly: each edge rounded up to the next float);
// bin i of an axis holds edges[i] <= v < edges[i + 1], the last bin hi too; x is the first axis.
// NumPy drops points outside; here they are tallied per axis (EvenHistogram2D). Weights and
// accumulation as for histogram_even. Throws std::invalid_argument as histogram_even does for
// each axis (naming xbins or ybins; equal edges are allowed, as NumPy allows them here), and for
// nx * ny + 15 slots beyond 2^32 - 1.
template <class T>
EvenHistogram2D histogram2d_even(Runtime& rt, const cl::Buffer& x, std::size_t x_offset, const cl::Buffer& y, std::size_t y_offset,
                                 std::size_t count, const EvenBins<T>& xbins, const EvenBins<T>& ybins,
                                 const std::vector<WeightBuffer>& weights = {}, HistogramOptions options = {}) {
  return detail::even_histogram2d_buffer<T>(rt, {x(), x_offset}, {y(), y_offset}, count, xbins, ybins, detail::weight_ranges(weights),
                                            options);
}
template <class T>
EvenHistogram2D histogram2d_even(Runtime& rt, const std::vector<T>& x, const std::vector<T>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const HostWeights& weights = {}, HistogramOptions options = {});
// Views of the same length (std::invalid_argument otherwise).
template <class T>
EvenHistogram2D histogram2d_even(Runtime& rt, const View<T>& x, const View<T>& y, const EvenBins<T>& xbins, const EvenBins<T>& ybins,
                                 const std::vector<View<float>>& weights = {}, HistogramOptions options = {}) {
  detail::require_same_count("histogram2d_even: x and y", x, y);
  return detail::even_histogram2d_buffer<T>(rt, {x.handle(), x.offset()}, {y.handle(), y.offset()}, x.count(), xbins, ybins,
                                            detail::weight_ranges(x.count(), weights), options);
}

}  // namespace clatomics
