// A histogram call's plan: the strategy this device runs, the kernel's build options and the
// launch's limits, from the setup, the device's capabilities and its class's tuning numbers
// (tuning.cpp).
#include "histogram/plan.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/cl_types.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"

namespace clatomics::detail::hist {
namespace {

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
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const std::size_t slots = setup.slots();
  Plan plan;
  plan.tuning = histogram_tuning(caps);
  const HistogramTuning& tuning = plan.tuning;
  const std::size_t local_group = floor_pow2(std::min<std::size_t>(tuning.local_group, caps.max_work_group_size));
  // Without weights the kernel's __local weight argument still takes 4 bytes (a __local argument
  // cannot be empty): the launch needs them beside the counters, or a device with exactly the
  // counters' bytes of __local memory (32 copies of 256 byte slots in 32 KiB) refuses it.
  // And a second __local argument may start at an aligned address: 16 bytes of slack (NVIDIA's
  // launch refused counters of 4 bytes less than the usable room beside a 4-byte second argument).
  const std::size_t stand_in = setup.channels ? 0 : 4, slack = 16 + stand_in;
  const cl_ulong usable = rt.device_info().local_mem_usable;
  const std::size_t local_room = usable > slack ? std::size_t(usable) - slack : 0;
  // __local: copies of the counts and of the weights' partial sums, each a power of two (<=
  // max_local_copies and <= the group), the weights' as many as fit first (they take most of an
  // element's atomics), then the counts'. The weights' stop where one step's adds of neighbouring
  // work-items fill a conflict-free access (local_bank_bytes) once (count.cl: with 2 or 4
  // channels, two phases of work-items share the copies).
  const std::size_t acc = setup.acc_bytes(), count_bytes = slots * 4, weight_bytes = setup.channels * slots * acc;
  const int phases = setup.channels == 2 || setup.channels == 4 ? 2 : 1;
  const std::size_t most = std::min(tuning.max_local_copies, local_group);
  const std::size_t most_w = setup.channels ? std::max<std::size_t>(1, std::min(most, tuning.local_bank_bytes / acc / phases)) : 1;
  std::size_t copies = 0, wcopies = 0;
  for (std::size_t w = most_w; w >= 1 && !copies; w /= 2)
    for (std::size_t c = most; c >= 1 && !copies; c /= 2)
      if (c * count_bytes + w * weight_bytes <= local_room) copies = c, wcopies = w;
  const std::size_t private_copies = setup.kind == Kind::bytes ? tuning.private_byte_copies : 1;
  const std::size_t private_cap = std::max<std::size_t>(tuning.private_min_slots, ceil_pow2(slots));
  const std::size_t max_private = tuning.max_private_counters;
  // The weights' private sums take at most as many bytes as the counters may.
  const bool private_fits = slots <= max_private && private_cap * private_copies <= max_private &&
                            setup.channels * private_cap * setup.acc_bytes() <= max_private * 4;

  HistogramStrategy s = asked;
  if (s == HistogramStrategy::automatic) {
    if (!tuning.prefer_private)
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
      if (s == HistogramStrategy::local_single) copies = 1, wcopies = 1;
      while ((std::size_t(1) << plan.shift) < copies) ++plan.shift;
      while ((std::size_t(1) << plan.wshift) < wcopies) ++plan.wshift;
      plan.phases = phases;
      plan.kernel = &local_kernel;
      plan.group = local_group;
      plan.max_groups = tuning.local_groups_per_cu * cu;
      plan.fill_items = tuning.local_items_per_cu * cu;
      break;
    }
    case HistogramStrategy::private_per_item:
      if (!private_fits)
        throw std::invalid_argument("clatomics: histogram: options.strategy private_per_item: " + std::to_string(slots) + " slots" +
                                    (setup.channels ? " and their weight sums (" + std::to_string(setup.channels) + " channels of " +
                                                          std::to_string(setup.acc_bytes()) + " bytes a slot)"
                                                    : std::string()) +
                                    " exceed " + std::to_string(max_private * 4) + " bytes of private counters");
      plan.kernel = &private_kernel;
      plan.slots_cap = private_cap;
      plan.copies = private_copies;
      plan.group = tuning.private_group;
      plan.max_groups = resident_groups(caps);
      break;
    default:
      plan.kernel = &global_kernel;
      plan.group = tuning.global_group;
      plan.max_groups = resident_groups(caps);
      break;
  }
  plan.strategy = s;
  // Compensated pairs' global sums take a compare-exchange loop on every device, and loops of many
  // groups on one address serialize: copies of the sums (at most 32, 128 KiB in all) spread them.
  if (setup.channels && setup.accumulation == WeightAccumulation::compensated_float2)
    while (plan.wcopies < 32 && 2 * plan.wcopies * setup.channels * slots * acc <= (std::size_t(128) << 10)) plan.wcopies *= 2;
  plan.direct = caps.int64_base_atomics && !merge_32bit();
  plan.ahead = !setup.two_d && setup.channels <= tuning.ahead_max_channels ? tuning.loads_ahead : 1;
  plan.options = define("CLAT_HIST_KIND", kind_macro(setup.kind)) + position_define(setup.doubles) +
                 define("CLAT_HIST_2D", setup.two_d ? 1 : 0) + define("CLAT_HIST_CHANNELS", (long long)setup.channels) +
                 define("CLAT_HIST_ACCUM", accumulation_macro(setup.accumulation)) +
                 define("CLAT_CONTIGUOUS", tuning.contiguous ? 1 : 0) + define("CLAT_HIST_SHIFT", int(plan.shift)) +
                 define("CLAT_HIST_DIRECT", plan.direct ? 1 : 0) + define("CLAT_HIST_AHEAD", plan.ahead) +
                 define("CLAT_HIST_WSHIFT", int(plan.wshift)) + define("CLAT_HIST_PHASES", plan.phases) +
                 define("CLAT_HIST_WCOPIES", (long long)plan.wcopies);
  if (tuning.fixed_local_group && plan.kernel == &local_kernel) plan.options += define("CLAT_HIST_GROUP", (long long)plan.group);
  if (s == HistogramStrategy::private_per_item)
    plan.options += define("CLAT_HIST_SLOTS", (long long)plan.slots_cap) + define("CLAT_HIST_COPIES", (long long)plan.copies);
  return plan;
}

clatomics::Plan Plan::shown(const Runtime& rt, const std::string& what) const {
  clatomics::Plan out;
  out.algorithm = what;
  out.program = "kernels/histogram/count.cl";
  out.kernel = kernel->kernel;
  out.build_options = rt.build_options() + options;
  out.strategy = strategy_name(strategy);
  out.global_size = global, out.local_size = local;
  const auto text = [](const auto& v) { return detail::plan_text(v); };
  out.tuning = {{"device class", tuning.device_class},
                {"most work-groups a launch", text(max_groups)},
                {"counts", direct ? "straight into the 64-bit totals" : "32-bit per launch, merged into the 64-bit totals"},
                {"loads ahead", text(ahead)}};
  if (kernel == &local_kernel) out.tuning.push_back({"__local copies", text(std::size_t(1) << shift)});
  if (kernel == &local_kernel && wshift) out.tuning.push_back({"__local weight copies", text(std::size_t(1) << wshift)});
  if (wcopies > 1) out.tuning.push_back({"copies of the global weight sums", text(wcopies)});
  if (kernel == &private_kernel) out.tuning.push_back({"private counters", text(copies) + " copies of " + text(slots_cap) + " slots"});
  out.tuning.insert(out.tuning.end(), {{"local group", text(tuning.local_group)},
                                       {"local copies at most", text(tuning.max_local_copies)},
                                       {"local groups per CU", text(tuning.local_groups_per_cu)},
                                       {"local items per CU", text(tuning.local_items_per_cu)},
                                       {"fixed local group", tuning.fixed_local_group ? "yes" : "no"},
                                       {"local bank bytes", text(tuning.local_bank_bytes)},
                                       {"private counters at most", text(tuning.max_private_counters)},
                                       {"private slots at least", text(tuning.private_min_slots)},
                                       {"private byte copies", text(tuning.private_byte_copies)},
                                       {"private group", text(tuning.private_group)},
                                       {"global group", text(tuning.global_group)},
                                       {"merge group", text(tuning.merge_group)},
                                       {"contiguous", tuning.contiguous ? "yes" : "no"}});
  return out;
}

}  // namespace clatomics::detail::hist
