// Histograms: a strategy per device (plan.cpp), 32-bit counts per launch merged into 64-bit
// totals on the device (run.cpp); sizes checked against the device's and the host's memory before
// anything is allocated (requests.cpp). This file: bytes and keys; even bins: even.cpp.
#include "clatomics/histogram.hpp"

#include <stdexcept>
#include <string>

#include "core/buffer_checks.hpp"
#include "histogram/host_stream.hpp"
#include "histogram/requests.hpp"
#include "histogram/run.hpp"

namespace clatomics {

const char* strategy_name(HistogramStrategy s) {
  switch (s) {
    case HistogramStrategy::automatic: return "automatic";
    case HistogramStrategy::local_replicated: return "local_replicated";
    case HistogramStrategy::local_single: return "local_single";
    case HistogramStrategy::global_atomics: return "global_atomics";
    case HistogramStrategy::private_per_item: return "private_per_item";
  }
  throw std::invalid_argument("clatomics: histogram: options.strategy (" + std::to_string(int(s)) + ") is not a HistogramStrategy");
}

namespace {

using detail::hist::Run;
using detail::hist::Setup;
using detail::hist::add_host;
using detail::hist::key_setup;

KeyHistogram key_result(Run& run, std::size_t nbins) {
  const auto totals = run.totals();
  KeyHistogram h;
  h.counts.assign(totals.begin(), totals.begin() + std::ptrdiff_t(nbins));
  h.out_of_range = totals[nbins];
  h.strategy = run.strategy();
  return h;
}

// No bins (np.bincount(keys, minlength=0)[:0]): every key is out of range; nothing to run, but
// the strategy is still checked as it would be with bins.
KeyHistogram no_key_bins(std::size_t count, HistogramOptions options) {
  strategy_name(options.strategy);
  KeyHistogram h;
  h.out_of_range = count;
  h.strategy = options.strategy;
  return h;
}

}  // namespace

detail::Pending<std::vector<std::uint64_t>> detail::histogram_buffer_later(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                                           HistogramOptions options) {
  check_range(rt, {"histogram: bytes", bytes, offset, count, 1, Access::read});
  Run run(rt, Setup{}, options);
  run.start();
  run.add({bytes, offset, nullptr, 0, {}}, count);
  return run.totals_later();
}

std::vector<std::uint64_t> detail::histogram_buffer(Runtime& rt, cl_mem bytes, std::size_t offset, std::size_t count,
                                                    HistogramOptions options) {
  return histogram_buffer_later(rt, bytes, offset, count, options).get();
}

std::vector<std::uint64_t> histogram(Runtime& rt, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  Run run(rt, Setup{}, options);
  add_host(rt, run, bytes, nullptr, {});
  return run.totals();
}

KeyHistogram detail::histogram_keys_buffer(Runtime& rt, cl_mem keys, std::size_t offset, std::size_t count, std::size_t nbins,
                                           HistogramOptions options) {
  check_range(rt, {"histogram_keys: keys", keys, offset, count, sizeof(cl_uint), Access::read});
  const Setup setup = key_setup(rt, nbins);
  if (nbins == 0) return no_key_bins(count, options);
  Run run(rt, setup, options);
  run.start();
  run.add({keys, offset, nullptr, 0, {}}, count);
  return key_result(run, nbins);
}

KeyHistogram histogram_keys(Runtime& rt, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  const Setup setup = key_setup(rt, nbins);
  if (nbins == 0) return no_key_bins(keys.size(), options);
  Run run(rt, setup, options);
  add_host(rt, run, keys, nullptr, {});
  return key_result(run, nbins);
}

}  // namespace clatomics
