// The scatter family's planners for plan(rt, name, request) (src/core/plans.def): the call over
// data made for the request's shape, then planned as the user's call would be.
#include <stdexcept>
#include <string>
#include <vector>

#include "clatomics/reduce_by_key.hpp"
#include "clatomics/scatter.hpp"
#include "clatomics/segment_reduce.hpp"
#include "core/plan_request.hpp"

namespace clatomics {
namespace {

ScatterOptions options_of(const PlanRequest& request) {
  ScatterOptions options;
  options.deterministic = request.deterministic;
  return options;
}

// One of the family's value types, given to plan as a value of that type, for request.n values
// into request.bins bins (segments, runs), both above 0.
template <class PlanOf>
Plan for_value_type(const std::string& algorithm, const PlanRequest& request, PlanOf plan) {
  if (request.bins == 0 || request.n == 0)
    throw std::invalid_argument("clatomics: plan: " + algorithm + " needs n and bins above 0 (n " + std::to_string(request.n) + ", bins " +
                                std::to_string(request.bins) + ")");
  return detail::plan_for_type<float, double, cl_int, cl_uint>(algorithm, request, plan);
}

cl::Buffer device_copy(Runtime& rt, const std::vector<cl_uint>& data) {
  return cl::Buffer(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_uint), const_cast<cl_uint*>(data.data()));
}

}  // namespace

// n values at indices spread evenly over the bins (the plan samples them).
Plan detail::plan_request_scatter_reduce(Runtime& rt, const PlanRequest& request) {
  return for_value_type("scatter_reduce", request, [&](auto value) {
    using V = decltype(value);
    std::vector<cl_uint> indices(request.n);
    for (std::size_t i = 0; i < request.n; ++i) indices[i] = cl_uint((i * 2654435761u) % request.bins);
    const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, request.bins * sizeof(V));
    const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, request.n * sizeof(V));
    return plan_scatter_reduce(rt, view<V>(out), view<cl_uint>(device_copy(rt, indices)), view<V>(values),
                               detail::scatter_op_named("plan: scatter_reduce", request.op), options_of(request));
  });
}

// n values in bins segments of equal length (to one value).
Plan detail::plan_request_segment_reduce(Runtime& rt, const PlanRequest& request) {
  if (request.n > CL_UINT_MAX)
    throw std::invalid_argument("clatomics: plan: segment_reduce takes n up to 4294967295 (its offsets are cl_uint), not " +
                                std::to_string(request.n));
  return for_value_type("segment_reduce", request, [&](auto value) {
    using V = decltype(value);
    std::vector<cl_uint> offsets(request.bins + 1);
    for (std::size_t s = 0; s <= request.bins; ++s) offsets[s] = cl_uint(s * request.n / request.bins);
    const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, request.bins * sizeof(V));
    const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, request.n * sizeof(V));
    return plan_segment_reduce(rt, view<V>(out), view<cl_uint>(device_copy(rt, offsets)), view<V>(values),
                               detail::scatter_op_named("plan: segment_reduce", request.op), options_of(request));
  });
}

// n sorted keys in bins runs of equal length (to one key; n runs when n < bins).
Plan detail::plan_request_reduce_by_key(Runtime& rt, const PlanRequest& request) {
  return for_value_type("reduce_by_key", request, [&](auto value) {
    using V = decltype(value);
    std::vector<cl_uint> keys(request.n);
    for (std::size_t i = 0; i < request.n; ++i) keys[i] = cl_uint(i * request.bins / request.n);
    const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, request.n * sizeof(V));
    const cl::Buffer unique(rt.context(), CL_MEM_READ_WRITE, request.n * sizeof(cl_uint));
    const cl::Buffer reductions(rt.context(), CL_MEM_READ_WRITE, request.n * sizeof(V));
    return plan_reduce_by_key(rt, view<cl_uint>(device_copy(rt, keys)), view<V>(values), view<cl_uint>(unique), view<V>(reductions),
                              detail::scatter_op_named("plan: reduce_by_key", request.op), options_of(request));
  });
}

}  // namespace clatomics
