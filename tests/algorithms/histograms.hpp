// What histogram, histogram_keys, histogram_even and histogram2d_even share: every strategy, and
// reach_kernels' data.
#pragma once

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

}  // namespace test::algorithms
