// Bench rows as text: the row's fields joined into a benchmark and a case column.
#include "bench_table.hpp"

#include <cstdio>
#include <initializer_list>
#include <string>

#include "report.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

std::string join_nonempty(std::initializer_list<std::string> parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : " ") + p;
  return out;
}

std::string ratio_name(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", ratio);
  return buf;
}

}  // namespace

void print_bench_table(std::ostream& out, const std::vector<bench::Row>& rows) {
  using bench::format_number;
  std::vector<std::vector<std::string>> table{
      {"suite", "benchmark", "case", "path", "figure", "unit", "yardstick", "yardstick figure", "ratio"}};
  for (const auto& r : rows) {
    const bool yardstick = r.yardstick_value > 0;
    table.push_back({r.suite, join_nonempty({r.op, r.type, r.space, r.form, r.bins ? std::to_string(r.bins) + " bins" : "",
                                    r.width > 1 ? "rows of " + std::to_string(r.width) : ""}),
                     join_nonempty({r.addresses ? std::to_string(r.addresses) + " addr" : "",
                                    r.bytes ? bytes_name(r.bytes) : "", r.distribution}),
                     r.path.empty() ? "-" : r.path, format_number(r.value), r.unit, r.yardstick,
                     yardstick ? format_number(r.yardstick_value) : "-", yardstick ? ratio_name(r.ratio()) : "-"});
  }
  out << text_table(table);
}

}  // namespace clatomics::cli
