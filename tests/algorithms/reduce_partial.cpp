// The registry's reduce_partial (algorithm_cases.hpp).
#include "algorithms/reductions.hpp"

namespace test::algorithms {
namespace {

using clatomics::ReduceOp;
using clatomics::Runtime;

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

Algorithm reduce_partial_entry() {
  Algorithm a = algorithm_of("reduce_partial", {{"buffer", Role::input, 4, Extent::length}});
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

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(reduce_partial_entry);

}  // namespace test::algorithms
