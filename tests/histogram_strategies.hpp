// tests/histogram_strategies.hpp — every HistogramStrategy, for the histogram suites to loop over.
#pragma once

#include <string>

#include "clatomics/histogram.hpp"

namespace test {

inline constexpr clatomics::HistogramStrategy histogram_strategies[] = {
    clatomics::HistogramStrategy::automatic, clatomics::HistogramStrategy::local_replicated,
    clatomics::HistogramStrategy::local_single, clatomics::HistogramStrategy::global_atomics,
    clatomics::HistogramStrategy::private_per_item};

inline std::string name_of(clatomics::HistogramStrategy s) {
  const char* names[] = {"automatic", "local_replicated", "local_single", "global_atomics", "private_per_item"};
  return names[int(s)];
}

}  // namespace test
