// The registry's scatter_reduce_partial (algorithm_cases.hpp): parts of the indices and values,
// merged and applied to a host output, against one scatter over all of them.
#include "algorithms/scatters.hpp"
#include "clatomics/algorithms.hpp"

namespace test::algorithms {
namespace {

constexpr std::size_t partial_bins = 37;

// The range cut in two parts, merged in order, and applied to out: the same as one scatter.
Call partial_call(ScatterOp op, bool include_self) {
  Call c;
  c.what = call_name(op, include_self);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto indices = view<cl_uint>(r[0]);
    const auto values = view<float>(r[1]);
    if (!before) {
      (void)clatomics::scatter_reduce_partial(rt, partial_bins, indices, values, op, with_self(include_self));
      return;
    }
    const std::size_t cut = indices.count() / 3;
    auto merged = clatomics::scatter_reduce_partial(rt, partial_bins, indices.sub(0, cut), values.sub(0, cut), op, with_self(include_self));
    clatomics::merge_into(merged, clatomics::scatter_reduce_partial(rt, partial_bins, indices.sub(cut, indices.count() - cut),
                                                                    values.sub(cut, values.count() - cut), op, with_self(include_self)));
    std::vector<float> out(partial_bins);
    for (std::size_t b = 0; b < out.size(); ++b) out[b] = float(int(b % 7) - 3);
    const Scattered want = host_scatter({bytes_of(out), (*before)[0], (*before)[1]}, op, include_self);
    const auto got = clatomics::finish_scatter(out, merged);
    CHECK(out == want.out);
    CHECK(got.out_of_range == want.out_of_range);
  };
  return c;
}

Algorithm scatter_reduce_partial_entry() {
  Algorithm a = algorithm_of("scatter_reduce_partial", {{"indices", Role::input, 4, Extent::length},
                                                        {"values", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto indices = below(s.length, gen, partial_bins + 5);  // some out of range: counted
    return Contents{bytes_of(indices), bytes_of(small_floats(s.length, gen, -8, 8))};
  };
  a.calls = {partial_call(ScatterOp::sum, true), partial_call(ScatterOp::max, false), partial_call(ScatterOp::min, true)};
  a.refusals = {refusal("op outside ScatterOp", "op (42) is not a ScatterOp",
                        [](Runtime& rt, const Ranges& r) {
                          (void)clatomics::scatter_reduce_partial(rt, partial_bins, view<cl_uint>(r[0]), view<float>(r[1]), static_cast<ScatterOp>(42));
                        }),
                refusal("more indices than values", "one row an index", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::scatter_reduce_partial(rt, partial_bins, view<cl_uint>(longer(r[0])), view<float>(r[1]), ScatterOp::sum);
                })};
  a.random_call = [](std::mt19937_64& g) { return random_scatter(g, partial_call); };
  a.fp64_name = "scatter_reduce: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::scatter_reduce_partial(rt, partial_bins, clatomics::view<cl_uint>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n),
                                            ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) (void)clatomics::scatter_reduce_partial(rt, 1000, d.idx, d.v, op);
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(scatter_reduce_partial_entry);

}  // namespace test::algorithms
