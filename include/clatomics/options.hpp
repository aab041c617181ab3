// clatomics/options.hpp — what a Runtime (and build_options) may be told.
#pragma once

#include <string>
#include <vector>

namespace clatomics {

struct Options {
  // Which device; see select_device(). Environment: CLATOMICS_DEVICE.
  std::string device;
  // Every op on the portable CAS loop, no native path. Environment: CLATOMICS_FORCE_CAS=1.
  bool force_cas = false;
  // Behave as a device without fp64: double ops are refused. Environment: CLATOMICS_HIDE_FP64=1.
  bool hide_fp64 = false;
  // Try sub-group aggregation (the _agg ops) on devices with cl_khr_subgroups + shuffles. Off by
  // default: no device we could test runs it (PoCL 5.0 crashes in the check, measured), and a
  // compiler crash cannot be caught by a check. NVIDIA's warp path does not need it.
  // Environment: CLATOMICS_SUBGROUP_AGG=1.
  bool subgroup_aggregation = false;
  // For testing the fallback: native checks to fail on purpose, by slot name ("add_float_global",
  // "minmax_double_local", ...) or "all". Environment: CLATOMICS_FAIL_CHECKS=a,b.
  std::vector<std::string> fail_checks;

  // Defaults overridden by the environment variables above.
  static Options from_env();
};

}  // namespace clatomics
