// The registry's segment_reduce (algorithm_cases.hpp).
#include "algorithms/scatters.hpp"

namespace test::algorithms {
namespace {

// A segment with no values: 0 without out's own value (as torch_scatter's segment_csr), out's
// value with it; values outside [offsets[0], offsets[segments]) take no part.
Call segment_call(ScatterOp op, bool include_self) {
  Call c;
  c.what = call_name(op, include_self);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    (void)clatomics::segment_reduce(rt, view<float>(r[0]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(include_self));
    if (!before) return;
    auto want = as<float>((*before)[0]);
    const auto offsets = as<cl_uint>((*before)[1]);
    const auto val = as<float>((*before)[2]);
    for (std::size_t s = 0; s < want.size(); ++s) {
      if (!include_self) want[s] = 0.0f;
      for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) want[s] = !include_self && i == offsets[s] ? val[i] : apply(op, want[s], val[i]);
    }
    check_output(rt, r[0], (*before)[0], want);
  };
  return c;
}

Algorithm segment_reduce_entry() {
  Algorithm a = algorithm_of("segment_reduce", {{"out", Role::inout, 4, Extent::bins}, {"offsets", Role::input, 4, Extent::bins_plus_one},
                                                {"values", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto out = small_floats(s.bins, gen, -8, 8);
    auto offsets = below(s.bins ? s.bins + 1 : 0, gen, s.length + 1);  // repeats: empty segments
    std::sort(offsets.begin(), offsets.end());
    return Contents{bytes_of(out), bytes_of(offsets), bytes_of(small_floats(s.length, gen, -8, 8))};
  };
  a.calls = {segment_call(ScatterOp::sum, true), segment_call(ScatterOp::sum, false), segment_call(ScatterOp::max, false)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_offsets) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      // Two offsets more: with no segments, one offset is allowed.
      const Range offsets = longer_offsets ? longer(longer(r[1])) : r[1];
      (void)clatomics::segment_reduce(rt, view<float>(r[0]), view<cl_uint>(offsets), view<float>(r[2]), op);
    });
  };
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false),
                with("two offsets more than segments + 1", "offsets for", ScatterOp::sum, true)};
  a.random_call = [](std::mt19937_64& g) { return random_scatter(g, segment_call); };
  a.fp64_name = "segment_reduce: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::segment_reduce(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_uint>(pools[1], 0, n + 1),
                                    clatomics::view<double>(pools[2], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    std::vector<cl_uint> offsets(668);
    for (std::size_t s = 0; s < offsets.size(); ++s) offsets[s] = cl_uint(std::min(d.v.size(), s * 300));
    std::vector<float> segments(offsets.size() - 1, 0.0f);
    (void)clatomics::segment_reduce(rt, segments, offsets, d.v, ScatterOp::sum);
    // Empty segments.
    (void)clatomics::segment_reduce(rt, segments, std::vector<cl_uint>(offsets.size(), 0), std::vector<float>{}, ScatterOp::sum, with_self(false));
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(segment_reduce_entry);

}  // namespace test::algorithms
