// Figures as text, and a benchmark run as JSON.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

namespace clatomics::bench {
namespace {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// The field, or null where it does not apply.
nlohmann::ordered_json text_or_null(const std::string& text) { return text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(text); }
nlohmann::ordered_json count_or_null(std::size_t n) { return n ? nlohmann::ordered_json(n) : nlohmann::ordered_json(); }
nlohmann::ordered_json number_or_null(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }

}  // namespace

std::string two_places(double value) { return fixed(value, 2); }

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
                           {"width", count_or_null(r.width)},
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
