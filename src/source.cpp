// Serves the embedded cl/ files, expanding their #include "..." lines.
#include "clatomics/source.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

#include "embedded_files.hpp"

namespace clatomics {
namespace {

const detail::EmbeddedFile* find_embedded(const std::string& path) {
  for (std::size_t i = 0; i < detail::embedded_file_count; ++i)
    if (path == detail::embedded_files[i].path) return &detail::embedded_files[i];
  return nullptr;
}

// The path inside #include "path", if the line is such a directive naming an embedded file.
const detail::EmbeddedFile* included_file(const std::string& line) {
  const auto hash = line.find_first_not_of(" \t");
  if (hash == std::string::npos || line[hash] != '#') return nullptr;
  const auto word = line.find_first_not_of(" \t", hash + 1);
  if (word == std::string::npos || line.compare(word, 7, "include") != 0) return nullptr;
  const auto open = line.find('"', word + 7);
  const auto close = open == std::string::npos ? open : line.find('"', open + 1);
  if (close == std::string::npos) return nullptr;
  return find_embedded(line.substr(open + 1, close - open - 1));
}

void expand_into(std::ostringstream& out, const std::string& text, std::set<std::string>& seen) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto* file = included_file(line)) {
      if (seen.insert(file->path).second) expand_into(out, std::string(file->text, file->size), seen);
      continue;
    }
    out << line << '\n';
  }
}

std::string expand(const std::string& text) {
  std::ostringstream out;
  std::set<std::string> seen;
  expand_into(out, text, seen);
  return out.str();
}

}  // namespace

std::string expand_includes(const std::string& text) { return expand(text); }

std::string embedded_source(const std::string& path) {
  const auto* file = find_embedded(path);
  if (!file) throw std::invalid_argument("clatomics: no embedded OpenCL file '" + path + "'");
  return expand(std::string(file->text, file->size));
}

std::string source() {
  static const std::string text = embedded_source("clatomics/atomics.cl");
  return text;
}

std::vector<std::string> embedded_paths() {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < detail::embedded_file_count; ++i) paths.emplace_back(detail::embedded_files[i].path);
  return paths;
}

}  // namespace clatomics
