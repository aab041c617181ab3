// Scatter's tuning numbers, one set per device class.
#include "scatter/tuning.hpp"

#include <algorithm>

namespace clatomics::detail {
namespace {

constexpr ScatterTuning cpu_tuning{
    "cpu",
    /*solo=*/true,
    /*group=*/1,
    /*max_copies=*/1,
    /*merging_groups_per_cu=*/0,
    /*items_per_step=*/16,
    /*fixed_items_per_step=*/16,
    /*local_reserve=*/256,
    /*cache_max_slots=*/4096,
    /*cache_min_slots=*/64,
    /*sample_size=*/4096,
    /*hot_share=*/0.2,
    /*hot_over_spread=*/2,
    /*small_group=*/256,
    /*small_groups_per_cu=*/8,
    /*contiguous=*/true,
    /*sort_rows=*/false,
    /*window_values_per_slot=*/0,
    /*rbk_group=*/256,
    /*rbk_keys_per_item=*/8,
};

// Few groups where each merges its __local slots: each merge costs one update per slot.
constexpr ScatterTuning gpu_tuning{
    "gpu",
    /*solo=*/false,
    /*group=*/256,
    /*max_copies=*/32,
    /*merging_groups_per_cu=*/4,
    /*items_per_step=*/16,
    /*fixed_items_per_step=*/8,
    /*local_reserve=*/256,
    /*cache_max_slots=*/4096,
    /*cache_min_slots=*/64,
    /*sample_size=*/4096,
    /*hot_share=*/0.2,
    /*hot_over_spread=*/2,
    /*small_group=*/256,
    /*small_groups_per_cu=*/8,
    /*contiguous=*/false,
    /*sort_rows=*/true,
    /*window_values_per_slot=*/2,
    /*rbk_group=*/256,
    /*rbk_keys_per_item=*/8,
};

}  // namespace

ScatterTuning scatter_tuning(const Capabilities& caps) { return caps.is_gpu() ? gpu_tuning : cpu_tuning; }

LocalRoom local_room(const DeviceInfo& info, std::size_t slot_bytes, std::size_t item_bytes) {
  const ScatterTuning tuning = scatter_tuning(info.caps);
  LocalRoom room;
  room.solo = tuning.solo;
  room.group = tuning.solo ? 1 : std::min<std::size_t>(tuning.group, info.caps.max_work_group_size);
  room.max_copies = std::min(tuning.max_copies, room.group);
  room.slot_bytes = slot_bytes;
  const std::size_t taken = tuning.local_reserve + room.group * item_bytes;
  room.local = info.local_mem_usable > taken ? std::size_t(info.local_mem_usable) - taken : 0;
  // local_cache: a power of two of tagged slots (a slot and its 4-byte tag) filling at most half
  // the __local memory.
  for (std::size_t n = tuning.cache_max_slots; n >= tuning.cache_min_slots && !room.cache_slots; n /= 2)
    if (n * (slot_bytes + 4) <= room.local / 2) room.cache_slots = n;
  return room;
}

}  // namespace clatomics::detail
