// The histogram's tuning numbers per class of device (tuning.hpp).
#include "histogram/tuning.hpp"

namespace clatomics::detail::hist {
namespace {

constexpr HistogramTuning cpu_tuning{
    "cpu",
    /*prefer_private=*/true,
    /*local_group=*/16,
    /*max_local_copies=*/32,
    /*local_groups_per_cu=*/4,
    /*local_items_per_cu=*/0,
    /*fixed_local_group=*/false,
    /*local_bank_bytes=*/128,
    /*max_private_counters=*/16384,  // 64 KiB per work-item
    /*private_min_slots=*/64,
    /*private_byte_copies=*/4,
    /*private_group=*/1,
    /*global_group=*/16,
    /*range_group=*/16,
    /*merge_group=*/256,
    /*loads_ahead=*/1,
    /*ahead_max_channels=*/0,
    /*contiguous=*/true,
};

// GPUs: four steps' loads before their atomics (H200: byte histogram 0.88x -> 0.92x of a
// read-only pass, 100 even bins 0.49x -> 0.74x with the guard); with two axes or more channels
// it measured slower (2-D 0.64x -> 0.43x). A full GPU keeps 2048 work-items per compute unit.
constexpr HistogramTuning gpu_tuning{
    "gpu",
    /*prefer_private=*/false,
    /*local_group=*/1024,
    /*max_local_copies=*/32,
    /*local_groups_per_cu=*/4,
    /*local_items_per_cu=*/2048,
    /*fixed_local_group=*/false,
    /*local_bank_bytes=*/128,  // 32 banks of 4 bytes (NVIDIA, AMD)
    /*max_private_counters=*/16384,
    /*private_min_slots=*/64,
    /*private_byte_copies=*/1,
    /*private_group=*/256,
    /*global_group=*/256,
    /*range_group=*/256,
    /*merge_group=*/256,
    /*loads_ahead=*/4,
    /*ahead_max_channels=*/1,
    /*contiguous=*/false,
};

// NVIDIA reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet 1024-item groups are what
// reach the read-only pass (bench/BENCHMARKS.md): clat_hist_local is compiled for that size there.
// Other GPUs keep the size their driver offers (a required size a kernel cannot meet fails the build).
constexpr HistogramTuning nvidia_gpu_tuning = [] {
  HistogramTuning t = gpu_tuning;
  t.device_class = "nvidia gpu";
  t.fixed_local_group = true;
  return t;
}();

}  // namespace

HistogramTuning histogram_tuning(const Capabilities& caps) {
  if (!caps.is_gpu()) return cpu_tuning;
  return caps.nvidia ? nvidia_gpu_tuning : gpu_tuning;
}

}  // namespace clatomics::detail::hist
