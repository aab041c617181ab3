// Finding the files that travel with the program, installed or in its build tree.
#include "locate.hpp"

#include <initializer_list>
#include <system_error>

namespace clatomics::cli {
namespace {

namespace fs = std::filesystem;

// The first of the candidates (relative ones taken from the program's directory) where `file`
// is a regular file.
fs::path first_holding(std::initializer_list<fs::path> candidates, const fs::path& file) {
  const fs::path exe = executable_dir();
  for (const fs::path& c : candidates) {
    if (c.is_relative() && exe.empty()) continue;
    const fs::path dir = c.is_relative() ? exe / c : c;
    std::error_code ec;
    if (fs::is_regular_file(dir / file, ec)) return dir.lexically_normal();
  }
  return {};
}

}  // namespace

fs::path executable_dir() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

// CLATOMICS_INSTALL_*_FROM_BIN: the install directories relative to the program's (CMake's
// GNUInstallDirs); CLATOMICS_SOURCE_CL_DIR: the source tree's cl/.
std::string cl_include_dir() {
  return first_holding({CLATOMICS_INSTALL_INCLUDE_FROM_BIN, CLATOMICS_SOURCE_CL_DIR}, "clatomics/atomics.cl").string();
}

std::string plot_script() {
  const fs::path dir = first_holding({CLATOMICS_INSTALL_PLOT_FROM_BIN, "."}, "plot.py");
  return dir.empty() ? std::string() : (dir / "plot.py").string();
}

}  // namespace clatomics::cli
