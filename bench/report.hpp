// What `clatomics bench` reports: figures as text, the run as JSON (bench/plot.py draws it).
#pragma once

#include <string>
#include <vector>

#include "bench.hpp"

namespace clatomics::bench {

// What the JSON says about the run besides its rows.
struct RunInfo {
  std::string tool_version;  // the clatomics version that ran
  std::string device, platform, driver, device_version, build_options;
  std::string date;  // ISO 8601, UTC
  std::vector<std::string> suites;  // in the order they ran
  Config config;
  bool force_cas = false;
  std::vector<std::string> errors;  // suites that failed, with why
};

// A figure with about three significant digits ("0.412", "35.7", "13300").
std::string format_number(double value);
// A ratio as the summaries print it, two decimals ("0.96").
std::string two_places(double value);

// {"tool", "version", "date", "device": {...}, "config": {...}, "errors": [...], "rows": [...]}:
// every row with every field of Row plus its ratio; a field that does not apply is null.
std::string to_json(const RunInfo& info, const std::vector<Row>& rows);

// The ISO 8601 UTC time now.
std::string utc_now();

}  // namespace clatomics::bench
