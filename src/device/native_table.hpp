// The native-path table (cl/kernels/native_paths.def) on the host.
#pragma once

#include <string>
#include <vector>

#include "clatomics/capabilities.hpp"

namespace clatomics::detail {

// One slot: an op family whose path config.cl chooses, and the native paths it may choose.
struct Slot {
  const char* name;   // "add_float_global"; its check kernel is check_<name>
  const char* macro;  // CLAT_PATH_<macro> in config.cl; CLAT_NO_<PATH>_<macro> turns a path off
  const char* check;  // add, minmax, agg, add16, noret
  const char* type;   // float, double, half, bf16, all
  const char* space;  // global, local, all
  Path fallback;              // with every native path off: cas, or plain (the op on its own path)
  std::vector<Path> natives;  // in config.cl's order of preference
};

// Every slot, in the probe kernel's order.
const std::vector<Slot>& slots();
// The slot called name; throws std::invalid_argument when there is none.
const Slot& slot_named(const std::string& name);

bool is_native(const Slot& slot, Path path);
// " -DCLAT_NO_<PATH>_<macro>": the build option that turns path off for slot.
std::string disable_option(const Slot& slot, Path path);

}  // namespace clatomics::detail
