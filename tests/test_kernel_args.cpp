// Every library kernel's parameters as the host binds them (detail::Signature, bound by name)
// agree with the kernel's own, as the device's compiler reports them: the library's programs are
// built with -cl-kernel-arg-info (testing::set_check_kernel_args) and each kernel is compared when
// it is made. Every algorithm's calls in the registry (algorithm_cases.hpp: reach_kernels) and the
// native checks reach every kernel of every program they build (every strategy and path a call
// can take on this device); a kernel that was built but never made, so never compared, fails the
// test by name. A host list that differs from the kernel is refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "algorithm_cases.hpp"
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
  for (const test::algorithms::Algorithm& a : test::algorithms::registry()) {
    if (!a.runs_on(*rt)) continue;
    INFO(a.name);
    REQUIRE(a.reach_kernels);
    a.reach_kernels(*rt);
  }
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
