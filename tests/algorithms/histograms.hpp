// What histogram, histogram_keys, histogram_even and histogram2d_even share: every strategy, and
// reach_kernels' data.
#pragma once

#include <algorithm>
#include <stdexcept>

#include "algorithms/common.hpp"

namespace test::algorithms {

using Counts = std::vector<std::uint64_t>;

// f over each strategy; a strategy this device cannot run for these bins is refused before
// anything is built.
template <class F>
void each_strategy(F&& f) {
  using clatomics::HistogramStrategy;
  constexpr HistogramStrategy strategies[] = {HistogramStrategy::automatic, HistogramStrategy::local_replicated,
                                              HistogramStrategy::local_single, HistogramStrategy::global_atomics,
                                              HistogramStrategy::private_per_item};
  for (const HistogramStrategy s : strategies) try {
      f(clatomics::HistogramOptions{s});
    } catch (const std::invalid_argument&) {
    }
}

struct Data {
  std::vector<std::uint8_t> bytes;
  std::vector<cl_uint> keys;
  std::vector<float> x, w;
};
inline Data kernel_data() {
  Data d;
  d.bytes.resize(300000), d.keys.resize(300000), d.x.resize(300000);
  for (std::size_t i = 0; i < d.bytes.size(); ++i) d.bytes[i] = std::uint8_t(i * 7), d.keys[i] = cl_uint(i % 700), d.x[i] = float(i % 97) - 40.0f;
  d.w.assign(d.x.size(), 0.25f);
  return d;
}

// np.histogram(values, nbins) without a range (and each axis of np.histogram2d without one, NumPy
// 2): the data's own, edges in float arithmetic.
inline std::vector<float> found_edges(const std::vector<float>& v, std::size_t nbins) {
  if (v.empty()) return test::numpy_edges(nbins, 0.0f, 1.0f);
  float lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  if (lo == hi) lo -= 0.5f, hi += 0.5f;
  const float step = (hi - lo) / float(nbins);
  std::vector<float> edges(nbins + 1);
  for (std::size_t k = 0; k < nbins; ++k) edges[k] = float(k) * step + lo;
  edges[nbins] = hi;
  return edges;
}

}  // namespace test::algorithms
