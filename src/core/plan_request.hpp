// What the planners of plan(rt, name, request) share (src/core/plans.def lists them): the
// element type a request names (by its OpenCL C name), refused with what the algorithm takes; its
// op by name comes from core/names.hpp.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "clatomics/plan.hpp"
#include "core/cl_types.hpp"
#include "core/names.hpp"

namespace clatomics::detail {

#define CLATOMICS_PLAN(name) Plan plan_request_##name(Runtime& rt, const PlanRequest& request);
#include "core/plans.def"
#undef CLATOMICS_PLAN

// plan(T{}) for the element type T among Types that request.type names; refused otherwise.
template <class... Types, class Planner>
Plan plan_for_type(const std::string& algorithm, const PlanRequest& request, Planner&& plan) {
  Plan result;
  bool found = false;
  const auto try_type = [&](auto value) {
    if (!found && request.type == cl_type_name<decltype(value)>()) result = plan(value), found = true;
  };
  (try_type(Types{}), ...);
  if (!found) {
    std::string takes;
    ((takes += std::string(takes.empty() ? "" : ", ") + cl_type_name<Types>()), ...);
    refuse_named("plan: " + algorithm, "types", takes, request.type);
  }
  return result;
}

}  // namespace clatomics::detail
