// Plans as text, and plan(rt, name, request): the planners of src/core/plans.def by name.
#include "clatomics/plan.hpp"

#include <map>
#include <sstream>

#include "core/plan_request.hpp"

namespace clatomics {

std::string to_string(const Plan& plan) {
  const std::size_t first = plan.build_options.find_first_not_of(' ');
  const std::string options = first == std::string::npos ? "(none)" : plan.build_options.substr(first);
  std::ostringstream out;
  out << "algorithm      " << plan.algorithm << "\n"
      << "strategy       " << plan.strategy << "\n"
      << "kernel         " << plan.kernel << " (" << plan.program << ")\n"
      << "launch         " << plan.global_size << " work-items in groups of " << plan.local_size << "\n"
      << "build options  " << options << "\n";
  for (const auto& [name, value] : plan.tuning) out << "  " << name << " = " << value << "\n";
  return out.str();
}

namespace {

using Planner = Plan (*)(Runtime&, const PlanRequest&);
const std::map<std::string, Planner>& planners() {
  static const std::map<std::string, Planner> all = {
#define CLATOMICS_PLAN(name) {#name, detail::plan_request_##name},
#include "core/plans.def"
#undef CLATOMICS_PLAN
  };
  return all;
}

std::string names() {
  std::string all;
  for (const auto& [name, planner] : planners()) all += (all.empty() ? "" : ", ") + name;
  return all;
}

}  // namespace

std::vector<std::string> plan_algorithms() {
  std::vector<std::string> all;
  for (const auto& [name, planner] : planners()) all.push_back(name);
  return all;
}

Plan plan(Runtime& rt, const std::string& algorithm, const PlanRequest& request) {
  const auto planner = planners().find(algorithm);
  if (planner == planners().end())
    throw std::invalid_argument("clatomics: plan: no algorithm '" + algorithm + "' (the algorithms: " + names() + ")");
  return planner->second(rt, request);
}


}  // namespace clatomics
