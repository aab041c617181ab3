// The registry's scatter_reduce (algorithm_cases.hpp).
#include "algorithms/scatters.hpp"

namespace test::algorithms {
namespace {

Call scatter_call(ScatterOp op, bool include_self) {
  Call c;
  c.what = call_name(op, include_self);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::scatter_reduce(rt, view<float>(r[0]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(include_self));
    if (!before) return;
    const Scattered want = host_scatter(*before, op, include_self);
    CHECK(got.out_of_range == want.out_of_range);
    check_output(rt, r[0], (*before)[0], want.out);
  };
  return c;
}

void scatters(Runtime& rt) {
  using namespace clatomics;
  const Indices d = kernel_indices();
  const std::size_t n = d.idx.size();
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache})
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max, ScatterOp::mean}) {
      ScatterOptions o;
      o.strategy = s;
      std::vector<float> out(1000, 1.0f);
      try {
        (void)scatter_reduce(rt, out, d.idx, d.v, op, o);
        (void)scatter_reduce(rt, out, d.hot, d.v, op, o);
        o.include_self = false;
        (void)scatter_reduce(rt, out, d.idx, d.v, op, o);
      } catch (const std::invalid_argument&) {
        // a strategy that cannot hold these bins here
      }
    }
  std::vector<float> out(1000, 0.0f);
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, refuse);
  (void)scatter_reduce(rt, out, std::vector<cl_ulong>(d.idx.begin(), d.idx.end()), d.v, ScatterOp::sum);
  (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, {}, 1);
  std::vector<float> rows(1000 * 3, 0.0f);
  (void)scatter_reduce(rt, rows, std::vector<cl_uint>(d.idx.begin(), d.idx.begin() + std::ptrdiff_t(n / 3)),
                       std::vector<float>(d.v.begin(), d.v.begin() + std::ptrdiff_t(n / 3 * 3)), ScatterOp::sum, {}, 3);
  std::vector<half_t> h(n, half_t{0x3c00}), hout(1000, half_t{0});
  (void)scatter_reduce(rt, hout, d.idx, h, ScatterOp::sum);
  if (rt.supports_double() && rt.device_info().caps.int64_base_atomics) {
    ScatterOptions det;
    det.deterministic = true;
    (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, det);
    (void)scatter_reduce(rt, hout, d.idx, h, ScatterOp::mean, det);
    // The finish over the bins reached (forced: these values are more than the bins).
    testing::set_scatter_finish(testing::ScatterFinish::listed);
    (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, det);
    testing::set_scatter_finish(testing::ScatterFinish::automatic);
    // Rows grouped by bin before they are summed, as GPUs take them (forced: CPUs do not).
    testing::set_scatter_rows(testing::ScatterRows::sorted);
    det.strategy = ScatterStrategy::global_atomics;
    (void)scatter_reduce(rt, rows, std::vector<cl_uint>(d.idx.begin(), d.idx.begin() + std::ptrdiff_t(n / 3)),
                         std::vector<float>(d.v.begin(), d.v.begin() + std::ptrdiff_t(n / 3 * 3)), ScatterOp::sum, det, 3);
    testing::set_scatter_rows(testing::ScatterRows::automatic);
  }
}

Algorithm scatter_reduce_entry() {
  Algorithm a = algorithm_of("scatter_reduce", {{"out", Role::inout, 4, Extent::bins}, {"indices", Role::input, 4, Extent::length},
                                                {"values", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) { return scatter_contents(s, seed, false); };
  a.calls = {scatter_call(ScatterOp::sum, true), scatter_call(ScatterOp::sum, false), scatter_call(ScatterOp::max, true),
             scatter_call(ScatterOp::min, false)};
  const auto with = [](std::string what, std::string says, ScatterOp op, ScatterOptions options, bool longer_indices) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::scatter_reduce(rt, view<float>(r[0]), view<cl_uint>(longer_indices ? longer(r[1]) : r[1]), view<float>(r[2]), op, options);
    });
  };
  ScatterOptions nan_rule, deterministic, strategy, out_of_range;
  nan_rule.nan = static_cast<clatomics::NanRule>(7);
  deterministic.deterministic = true;
  strategy.strategy = static_cast<clatomics::ScatterStrategy>(42);
  out_of_range.out_of_range = static_cast<clatomics::OutOfRange>(5);
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), {}, false),
                with("nan outside NanRule", "options.nan (7)", ScatterOp::max, nan_rule, false),
                with("deterministic prod of floats", "deterministic prod", ScatterOp::prod, deterministic, false),
                with("strategy outside ScatterStrategy", "options.strategy (42)", ScatterOp::sum, strategy, false),
                with("out_of_range outside OutOfRange", "options.out_of_range (5)", ScatterOp::sum, out_of_range, false),
                with("more indices than values", "indices for", ScatterOp::sum, {}, true)};
  a.random_call = [](std::mt19937_64& g) { return random_scatter(g, scatter_call); };
  a.fp64_name = "scatter_reduce: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::scatter_reduce(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_uint>(pools[1], 0, n),
                                    clatomics::view<double>(pools[2], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = scatters;
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(scatter_reduce_entry);

}  // namespace test::algorithms
