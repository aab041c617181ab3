// A histogram call's plan: the strategy this device runs, the kernel's build options and the
// launch's limits, from the setup and the device's capabilities alone.
#include "histogram/plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cl_types.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"

namespace clatomics::detail::hist {
namespace {

constexpr std::size_t max_private_counters = 16384;  // 64 KiB of private counters per work-item
constexpr std::size_t max_copies = 32;               // __local copies per work-group (one per bank)

// The kernels' name for each kind (CLAT_HIST_KIND).
const char* kind_macro(Kind kind) {
  switch (kind) {
    case Kind::bytes: return "CLAT_HIST_BYTES";
    case Kind::keys: return "CLAT_HIST_KEYS";
    case Kind::even: return "CLAT_HIST_EVEN";
  }
  throw std::logic_error("clatomics: histogram: no kernel kind for this Kind");
}

// The kernels' name for each accumulation (CLAT_HIST_ACCUM).
const char* accumulation_macro(WeightAccumulation accumulation) {
  switch (accumulation) {
    case WeightAccumulation::float_atomic: return "CLAT_ACCUM_FLOAT";
    case WeightAccumulation::compensated_float2: return "CLAT_ACCUM_PAIR";
    case WeightAccumulation::double_atomic: return "CLAT_ACCUM_DOUBLE";
  }
  throw std::logic_error("clatomics: histogram: no kernel accumulation for this WeightAccumulation");
}

// The kernels' position type (CLAT_POS): even bins' values, lo, hi, scale and edges.
std::string position_define(bool doubles) {
  return doubles ? type_define<double>("CLAT_POS") : type_define<float>("CLAT_POS");
}

std::size_t ceil_pow2(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

Plan make_plan(const Runtime& rt, const Setup& setup, HistogramStrategy asked) {
  strategy_name(asked);
  const auto& caps = rt.device_info().caps;
  const bool gpu = caps.is_gpu();
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const std::size_t slots = setup.slots();
  Plan plan;
  // __local: the largest power-of-two number of copies (<= 32 and <= the group) that fits.
  const std::size_t local_group = floor_pow2(std::min<std::size_t>(gpu ? 1024 : 16, caps.max_work_group_size));
  const std::size_t slot_bytes = 4 + setup.channels * setup.acc_bytes();
  // Without weights the kernel's __local weight argument still takes 4 bytes (a __local argument
  // cannot be empty): the launch needs them beside the counters, or a device with exactly the
  // counters' bytes of __local memory (32 copies of 256 byte slots in 32 KiB) refuses it.
  // And a second __local argument may start at an aligned address: 16 bytes of slack (NVIDIA's
  // launch refused counters of 4 bytes less than the usable room beside a 4-byte second argument).
  const std::size_t stand_in = setup.channels ? 0 : 4, slack = 16 + stand_in;
  const cl_ulong usable = rt.device_info().local_mem_usable;
  const std::size_t local_room = usable > slack ? std::size_t(usable) - slack : 0;
  std::size_t copies = 0;
  for (std::size_t c = std::min(max_copies, local_group); c >= 1 && !copies; c /= 2)
    if (slots <= local_room / (c * slot_bytes)) copies = c;
  // private: 4 copies for bytes (the four bytes of a word count into different copies).
  const std::size_t private_copies = setup.kind == Kind::bytes && !gpu ? 4 : 1;
  const std::size_t private_cap = std::max<std::size_t>(64, ceil_pow2(slots));
  // The weights' private sums take at most as many bytes as the counters may.
  const bool private_fits = slots <= max_private_counters && private_cap * private_copies <= max_private_counters &&
                            setup.channels * private_cap * setup.acc_bytes() <= max_private_counters * 4;

  HistogramStrategy s = asked;
  if (s == HistogramStrategy::automatic) {
    if (gpu)
      s = copies >= 2 ? HistogramStrategy::local_replicated : copies == 1 ? HistogramStrategy::local_single : HistogramStrategy::global_atomics;
    else
      s = private_fits ? HistogramStrategy::private_per_item
          : copies >= 1                               ? HistogramStrategy::local_single
                                                      : HistogramStrategy::global_atomics;
  }
  switch (s) {
    case HistogramStrategy::local_replicated:
    case HistogramStrategy::local_single: {
      if (!copies)
        throw std::invalid_argument("clatomics: histogram: options.strategy " + std::string(strategy_name(s)) + ": " +
                                    std::to_string(slots) + " slots do not fit in " + std::to_string(usable) +
                                    " bytes of __local memory");
      if (s == HistogramStrategy::local_single) copies = 1;
      while ((std::size_t(1) << plan.shift) < copies) ++plan.shift;
      plan.kernel = &local_kernel;
      plan.group = local_group;
      plan.max_groups = 4 * cu;
      if (gpu) plan.fill_items = cu * 2048;  // a full GPU: 2048 resident work-items per compute unit
      break;
    }
    case HistogramStrategy::private_per_item:
      if (!private_fits)
        throw std::invalid_argument("clatomics: histogram: options.strategy private_per_item: " + std::to_string(slots) + " slots" +
                                    (setup.channels ? " and their weight sums (" + std::to_string(setup.channels) + " channels of " +
                                                          std::to_string(setup.acc_bytes()) + " bytes a slot)"
                                                    : std::string()) +
                                    " exceed " + std::to_string(max_private_counters * 4) + " bytes of private counters");
      plan.kernel = &private_kernel;
      plan.slots_cap = private_cap;
      plan.copies = private_copies;
      plan.group = gpu ? 256 : 1;
      plan.max_groups = resident_groups(caps);
      break;
    default:
      plan.kernel = &global_kernel;
      plan.group = gpu ? 256 : 16;
      plan.max_groups = resident_groups(caps);
      break;
  }
  plan.strategy = s;
  plan.direct = caps.int64_base_atomics && !merge_32bit();
  // GPUs: four steps' loads before their atomics where a step reads the values and at most one
  // weight channel (H200: byte histogram 0.88x -> 0.92x of a read-only pass, 100 even bins 0.49x
  // -> 0.74x with the guard); with two axes or more channels it measured slower (2-D 0.64x -> 0.43x).
  const int ahead = gpu && !setup.two_d && setup.channels <= 1 ? 4 : 1;
  plan.options = define("CLAT_HIST_KIND", kind_macro(setup.kind)) + position_define(setup.doubles) +
                 define("CLAT_HIST_2D", setup.two_d ? 1 : 0) + define("CLAT_HIST_CHANNELS", (long long)setup.channels) +
                 define("CLAT_HIST_ACCUM", accumulation_macro(setup.accumulation)) +
                 define("CLAT_CONTIGUOUS", gpu ? 0 : 1) + define("CLAT_HIST_SHIFT", int(plan.shift)) +
                 define("CLAT_HIST_DIRECT", plan.direct ? 1 : 0) + define("CLAT_HIST_AHEAD", ahead) +
                 define("CLAT_HIST_VSLOTS", gpu ? 0 : 1);
  // NVIDIA reports CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, yet 1024-item groups are what
  // reach the read-only pass (bench/BENCHMARKS.md): compile the kernel for that size there. Other
  // GPUs keep the size their driver offers (a required size a kernel cannot meet fails the build).
  if (caps.nvidia && gpu && plan.kernel == &local_kernel)
    plan.options += define("CLAT_HIST_GROUP", (long long)plan.group);
  if (s == HistogramStrategy::private_per_item)
    plan.options += define("CLAT_HIST_SLOTS", (long long)plan.slots_cap) + define("CLAT_HIST_COPIES", (long long)plan.copies);
  return plan;
}

}  // namespace clatomics::detail::hist
