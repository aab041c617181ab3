// clatomics plan: what one library call would run on a device (clatomics/plan.hpp), computed
// without running it: the kernel, the exact build options to build it by hand, the launch shape,
// the strategy and the tuning values.
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"
#include "commands.hpp"

namespace clatomics::cli {
namespace {

struct PlanArgs {
  DeviceChoice choice;
  std::string algorithm, type = "float", op = "sum";
  std::size_t n = std::size_t(1) << 24, bins = 1024;
  bool deterministic = false, stable = false;
};

ReduceOp reduce_op(const std::string& op) {
  if (op == "sum") return ReduceOp::sum;
  if (op == "prod") return ReduceOp::prod;
  if (op == "min") return ReduceOp::min;
  if (op == "max") return ReduceOp::max;
  throw UsageError("plan", "--op must be sum, prod, min or max for reduce");
}

ScatterOp scatter_op(const PlanArgs& a) {
  if (a.op == "sum") return ScatterOp::sum;
  if (a.op == "prod") return ScatterOp::prod;
  if (a.op == "min") return ScatterOp::min;
  if (a.op == "max") return ScatterOp::max;
  if (a.op == "mean") return ScatterOp::mean;
  throw UsageError("plan", "--op must be sum, prod, min, max or mean for " + a.algorithm);
}

ScatterOptions scatter_options(const PlanArgs& a) {
  ScatterOptions o;
  o.deterministic = a.deterministic;
  return o;
}

// scatter_reduce of n values at indices spread evenly over the bins (the plan samples them).
template <class V>
Plan plan_scatter(Runtime& rt, const PlanArgs& a) {
  std::vector<cl_uint> indices(a.n);
  for (std::size_t i = 0; i < a.n; ++i) indices[i] = cl_uint((i * 2654435761u) % a.bins);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, a.bins * sizeof(V));
  const cl::Buffer idx(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.n * sizeof(cl_uint), indices.data());
  const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, a.n * sizeof(V));
  return plan_scatter_reduce(rt, view<V>(out), view<cl_uint>(idx), view<V>(values), scatter_op(a), scatter_options(a));
}

// segment_reduce of n values in `bins` segments of equal length (to one value).
template <class V>
Plan plan_segments(Runtime& rt, const PlanArgs& a) {
  if (a.n > CL_UINT_MAX) throw UsageError("plan", "segment_reduce takes --n up to 4294967295 (its offsets are cl_uint)");
  std::vector<cl_uint> offsets(a.bins + 1);
  for (std::size_t s = 0; s <= a.bins; ++s) offsets[s] = cl_uint(s * a.n / a.bins);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, a.bins * sizeof(V));
  const cl::Buffer offs(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, offsets.size() * sizeof(cl_uint), offsets.data());
  const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, a.n * sizeof(V));
  return plan_segment_reduce(rt, view<V>(out), view<cl_uint>(offs), view<V>(values), scatter_op(a), scatter_options(a));
}

// reduce_by_key of n sorted keys in `bins` runs of equal length (to one key; n runs when n < bins).
template <class V>
Plan plan_by_key(Runtime& rt, const PlanArgs& a) {
  std::vector<cl_uint> keys(a.n);
  for (std::size_t i = 0; i < a.n; ++i) keys[i] = cl_uint(i * a.bins / a.n);
  const cl::Buffer key_buffer(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.n * sizeof(cl_uint), keys.data());
  const cl::Buffer values(rt.context(), CL_MEM_READ_ONLY, a.n * sizeof(V));
  const cl::Buffer unique(rt.context(), CL_MEM_READ_WRITE, a.n * sizeof(cl_uint));
  const cl::Buffer reductions(rt.context(), CL_MEM_READ_WRITE, a.n * sizeof(V));
  return plan_reduce_by_key(rt, view<cl_uint>(key_buffer), view<V>(values), view<cl_uint>(unique), view<V>(reductions), scatter_op(a),
                            scatter_options(a));
}

[[noreturn]] void no_type(const std::string& algorithm, const std::string& types) {
  throw UsageError("plan", algorithm + " takes --type " + types);
}

// The scatter family (scatter_reduce, segment_reduce, reduce_by_key): bins and values to plan,
// and one of its value types, given to plan as a value of that type.
template <class PlanOf>
Plan scatter_family(const std::string& algorithm, const PlanArgs& a, PlanOf plan) {
  if (a.bins == 0 || a.n == 0) throw UsageError("plan", algorithm + " needs --n and --bins above 0");
  if (a.type == "float") return plan(float{});
  if (a.type == "double") return plan(double{});
  if (a.type == "int") return plan(cl_int{});
  if (a.type == "uint") return plan(cl_uint{});
  no_type(algorithm, "float, double, int or uint");
}

// One entry per algorithm: the plan of the call the arguments describe.
using Planner = std::function<Plan(Runtime&, const PlanArgs&)>;
const std::map<std::string, Planner>& planners() {
  static const std::map<std::string, Planner> all = {
      {"reduce",
       [](Runtime& rt, const PlanArgs& a) {
         const ReduceOptions o{a.deterministic};
         const ReduceOp op = reduce_op(a.op);
         if (a.type == "float") return plan_reduce<float>(rt, a.n, op, o);
         if (a.type == "double") return plan_reduce<double>(rt, a.n, op, o);
         if (a.type == "int") return plan_reduce<cl_int>(rt, a.n, op, o);
         if (a.type == "uint") return plan_reduce<cl_uint>(rt, a.n, op, o);
         if (a.type == "long") return plan_reduce<cl_long>(rt, a.n, op, o);
         if (a.type == "ulong") return plan_reduce<cl_ulong>(rt, a.n, op, o);
         no_type("reduce", "float, double, int, uint, long or ulong");
       }},
      {"dot",
       [](Runtime& rt, const PlanArgs& a) {
         if (a.type == "float") return plan_dot<float>(rt, a.n);
         if (a.type == "double") return plan_dot<double>(rt, a.n);
         no_type("dot", "float or double");
       }},
      {"histogram", [](Runtime& rt, const PlanArgs& a) { return plan_histogram(rt, a.n); }},
      {"histogram_keys", [](Runtime& rt, const PlanArgs& a) { return plan_histogram_keys(rt, a.n, a.bins); }},
      {"histogram_even",
       [](Runtime& rt, const PlanArgs& a) {
         if (a.type == "float") return plan_histogram_even<float>(rt, a.n, {a.bins, 0.0f, 1.0f});
         if (a.type == "double") return plan_histogram_even<double>(rt, a.n, {a.bins, 0.0, 1.0});
         no_type("histogram_even", "float or double");
       }},
      {"histogram2d_even",
       [](Runtime& rt, const PlanArgs& a) {
         if (a.type == "float") return plan_histogram2d_even<float>(rt, a.n, {a.bins, 0.0f, 1.0f}, {a.bins, 0.0f, 1.0f});
         if (a.type == "double") return plan_histogram2d_even<double>(rt, a.n, {a.bins, 0.0, 1.0}, {a.bins, 0.0, 1.0});
         no_type("histogram2d_even", "float or double");
       }},
      {"scatter_reduce",
       [](Runtime& rt, const PlanArgs& a) {
         return scatter_family("scatter_reduce", a, [&](auto v) { return plan_scatter<decltype(v)>(rt, a); });
       }},
      {"segment_reduce",
       [](Runtime& rt, const PlanArgs& a) {
         return scatter_family("segment_reduce", a, [&](auto v) { return plan_segments<decltype(v)>(rt, a); });
       }},
      {"reduce_by_key",
       [](Runtime& rt, const PlanArgs& a) {
         return scatter_family("reduce_by_key", a, [&](auto v) { return plan_by_key<decltype(v)>(rt, a); });
       }},
      {"compact",
       [](Runtime& rt, const PlanArgs& a) {
         using where::x;
         const CompactOptions o{a.stable};
         if (a.type == "float") return plan_compact<float>(rt, a.n, x > 0.0f, o);
         if (a.type == "int") return plan_compact<cl_int>(rt, a.n, x > 0, o);
         if (a.type == "uint") return plan_compact<cl_uint>(rt, a.n, x > 0u, o);
         no_type("compact", "float, int or uint");
       }},
  };
  return all;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& [name, planner] : planners()) names.push_back(name);
  return names;
}

int run_plan(const PlanArgs& args) {
  const auto runtime = make_runtime("plan", args.choice.options());
  const Plan plan = planners().at(args.algorithm)(*runtime, args);
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
  sub->add_option("algorithm", args->algorithm, "the algorithm")->required()->check(one_of("algorithm", algorithm_names));
  sub->add_option("--type", args->type, "the element type: float, double, int, uint, long, ulong (default float)");
  sub->add_option("--n", args->n, "the number of elements (default 16777216)");
  sub->add_option("--bins", args->bins,
                  "the bins of scatter_reduce and the histograms but the byte one (histogram2d_even: on each axis), the segments "
                  "of segment_reduce, the runs of reduce_by_key's sorted keys (default 1024)");
  sub->add_option("--op", args->op,
                  "the op: sum, prod, min, max; scatter_reduce, segment_reduce and reduce_by_key also mean (default sum)");
  sub->add_flag("--deterministic", args->deterministic,
                "the deterministic mode of reduce, scatter_reduce, segment_reduce or reduce_by_key");
  sub->add_flag("--stable", args->stable, "compact keeping the input's order");
  return {sub, [args] { return run_plan(*args); }};
}

}  // namespace clatomics::cli
