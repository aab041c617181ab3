// The registry's scatter_reduce_arg (algorithm_cases.hpp).
#include "algorithms/scatters.hpp"

namespace test::algorithms {
namespace {

// Without out's own values: with them, a tie between out's value and a value has no lowest position.
Call arg_call(ScatterOp op) {
  Call c;
  c.what = call_name(op, false);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got =
        clatomics::scatter_reduce_arg(rt, view<float>(r[0]), view<cl_ulong>(r[3]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(false));
    if (!before) return;
    const Scattered want = host_scatter(*before, op, false);
    CHECK(got.out_of_range == want.out_of_range);
    check_output(rt, r[0], (*before)[0], want.out);
    check_output(rt, r[3], (*before)[3], want.arg);
  };
  return c;
}

Algorithm scatter_reduce_arg_entry() {
  Algorithm a = algorithm_of("scatter_reduce_arg", {{"out", Role::inout, 4, Extent::bins}, {"indices", Role::input, 4, Extent::length},
                                                    {"values", Role::input, 4, Extent::length}, {"arg", Role::inout, 8, Extent::bins}});
  a.available = int64_atomics;
  a.contents = [](const Shape& s, unsigned seed) { return scatter_contents(s, seed, true); };
  a.calls = {arg_call(ScatterOp::max), arg_call(ScatterOp::min)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_arg) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::scatter_reduce_arg(rt, view<float>(r[0]), view<cl_ulong>(longer_arg ? longer(r[3]) : r[3]), view<cl_uint>(r[1]),
                                          view<float>(r[2]), op);
    });
  };
  a.refusals = {with("op sum", "arg needs op min or max", ScatterOp::sum, false),
                with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false),
                with("arg of another length than out", "arg holds", ScatterOp::max, true)};
  a.fp64_name = "scatter_reduce_arg: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::scatter_reduce_arg(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_ulong>(pools[3], 0, n),
                                        clatomics::view<cl_uint>(pools[1], 0, n), clatomics::view<double>(pools[2], 0, n), ScatterOp::max);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    std::vector<float> out(1000, 0.0f);
    (void)clatomics::scatter_reduce_arg(rt, out, d.idx, d.v, ScatterOp::max);
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(scatter_reduce_arg_entry);

}  // namespace test::algorithms
