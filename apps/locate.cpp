// Finding the files that travel with the program, installed or in its build tree.
#include "locate.hpp"

#include <system_error>

namespace clatomics::cli {

std::filesystem::path executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

std::string cl_include_dir() {
  namespace fs = std::filesystem;
  const fs::path exe = executable_dir();
  for (const fs::path& dir : {exe.empty() ? fs::path() : exe.parent_path() / "include", fs::path(CLATOMICS_SOURCE_CL_DIR)}) {
    std::error_code ec;
    if (!dir.empty() && fs::is_regular_file(dir / "clatomics" / "atomics.cl", ec)) return dir.lexically_normal().string();
  }
  return {};
}

}  // namespace clatomics::cli
