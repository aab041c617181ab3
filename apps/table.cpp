// Aligned text tables and byte sizes.
#include "table.hpp"

#include <algorithm>

#include "bench.hpp"

namespace clatomics::cli {

std::string text_table(const std::vector<std::vector<std::string>>& rows, std::size_t indent) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (widths.size() <= c) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  const std::string pad(indent, ' ');
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = pad;
    for (std::size_t c = 0; c < rows[r].size(); ++c)
      line += rows[r][c] + (c + 1 < rows[r].size() ? std::string(widths[c] - rows[r][c].size() + 2, ' ') : "");
    out += line + "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < widths.size(); ++c) total += widths[c] + (c + 1 < widths.size() ? 2 : 0);
      out += pad + std::string(total, '-') + "\n";
    }
  }
  return out;
}

std::string named_line(const std::string& name, const std::string& text, std::size_t indent) {
  return std::string(indent, ' ') + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + text + "\n";
}

std::string bytes_name(std::uint64_t bytes) { return bench::format_bytes(bytes); }

}  // namespace clatomics::cli
