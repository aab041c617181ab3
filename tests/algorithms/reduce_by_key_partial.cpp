// The registry's reduce_by_key_partial (algorithm_cases.hpp): parts of the keys and values,
// merged and finished, against one reduce_by_key over all of them.
#include "algorithms/scatters.hpp"
#include "clatomics/algorithms.hpp"

namespace test::algorithms {
namespace {

// The range cut in two parts (a run may cross the cut), merged in order and finished.
Call by_key_partial_call(ScatterOp op) {
  Call c;
  c.what = op_name(op);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto keys = view<cl_uint>(r[0]);
    const auto values = view<float>(r[1]);
    if (!before) {
      (void)clatomics::reduce_by_key_partial(rt, keys, values, op);
      return;
    }
    const std::size_t cut = keys.count() / 3;
    auto merged = clatomics::reduce_by_key_partial(rt, keys.sub(0, cut), values.sub(0, cut), op);
    clatomics::merge_into(merged, clatomics::reduce_by_key_partial(rt, keys.sub(cut, keys.count() - cut), values.sub(cut, values.count() - cut), op));
    const auto got = clatomics::finish_by_key(merged);
    const auto want = host_by_key(as<cl_uint>((*before)[0]), as<float>((*before)[1]), op);
    CHECK(got.first == want.first);
    CHECK(got.second == want.second);
  };
  return c;
}

Algorithm reduce_by_key_partial_entry() {
  Algorithm a = algorithm_of("reduce_by_key_partial", {{"keys", Role::input, 4, Extent::length}, {"values", Role::input, 4, Extent::length}});
  a.available = int64_atomics;
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto keys = run_keys(s.length, gen);
    return Contents{bytes_of(keys), bytes_of(small_floats(s.length, gen, -8, 8))};
  };
  a.calls = {by_key_partial_call(ScatterOp::sum), by_key_partial_call(ScatterOp::max), by_key_partial_call(ScatterOp::min)};
  a.refusals = {refusal("op outside ScatterOp", "op (42) is not a ScatterOp",
                        [](Runtime& rt, const Ranges& r) {
                          (void)clatomics::reduce_by_key_partial(rt, view<cl_uint>(r[0]), view<float>(r[1]), static_cast<ScatterOp>(42));
                        }),
                refusal("more values than keys", "reduce_by_key_partial", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::reduce_by_key_partial(rt, view<cl_uint>(r[0]), view<float>(longer(r[1])), ScatterOp::sum);
                })};
  a.fp64_name = "reduce_by_key";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::reduce_by_key_partial(rt, clatomics::view<cl_uint>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) (void)clatomics::reduce_by_key_partial(rt, d.sorted, d.v, op);
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(reduce_by_key_partial_entry);

}  // namespace test::algorithms
