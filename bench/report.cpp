// Text table, JSON and SVG for the rows of a benchmark run.
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

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

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

// ---- the atomics plot ----

struct Point {
  double naddr, value;
};
// One line of a panel: an op on one path class (native, cas, backoff).
struct Series {
  std::string op, path;
  std::vector<Point> points;
};
struct Panel {
  std::string title;  // "float global"
  std::vector<Series> series;
  Series& get(const std::string& op, const std::string& path) {
    for (auto& s : series)
      if (s.op == op && s.path == path) return s;
    series.push_back({op, path, {}});
    return series.back();
  }
};

// Atomics rows: one panel per type and space. The figure is one line per op and path class
// ("native", or the backoff path), and each yardstick another ("cas loop", "naive cas loop"):
// several rows may share one figure.
std::vector<Panel> atomics_panels(const std::vector<Row>& rows) {
  std::vector<Panel> panels;
  for (const auto& row : rows) {
    if (row.suite != "atomics") continue;
    const std::string title = row.type + " " + row.space;
    auto it = std::find_if(panels.begin(), panels.end(), [&](const Panel& p) { return p.title == title; });
    if (it == panels.end()) {
      panels.push_back({title, {}});
      it = panels.end() - 1;
    }
    const double naddr = double(row.addresses);
    const auto add = [&](const std::string& path, double value) {
      auto& points = it->get(row.op, path).points;
      if (std::none_of(points.begin(), points.end(), [&](const Point& p) { return p.naddr == naddr; }))
        points.push_back({naddr, value});
    };
    const bool backoff = row.path == "cas+backoff";
    add(backoff ? "backoff" : "native", row.value);
    if (row.yardstick_value > 0 && !backoff) add(row.yardstick, row.yardstick_value);
  }
  return panels;
}

const char* op_color(const std::string& op) {
  static const std::map<std::string, const char*> colors = {
      {"add", "#1f77b4"}, {"sub", "#aec7e8"}, {"mul", "#d62728"}, {"div", "#ff9896"},
      {"mad", "#9467bd"}, {"min", "#2ca02c"}, {"max", "#98df8a"}, {"xchg", "#7f7f7f"}};
  const auto it = colors.find(op);
  return it == colors.end() ? "#000000" : it->second;
}

const char* path_dash(const std::string& path) {
  if (path == "native") return "none";
  if (path == "cas loop") return "6,4";
  if (path == "backoff") return "2,3";
  if (path == "naive cas loop") return "12,3,2,3";
  return "4,2,1,2";
}

std::string path_label(const std::string& path) {
  if (path == "native") return "native path";
  if (path == "cas loop") return "CAS loop";
  if (path == "backoff") return "CAS + backoff";
  if (path == "naive cas loop") return "naive CAS loop (re-reads)";
  return path;
}

constexpr int panel_w = 460, panel_h = 320, pad_l = 70, pad_r = 20, pad_t = 36, pad_b = 46;

void draw_panel(std::ostream& out, const Panel& panel, int x0, int y0) {
  double lo = 1e300, hi = 0, max_addr = 1;
  for (const auto& s : panel.series)
    for (const auto& p : s.points) {
      if (p.value > 0) lo = std::min(lo, p.value), hi = std::max(hi, p.value);
      max_addr = std::max(max_addr, p.naddr);
    }
  if (hi <= 0) return;
  const double ylo = std::floor(std::log10(lo)), yhi = std::max(ylo + 1, std::ceil(std::log10(hi)));
  const double xhi = std::max(1.0, std::log2(max_addr));
  const int w = panel_w - pad_l - pad_r, h = panel_h - pad_t - pad_b;
  const auto px = [&](double naddr) { return x0 + pad_l + w * std::log2(std::max(1.0, naddr)) / xhi; };
  const auto py = [&](double v) { return y0 + pad_t + h * (1 - (std::log10(v) - ylo) / (yhi - ylo)); };
  out << "<g font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<text x=\"" << x0 + pad_l + w / 2 << "\" y=\"" << y0 + 22 << "\" text-anchor=\"middle\" font-size=\"14\">"
      << xml_escape(panel.title) << "</text>\n";
  out << "<rect x=\"" << x0 + pad_l << "\" y=\"" << y0 + pad_t << "\" width=\"" << w << "\" height=\"" << h
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
  // decades, and 2x and 5x of each when the panel spans few decades
  const bool minor = yhi - ylo <= 2;
  for (double e = ylo; e <= yhi + 0.5; ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, e);
      if ((m > 1 && !minor) || std::log10(v) > yhi + 1e-9) continue;
      const double y = py(v);
      out << "<line x1=\"" << x0 + pad_l << "\" x2=\"" << x0 + pad_l + w << "\" y1=\"" << y << "\" y2=\"" << y
          << "\" stroke=\"" << (m > 1 ? "#f0f0f0" : "#ddd") << "\"/><text x=\"" << x0 + pad_l - 6 << "\" y=\"" << y + 4
          << "\" text-anchor=\"end\">" << format_number(v) << "</text>\n";
    }
  for (double n = 1; n <= max_addr; n *= 32) {  // 1, 32, 1024, 32768...: label the measured levels
    const double x = px(n);
    out << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << y0 + pad_t << "\" y2=\"" << y0 + pad_t + h
        << "\" stroke=\"#eee\"/>\n";
  }
  std::vector<double> levels;
  for (const auto& s : panel.series)
    for (const auto& p : s.points)
      if (std::find(levels.begin(), levels.end(), p.naddr) == levels.end()) levels.push_back(p.naddr);
  for (double n : levels)
    out << "<text x=\"" << px(n) << "\" y=\"" << y0 + pad_t + h + 15 << "\" text-anchor=\"middle\">"
        << format_number(n) << "</text>\n";
  out << "<text x=\"" << x0 + pad_l + w / 2 << "\" y=\"" << y0 + panel_h - 8
      << "\" text-anchor=\"middle\">addresses (contention falls to the right)</text>\n";
  out << "<text transform=\"translate(" << x0 + 16 << "," << y0 + pad_t + h / 2
      << ") rotate(-90)\" text-anchor=\"middle\">M ops/s</text>\n";
  for (const auto& s : panel.series) {
    auto points = s.points;
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.naddr < b.naddr; });
    std::string path;
    for (const auto& p : points)
      if (p.value > 0) path += (path.empty() ? "" : " ") + fixed(px(p.naddr), 1) + "," + fixed(py(p.value), 1);
    if (path.empty()) continue;
    out << "<polyline fill=\"none\" stroke=\"" << op_color(s.op) << "\" stroke-width=\"2\" stroke-dasharray=\""
        << path_dash(s.path) << "\" points=\"" << path << "\"><title>" << xml_escape(s.op + " " + s.path)
        << "</title></polyline>\n";
    for (const auto& p : points)
      if (p.value > 0)
        out << "<circle cx=\"" << fixed(px(p.naddr), 1) << "\" cy=\"" << fixed(py(p.value), 1) << "\" r=\"2.5\" fill=\""
            << op_color(s.op) << "\"><title>" << xml_escape(s.op + " " + s.path + ", " + format_number(p.naddr) +
                                                           " addresses: " + format_number(p.value) + " M ops/s")
            << "</title></circle>\n";
  }
  out << "</g>\n";
}

void draw_legend(std::ostream& out, const std::vector<Panel>& panels, int x0, int y0) {
  std::vector<std::string> ops, paths;
  for (const auto& panel : panels)
    for (const auto& s : panel.series) {
      if (std::find(ops.begin(), ops.end(), s.op) == ops.end()) ops.push_back(s.op);
      if (std::find(paths.begin(), paths.end(), s.path) == paths.end()) paths.push_back(s.path);
    }
  out << "<g font-family=\"sans-serif\" font-size=\"12\">\n";
  int x = x0;
  for (const auto& op : ops) {
    out << "<rect x=\"" << x << "\" y=\"" << y0 - 9 << "\" width=\"14\" height=\"10\" fill=\"" << op_color(op)
        << "\"/><text x=\"" << x + 18 << "\" y=\"" << y0 << "\">" << xml_escape(op) << "</text>\n";
    x += 64;
  }
  x += 20;
  for (const auto& path : paths) {
    const std::string label = path_label(path);
    out << "<line x1=\"" << x << "\" x2=\"" << x + 30 << "\" y1=\"" << y0 - 4 << "\" y2=\"" << y0 - 4
        << "\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"" << path_dash(path) << "\"/><text x=\"" << x + 36
        << "\" y=\"" << y0 << "\">" << label << "</text>\n";
    x += 50 + 7 * int(label.size());
  }
  out << "</g>\n";
}

// A color per yardstick, in order of appearance.
const char* series_color(std::size_t i) {
  static const char* const palette[] = {"#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#9d755d", "#bab0ac"};
  return palette[i % (sizeof palette / sizeof palette[0])];
}

std::string section_title(const std::string& unit) {
  if (unit == "GB/s")
    return "GB/s: ratio to each yardstick of the same run (to the read-only pass: the fraction of the bandwidth reached)";
  return unit + ": ratio to each yardstick of the same run";
}

// Horizontal bars for the rows of one unit: one group per benchmark (suite, name, variant), one
// bar per yardstick, a dashed line at 1. Returns the height used.
int draw_ratios(std::ostream& out, const std::string& unit, const std::vector<const Row*>& rows, int x0, int y0, int width) {
  std::vector<std::string> benchmarks, yardsticks;
  double top = 1.2, bottom = 1.0;
  for (const auto* row : rows) {
    const std::string label = row->suite + ": " + benchmark_label(*row) + " (" + case_label(*row) + ")";
    if (std::find(benchmarks.begin(), benchmarks.end(), label) == benchmarks.end()) benchmarks.push_back(label);
    if (std::find(yardsticks.begin(), yardsticks.end(), row->yardstick) == yardsticks.end()) yardsticks.push_back(row->yardstick);
    top = std::max(top, row->ratio() * 1.05);
    if (row->ratio() > 0) bottom = std::min(bottom, row->ratio());
  }
  const int label_w = 330, bar_h = 14, gap = 8, plot_w = width - label_w - 140;
  // Ratios spanning more than 20x (a GPU against a 2-thread host loop, next to bandwidth
  // fractions below 1) go on a log axis, so that no bar is flattened; else a linear one from 0.
  const bool log_axis = top / bottom > 20;
  const double lo = log_axis ? std::pow(10.0, std::floor(std::log10(bottom))) : 0.0;
  if (log_axis) top = std::pow(10.0, std::ceil(std::log10(top)));
  const auto px = [&](double r) {
    const double f = log_axis ? std::log10(std::max(r, lo) / lo) / std::log10(top / lo) : r / top;
    return x0 + label_w + plot_w * f;
  };
  out << "<g font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<text x=\"" << x0 << "\" y=\"" << y0 + 16 << "\" font-size=\"14\">" << xml_escape(section_title(unit)) << "</text>\n";
  int x = x0 + label_w;  // legend: one swatch per yardstick
  for (std::size_t k = 0; k < yardsticks.size(); ++k) {
    out << "<rect x=\"" << x << "\" y=\"" << y0 + 26 << "\" width=\"14\" height=\"10\" fill=\"" << series_color(k)
        << "\"/><text x=\"" << x + 18 << "\" y=\"" << y0 + 35 << "\">vs " << xml_escape(yardsticks[k]) << "</text>\n";
    x += 40 + 7 * int(yardsticks[k].size());
  }
  int y = y0 + 46;
  const int top_y = y;
  for (const auto& label : benchmarks) {
    std::size_t bars = 0;
    for (const auto* row : rows) {
      const std::string row_label = row->suite + ": " + benchmark_label(*row) + " (" + case_label(*row) + ")";
      if (row_label != label) continue;
      const std::size_t k = std::size_t(std::find(yardsticks.begin(), yardsticks.end(), row->yardstick) - yardsticks.begin());
      const int by = y + int(bars) * bar_h;
      if (bars == 0)
        out << "<text x=\"" << x0 + label_w - 6 << "\" y=\"" << by + 11 << "\" text-anchor=\"end\">" << xml_escape(label)
            << "</text>\n";
      out << "<rect x=\"" << x0 + label_w << "\" y=\"" << by << "\" width=\"" << fixed(std::max(1.0, px(row->ratio()) - px(lo)), 1)
          << "\" height=\"" << bar_h - 2 << "\" fill=\"" << series_color(k) << "\"><title>"
          << xml_escape(format_number(row->value) + " " + row->unit + " vs " + row->yardstick + " " +
                        format_number(row->yardstick_value))
          << "</title></rect><text x=\"" << fixed(px(row->ratio()) + 4, 1) << "\" y=\"" << by + 10 << "\">"
          << fixed(row->ratio(), 2) << "x (" << format_number(row->value) << " " << xml_escape(row->unit) << ")</text>\n";
      ++bars;
    }
    y += int(bars) * bar_h + gap;
  }
  // the ratio axis
  out << "<line x1=\"" << px(lo) << "\" x2=\"" << px(top) << "\" y1=\"" << y << "\" y2=\"" << y << "\" stroke=\"#444\"/>\n";
  std::vector<double> ticks;
  const double step = top > 5 ? std::ceil(top / 5) : top > 2 ? 0.5 : 0.25;
  if (log_axis)
    for (double r = lo; r <= top * 1.001; r *= 10) ticks.push_back(r);
  else
    for (double r = 0; r <= top + 1e-9; r += step) ticks.push_back(r);
  for (double r : ticks)
    out << "<line x1=\"" << px(r) << "\" x2=\"" << px(r) << "\" y1=\"" << y << "\" y2=\"" << y + 4
        << "\" stroke=\"#444\"/><text x=\"" << px(r) << "\" y=\"" << y + 16 << "\" text-anchor=\"middle\">"
        << format_number(r) << "</text>\n";
  out << "<text x=\"" << x0 + label_w + plot_w / 2 << "\" y=\"" << y + 32 << "\" text-anchor=\"middle\">ratio: "
      << xml_escape(unit) << " / the yardstick's " << xml_escape(unit) << (log_axis ? " (log scale)" : "")
      << "; red line: as fast as the yardstick</text>\n";
  out << "<line x1=\"" << px(1) << "\" x2=\"" << px(1) << "\" y1=\"" << top_y - 4 << "\" y2=\"" << y
      << "\" stroke=\"#c00\" stroke-dasharray=\"4,3\"/>\n</g>\n";
  return y + 44 - y0;
}

// The rows other than the atomics panels', with a yardstick, grouped by unit in order of appearance.
std::vector<std::pair<std::string, std::vector<const Row*>>> ratio_sections(const std::vector<Row>& rows) {
  std::vector<std::pair<std::string, std::vector<const Row*>>> sections;
  for (const auto& row : rows) {
    if (row.suite == "atomics" || !(row.yardstick_value > 0)) continue;
    auto it = std::find_if(sections.begin(), sections.end(), [&](const auto& s) { return s.first == row.unit; });
    if (it == sections.end()) it = sections.insert(sections.end(), {row.unit, {}});
    it->second.push_back(&row);
  }
  // GB/s first: the algorithms' bandwidth fractions
  std::stable_partition(sections.begin(), sections.end(), [](const auto& s) { return s.first == "GB/s"; });
  return sections;
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

void write_json(std::ostream& out, const RunInfo& info, const std::vector<Row>& rows) {
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
  out << doc.dump(2) << "\n";
}

void write_svg(std::ostream& out, const RunInfo& info, const std::vector<Row>& rows) {
  const auto panels = atomics_panels(rows);
  const int columns = 2, width = columns * panel_w + 20;
  const int panel_rows = int(panels.size() + columns - 1) / columns;
  std::ostringstream body;
  int y = 50;
  if (!panels.empty()) {
    body << "<text x=\"10\" y=\"" << y << "\" font-family=\"sans-serif\" font-size=\"14\">Atomic throughput against "
         << "contention, per op and path (log-log)</text>\n";
    draw_legend(body, panels, 14, y + 24);
    y += 36;
    for (std::size_t i = 0; i < panels.size(); ++i)
      draw_panel(body, panels[i], 10 + int(i % columns) * panel_w, y + int(i / columns) * panel_h);
    y += panel_rows * panel_h + 10;
  }
  for (const auto& [unit, unit_rows] : ratio_sections(rows)) y += draw_ratios(body, unit, unit_rows, 10, y, width - 20);
  if (panels.empty() && y == 50) {
    body << "<text x=\"10\" y=\"80\" font-family=\"sans-serif\">no rows to plot</text>\n";
    y = 100;
  }
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y + 10
      << "\" viewBox=\"0 0 " << width << " " << y + 10 << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"24\" font-family=\"sans-serif\" font-size=\"16\">clatomics bench: "
      << xml_escape(info.device + " (" + info.platform + "), " + info.date) << "</text>\n"
      << body.str() << "</svg>\n";
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
