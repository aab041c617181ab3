// The outputs of `clatomics bench`: a text table, JSON, and an SVG plot of the rows.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "bench.hpp"

namespace clatomics::bench {

// What the JSON says about the run besides its rows.
struct RunInfo {
  std::string device, platform, driver, device_version, build_options;
  std::string date;  // ISO 8601, UTC
  // Settings, as (key, value already written as JSON) pairs: {"repeats", "7"}, {"suites", "[...]"}.
  std::vector<std::pair<std::string, std::string>> config;
  std::vector<std::string> errors;  // suites that failed, with why
};

// Columns aligned; the first row is the header, underlined.
std::string text_table(const std::vector<std::vector<std::string>>& rows);

// A figure with about three significant digits ("0.412", "35.7", "13300").
std::string format_number(double value);

// One line per row: suite, name, variant, figure, yardstick, its figure, ratio.
void print_table(std::ostream& out, const std::vector<Row>& rows);

std::string json_string(const std::string& text);  // quoted and escaped
std::string json_number(double value);              // null for NaN and infinities
void write_json(std::ostream& out, const RunInfo& info, const std::vector<Row>& rows);

// Throughput against addresses (log-log), one panel per type and memory space, per op and path,
// from the "atomics" rows; then, per unit (GB/s first), bars of every other row's ratio to each
// of its yardsticks (against the read-only pass: the bandwidth fraction of an algorithm).
// Nothing else is needed to view it.
void write_svg(std::ostream& out, const RunInfo& info, const std::vector<Row>& rows);

// The ISO 8601 UTC time now.
std::string utc_now();

}  // namespace clatomics::bench
