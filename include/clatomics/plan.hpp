// clatomics/plan.hpp — what a library call would run on a runtime's device, computed without
// running it: the kernel file and kernel, the exact build options (to build the kernel by hand
// with clBuildProgram), the launch shape, the strategy and the tuning values behind them.
// `clatomics plan` prints one per algorithm; each algorithm's header declares its plan_ function.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace clatomics {

struct Plan {
  std::string algorithm;      // "reduce", "dot", ...
  std::string program;        // the library's kernel file, "kernels/reduce.cl"
  std::string kernel;         // the kernel that does the work (others may run beside it)
  std::string build_options;  // clBuildProgram's options: the device's, then the call's
  std::string strategy;       // the path chosen, in the words of the algorithm's options
  std::size_t global_size = 0, local_size = 0;  // the kernel's launch (the first, for streamed data)
  std::vector<std::pair<std::string, std::string>> tuning;  // the numbers the shape came from
};

// Several lines, one field each, the tuning values last.
std::string to_string(const Plan& plan);

namespace detail {
// A number or a word as Plan::tuning shows it.
template <class V>
std::string plan_text(const V& value) {
  std::ostringstream text;
  text << value;
  return text.str();
}
}  // namespace detail

}  // namespace clatomics
