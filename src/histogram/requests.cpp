// The checks of a histogram call's request (requests.hpp), before anything is allocated.
#include "histogram/requests.hpp"

#include <algorithm>
#include <cstdio>
#include <type_traits>

#include <unistd.h>

#include "core/buffer_checks.hpp"
#include "core/runtime_state.hpp"
#include "histogram/numpy_bins.hpp"

namespace clatomics::detail::hist {
namespace {

std::string to_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GiB", bytes / double(std::size_t(1) << 30));
  return text;
}

// nbins in range (the argument is named `name`).
void check_nbins(const std::string& what, const char* name, std::size_t nbins) {
  if (nbins == 0) refuse(what, std::string(name) + " is 0; it must be at least 1");
  if (nbins > max_nbins) refuse(what, std::string(name) + " is " + std::to_string(nbins) + "; it must be at most 2^32 - 4");
}

}  // namespace

// Checked before anything (edges included) is allocated.
void check_memory(const Runtime& rt, const std::string& what, const Setup& setup) {
  const auto& caps = rt.device_info().caps;
  const double slots = double(setup.slots()), bins = double(setup.bins());
  const double edges = setup.kind != Kind::even ? 0 : double(setup.x.nbins + 1) + (setup.two_d ? double(setup.y.nbins + 1) : 0);
  const double largest = slots * 8;  // the 64-bit totals: the largest buffer but for many weight channels
  const double weights = double(setup.channels) * slots * double(setup.acc_bytes());
  const double device = largest + slots * 4 + edges * double(setup.position_bytes()) + weights;
  const double host = bins * 8 + edges * 8 + double(setup.channels) * bins * 8 + (setup.channels ? bins * 4 : 0);
  const double host_memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  const auto too_many = [&](const std::string& why) {
    refuse(what, "nbins = " + std::to_string(setup.bins()) + " is too many: " + why);
  };
  if (std::max(largest, weights) > double(caps.max_mem_alloc_size))
    too_many("its 64-bit counts or weight sums take " + to_text(std::max(largest, weights)) +
             ", more than one buffer may hold on this device (CL_DEVICE_MAX_MEM_ALLOC_SIZE " + to_text(double(caps.max_mem_alloc_size)) +
             ")");
  if (device > double(caps.global_mem_size) / 2)
    too_many("its buffers take " + to_text(device) + ", more than half the device's memory (CL_DEVICE_GLOBAL_MEM_SIZE " +
             to_text(double(caps.global_mem_size)) + ")");
  if (host_memory > 0 && host > host_memory / 2)
    too_many("its results take " + to_text(host) + " of host memory, more than half of the host's " + to_text(host_memory));
}

template <class T>
Setup even_request(const Runtime& rt, const std::string& what, std::size_t nx, std::size_t ny, bool two_d, std::size_t channels,
                   WeightAccumulation accumulation) {
  Setup setup;
  setup.kind = Kind::even;
  setup.doubles = std::is_same_v<T, double>;
  setup.two_d = two_d;
  check_nbins(what, setup.two_d ? "xbins.nbins" : "nbins", nx);
  if (setup.two_d) {
    check_nbins(what, "ybins.nbins", ny);
    if (nx > (max_nbins - two_d_tallies) / ny)
      refuse(what, "xbins.nbins * ybins.nbins = " + std::to_string(nx) + " * " + std::to_string(ny) + " bins exceed 2^32 - 19");
  }
  setup.nbins = nx;
  setup.x.nbins = nx;
  setup.y.nbins = ny;
  if (channels > max_channels) refuse(what, "weights: " + std::to_string(channels) + " channels, at most 4");
  setup.channels = channels;
  // Without weights there is nothing to accumulate: one program whatever was asked.
  setup.accumulation = channels ? accumulation : WeightAccumulation::float_atomic;
  if (channels) switch (accumulation) {
      case WeightAccumulation::float_atomic: break;
      case WeightAccumulation::compensated_float2:
        if (!rt.device_info().caps.int64_base_atomics)
          refuse(what, "options.accumulation compensated_float2 needs cl_khr_int64_base_atomics, which " +
                           rt.device_info().caps.device_name + " lacks");
        break;
      case WeightAccumulation::double_atomic: require_double(rt, (what + ": options.accumulation double_atomic").c_str()); break;
      default: refuse(what, "options.accumulation is not a WeightAccumulation");
    }
  if (setup.doubles) require_double(rt, (what + ": double positions").c_str());
  check_memory(rt, what, setup);
  return setup;
}

template <class T>
Axis given_axis(const std::string& what, const EvenBins<T>& bins, bool two_d) {
  EdgeRule rule = EdgeRule::given_range;
  switch (bins.range_type) {
    case RangeType::python_float: rule = two_d ? EdgeRule::two_d : EdgeRule::given_range; break;
    case RangeType::float64: rule = two_d ? EdgeRule::two_d : EdgeRule::given_double; break;  // np.histogram2d: double edges always
    case RangeType::positions_type: rule = two_d ? EdgeRule::two_d_data : EdgeRule::data_range; break;
    default: refuse(what, "range_type is not a RangeType");
  }
  return even_axis<T>(what, bins.nbins, bins.lo, bins.hi, rule);
}

template <class T>
Setup even_setup_2d(const Runtime& rt, const EvenBins<T>& xbins, const EvenBins<T>& ybins, std::size_t channels,
                    WeightAccumulation accumulation) {
  const std::string what = "histogram2d_even";
  Setup setup = even_request<T>(rt, what, xbins.nbins, ybins.nbins, true, channels, accumulation);
  setup.x = given_axis<T>(what + ": xbins", xbins, true);
  setup.y = given_axis<T>(what + ": ybins", ybins, true);
  return setup;
}

Setup key_setup(const Runtime& rt, std::size_t nbins) {
  if (nbins > max_nbins) refuse("histogram_keys", "nbins is " + std::to_string(nbins) + "; it must be at most 2^32 - 4");
  Setup setup;
  setup.kind = Kind::keys;
  setup.nbins = nbins;
  check_memory(rt, "histogram_keys", setup);
  return setup;
}

void check_host_weights(const std::string& what, const std::vector<HostFloats>& weights, std::size_t n) {
  for (std::size_t c = 0; c < weights.size(); ++c)
    if (weights[c].size() != n)
      refuse(what, "weights[" + std::to_string(c) + "] has " + std::to_string(weights[c].size()) + " elements, values has " +
                       std::to_string(n) + "; they must be of the same length");
}

void check_buffer_weights(const Runtime& rt, const std::string& what, const std::vector<WeightRange>& weights,
                          std::size_t count) {
  for (std::size_t c = 0; c < weights.size(); ++c) {
    const std::string name = what + ": weights" + (weights.size() > 1 ? "[" + std::to_string(c) + "]" : "");
    check_range(rt, {name.c_str(), weights[c].buffer, weights[c].offset, count, sizeof(float), Access::read});
  }
}

template Axis given_axis<float>(const std::string&, const EvenBins<float>&, bool);
template Axis given_axis<double>(const std::string&, const EvenBins<double>&, bool);
template Setup even_request<float>(const Runtime&, const std::string&, std::size_t, std::size_t, bool, std::size_t, WeightAccumulation);
template Setup even_request<double>(const Runtime&, const std::string&, std::size_t, std::size_t, bool, std::size_t, WeightAccumulation);
template Setup even_setup_2d<float>(const Runtime&, const EvenBins<float>&, const EvenBins<float>&, std::size_t, WeightAccumulation);
template Setup even_setup_2d<double>(const Runtime&, const EvenBins<double>&, const EvenBins<double>&, std::size_t, WeightAccumulation);

}  // namespace clatomics::detail::hist
