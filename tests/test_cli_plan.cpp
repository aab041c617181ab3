// `clatomics plan` and the library's plans by name: the command prints the typed call's own plan,
// and each plan's build options build its kernel by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"
#include "cli_harness.hpp"
#include "core/testing.hpp"

using namespace cli_test;

namespace {

// `clatomics <args>` prints the plan after the device's name.
void check_prints(const clatomics::Runtime& rt, const std::string& args, const clatomics::Plan& plan) {
  CAPTURE(args);
  const auto r = cli(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out == "device         " + rt.device_info().caps.device_name + "\n" + clatomics::to_string(plan));
}

std::string tuning_value(const clatomics::Plan& plan, const std::string& name) {
  for (const auto& [entry, value] : plan.tuning)
    if (entry == name) return value;
  return "(no " + name + ")";
}

// The plan's options build its kernel from its file by hand, as it says: the file expanded as the
// library expands it (every file it includes in place), built with clBuildProgram.
void check_builds_by_hand(const clatomics::Runtime& rt, const clatomics::Plan& plan) {
  CAPTURE(plan.algorithm + ", " + plan.strategy);
  cl::Program program(rt.context(), clatomics::testing::embedded_source(plan.program));
  REQUIRE(program.build({rt.device()}, plan.build_options.c_str()) == CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  const cl::Kernel kernel(program, plan.kernel.c_str(), &status);
  CHECK(status == CL_SUCCESS);
  CHECK(plan.local_size > 0);
  CHECK(plan.global_size % plan.local_size == 0);
}

}  // namespace

TEST_CASE("plan") {
  // The command prints the library's own plan for the call, after the device's name.
  clatomics::Runtime rt(device_0());
  if (rt.supports_double())
    check_prints(rt, "plan reduce --device 0 --type double --n 1000000 --op max --deterministic",
                 clatomics::plan_reduce<double>(rt, 1000000, clatomics::ReduceOp::max, {true}));
  for (const char* args : {"plan reduce --device 0", "plan dot --device 0", "plan compact --device 0 --stable --type uint",
                           "plan histogram --device 0", "plan histogram_keys --device 0 --bins 100",
                           "plan histogram_even --device 0 --bins 64", "plan scatter_reduce --device 0 --bins 5000 --op max"}) {
    CAPTURE(args);
    const auto r = cli(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(contains(r.out, "build options  "));
    CHECK(contains(r.out, "launch         "));
  }
  for (const clatomics::Plan& plan : {clatomics::plan_reduce<float>(rt, 5000, clatomics::ReduceOp::sum),
                                      clatomics::plan_reduce<cl_ulong>(rt, 5000, clatomics::ReduceOp::min, {true}),
                                      clatomics::plan_dot<float>(rt, 777), clatomics::plan_histogram(rt, 100000),
                                      clatomics::plan_histogram_keys(rt, 100000, 3000),
                                      clatomics::plan_histogram_even<float>(rt, 100000, {100, 0.0f, 1.0f}, 1)})
    check_builds_by_hand(rt, plan);
  CHECK(cli("plan dot --device 0 --type int").code == 2);
  CHECK(contains(cli("plan dot --device 0 --type int").err, "dot takes the types float, double, not 'int'"));
  CHECK(cli("plan reduce --device 0 --op mean").code == 2);
  CHECK(cli("plan sort --device 0").code == 2);
}

TEST_CASE("plan by name") {
  // What tools ask for (the command, the Python package): the typed call's own plan.
  clatomics::Runtime rt(device_0());
  clatomics::PlanRequest request;
  request.type = "uint", request.n = 100000, request.op = "min", request.deterministic = true;
  CHECK(clatomics::to_string(clatomics::plan(rt, "reduce", request)) ==
        clatomics::to_string(clatomics::plan_reduce<cl_uint>(rt, 100000, clatomics::ReduceOp::min, {true})));
  request.type = "float", request.bins = 64;
  CHECK(clatomics::to_string(clatomics::plan(rt, "histogram2d_even", request)) ==
        clatomics::to_string(clatomics::plan_histogram2d_even<float>(rt, 100000, {64, 0.0f, 1.0f}, {64, 0.0f, 1.0f})));
  request.stable = true;
  CHECK(clatomics::to_string(clatomics::plan(rt, "compact", request)) ==
        clatomics::to_string(clatomics::plan_compact<float>(rt, 100000, clatomics::where::x > 0.0f, {true})));
  const std::vector<std::string> all = {"compact",        "dot",           "histogram",      "histogram2d_even", "histogram_even",
                                        "histogram_keys", "reduce",        "reduce_by_key",  "scatter_reduce",   "segment_reduce"};
  CHECK(clatomics::plan_algorithms() == all);
  for (const std::string& name : all) {
    CAPTURE(name);
    clatomics::PlanRequest small;
    small.n = 5000, small.bins = 50;
    const std::string described = clatomics::plan(rt, name, small).algorithm;  // "reduce sum of 5000 float"
    CHECK((described == name || described.rfind(name + " ", 0) == 0));
  }
  CHECK_THROWS_WITH_AS(clatomics::plan(rt, "sort", {}), doctest::Contains("no algorithm 'sort' (the algorithms: compact, dot,"),
                       std::invalid_argument);
  clatomics::PlanRequest bad;
  bad.type = "half";
  CHECK_THROWS_WITH_AS(clatomics::plan(rt, "reduce", bad), "clatomics: plan: reduce takes the types float, double, int, uint, long, ulong, not 'half'",
                       std::invalid_argument);
  bad = {}, bad.op = "mean";
  CHECK_THROWS_WITH_AS(clatomics::plan(rt, "reduce", bad), "clatomics: plan: reduce takes the ops sum, prod, min, max, not 'mean'",
                       std::invalid_argument);
  bad = {}, bad.bins = 0;
  CHECK_THROWS_WITH_AS(clatomics::plan(rt, "scatter_reduce", bad), "clatomics: plan: scatter_reduce needs n and bins above 0 (n 16777216, bins 0)",
                       std::invalid_argument);
}

// Cases apart from "plan", each a CTest test of its own: every command and build takes seconds on
// Intel's CPU runtime, and one case of them all would pass the time limit.
TEST_CASE("plan histogram2d") {
  clatomics::Runtime rt(device_0());
  const clatomics::Plan square = clatomics::plan_histogram2d_even<float>(rt, 100000, {40, 0, 1}, {40, 0, 1});
  check_prints(rt, "plan histogram2d_even --device 0 --n 100000 --bins 40", square);
  clatomics::HistogramOptions global;
  global.strategy = clatomics::HistogramStrategy::global_atomics;
  const clatomics::Plan weighted = clatomics::plan_histogram2d_even<float>(rt, 100000, {40, 0, 1}, {30, -1, 1}, 2, global);
  CHECK(weighted.algorithm == "histogram2d_even of 100000 float points into 40 x 30 bins, 2 weight channels");
  CHECK(weighted.strategy == "global_atomics");
  CHECK(weighted.kernel == "clat_hist_global");
  CHECK(weighted.program == "kernels/histogram/count.cl");
  CHECK(contains(weighted.build_options, " -DCLAT_HIST_2D=1 -DCLAT_HIST_CHANNELS=2 "));
  for (const clatomics::Plan& plan : {square, weighted}) check_builds_by_hand(rt, plan);
}

TEST_CASE("plan scatter") {
  using clatomics::ScatterOp;
  using clatomics::view;
  clatomics::Runtime rt(device_0());
  // The command's data: n values in segments of equal length, n sorted keys in runs of equal length.
  const std::size_t n = 100000, segments = 300, runs = 37;
  std::vector<cl_uint> offsets(segments + 1), keys(n);
  for (std::size_t s = 0; s <= segments; ++s) offsets[s] = cl_uint(s * n / segments);
  for (std::size_t i = 0; i < n; ++i) keys[i] = cl_uint(i * runs / n);
  const auto buffer = [&](std::size_t bytes) { return cl::Buffer(rt.context(), CL_MEM_READ_WRITE, bytes); };
  const cl::Buffer out = buffer(n * 4), values = buffer(n * 4), unique = buffer(n * 4), sums = buffer(n * 4);
  const cl::Buffer idx(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, keys.data());
  const cl::Buffer offs(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, offsets.size() * 4, offsets.data());
  const auto segment_plan = [&](ScatterOp op, clatomics::ScatterOptions o) {
    return clatomics::plan_segment_reduce(rt, view<float>(out, 0, segments), view<cl_uint>(offs), view<float>(values), op, o);
  };
  const auto by_key_plan = [&](ScatterOp op, clatomics::ScatterOptions o) {
    return clatomics::plan_reduce_by_key(rt, view<cl_uint>(idx), view<float>(values), view<cl_uint>(unique), view<float>(sums), op, o);
  };
  const clatomics::Plan segment_min = segment_plan(ScatterOp::min, {}), by_key_mean = by_key_plan(ScatterOp::mean, {});
  check_prints(rt, "plan segment_reduce --device 0 --n 100000 --bins 300 --op min", segment_min);
  check_prints(rt, "plan reduce_by_key --device 0 --n 100000 --bins 37 --op mean", by_key_mean);
  CHECK((segment_min.algorithm == "segment_reduce" && by_key_mean.algorithm == "reduce_by_key"));
  CHECK(tuning_value(by_key_mean, "runs") == std::to_string(runs));  // counted on the device
  CHECK(tuning_value(by_key_mean, "runs kernels") == "clat_rbk_count, clat_rbk_heads (kernels/reduce_by_key.cl)");
  clatomics::ScatterOptions global;
  global.strategy = clatomics::ScatterStrategy::global_atomics;
  const clatomics::Plan segment_sum = segment_plan(ScatterOp::sum, global), by_key_sum = by_key_plan(ScatterOp::sum, global);
  for (const clatomics::Plan& plan : {segment_sum, by_key_sum}) {
    CAPTURE(plan.algorithm);
    CHECK(plan.strategy == "global_atomics");
    CHECK(plan.kernel == "clat_scatter");
    CHECK(plan.program == "kernels/scatter.cl");
    CHECK(contains(plan.build_options, " -DCLAT_SC_SEGMENTS=1 "));
    CHECK(tuning_value(plan, "sample") == "sorted, spread");  // segments are sorted, never sampled
  }
  // No keys, or no bins: nothing runs, and the plan says which strategy the call reports.
  for (const clatomics::Plan& plan :
       {clatomics::plan_reduce_by_key(rt, view<cl_uint>(idx, 0, 0), view<float>(values, 0, 0), view<cl_uint>(unique, 0, 0),
                                      view<float>(sums, 0, 0), ScatterOp::sum, {}),
        clatomics::plan_scatter_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(idx), view<float>(values), ScatterOp::sum)}) {
    CHECK(plan.strategy == "global_atomics");
    CHECK(plan.global_size == 0);
    CHECK(tuning_value(plan, "launches") == "0");
  }
  const auto scatter = clatomics::plan_scatter_reduce(rt, view<float>(out, 0, 5000), view<cl_uint>(idx), view<float>(values), ScatterOp::max);
  for (const clatomics::Plan& plan : {scatter, segment_min, segment_sum, by_key_mean, by_key_sum}) check_builds_by_hand(rt, plan);
  clatomics::Plan runs_plan = by_key_mean;  // the runs' own program builds by hand from the options the plan gives for it
  runs_plan.program = "kernels/reduce_by_key.cl", runs_plan.kernel = "clat_rbk_heads";
  runs_plan.build_options = tuning_value(by_key_mean, "runs build options");
  check_builds_by_hand(rt, runs_plan);
  CHECK(contains(cli("plan reduce_by_key --device 0 --op avg").err, "reduce_by_key takes the ops sum, prod, min, max, mean, not 'avg'"));
}
