// What a histogram call counts (Setup) and how this device counts it (Plan): the strategy, the
// kernel and its build options, the launch shape. Computed before anything is allocated or run.
#pragma once

#include <cstddef>
#include <string>

#include "clatomics/histogram.hpp"
#include "core/kernel_args.hpp"
#include "histogram/numpy_bins.hpp"
#include "histogram/tuning.hpp"

namespace clatomics::detail::hist {

enum class Kind { bytes, keys, even };

constexpr std::size_t max_nbins = (std::size_t(1) << 32) - 4;
constexpr std::size_t two_d_tallies = 15;  // the (where on x, where on y) classes of points in no bin
constexpr std::size_t max_channels = 4;

struct Setup {
  Kind kind = Kind::bytes;
  std::size_t nbins = 256;  // bytes and keys; even bins: x.nbins (times y.nbins over two axes)
  bool doubles = false;     // even bins: double positions
  bool two_d = false;
  Axis x, y;
  std::size_t channels = 0;  // weight channels
  WeightAccumulation accumulation = WeightAccumulation::float_atomic;
  std::size_t bins() const { return two_d ? x.nbins * y.nbins : nbins; }
  std::size_t slots() const {
    return kind == Kind::bytes ? 256 : kind == Kind::keys ? nbins + 1 : two_d ? bins() + two_d_tallies : nbins + 3;
  }
  std::size_t acc_bytes() const { return accumulation == WeightAccumulation::float_atomic ? 4 : 8; }
  std::size_t position_bytes() const { return kind == Kind::bytes ? 1 : doubles ? 8 : 4; }
};

// The counting kernels (kernels/histogram/count.cl), listed beside their launches (run.cpp).
extern const Signature global_kernel, local_kernel, private_kernel, merge_kernel;

// The resolved strategy and what its kernel is built and launched with.
struct Plan {
  HistogramStrategy strategy = HistogramStrategy::global_atomics;
  const Signature* kernel = &global_kernel;
  HistogramTuning tuning{};  // the device class's numbers the plan was made from
  unsigned shift = 0;         // local: 1 << shift copies of the counts
  unsigned wshift = 0;        // local: 1 << wshift copies of the weights' partial sums
  int phases = 1;             // local: CLAT_HIST_PHASES (kernels/histogram/config.cl)
  std::size_t wcopies = 1;    // copies of the weights' global sums, added up when read (run.cpp)
  std::size_t group = 1, max_groups = 1;
  std::size_t fill_items = 0;  // when set: max_groups = fill_items / the group size the kernel allows
  std::size_t slots_cap = 256, copies = 1;  // private: counters per copy, copies per work-item
  int ahead = 1;          // steps' loads before their atomics (CLAT_HIST_AHEAD)
  bool direct = false;  // groups add into the 64-bit totals themselves: no 32-bit counts, no merge
  std::string options;  // the kernel's exact build options
  // The first launch's shape (global and local work sizes) once the kernel is built: plan_call.
  std::size_t global = 0, local = 0;

  // The plan as clatomics/plan.hpp shows plans (what: the call, in words).
  clatomics::Plan shown(const Runtime& rt, const std::string& what) const;
};

// Refuses a strategy the setup cannot run with on this device.
Plan make_plan(const Runtime& rt, const Setup& setup, HistogramStrategy asked);

// The plan of a call that counts `count` elements, its kernel built but nothing run: the launch
// shape is the one the call's first launch takes (run.cpp).
Plan plan_call(Runtime& rt, const Setup& setup, HistogramOptions options, std::size_t count);

}  // namespace clatomics::detail::hist
