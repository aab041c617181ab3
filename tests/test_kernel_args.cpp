// Every library kernel's parameters as the host binds them (detail::Signature, bound by name)
// agree with the kernel's own, as the device's compiler reports them: the library's programs are
// built with -cl-kernel-arg-info (testing::set_check_kernel_args) and each kernel is compared when
// it is made. The calls below reach every kernel of every program they build (every strategy and
// path a call can take on this device); a kernel that was built but never made, so never compared,
// fails the test by name. A host list that differs from the kernel is refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"
#include "core/testing.hpp"
#include "support.hpp"

namespace {

using namespace clatomics;

// Check on for one test case's calls, off again after.
struct CheckingArgs {
  CheckingArgs() { testing::set_check_kernel_args(true); }
  ~CheckingArgs() { testing::set_check_kernel_args(false); }
};

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i % 97) - 40.0f;
  return v;
}

void reduces(Runtime& rt) {
  const std::vector<float> f = ramp(100003);
  for (const ReduceOp op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::prod})
    for (const bool deterministic : {false, true}) (void)reduce(rt, f, op, {deterministic});
  (void)reduce(rt, std::vector<cl_int>(5000, 3), ReduceOp::sum);
  (void)reduce(rt, std::vector<cl_ulong>(5000, 3), ReduceOp::max);
  if (rt.supports_double()) (void)reduce(rt, std::vector<double>(5000, 0.5), ReduceOp::sum, {true});
}

void dots(Runtime& rt) {
  const std::vector<float> a = ramp(70001);
  (void)dot(rt, a, a);
  if (rt.supports_double()) (void)dot(rt, std::vector<double>(999, 2.0), std::vector<double>(999, 0.5));
}

void histograms(Runtime& rt) {
  std::vector<std::uint8_t> bytes(300000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(i * 7);
  std::vector<cl_uint> keys(300000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = cl_uint(i % 700);
  const std::vector<float> x = ramp(300000), w(x.size(), 0.25f);
  for (const HistogramStrategy s : {HistogramStrategy::automatic, HistogramStrategy::local_replicated, HistogramStrategy::local_single,
                                    HistogramStrategy::global_atomics, HistogramStrategy::private_per_item}) {
    const HistogramOptions o{s};
    try {
      (void)histogram(rt, bytes, o);
      (void)histogram_keys(rt, keys, 600, o);
      (void)histogram_even(rt, x, EvenBins<float>{50, -40.0f, 56.0f}, {w}, o);
      (void)histogram_even(rt, x, std::size_t(50), {}, o);  // the range found in the data
      (void)histogram2d_even(rt, x, x, EvenBins<float>{10, -40.0f, 56.0f}, EvenBins<float>{12, -40.0f, 56.0f}, {w}, o);
    } catch (const std::invalid_argument&) {
      // a strategy this device cannot run for these bins: refused before anything is built
    }
  }
  testing::set_stream_limits({0, 0, true});  // the 32-bit counts merged afterwards
  (void)histogram(rt, bytes);
  (void)histogram_keys(rt, keys, 600);
  testing::set_stream_limits({});
  if (rt.supports_double()) {
    std::vector<double> d(x.begin(), x.end());
    (void)histogram_even(rt, d, EvenBins<double>{20, -40.0, 56.0}, {w}, {HistogramStrategy::automatic, WeightAccumulation::double_atomic});
  }
  const cl::Buffer xb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * sizeof(float), const_cast<float*>(x.data()));
  (void)histogram_even(rt, view<float>(xb), std::size_t(30));  // the range found on the device
  (void)histogram_even(rt, x, EvenBins<float>{20, -40.0f, 56.0f}, {w},
                       {HistogramStrategy::automatic, rt.supports_double() ? WeightAccumulation::compensated_float2 : WeightAccumulation::float_atomic});
}

void compacts(Runtime& rt) {
  using where::x;
  const std::vector<float> f = ramp(100003);
  for (const testing::CompactPath path : {testing::CompactPath::one_pass, testing::CompactPath::count_scan}) {
    testing::set_compact_plan({path, 0, 0});
    for (const bool stable : {false, true}) {
      (void)compact(rt, f, x > 3.0f, {stable});
      (void)compact(rt, std::vector<cl_int>(5000, 4), x == 4, {stable});
      (void)compact(rt, std::vector<cl_uint>(5000, 4), "x % 2u == 0", {stable});
    }
  }
  testing::set_compact_plan({});
}

void scatters(Runtime& rt) {
  const std::size_t n = 200000;
  std::vector<cl_uint> idx(n), sorted(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = cl_uint((i * 2654435761u) % 1000), sorted[i] = cl_uint(i / 300);
  std::vector<cl_uint> hot(idx);
  for (std::size_t i = 0; i < n; i += 2) hot[i] = 7;
  const std::vector<float> v = ramp(n);
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache})
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max, ScatterOp::mean}) {
      ScatterOptions o;
      o.strategy = s;
      std::vector<float> out(1000, 1.0f);
      try {
        (void)scatter_reduce(rt, out, idx, v, op, o);
        (void)scatter_reduce(rt, out, hot, v, op, o);
        o.include_self = false;
        (void)scatter_reduce(rt, out, idx, v, op, o);
      } catch (const std::invalid_argument&) {
        // a strategy that cannot hold these bins here
      }
    }
  std::vector<float> out(1000, 0.0f);
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  (void)scatter_reduce(rt, out, idx, v, ScatterOp::sum, refuse);
  (void)scatter_reduce(rt, out, std::vector<cl_ulong>(idx.begin(), idx.end()), v, ScatterOp::sum);
  (void)scatter_reduce(rt, out, idx, v, ScatterOp::sum, {}, 1);
  std::vector<float> rows(1000 * 3, 0.0f);
  (void)scatter_reduce(rt, rows, std::vector<cl_uint>(idx.begin(), idx.begin() + n / 3), std::vector<float>(v.begin(), v.begin() + n / 3 * 3),
                       ScatterOp::sum, {}, 3);
  (void)scatter_reduce_arg(rt, out, idx, v, ScatterOp::max);
  std::vector<cl_uint> offsets(668);
  for (std::size_t s = 0; s < offsets.size(); ++s) offsets[s] = cl_uint(std::min(n, s * 300));
  std::vector<float> segments(offsets.size() - 1, 0.0f);
  (void)segment_reduce(rt, segments, offsets, v, ScatterOp::sum);
  ScatterOptions alone;
  alone.include_self = false;
  (void)segment_reduce(rt, segments, std::vector<cl_uint>(offsets.size(), 0), std::vector<float>{}, ScatterOp::sum, alone);  // empty segments
  (void)reduce_by_key(rt, sorted, v, ScatterOp::sum);
  (void)reduce_by_key(rt, std::vector<cl_ulong>(sorted.begin(), sorted.end()), v, ScatterOp::max);
  std::vector<half_t> h(n, half_t{0x3c00}), hout(1000, half_t{0});
  (void)scatter_reduce(rt, hout, idx, h, ScatterOp::sum);
  if (rt.supports_double() && rt.device_info().caps.int64_base_atomics) {
    ScatterOptions det;
    det.deterministic = true;
    (void)scatter_reduce(rt, out, idx, v, ScatterOp::sum, det);
    (void)scatter_reduce(rt, hout, idx, h, ScatterOp::mean, det);
  }
}

void native_checks(Runtime& rt) {
  for (const testing::NativeSlot& slot : testing::native_slots()) {
    if (slot.type == "double" && !rt.supports_double()) continue;
    (void)testing::run_native_check(rt, slot.name);
  }
}

std::string names(const std::set<std::string>& set) {
  std::string s;
  for (const auto& n : set) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

TEST_CASE("every library kernel's parameters are the ones the host binds by name") {
  const CheckingArgs checking;
  // A Runtime made while the check is on: its device probe is built and compared too.
  const auto rt = testing::runtime_with_failing_checks(Options{}, {"no_such_check_so_this_runtime_probes_again"});
  reduces(*rt);
  dots(*rt);
  histograms(*rt);
  compacts(*rt);
  scatters(*rt);
  native_checks(*rt);
  const testing::KernelCoverage coverage = testing::kernel_coverage();
  std::set<std::string> never_made;
  for (const auto& name : coverage.built)
    if (!coverage.checked.count(name)) never_made.insert(name);
  INFO("built: " << names(coverage.built));
  CHECK(coverage.checked.size() >= 10);
  CHECK_MESSAGE(never_made.empty(), "kernels built but never made with a signature (so never compared): " << names(never_made));
}

TEST_CASE("a host parameter list that differs from the kernel's is refused, naming the parameter") {
  const CheckingArgs checking;
  Runtime& rt = test::runtime();
  const std::string source = "__kernel void k(__global float *out, uint n, __local float *scratch) { out[0] = (float)n; scratch[0] = 0; }";
  const detail::Program program = detail::build_cached(detail::state_of(rt), source, "");
  using detail::ArgSpace;
  const detail::Signature right{"k", {{"out", ArgSpace::global}, {"n", ArgSpace::value}, {"scratch", ArgSpace::local}}};
  const detail::Signature misnamed{"k", {{"out", ArgSpace::global}, {"count", ArgSpace::value}, {"scratch", ArgSpace::local}}};
  const detail::Signature wrong_space{"k", {{"out", ArgSpace::global}, {"n", ArgSpace::value}, {"scratch", ArgSpace::global}}};
  const detail::Signature too_few{"k", {{"out", ArgSpace::global}, {"n", ArgSpace::value}}};
  CHECK_NOTHROW(detail::make_kernel(program, right));
  // The same list as the library writes it: the signature without types.
  const detail::Signature written{"k", "global out, n, local scratch"};
  REQUIRE(written.params.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK((written.params[i].name == right.params[i].name && written.params[i].space == right.params[i].space));
  CHECK_NOTHROW(detail::make_kernel(program, written));
  CHECK_THROWS_WITH_AS(detail::Signature("k", "private out, n"), doctest::Contains("no address space 'private'"), std::logic_error);
  CHECK_THROWS_WITH_AS(detail::Signature("k", "global float *out"), doctest::Contains("a parameter written as"), std::logic_error);
  CHECK_THROWS_WITH_AS(detail::make_kernel(program, misnamed), doctest::Contains("parameter 1 is a value n, the host lists a value count"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(detail::make_kernel(program, wrong_space), doctest::Contains("parameter 2 is __local scratch"), std::logic_error);
  CHECK_THROWS_WITH_AS(detail::make_kernel(program, too_few), doctest::Contains("3 parameters, the host lists 2"), std::logic_error);

  // Binding: every parameter once, by name, in any order.
  const detail::LibraryKernel kernel = detail::make_kernel(program, right);
  const detail::Mem out = detail::make_buffer(rt, sizeof(float));
  CHECK_NOTHROW(detail::bind(kernel, detail::arg("n", cl_uint(3)), detail::arg("scratch", detail::LocalBytes{4}), detail::arg("out", out)));
  CHECK_THROWS_WITH_AS(detail::bind(kernel, detail::arg("out", out), detail::arg("n", cl_uint(3))), doctest::Contains("scratch not bound"),
                       std::logic_error);
  CHECK_THROWS_WITH_AS(detail::bind(kernel, detail::arg("out", out), detail::arg("out", out), detail::arg("n", cl_uint(3)),
                                    detail::arg("scratch", detail::LocalBytes{4})),
                       doctest::Contains("out bound twice"), std::logic_error);
  CHECK_THROWS_WITH_AS(detail::bind(kernel, detail::arg("output", out)), doctest::Contains("has no parameter output"), std::logic_error);
}
