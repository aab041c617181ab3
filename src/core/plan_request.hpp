// What the planners of plan(rt, name, request) share (src/core/plans.def lists them): the
// element type (by its OpenCL C name) and op a request names, refused with what the algorithm
// takes.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "clatomics/plan.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/scatter_options.hpp"
#include "core/cl_types.hpp"

namespace clatomics::detail {

#define CLATOMICS_PLAN(name) Plan plan_request_##name(Runtime& rt, const PlanRequest& request);
#include "core/plans.def"
#undef CLATOMICS_PLAN

[[noreturn]] void refuse_plan(const std::string& algorithm, const std::string& what, const std::string& value, const std::string& takes);

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
    refuse_plan(algorithm, "type", request.type, takes);
  }
  return result;
}

ReduceOp plan_reduce_op(const std::string& algorithm, const PlanRequest& request);    // sum, prod, min, max
ScatterOp plan_scatter_op(const std::string& algorithm, const PlanRequest& request);  // and mean

}  // namespace clatomics::detail
