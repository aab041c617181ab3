// A scatter call's plan: the strategy chosen from the device and a sample of the indices, and the
// build options and launch shape of clat_scatter that follow, computed before anything runs.
#pragma once

#include <cstddef>
#include <string>

#include "clatomics/scatter.hpp"
#include "core/launch.hpp"
#include "scatter/tuning.hpp"

namespace clatomics::detail {

// The sample's verdict: indices never decreasing, or many of them on a few bins.
struct ScatterSample {
  bool sorted = false, hot = false;
  std::size_t size = 0, distinct = 0, once = 0;  // indices sampled, the bins among them, those sampled once
};

struct ScatterPlan {
  ScatterStrategy strategy = ScatterStrategy::global_atomics;
  ScatterSample sample;
  bool fixed = false;   // 128-bit fixed-point sums (deterministic floating-point sum/mean)
  bool window = false;  // fixed, float values: a window of exponents as 64-bit sums (scatter_window.cl)
  bool prop = false;    // floating-point min/max whose NaN propagates (never in place on out)
  bool counts = false;  // elements per bin: mean, or include_self false
  bool direct = false;  // accumulate straight into out (no scratch, no finish)
  bool agg = false, runs = false, solo = false;
  bool sort_rows = false;  // fixed, global slots: rows grouped by bin first (scatter_sorted_rows.cl)
  bool listed = false;     // fixed, fewer values than bins: the finish over the bins reached (scatter_listed.cl)
  bool marked = false;     // fixed, few bins reached: the finish over the blocks of slots updated (scatter_fixed.cl)
  bool limbs = false;      // window, local_private: the copies as two 32-bit sums (scatter_window.cl)
  unsigned shift = 0;           // local_private: 1 << shift copies
  std::size_t cache_slots = 0;  // local_cache
  std::size_t group = 1, max_groups = 1;
  std::size_t store_bytes = 4;  // an accumulator slot: words() of store_bytes
  std::size_t words() const { return fixed && !window ? 2 : 1; }  // 128-bit fixed point: two
  ScatterTuning tuning{};
  // What runs: the kernel, its file and exact build options, the first launch's shape, the
  // launches, and the bytes of __local memory each work-group takes.
  const char* kernel = "clat_scatter";
  const char* file = "kernels/scatter.cl";
  std::string options;
  Grid grid;
  std::size_t launches = 0, local_bytes = 0;

  // The plan as clatomics::plan.hpp shows plans (what: the entry point's name).
  Plan plan(const Runtime& rt, const char* what) const;
};

// The plan of call on rt's device: every check of the call, and the sample of its indices (which
// reads them on the device), but nothing that writes its outputs. A call with nothing to
// accumulate plans the strategy it reports and launches nothing. what: the entry point, as the
// call's refusals name it.
ScatterPlan plan_scatter(Runtime& rt, const ScatterCall& call, const char* what);

}  // namespace clatomics::detail
