// clatomics/histogram.hpp — histograms of bytes, of integer keys, and of floats in even bins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/runtime.hpp"

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
// private_per_item up to 4096 bins, else local_single when the bins fit, else global_atomics.
// A strategy asked for that cannot hold the bins (__local memory, or more than 16384 private
// counters) throws std::invalid_argument.

struct HistogramOptions {
  HistogramStrategy strategy = HistogramStrategy::automatic;
};

struct KeyHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts: keys 0 .. nbins - 1
  std::uint64_t out_of_range = 0;     // keys >= nbins
};

struct EvenHistogram {
  std::vector<std::uint64_t> counts;  // nbins counts
  std::uint64_t below = 0, above = 0, nan = 0;
  std::vector<float> weights;  // per-bin sums of the weights, only when weights were given
};

namespace detail {
std::vector<std::uint64_t> histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                            HistogramOptions options);
KeyHistogram histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                   HistogramOptions options);
EvenHistogram histogram_even_buffer(Runtime& rt, cl_mem values, std::size_t offset, std::size_t count, std::size_t nbins,
                                    float lo, float hi, bool weighted, cl_mem weights, std::size_t weights_offset,
                                    HistogramOptions options);
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

// keys: cl_uint. nbins in 1 .. 2^32 - 4 (else std::invalid_argument naming nbins).
inline KeyHistogram histogram_keys(Runtime& rt, const cl::Buffer& keys, std::size_t offset, std::size_t count,
                                   std::size_t nbins, HistogramOptions options = {}) {
  return detail::histogram_keys_buffer(rt, keys(), offset, count, nbins, options);
}
KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options = {});

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
// Throws std::invalid_argument for nbins == 0 or above 2^32 - 4, non-finite lo or hi, lo >= hi,
// hi - lo or nbins / (hi - lo) not finite in float, float edges that are not strictly increasing
// (too many bins for the range: NumPy refuses those too), a weights range beyond its buffer.
inline EvenHistogram histogram_even(Runtime& rt, const cl::Buffer& values, std::size_t offset, std::size_t count,
                                    std::size_t nbins, float lo, float hi, const cl::Buffer* weights = nullptr,
                                    std::size_t weights_offset = 0, HistogramOptions options = {}) {
  return detail::histogram_even_buffer(rt, values(), offset, count, nbins, lo, hi, weights != nullptr,
                                       weights ? (*weights)() : nullptr, weights_offset, options);
}
// weights empty: none; else weights.size() must equal values.size().
EvenHistogram histogram_even(Runtime& rt, const std::vector<float>& values, std::size_t nbins, float lo, float hi,
                             const std::vector<float>& weights = {}, HistogramOptions options = {});

}  // namespace clatomics
