// clatomics plan: what one library call would run on a device (clatomics/plan.hpp), computed
// without running it: the kernel, the exact build options to build it by hand, the launch shape,
// the strategy and the tuning values.
#include <iostream>
#include <stdexcept>
#include <string>

#include "clatomics/clatomics.hpp"
#include "commands.hpp"

namespace clatomics::cli {
namespace {

struct PlanArgs {
  DeviceChoice choice;
  std::string algorithm;
  PlanRequest request;
};

int run_plan(const PlanArgs& args) {
  const auto runtime = make_runtime("plan", args.choice.options());
  Plan plan;
  try {
    plan = clatomics::plan(*runtime, args.algorithm, args.request);
  } catch (const std::invalid_argument& e) {
    // The request is the command line's; main() names the program and the command.
    std::string message = e.what();
    const std::string prefix = "clatomics: plan: ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
    throw UsageError("plan", message);
  }
  std::cout << "device         " << runtime->device_info().caps.device_name << "\n" << to_string(plan);
  return exit_ok;
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* sub = add_command(
      app, "plan",
      "what one library call would run on a device, without running it.\n\n"
      "Prints the plan of one call (clatomics::plan_reduce, plan_dot, ...): the strategy, the kernel\n"
      "and its file, the launch (work-items and work-group size), the exact build options (the\n"
      "device's, then the call's: pass them to clBuildProgram with the expanded kernel file to build\n"
      "that kernel by hand) and the tuning values the shape came from.",
      "Examples: clatomics plan reduce --type double --deterministic\n"
      "          clatomics plan compact --n 1000000 --stable --device cpu\n");
  add_device_options(*sub, args->choice, "the plan with every op on the CAS loop (as CLATOMICS_FORCE_CAS=1)");
  sub->add_option("algorithm", args->algorithm, "the algorithm")->required()->check(one_of("algorithm", plan_algorithms));
  sub->add_option("--type", args->request.type, "the element type: float, double, int, uint, long, ulong (default float)");
  sub->add_option("--n", args->request.n, "the number of elements (default 16777216)");
  sub->add_option("--bins", args->request.bins,
                  "the bins of scatter_reduce and the histograms but the byte one (histogram2d_even: on each axis), the segments "
                  "of segment_reduce, the runs of reduce_by_key's sorted keys (default 1024)");
  sub->add_option("--op", args->request.op,
                  "the op: sum, prod, min, max; scatter_reduce, segment_reduce and reduce_by_key also mean (default sum)");
  sub->add_flag("--deterministic", args->request.deterministic,
                "the deterministic mode of reduce, scatter_reduce, segment_reduce or reduce_by_key");
  sub->add_flag("--stable", args->request.stable, "compact keeping the input's order");
  return {sub, [args] { return run_plan(*args); }};
}

}  // namespace clatomics::cli
