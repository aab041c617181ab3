// Peer figures from a file, merged into a suite's rows as yardsticks.
#include "peer_figures.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "report.hpp"

namespace clatomics::bench {
namespace {

// A text field of the file: the suite writes null where a field does not apply.
std::string text_field(const nlohmann::json& row, const char* key) {
  const auto it = row.find(key);
  return it == row.end() || it->is_null() ? std::string() : it->get<std::string>();
}

std::size_t count_field(const nlohmann::json& row, const char* key) {
  const auto it = row.find(key);
  return it == row.end() || it->is_null() ? 0 : it->get<std::size_t>();
}

// The same benchmark but perhaps for its bytes.
bool same_case(const Row& r, const PeerFigure& p) {
  return r.op == p.op && r.type == p.type && r.form == p.form && r.distribution == p.distribution && r.bins == p.bins;
}

bool same_case(const Row& a, const Row& b) {
  return a.suite == b.suite && a.op == b.op && a.type == b.type && a.form == b.form && a.distribution == b.distribution &&
         a.bins == b.bins && a.bytes == b.bytes && a.width == b.width && a.space == b.space && a.addresses == b.addresses;
}

}  // namespace

std::vector<PeerFigure> parse_peer_figures(const std::string& text, const std::string& suite, const std::string& source) {
  std::vector<PeerFigure> figures;
  try {
    const auto doc = nlohmann::json::parse(text);
    for (const auto& row : doc.at("rows")) {
      if (text_field(row, "suite") != suite) continue;
      PeerFigure p;
      p.op = row.at("op").get<std::string>();
      p.type = text_field(row, "type");
      p.form = text_field(row, "form");
      p.distribution = text_field(row, "distribution");
      p.bins = count_field(row, "bins");
      p.bytes = row.at("bytes").get<std::size_t>();
      p.yardstick = row.at("yardstick").get<std::string>();
      p.value = row.at("value").get<double>();
      if (p.yardstick.empty() || !(p.value > 0)) throw std::runtime_error("a row without a yardstick or a positive value");
      figures.push_back(p);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(source + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
  return figures;
}

std::vector<PeerFigure> read_peer_figures(const char* variable, const std::string& suite, const Config& config) {
  const char* path = std::getenv(variable);
  if (!path || !*path) return {};
  std::ifstream in(path);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf())) throw std::runtime_error(std::string(variable) + ": cannot read " + path);
  auto figures = parse_peer_figures(text.str(), suite, std::string(variable) + "=" + path);
  progress(config, suite + ": peer figures from " + path + " (" + std::to_string(figures.size()) + " rows)");
  return figures;
}

std::vector<Row> with_peer_rows(const std::vector<Row>& rows, const std::vector<PeerFigure>& peers, const Config& config) {
  std::vector<Row> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.push_back(rows[i]);
    if (i + 1 < rows.size() && same_case(rows[i], rows[i + 1])) continue;  // not yet the benchmark's last row
    bool found = false, elsewhere = false;
    for (const auto& p : peers) {
      if (!same_case(rows[i], p)) continue;
      if (p.bytes != rows[i].bytes) {
        elsewhere = true;
        continue;
      }
      Row row = rows[i];
      row.yardstick = p.yardstick;
      row.yardstick_value = p.value;
      out.push_back(row);
      found = true;
    }
    if (elsewhere && !found)
      progress(config, rows[i].suite + ": the peer figures for " + rows[i].op + " " + rows[i].type +
                           (rows[i].form.empty() ? "" : ", " + rows[i].form) + " are for other sizes than this run's " +
                           format_bytes(rows[i].bytes) + " (give both the same --size)");
  }
  return out;
}

void print_peer_summary(const std::vector<Row>& rows, const std::string& suite, const std::vector<std::string>& own_yardsticks,
                        const char* variable, std::ostream& out) {
  std::vector<const Row*> best;  // a benchmark's best peer row, in the order of the run
  for (const auto& r : rows) {
    if (r.suite != suite || std::find(own_yardsticks.begin(), own_yardsticks.end(), r.yardstick) != own_yardsticks.end()) continue;
    const auto same = std::find_if(best.begin(), best.end(), [&](const Row* b) {
      return b->op == r.op && b->type == r.type && b->form == r.form && b->distribution == r.distribution && b->bins == r.bins &&
             b->bytes == r.bytes;
    });
    if (same == best.end())
      best.push_back(&r);
    else if (r.yardstick_value > (*same)->yardstick_value)
      *same = &r;
  }
  if (best.empty()) return;
  out << "  against other libraries measured in the same job (" << variable << "), the best of each:\n";
  for (const Row* r : best)
    out << "    " << r->op << " " << r->type << (r->form.empty() ? "" : ", " + r->form)
        << (r->bins ? ", " + std::to_string(r->bins) + " bins" : "") << " (" << r->distribution << "): " << format_number(r->value)
        << " GB/s = " << two_places(r->ratio()) << "x " << r->yardstick << " (" << format_number(r->yardstick_value) << " GB/s)\n";
}

}  // namespace clatomics::bench
