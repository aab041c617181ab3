// Options from the environment, parsed strictly: a flag that says "false" must never turn
// something on, and a typo must not pass silently.
#include "clatomics/options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace clatomics {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

// Unset or empty: fallback. 1/0, true/false, yes/no, on/off in any case; anything else throws.
bool env_flag(const char* name, bool fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  const std::string v = lower(value);
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  throw std::invalid_argument(std::string("clatomics: environment variable ") + name + "='" + value +
                              "' is not a boolean (1/0, true/false, yes/no, on/off)");
}

// Unset or empty: fallback. A decimal count from 0 to most; anything else throws.
int env_count(const char* name, int fallback, int most) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  const std::string v = value;
  if (v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) > most)
    throw std::invalid_argument(std::string("clatomics: environment variable ") + name + "='" + value + "' is not a count from 0 to " +
                                std::to_string(most));
  return std::stoi(v);
}

}  // namespace

Options Options::from_env() {
  Options options;
  if (const char* device = std::getenv("CLATOMICS_DEVICE")) {
    const std::string selector = device;
    if (selector.find_first_not_of(" \t") == std::string::npos)
      throw std::invalid_argument("clatomics: environment variable CLATOMICS_DEVICE is set but blank; unset it for the default device");
    options.device = selector;
  }
  options.force_cas = env_flag("CLATOMICS_FORCE_CAS", options.force_cas);
  options.hide_fp64 = env_flag("CLATOMICS_HIDE_FP64", options.hide_fp64);
  options.subgroup_aggregation = env_flag("CLATOMICS_SUBGROUP_AGG", options.subgroup_aggregation);
  options.exact_subnormals = env_flag("CLATOMICS_EXACT_SUBNORMALS", options.exact_subnormals);
  options.native_checks = env_flag("CLATOMICS_NATIVE_CHECKS", options.native_checks);
  options.atomic_first_read = env_flag("CLATOMICS_ATOMIC_FIRST_READ", options.atomic_first_read);
  options.staging_threads = staging_threads_from_env();
  return options;
}

int Options::staging_threads_from_env() { return env_count("CLATOMICS_STAGING_THREADS", -1, 256); }

}  // namespace clatomics
