// Text table and JSON for the rows of a benchmark run.
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace clatomics::bench {
namespace {

std::string join_nonempty(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : " ") + p;
  return out;
}

std::string bytes_label(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = double(bytes);
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  return format_number(v) + " " + units[u];
}

// "add float global agg", "histogram uchar 256 bins"
std::string benchmark_label(const Row& r) {
  return join_nonempty({r.op, r.type, r.space, r.form, r.bins ? std::to_string(r.bins) + " bins" : ""});
}

// "32 addr spread", "1 MiB uniform"
std::string case_label(const Row& r) {
  return join_nonempty({r.addresses ? std::to_string(r.addresses) + " addr" : "", r.bytes ? bytes_label(r.bytes) : "",
                        r.distribution});
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace

std::string format_number(double value) {
  if (!std::isfinite(value)) return "-";
  const double a = std::fabs(value);
  if (a >= 1e9) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", value);
    return buf;
  }
  if (a >= 1000 || a == std::floor(a)) return fixed(value, 0);
  if (a >= 100) return fixed(value, 0);
  if (a >= 10) return fixed(value, 1);
  if (a >= 1) return fixed(value, 2);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}

std::string text_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (widths.size() <= c) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size(); ++c)
      line += rows[r][c] + (c + 1 < rows[r].size() ? std::string(widths[c] - rows[r][c].size() + 2, ' ') : "");
    out += line + "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < widths.size(); ++c) total += widths[c] + (c + 1 < widths.size() ? 2 : 0);
      out += std::string(total, '-') + "\n";
    }
  }
  return out;
}

void print_table(std::ostream& out, const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> table{
      {"suite", "benchmark", "case", "path", "figure", "unit", "yardstick", "yardstick figure", "ratio"}};
  for (const auto& row : rows)
    table.push_back({row.suite, benchmark_label(row), case_label(row), row.path.empty() ? "-" : row.path,
                     format_number(row.value), row.unit, row.yardstick,
                     row.yardstick_value > 0 ? format_number(row.yardstick_value) : "-",
                     row.yardstick_value > 0 ? fixed(row.ratio(), 2) + "x" : "-"});
  out << text_table(table);
}

namespace {

// The field, or null where it does not apply.
nlohmann::ordered_json text_or_null(const std::string& text) { return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text); }
nlohmann::ordered_json count_or_null(std::size_t n) { return n ? nlohmann::ordered_json(n) : nlohmann::ordered_json(); }
nlohmann::ordered_json number_or_null(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }

}  // namespace

std::string to_json(const RunInfo& info, const std::vector<Row>& rows) {
  using json = nlohmann::ordered_json;
  json doc = {{"tool", "clatomics bench"}, {"version", info.tool_version}, {"date", info.date}};
  doc["device"] = {{"name", info.device},
                   {"platform", info.platform},
                   {"driver", info.driver},
                   {"version", info.device_version},
                   {"build_options", info.build_options}};
  const bool quick = info.config.quick;
  doc["config"] = {{"suites", info.suites},
                   {"bytes", info.config.bytes},
                   {"repeats", quick ? 1 : info.config.repeats},
                   {"warmup", quick ? 0 : info.config.warmup},
                   {"quick", quick},
                   {"force_cas", info.force_cas}};
  doc["errors"] = info.errors;
  doc["rows"] = json::array();
  for (const auto& r : rows)
    doc["rows"].push_back({{"suite", r.suite},
                           {"op", r.op},
                           {"type", text_or_null(r.type)},
                           {"space", text_or_null(r.space)},
                           {"form", text_or_null(r.form)},
                           {"addresses", count_or_null(r.addresses)},
                           {"bytes", count_or_null(r.bytes)},
                           {"bins", count_or_null(r.bins)},
                           {"distribution", text_or_null(r.distribution)},
                           {"path", text_or_null(r.path)},
                           {"value", number_or_null(r.value)},
                           {"unit", r.unit},
                           {"yardstick", text_or_null(r.yardstick)},
                           {"yardstick_value", r.yardstick_value > 0 ? number_or_null(r.yardstick_value) : json()},
                           {"ratio", r.yardstick_value > 0 ? number_or_null(r.ratio()) : json()}});
  return doc.dump(2) + "\n";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace clatomics::bench
