// The histogram's tuning numbers, one set per class of device, in one place: what the plan
// (plan.cpp) chooses and launches with. The measurements behind them: bench/BENCHMARKS.md.
#pragma once

#include <cstddef>

#include "clatomics/capabilities.hpp"

namespace clatomics::detail::hist {

struct HistogramTuning {
  const char* device_class;  // "cpu", "gpu" or "nvidia gpu"
  // automatic strategy: private counters where they fit (CPUs: one thread runs a work-group, no
  // contention to spread), else __local copies (GPUs: many work-items share a compute unit).
  bool prefer_private;

  // local_replicated / local_single.
  std::size_t local_group;            // work-group size wanted (capped by the device, a power of two)
  std::size_t max_local_copies;       // __local copies per work-group: one per bank
  std::size_t local_groups_per_cu;    // work-groups per compute unit at most
  std::size_t local_items_per_cu;     // 0: none; else work-groups enough to keep this many items per compute unit resident
  bool fixed_local_group;             // compile clat_hist_local for exactly local_group (reqd_work_group_size)
  std::size_t local_bank_bytes;       // one conflict-free __local access: banks times their width (weights' copies)

  // private_per_item.
  std::size_t max_private_counters;   // 32-bit counters per work-item
  std::size_t private_min_slots;      // counters per copy at least (a power of two)
  std::size_t private_byte_copies;    // copies per work-item for bytes (the four bytes of a word into different copies)
  std::size_t private_group;          // work-group size wanted

  // global_atomics, and the range kernel.
  std::size_t global_group;
  std::size_t range_group;
  // clat_hist_merge.
  std::size_t merge_group;

  // Steps' loads issued before their atomics, where a step reads one axis and at most
  // ahead_max_channels weight channels (more measured slower).
  int loads_ahead;
  std::size_t ahead_max_channels;

  bool contiguous;  // CLAT_CONTIGUOUS: each work-item a contiguous chunk (CPUs' caches)
};

HistogramTuning histogram_tuning(const Capabilities& caps);

}  // namespace clatomics::detail::hist
