// tests/histogram_strategies.hpp — every HistogramStrategy and WeightAccumulation, for the histogram
// suites to loop over.
#pragma once

#include <string>

#include "clatomics/histogram.hpp"

namespace test {

inline constexpr clatomics::HistogramStrategy histogram_strategies[] = {
    clatomics::HistogramStrategy::automatic, clatomics::HistogramStrategy::local_replicated,
    clatomics::HistogramStrategy::local_single, clatomics::HistogramStrategy::global_atomics,
    clatomics::HistogramStrategy::private_per_item};

inline std::string name_of(clatomics::HistogramStrategy s) { return clatomics::strategy_name(s); }

inline constexpr clatomics::WeightAccumulation weight_accumulations[] = {
    clatomics::WeightAccumulation::float_atomic, clatomics::WeightAccumulation::compensated_float2,
    clatomics::WeightAccumulation::double_atomic};
// The name of each, indexed by its value.
inline const char* const accumulation_names[] = {"float_atomic", "compensated_float2", "double_atomic"};

// What a result reports: the strategy forced, or the one automatic chose (never automatic).
inline bool ran_as_asked(clatomics::HistogramStrategy asked, clatomics::HistogramStrategy ran) {
  return asked == clatomics::HistogramStrategy::automatic ? ran != asked : ran == asked;
}

}  // namespace test
