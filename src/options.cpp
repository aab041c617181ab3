// Options from the environment.
#include "clatomics/options.hpp"

#include <cstdlib>
#include <sstream>

namespace clatomics {
namespace {

bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  return value && *value && std::string(value) != "0";
}

}  // namespace

Options Options::from_env() {
  Options options;
  if (const char* device = std::getenv("CLATOMICS_DEVICE")) options.device = device;
  options.force_cas = env_flag("CLATOMICS_FORCE_CAS");
  options.hide_fp64 = env_flag("CLATOMICS_HIDE_FP64");
  options.subgroup_aggregation = env_flag("CLATOMICS_SUBGROUP_AGG");
  if (const char* checks = std::getenv("CLATOMICS_FAIL_CHECKS")) {
    std::istringstream in(checks);
    for (std::string slot; std::getline(in, slot, ',');)
      if (!slot.empty()) options.fail_checks.push_back(slot);
  }
  return options;
}

}  // namespace clatomics
