// The registry's histogram (algorithm_cases.hpp).
#include "algorithms/histograms.hpp"

namespace test::algorithms {
namespace {

using clatomics::HistogramOptions;
using clatomics::HistogramStrategy;
using clatomics::Runtime;

Algorithm histogram_entry() {
  Algorithm a = algorithm_of("histogram", {{"bytes", Role::input, 1, Extent::length}});
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    Bytes b(s.length);
    for (auto& e : b) e = static_cast<unsigned char>(gen());
    return Contents{b};
  };
  Call c;
  c.what = "256 bins";
  c.run = [](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::histogram(rt, view<cl_uchar>(r[0]));
    if (!before) return;
    Counts want(256, 0);
    for (const unsigned char b : (*before)[0]) ++want[b];
    CHECK(got == want);
  };
  a.calls = {c};
  a.refusals = {refusal("strategy outside HistogramStrategy", "options.strategy (42)", [](Runtime& rt, const Ranges& r) {
    (void)clatomics::histogram(rt, view<cl_uchar>(r[0]), HistogramOptions{static_cast<HistogramStrategy>(42)});
  })};
  a.reach_kernels = [](Runtime& rt) {
    const Data d = kernel_data();
    each_strategy([&](const HistogramOptions& o) { (void)clatomics::histogram(rt, d.bytes, o); });
    clatomics::testing::set_stream_limits({0, 0, true});  // the 32-bit counts merged afterwards
    (void)clatomics::histogram(rt, d.bytes);
    clatomics::testing::set_stream_limits({});
  };
  return a;
}

}  // namespace

CLATOMICS_REGISTER_ALGORITHM(histogram_entry);

}  // namespace test::algorithms
