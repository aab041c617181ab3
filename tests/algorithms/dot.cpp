// The registry's dot (algorithm_cases.hpp).
#include "algorithms/reductions.hpp"

namespace test::algorithms {
namespace {

using clatomics::Runtime;

Algorithm dot_entry() {
  Algorithm a = algorithm_of("dot", {{"a", Role::input, 4, Extent::length}, {"b", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) { return floats(s, seed, 2); };
  Call c;
  c.what = "float";
  c.run = [](Runtime& rt, const Ranges& r, const Contents* before) {
    const float got = clatomics::dot(rt, view<float>(r[0]), view<float>(r[1]));
    if (!before) return;
    const auto x = as<float>((*before)[0]), y = as<float>((*before)[1]);
    float want = 0.0f;
    for (std::size_t i = 0; i < x.size(); ++i) want += x[i] * y[i];
    CHECK(got == want);
  };
  a.calls = {c};
  a.refusals = {refusal("views of different lengths", "dot: a and b: views of", [](Runtime& rt, const Ranges& r) {
    (void)clatomics::dot(rt, view<float>(r[0]), view<float>(longer(r[1])));
  })};
  a.fp64_name = "dot<double>";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::dot(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n));
  };
  a.reach_kernels = [](Runtime& rt) {
    const std::vector<float> x = ramp(70001);
    (void)clatomics::dot(rt, x, x);
    if (rt.supports_double()) (void)clatomics::dot(rt, std::vector<double>(999, 2.0), std::vector<double>(999, 0.5));
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(dot_entry);

}  // namespace test::algorithms
