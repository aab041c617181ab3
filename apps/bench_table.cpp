// Bench rows as text: one table per suite, a line per benchmark with its yardsticks.
#include "bench_table.hpp"

#include <algorithm>
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

// What the rows of a suite share (op, type, space) goes into its heading, not every line.
struct Shared {
  bool op = true, type = true, space = true;
};

std::string benchmark_name(const bench::Row& r, const Shared& shared) {
  return join_nonempty({shared.op ? "" : r.op, shared.type ? "" : r.type, shared.space ? "" : r.space, r.form,
                        r.bins ? std::to_string(r.bins) + " bins" : "", r.width > 1 ? "rows of " + std::to_string(r.width) : ""});
}

std::string data_name(const bench::Row& r) {
  return join_nonempty({r.addresses ? std::to_string(r.addresses) + " addr" : "", r.bytes ? bytes_name(r.bytes) : "", r.distribution});
}

// Rows of one benchmark: everything but the yardstick the same.
bool same_benchmark(const bench::Row& a, const bench::Row& b) {
  return a.suite == b.suite && a.op == b.op && a.type == b.type && a.space == b.space && a.form == b.form &&
         a.addresses == b.addresses && a.bytes == b.bytes && a.bins == b.bins && a.width == b.width &&
         a.distribution == b.distribution && a.path == b.path && a.value == b.value && a.unit == b.unit;
}

bool is_host(const std::string& yardstick) { return yardstick.rfind("C++ ", 0) == 0; }

// A column's name for a yardstick: short where the heading's legend says the rest.
std::string short_name(const std::string& yardstick) {
  if (yardstick == "read-only pass") return "read-only";
  if (is_host(yardstick)) return "C++";
  if (yardstick == "fast mode") return "fast";
  return yardstick;
}

// The yardstick the ratio column is taken to: on a GPU the read-only pass (the memory's rate
// bounds a memory-bound kernel), on a CPU plain C++ (PoCL's read-only pass is one more kernel
// through the runtime, a few GB/s where reduce reads 30: no bound); else the suite's first.
std::string primary(const std::vector<std::string>& yardsticks, bool gpu) {
  for (const auto& y : yardsticks)
    if (gpu ? y == "read-only pass" : is_host(y)) return y;
  return yardsticks.front();
}

// The benchmarks of one suite, each with its rows (one per yardstick), in the order measured.
std::vector<std::vector<const bench::Row*>> benchmarks(const std::vector<bench::Row>& rows, const std::string& suite) {
  std::vector<std::vector<const bench::Row*>> out;
  for (const auto& r : rows) {
    if (r.suite != suite) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& g) { return same_benchmark(*g.front(), r); });
    if (it == out.end())
      out.push_back({&r});
    else
      it->push_back(&r);
  }
  return out;
}

}  // namespace

void print_bench_table(std::ostream& out, const std::vector<bench::Row>& rows, bool gpu) {
  using bench::format_number;
  std::vector<std::string> suites;
  for (const auto& r : rows)
    if (std::find(suites.begin(), suites.end(), r.suite) == suites.end()) suites.push_back(r.suite);
  for (const auto& suite : suites) {
    const auto groups = benchmarks(rows, suite);
    const bench::Row& first = *groups.front().front();
    std::vector<std::string> yardsticks;
    bool paths = false;
    Shared shared;
    for (const auto& g : groups)
      for (const auto* r : g) {
        paths = paths || !r->path.empty();
        shared.op = shared.op && r->op == first.op;
        shared.type = shared.type && r->type == first.type;
        shared.space = shared.space && r->space == first.space;
        if (std::find(yardsticks.begin(), yardsticks.end(), r->yardstick) == yardsticks.end()) yardsticks.push_back(r->yardstick);
      }
    shared.op = shared.op && !first.op.empty() && groups.size() > 1;  // one line says it all itself
    shared.type = shared.type && !first.type.empty() && groups.size() > 1;
    shared.space = shared.space && !first.space.empty() && groups.size() > 1;
    const std::string unit = first.unit;
    // Few yardsticks: one column each, the ratio to the device class's. Many (variants, torch):
    // the yardstick named on each line, a benchmark's further ones on lines below it.
    const bool columns = yardsticks.size() <= 3;
    const std::string ratio_to = columns ? primary(yardsticks, gpu) : "";
    std::string legend;
    if (columns)
      for (const auto& y : yardsticks)
        if (short_name(y) != y) legend += (legend.empty() ? "" : "; ") + short_name(y) + " = " + y;
    const std::string what = join_nonempty({shared.op ? first.op : "", shared.type ? first.type : "", shared.space ? first.space : ""});
    out << (&suite == &suites.front() ? "" : "\n") << suite << ": " << (what.empty() ? "" : what + ", ") << unit
        << (columns ? "; ratio to " + ratio_to : "") << "\n";
    if (!legend.empty()) out << "(" << legend << ")\n";
    std::vector<std::string> header{"benchmark", "data"};
    if (paths) header.push_back("path");
    header.push_back(unit);
    if (columns) {
      for (const auto& y : yardsticks) header.push_back(short_name(y));
      header.push_back("ratio");
    } else {
      header.insert(header.end(), {"yardstick", "its " + unit, "ratio"});
    }
    std::vector<std::vector<std::string>> table{header};
    for (const auto& g : groups) {
      const bench::Row& r = *g.front();
      std::vector<std::string> line{benchmark_name(r, shared), data_name(r)};
      if (paths) line.push_back(r.path.empty() ? "-" : r.path);
      line.push_back(format_number(r.value));
      const auto with = [&](const std::string& y) -> const bench::Row* {
        const auto it = std::find_if(g.begin(), g.end(), [&](const auto* x) { return x->yardstick == y; });
        return it == g.end() || (*it)->yardstick_value <= 0 ? nullptr : *it;
      };
      if (columns) {
        for (const auto& y : yardsticks) line.push_back(with(y) ? format_number(with(y)->yardstick_value) : "-");
        line.push_back(with(ratio_to) ? ratio_name(with(ratio_to)->ratio()) : "-");
        table.push_back(line);
        continue;
      }
      for (const auto* y : g) {
        if (y != g.front()) line.assign(line.size(), "");
        line.resize(header.size() - 3);
        const bool has = y->yardstick_value > 0;
        line.insert(line.end(), {y->yardstick.empty() ? "-" : y->yardstick, has ? format_number(y->yardstick_value) : "-",
                                 has ? ratio_name(y->ratio()) : "-"});
        table.push_back(line);
      }
    }
    out << text_table(table);
  }
}

}  // namespace clatomics::cli
