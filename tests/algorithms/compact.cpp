// The registry's compact (algorithm_cases.hpp).
#include "algorithms/common.hpp"

namespace test::algorithms {
namespace {

using clatomics::Runtime;

void compacts(Runtime& rt) {
  using clatomics::where::x;
  const std::vector<float> f = ramp(100003);
  for (const clatomics::testing::CompactPath path : {clatomics::testing::CompactPath::one_pass, clatomics::testing::CompactPath::count_scan}) {
    clatomics::testing::set_compact_plan({path, 0, 0});
    for (const bool stable : {false, true}) {
      (void)clatomics::compact(rt, f, x > 3.0f, {stable});
      (void)clatomics::compact(rt, std::vector<cl_int>(5000, 4), x == 4, {stable});
      (void)clatomics::compact(rt, std::vector<cl_uint>(5000, 4), "x % 2u == 0", {stable});
    }
  }
  clatomics::testing::set_compact_plan({});
}

// x > threshold, by a Predicate or the string form; unstable: the kept elements in any order.
Call compact_call(float threshold, bool stable, bool string_form) {
  Call c;
  c.what = "x > " + std::to_string(threshold) + (stable ? ", stable" : "") + (string_form ? ", string" : "");
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    using clatomics::where::x;
    const auto in = view<float>(r[0]), out = view<float>(r[1]);
    const std::size_t kept = string_form ? clatomics::compact(rt, in, out, "x > " + std::to_string(threshold) + "f", {stable})
                                         : clatomics::compact(rt, in, out, x > threshold, {stable});
    if (!before) return;
    std::vector<float> want;
    for (const float v : as<float>((*before)[0]))
      if (v > threshold) want.push_back(v);
    REQUIRE(kept == want.size());
    if (stable) return check_output(rt, r[1], (*before)[1], want);
    const Bytes now = read(rt, r[1], 4);
    const auto at = [kept](const Bytes& b) { return b.begin() + std::ptrdiff_t(4 * kept); };
    CHECK(Bytes(at(now), now.end()) == Bytes(at((*before)[1]), (*before)[1].end()));
    auto got = as<float>(Bytes(now.begin(), at(now)));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  };
  return c;
}

Algorithm compact_entry() {
  Algorithm a = algorithm_of("compact", {{"in", Role::input, 4, Extent::length}, {"out", Role::output, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    return Contents{bytes_of(small_floats(s.length, gen, -8, 8)), poison(4 * s.length)};
  };
  a.calls = {compact_call(2.5f, true, false), compact_call(2.5f, false, false), compact_call(1.5f, true, true)};
  a.refusals = {refusal("a string predicate with a statement", "';' at position 8", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::compact(rt, view<float>(r[0]), view<float>(r[1]), "x > 0.0f; x");
                }),
                refusal("out shorter than in", "compact: out: the view holds", [](Runtime& rt, const Ranges& r) {
                  using clatomics::where::x;
                  (void)clatomics::compact(rt, view<float>(longer(r[0])), view<float>(r[1]), x > 0.0f);
                })};
  a.random_call = [](std::mt19937_64& g) { return compact_call(float(int(g() % 9) - 4), true, false); };
  a.reach_kernels = compacts;
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(compact_entry);

}  // namespace test::algorithms
