// A histogram call's request checked and turned into a Setup: bin counts, weight channels and
// accumulations refused where they cannot run, and bins refused where their counts would not fit
// the device's or the host's memory, before anything is allocated.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "clatomics/histogram.hpp"
#include "histogram/numpy_bins.hpp"
#include "histogram/plan.hpp"

namespace clatomics::detail::hist {

// The memory the setup's counts, sums and edges take on the device and the host within bounds.
// setup: kind, nbins (or both axes' nbins), doubles, channels and accumulation set.
void check_memory(const Runtime& rt, const std::string& what, const Setup& setup);

// An even histogram's request before its range is known: refuses bad nbins, channels and
// accumulations, and bins beyond memory. T: float, double.
template <class T>
Setup even_request(const Runtime& rt, const std::string& what, std::size_t nx, std::size_t ny, bool two_d, std::size_t channels,
                   WeightAccumulation accumulation);

// One axis of even bins given, for one axis or two: the edge rule its range's type
// (EvenBins::range_type) makes; refused where the type is no RangeType.
template <class T>
Axis given_axis(const std::string& what, const EvenBins<T>& bins, bool two_d);

// A 2-D even histogram's setup: the request checked, then each axis' edges over its range (the
// same setup for the call and its plan).
template <class T>
Setup even_setup_2d(const Runtime& rt, const EvenBins<T>& xbins, const EvenBins<T>& ybins, std::size_t channels,
                    WeightAccumulation accumulation);

// Keys: nbins within bounds and memory.
Setup key_setup(const Runtime& rt, std::size_t nbins);

// Host weights: each channel as long as the values.
void check_host_weights(const std::string& what, const std::vector<HostFloats>& weights, std::size_t n);

// Device weights: each channel's range within its buffer.
void check_buffer_weights(const Runtime& rt, const std::string& what, const std::vector<WeightRange>& weights, std::size_t count);

}  // namespace clatomics::detail::hist
