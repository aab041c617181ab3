// The path of every op, from the paths the probe reported for the table's slots and the checks.
#pragma once

#include <vector>

#include "clatomics/capabilities.hpp"

namespace clatomics::detail {

// What the probe engine found: per slot of the table (in its order), the path config.cl chose
// (-1: the slot's type is not available), and every check that ran.
struct Probe {
  std::vector<int> codes;
  std::vector<NativeCheck> checks;
  bool forced = false;  // built with every native path off (Options::force_cas)
};

// The float/double ops of real.cl (DeviceInfo::paths).
std::vector<OpPath> op_paths(const Probe& probe, bool doubles);

// The aggregated, 16-bit, no-return, saturating and float2 ops (DeviceInfo::variant_paths).
std::vector<OpPath> variant_paths(const Probe& probe, const std::vector<OpPath>& core, const Capabilities& caps, bool doubles);

}  // namespace clatomics::detail
