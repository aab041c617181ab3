// The registry's histogram_keys (algorithm_cases.hpp).
#include "algorithms/histograms.hpp"

namespace test::algorithms {
namespace {

using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::Runtime;

Call keys_call(std::size_t nbins) {
  Call c;
  c.what = std::to_string(nbins) + " bins";
  c.valid = nbins <= (std::size_t(1) << 32) - 4;  // nbins 0: no bins, every key out of range
  c.run = [nbins](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::histogram_keys(rt, view<cl_uint>(r[0]), nbins);
    if (!before) return;
    Counts want(nbins, 0);
    std::uint64_t out = 0;
    for (const cl_uint key : as<cl_uint>((*before)[0])) key < nbins ? ++want[key] : ++out;
    CHECK(got.counts == want);
    CHECK(got.out_of_range == out);
  };
  return c;
}

Algorithm histogram_keys_entry() {
  Algorithm a = algorithm_of("histogram_keys", {{"keys", Role::input, 4, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    return Contents{bytes_of(below(s.length, gen, 330))};  // some beyond the bins
  };
  a.calls = {keys_call(300)};
  a.refusals = {saying(keys_call((std::size_t(1) << 32) - 3), "nbins is 4294967293"),
                refusal("strategy outside HistogramStrategy", "options.strategy (42)", [](Runtime& rt, const Ranges& r) {
                  (void)clatomics::histogram_keys(rt, view<cl_uint>(r[0]), 300, HistogramOptions{static_cast<HistogramStrategy>(42)});
                })};
  a.random_call = [](std::mt19937_64& g) {
    return keys_call(g() % 5 == 0 ? (g() % 2) * ((std::size_t(1) << 32) - 3) : 1 + g() % 300);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) { (void)clatomics::histogram_keys(rt, d.keys, 600, o); });
    clatomics::testing::set_stream_limits({0, 0, true});
    (void)clatomics::histogram_keys(rt, d.keys, 600);
    clatomics::testing::set_stream_limits({});
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(histogram_keys_entry);

}  // namespace test::algorithms
