// Where this program's companion files are: the snippets' include directory, the plot script.
// Each is looked for beside the installed program first, then in the tree it was built from.
#pragma once

#include <filesystem>
#include <string>

namespace clatomics::cli {

// The directory of the running program (from /proc/self/exe); empty when it cannot be read.
std::filesystem::path executable_dir();

// The directory to pass with -I so that `#include "clatomics/atomics.cl"` works: <prefix>/include
// of an installed program, else the source tree's cl/ the program was built from; empty when
// neither holds clatomics/atomics.cl.
std::string cl_include_dir();

// plot.py, which draws `clatomics bench --plot`: <prefix>/share/clatomics/plot.py of an installed
// program, else the copy beside the program in its build tree; empty when neither exists.
std::string plot_script();

}  // namespace clatomics::cli
