// The registry's reduce_by_key (algorithm_cases.hpp).
#include "algorithms/scatters.hpp"

namespace test::algorithms {
namespace {

Call by_key_call(ScatterOp op) {
  Call c;
  c.what = op_name(op);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const std::size_t runs =
        clatomics::reduce_by_key(rt, view<cl_uint>(r[0]), view<float>(r[1]), view<cl_uint>(r[2]), view<float>(r[3]), op);
    if (!before) return;
    const auto want = host_by_key(as<cl_uint>((*before)[0]), as<float>((*before)[1]), op);
    REQUIRE(runs == want.first.size());
    check_output(rt, r[2], (*before)[2], want.first);
    check_output(rt, r[3], (*before)[3], want.second);
  };
  return c;
}

Algorithm reduce_by_key_entry() {
  Algorithm a = algorithm_of("reduce_by_key", {{"keys", Role::input, 4, Extent::length}, {"values", Role::input, 4, Extent::length},
                                               {"unique_keys", Role::output, 4, Extent::length},
                                               {"reductions", Role::inout, 4, Extent::length}});
  a.available = int64_atomics;
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto keys = run_keys(s.length, gen);
    return Contents{bytes_of(keys), bytes_of(small_floats(s.length, gen, -8, 8)), poison(4 * s.length), poison(4 * s.length)};
  };
  a.calls = {by_key_call(ScatterOp::sum), by_key_call(ScatterOp::max)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_values, bool longer_keys) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::reduce_by_key(rt, view<cl_uint>(longer_keys ? longer(r[0]) : r[0]), view<float>(longer_values || longer_keys ? longer(r[1]) : r[1]),
                                     view<cl_uint>(r[2]), view<float>(r[3]), op);
    });
  };
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false, false),
                with("more values than keys", "keys and values: views of", ScatterOp::sum, true, false),
                with("outputs shorter than the keys", "unique_keys: the view holds", ScatterOp::sum, false, true)};
  a.random_call = [](std::mt19937_64& g) { return by_key_call(g() % 2 ? ScatterOp::sum : ScatterOp::min); };
  a.fp64_name = "reduce_by_key: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::reduce_by_key(rt, clatomics::view<cl_uint>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n),
                                   clatomics::view<cl_uint>(pools[2], 0, n), clatomics::view<double>(pools[3], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    (void)clatomics::reduce_by_key(rt, d.sorted, d.v, ScatterOp::sum);
    (void)clatomics::reduce_by_key(rt, std::vector<cl_ulong>(d.sorted.begin(), d.sorted.end()), d.v, ScatterOp::max);
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(reduce_by_key_entry);

}  // namespace test::algorithms
