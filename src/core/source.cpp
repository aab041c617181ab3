// Serves the embedded cl/ files: the snippet library, and the library's kernels with their
// #include "..." lines expanded.
#include "clatomics/source.hpp"

#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/source_text.hpp"

namespace clatomics {
namespace detail {
namespace {

// Where `#include "path"` (or <path>) sits on the line: [hash, end) and the path; false when the
// line is no such directive.
bool find_include(const std::string& line, std::size_t& hash, std::size_t& end, std::string& path) {
  hash = line.find_first_not_of(" \t");
  if (hash == std::string::npos || line[hash] != '#') return false;
  const auto word = line.find_first_not_of(" \t", hash + 1);
  if (word == std::string::npos || line.compare(word, 7, "include") != 0) return false;
  const auto open = line.find_first_not_of(" \t", word + 7);
  if (open == std::string::npos || (line[open] != '"' && line[open] != '<')) return false;
  const auto close = line.find(line[open] == '"' ? '"' : '>', open + 1);
  if (close == std::string::npos) return false;
  path = line.substr(open + 1, close - open - 1);
  end = close + 1;
  return true;
}

// Each file's text comes after a #line naming it, and the including file's text resumes with a
// #line at its own next line: compilers' messages point to "clatomics/cas.cl:42", not to a line
// of one long expansion (NVIDIA's compiler ignores #line).
void expand_into(std::ostringstream& out, const std::string& name, std::string_view text, std::set<std::string>& seen) {
  std::istringstream in{std::string(text)};
  std::string line, path;
  std::size_t hash = 0, end = 0, number = 0;
  out << "#line 1 \"" << name << "\"\n";
  while (std::getline(in, line)) {
    ++number;
    if (find_include(line, hash, end, path)) {
      if (const auto* file = embedded_file(path)) {
        if (seen.insert(path).second) {
          expand_into(out, path, *file, seen);
          out << "#line " << number + 1 << " \"" << name << "\"\n";
        } else {
          out << '\n';  // already included: an empty line keeps the numbering
        }
        continue;
      }
    }
    out << line << '\n';
  }
}

}  // namespace

const std::string& embedded_source(const std::string& path) {
  // Expanded once per file: the algorithms ask for their kernel file on every call.
  static std::mutex made;
  static std::map<std::string, std::string> expanded;
  std::lock_guard<std::mutex> lock(made);
  if (const auto it = expanded.find(path); it != expanded.end()) return it->second;
  const auto* file = embedded_file(path);
  if (!file) throw std::invalid_argument("clatomics: no embedded OpenCL file '" + path + "'");
  std::ostringstream out;
  std::set<std::string> seen{path};
  expand_into(out, path, *file, seen);
  return expanded.emplace(path, out.str()).first->second;
}

std::string blank_library_includes(const std::string& user_source) {
  std::string text = user_source;
  std::string path;
  std::size_t hash = 0, end = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t stop = text.find('\n', start);
    if (stop == std::string::npos) stop = text.size();
    const std::string line = text.substr(start, stop - start);
    if (find_include(line, hash, end, path) && path.rfind("clatomics/", 0) == 0 && embedded_file(path))
      text.replace(start + hash, end - hash, end - hash, ' ');
    start = stop + 1;
  }
  return text;
}

}  // namespace detail

const std::string& source() {
  static const std::string text = detail::embedded_source("clatomics/atomics.cl");
  return text;
}

}  // namespace clatomics
