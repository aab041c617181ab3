// Scatter's tuning: every number the strategy choice and the launches are tuned with, one set per
// device class, and what __local memory holds for a call's slots under them.
#pragma once

#include <cstddef>

#include "clatomics/capabilities.hpp"

namespace clatomics::detail {

struct ScatterTuning {
  const char* device_class;
  // CPUs: one work-item per work-group (PoCL runs a group on one thread), so __local memory is
  // private and needs no atomics (CLAT_SC_SOLO). GPUs: groups of `group`, a few per compute unit.
  bool solo;
  std::size_t group;  // clat_scatter's work-group, capped by the device
  // local_private: the most bank-spread copies of every slot (a power of two, at most the group).
  std::size_t max_copies;
  // Work-groups per compute unit when each merges its __local slots once (local_private,
  // local_cache); 0: as many as a grid-stride launch keeps resident.
  std::size_t merging_groups_per_cu;
  std::size_t items_per_step;  // CLAT_SC_K: consecutive elements a work-item takes per step
  // CLAT_SC_K of the deterministic sums, whose per-value path holds more registers: on the H200
  // (64M floats, det / fast time), 16 -> 8 items took 1 bin 1.38x -> 1.22x, 256 bins uniform
  // 2.16x -> 1.84x, 256 sorted 1.39x -> 1.18x, 65,536 sorted / one bin 2.05x / 1.65x -> 1.55x /
  // 1.29x, 16M sorted / one bin 2.07x / 2.04x -> 1.87x / 1.64x; 4 items and 32 did less well.
  // On PoCL 3.1, 8 items made them up to a fifth slower (1 bin, sorted, one bin).
  std::size_t fixed_items_per_step;
  // Bytes of __local memory left for clat_scatter's two other __local arguments when they are not
  // in use (and their alignment).
  std::size_t local_reserve;
  // local_cache: the table's slots, a power of two from max down to min that fills at most half
  // the __local memory.
  std::size_t cache_max_slots, cache_min_slots;
  // The strategy's sample of the indices, and when it calls them hot: at least this share of it
  // on repeated bins, and this many times what spread indices would put there.
  std::size_t sample_size;
  double hot_share, hot_over_spread;
  // The small kernels (checks, fills, finish): groups of small_group, small_groups_per_cu per
  // compute unit.
  std::size_t small_group, small_groups_per_cu;
  // CLAT_CONTIGUOUS for the small kernels: each work-item a contiguous chunk of the elements
  // (CPUs: one thread runs a whole group, and in a grid stride each work-item would fetch every
  // cache line again: PoCL 3.1, the finish of 16M slots 497 -> 56 ms with the fill before it) or
  // a grid stride (GPUs: neighbouring work-items read neighbouring elements).
  bool contiguous;
  // Deterministic rows whose bins are spread grouped by bin first (scatter_sorted_rows.cl): on
  // GPUs, where it replaces atomics on slots; CPUs' atomics cost less than the grouping (PoCL
  // 3.1, rows of 32 / 128 into 100,000 bins, 10 rows a bin: 1.61x / 1.75x the fast mode's time in
  // place, 3.03x / 2.97x grouped).
  bool sort_rows;
  // Deterministic float sums take the window's 64-bit path (kernels/scatter_window.cl) where the
  // values are at least this many times the output slots (bins * width; 0: at any number); its
  // second, 128-bit array costs a slot only where a value outside the window reaches it. H200,
  // 64M values into 16M bins (4 a slot), the 128-bit slots -> the window: uniform 1.71x -> 1.48x
  // the fast mode's time, sorted 2.51x -> 2.04-2.09x, one bin 2.95-3.00x -> 2.59-2.61x (fewer a
  // slot not measured there); PoCL 3.1, 0.25 to 1.3 values a slot: rows of 32 / 128 2.0-2.2x ->
  // 1.6x / 1.7x, 16M bins uniform 4.5-5.0x -> 3.7-3.9x, sorted 5.8-6.0x -> 4.7-4.8x, one bin
  // 8.9-10.8x -> 8.1-8.4x. Hot indices summed in the __local table lost a sixth of their rate on
  // the H200 (zipf 1.1: 1.07x -> 1.18-1.28x), so hot spread indices keep the 128-bit slots below
  // window_values_per_slot_hot (device_call.hpp).
  std::size_t window_values_per_slot;
  // reduce_by_key's runs: work-groups of at most rbk_group, rbk_keys_per_item keys a work-item.
  std::size_t rbk_group, rbk_keys_per_item;
};

ScatterTuning scatter_tuning(const Capabilities& caps);

// What __local memory holds for one slot of `slot_bytes` on a device: the launch shape and the
// strategies' capacities.
struct LocalRoom {
  bool solo = false;
  std::size_t group = 1, max_copies = 1, local = 0, slot_bytes = 4, cache_slots = 0;
  // local_private: the most copies (a power of two, at most max_copies) of `slots` slots that fit,
  // 0 when not one copy does.
  std::size_t copies(std::size_t slots) const {
    for (std::size_t c = max_copies; c >= 1; c /= 2)
      if (slots <= local / (c * slot_bytes)) return c;
    return 0;
  }
};
// The deterministic float sums' __local sums of values outside their window (kernels/scatter.cl's
// w_sums and w_keys): a ulong2 and a ulong a work-item.
constexpr std::size_t window_item_bytes = 24;
// item_bytes: what the kernel's own __local arrays take a work-item (beside the slots).
LocalRoom local_room(const DeviceInfo& info, std::size_t slot_bytes, std::size_t item_bytes);

}  // namespace clatomics::detail
