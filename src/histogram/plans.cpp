// What a histogram call would run (clatomics/plan.hpp): the plan a call of that size and those
// bins makes, its kernel built, nothing run.
#include <string>

#include "clatomics/histogram.hpp"
#include "core/cl_types.hpp"
#include "core/plan_request.hpp"
#include "histogram/numpy_bins.hpp"
#include "histogram/plan.hpp"
#include "histogram/requests.hpp"

namespace clatomics {

using detail::hist::Setup;

Plan plan_histogram(Runtime& rt, std::size_t count, HistogramOptions options) {
  return detail::hist::plan_call(rt, Setup{}, options, count).shown(rt, "histogram of " + std::to_string(count) + " bytes");
}

Plan plan_histogram_keys(Runtime& rt, std::size_t count, std::size_t nbins, HistogramOptions options) {
  if (nbins == 0) throw std::invalid_argument("clatomics: plan_histogram_keys: no bins, nothing runs");
  const Setup setup = detail::hist::key_setup(rt, nbins);
  return detail::hist::plan_call(rt, setup, options, count)
      .shown(rt, "histogram_keys of " + std::to_string(count) + " keys into " + std::to_string(nbins) + " bins");
}

template <class T>
Plan plan_histogram_even(Runtime& rt, std::size_t count, const EvenBins<T>& bins, std::size_t channels, HistogramOptions options) {
  const std::string what = "histogram_even";
  Setup setup = detail::hist::even_request<T>(rt, what, bins.nbins, 0, false, channels, options.accumulation);
  setup.x = detail::hist::given_axis<T>(what, bins, false);
  return detail::hist::plan_call(rt, setup, options, count)
      .shown(rt, what + " of " + std::to_string(count) + " " + detail::cl_type_name<T>() + " into " + std::to_string(bins.nbins) + " bins, " +
                     std::to_string(channels) + " weight channels");
}

template <class T>
Plan plan_histogram2d_even(Runtime& rt, std::size_t count, const EvenBins<T>& xbins, const EvenBins<T>& ybins, std::size_t channels,
                           HistogramOptions options) {
  const Setup setup = detail::hist::even_setup_2d(rt, xbins, ybins, channels, options.accumulation);
  return detail::hist::plan_call(rt, setup, options, count)
      .shown(rt, "histogram2d_even of " + std::to_string(count) + " " + detail::cl_type_name<T>() + " points into " +
                     std::to_string(xbins.nbins) + " x " + std::to_string(ybins.nbins) + " bins, " + std::to_string(channels) +
                     " weight channels");
}

template Plan plan_histogram_even<float>(Runtime&, std::size_t, const EvenBins<float>&, std::size_t, HistogramOptions);
template Plan plan_histogram_even<double>(Runtime&, std::size_t, const EvenBins<double>&, std::size_t, HistogramOptions);
template Plan plan_histogram2d_even<float>(Runtime&, std::size_t, const EvenBins<float>&, const EvenBins<float>&, std::size_t,
                                           HistogramOptions);
template Plan plan_histogram2d_even<double>(Runtime&, std::size_t, const EvenBins<double>&, const EvenBins<double>&, std::size_t,
                                            HistogramOptions);

Plan detail::plan_request_histogram(Runtime& rt, const PlanRequest& request) { return plan_histogram(rt, request.n); }

Plan detail::plan_request_histogram_keys(Runtime& rt, const PlanRequest& request) {
  return plan_histogram_keys(rt, request.n, request.bins);
}

// Bins over [0, 1).
Plan detail::plan_request_histogram_even(Runtime& rt, const PlanRequest& request) {
  return plan_for_type<float, double>("histogram_even", request, [&](auto value) {
    using T = decltype(value);
    return plan_histogram_even<T>(rt, request.n, {request.bins, 0.0, 1.0});
  });
}

// bins on each axis, over [0, 1).
Plan detail::plan_request_histogram2d_even(Runtime& rt, const PlanRequest& request) {
  return plan_for_type<float, double>("histogram2d_even", request, [&](auto value) {
    using T = decltype(value);
    return plan_histogram2d_even<T>(rt, request.n, {request.bins, 0.0, 1.0}, {request.bins, 0.0, 1.0});
  });
}

}  // namespace clatomics
