// clatomics/plan.hpp — what a library call would run on a runtime's device, computed without
// running it: the kernel file and kernel, the exact build options (to build the kernel by hand
// with clBuildProgram), the launch shape, the strategy and the tuning values behind them.
// Each algorithm's header declares its typed plan_ function; plan(rt, name, request) below plans
// any of them from a shape given as words and numbers (what `clatomics plan` prints).
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace clatomics {

class Runtime;

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

// A call described by its shape, for tools: the element type by name ("float", "double", "int",
// "uint", "long", "ulong"), the op by name ("sum", "prod", "min", "max", "mean"), n elements,
// bins (the scatter family's bins, segments or runs; the histograms' bins on each axis but the
// byte histogram's), and the modes.
struct PlanRequest {
  std::string type = "float", op = "sum";
  std::size_t n = std::size_t(1) << 24, bins = 1024;
  bool deterministic = false, stable = false;
};
// The plan of `algorithm` (one of plan_algorithms()) for request's shape, over data the library
// makes for it: the scatter family's indices spread evenly over the bins, segments of equal
// length, sorted keys in runs of equal length; compact keeps x > 0; even histograms over [0, 1).
// An unknown algorithm, a type or op it does not take, or a shape it refuses: std::invalid_argument
// naming what it takes.
Plan plan(Runtime& rt, const std::string& algorithm, const PlanRequest& request);
std::vector<std::string> plan_algorithms();

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
