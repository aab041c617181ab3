// The registry's reduce (algorithm_cases.hpp).
#include "algorithms/reductions.hpp"

namespace test::algorithms {
namespace {

using clatomics::ReduceOp;
using clatomics::Runtime;

const char* op_name(ReduceOp op) { return op == ReduceOp::sum ? "sum" : op == ReduceOp::min ? "min" : "max"; }

// sum, min, max (products of many small integers overflow float), fast or deterministic.
Call reduce_call(ReduceOp op, bool deterministic) {
  Call c;
  c.what = std::string(op_name(op)) + (deterministic ? ", deterministic" : "");
  c.run = [op, deterministic](Runtime& rt, const Ranges& r, const Contents* before) {
    const float got = clatomics::reduce(rt, view<float>(r[0]), op, {deterministic});
    if (before) CHECK(got == host_reduce(as<float>((*before)[0]), op));
  };
  return c;
}

void reduces(Runtime& rt) {
  const std::vector<float> f = ramp(100003);
  for (const ReduceOp op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::prod})
    for (const bool deterministic : {false, true}) (void)clatomics::reduce(rt, f, op, {deterministic});
  (void)clatomics::reduce(rt, std::vector<cl_int>(5000, 3), ReduceOp::sum);
  (void)clatomics::reduce(rt, std::vector<cl_ulong>(5000, 3), ReduceOp::max);
  if (rt.supports_double()) (void)clatomics::reduce(rt, std::vector<double>(5000, 0.5), ReduceOp::sum, {true});
}

Algorithm reduce_entry() {
  Algorithm a = algorithm_of("reduce", {{"buffer", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) { return floats(s, seed, 1); };
  a.calls = {reduce_call(ReduceOp::sum, false), reduce_call(ReduceOp::sum, true), reduce_call(ReduceOp::min, false),
             reduce_call(ReduceOp::max, false)};
  a.random_call = [](std::mt19937_64& g) {
    const ReduceOp ops[] = {ReduceOp::sum, ReduceOp::min, ReduceOp::max};
    const ReduceOp op = ops[g() % 3];
    return reduce_call(op, g() % 2);
  };
  a.refusals = {refusal("op outside ReduceOp", "reduce: op (42) is not a ReduceOp", [](Runtime& rt, const Ranges& r) {
    (void)clatomics::reduce(rt, view<float>(r[0]), static_cast<ReduceOp>(42));
  })};
  a.fp64_name = "reduce<double>";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::reduce(rt, clatomics::view<double>(pools[0], 0, n), ReduceOp::sum);
  };
  a.reach_kernels = reduces;
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(reduce_entry);

}  // namespace test::algorithms
