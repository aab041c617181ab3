// The registry's reduce, reduce_partial, dot and compact (algorithm_cases.hpp).
#include <cmath>

#include "algorithm_entries.hpp"

namespace test::algorithms {
namespace {

using clatomics::ReduceOp;
using clatomics::Runtime;

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i % 97) - 40.0f;
  return v;
}

float host_reduce(const std::vector<float>& v, ReduceOp op) {
  float r = op == ReduceOp::sum ? 0.0f : op == ReduceOp::min ? INFINITY : -INFINITY;
  for (const float x : v) r = op == ReduceOp::sum ? r + x : op == ReduceOp::min ? std::min(r, x) : std::max(r, x);
  return r;
}

const char* op_name(ReduceOp op) { return op == ReduceOp::sum ? "sum" : op == ReduceOp::min ? "min" : "max"; }

Contents floats(const Shape& s, unsigned seed, std::size_t operands) {
  std::mt19937 gen(seed);
  Contents c;
  for (std::size_t k = 0; k < operands; ++k) c.push_back(bytes_of(small_floats(s.length, gen, -8, 8)));
  return c;
}

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

// Two parts merged in either order: the head cut at a tile, as the deterministic tree wants (a
// deterministic range shorter than a tile: one part; a fast one: cut in half). A refusal calls on
// the whole range as one part.
Call partial_call(bool deterministic) {
  Call c;
  c.what = deterministic ? "sum, deterministic" : "sum";
  c.run = [deterministic](Runtime& rt, const Ranges& r, const Contents* before) {
    const clatomics::ReduceOptions options{deterministic};
    if (!before) {
      (void)clatomics::reduce_partial(rt, view<float>(r[0]), ReduceOp::sum, 0, options);
      return;
    }
    const auto whole = view<float>(r[0]);
    const std::size_t cut = whole.count() >= clatomics::reduce_tile ? clatomics::reduce_tile
                            : deterministic                          ? whole.count()
                                                                     : whole.count() / 2;
    const auto head = clatomics::reduce_partial(rt, whole.sub(0, cut), ReduceOp::sum, 0, options);
    const float want = host_reduce(as<float>((*before)[0]), ReduceOp::sum);
    if (cut == whole.count()) {
      CHECK(clatomics::merge_reduce<float>({head}) == want);
      return;
    }
    const auto tail = clatomics::reduce_partial(rt, whole.sub(cut, whole.count() - cut), ReduceOp::sum, cut, options);
    CHECK(clatomics::merge_reduce<float>({tail, head}) == want);
    CHECK(clatomics::merge_reduce<float>({head, tail}) == want);
  };
  return c;
}

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

}  // namespace

Algorithm reduce_entry() {
  Algorithm a;
  a.name = "reduce";
  a.operands = {{"reduce: buffer", Role::input, 4, Extent::length}};
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

Algorithm reduce_partial_entry() {
  Algorithm a;
  a.name = "reduce_partial";
  a.operands = {{"reduce_partial: buffer", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) { return floats(s, seed, 1); };
  a.calls = {partial_call(false), partial_call(true)};
  a.refusals = {refusal("op outside ReduceOp", "reduce_partial: op (42) is not a ReduceOp", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::reduce_partial(rt, view<float>(r[0]), static_cast<ReduceOp>(42), 0);
                }),
                refusal("a deterministic part that starts inside a tile", "first = 1", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::reduce_partial(rt, view<float>(r[0]), ReduceOp::sum, 1, {true});
                })};
  a.fp64_name = "reduce_partial<double>";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::reduce_partial(rt, clatomics::view<double>(pools[0], 0, n), ReduceOp::sum, 0);
  };
  a.reach_kernels = [](Runtime& rt) {
    const std::vector<float> f = ramp(3 * clatomics::reduce_tile + 7);
    for (const bool deterministic : {false, true})
      (void)clatomics::reduce_partial(rt, f, ReduceOp::sum, clatomics::reduce_tile, {deterministic});
  };
  return a;
}

Algorithm dot_entry() {
  Algorithm a;
  a.name = "dot";
  a.operands = {{"dot: a", Role::input, 4, Extent::length}, {"dot: b", Role::input, 4, Extent::length}};
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

Algorithm compact_entry() {
  Algorithm a;
  a.name = "compact";
  a.operands = {{"compact: in", Role::input, 4, Extent::length}, {"compact: out", Role::output, 4, Extent::length}};
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

}  // namespace test::algorithms
