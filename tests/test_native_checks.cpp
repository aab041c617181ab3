// Trust, then verify: a native path is used only after its check kernel passed on the device.
// Every slot of the native-path table (cl/kernels/native_paths.def, through the testing hooks)
// is covered: the library's own probe kernel agrees with device_info() on every op of the slot;
// a check forced to fail moves the slot's ops to the next path, says why in the ops' notes and in
// describe(), adds the CLAT_NO_<PATH>_<SLOT> option (so kernels really compile the other path),
// leaves the other slots alone, and the ops stay exact. Subnormal adds are exact wherever
// Options::exact_subnormals asks for it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "support.hpp"

namespace {

using clatomics::Path;
using clatomics::testing::NativeSlot;

std::string upper(std::string text) {
  for (auto& c : text) c = char(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The environment's options, with native paths on: the baseline.
clatomics::Options base_options() {
  auto options = clatomics::Options::from_env();
  options.force_cas = false;
  return options;
}

clatomics::Runtime& baseline() {
  static clatomics::Runtime rt(base_options());
  return rt;
}

std::unique_ptr<clatomics::Runtime> failing(const std::string& check) {
  return clatomics::testing::runtime_with_failing_checks(base_options(), {check});
}

bool present(const clatomics::Runtime& rt, const NativeSlot& slot) { return slot.type != "double" || rt.supports_double(); }

// Every op device_info() says the slot decides.
std::vector<clatomics::OpPath> ops_of(const clatomics::Runtime& rt, const NativeSlot& slot) {
  std::vector<clatomics::OpPath> ops;
  for (const auto* list : {&rt.device_info().paths, &rt.device_info().variant_paths})
    for (const auto& p : *list)
      if (p.slot == slot.name) ops.push_back(p);
  return ops;
}

// The path the slot's ops take on rt (they all agree).
Path path_of(const clatomics::Runtime& rt, const NativeSlot& slot) {
  const auto ops = ops_of(rt, slot);
  REQUIRE_FALSE(ops.empty());
  for (const auto& p : ops) CHECK(p.path == ops.front().path);
  return ops.front().path;
}

bool is_native(const NativeSlot& slot, Path path) {
  return std::find(slot.natives.begin(), slot.natives.end(), path) != slot.natives.end();
}

// What the library's probe kernel, built by rt, says each slot compiles to.
std::vector<int> probed_paths(const clatomics::Runtime& rt) {
  const cl::Program program(clatomics::testing::build_library_file(rt, "kernels/native_checks.cl"), false);
  const std::size_t count = clatomics::testing::native_slots().size();
  cl::Kernel probe(program, "clat_probe_paths");
  cl::Buffer out(rt.context(), CL_MEM_WRITE_ONLY, count * sizeof(cl_int));
  probe.setArg(0, out);
  rt.queue().enqueueNDRangeKernel(probe, cl::NullRange, cl::NDRange(1), cl::NullRange);
  return test::to_host<cl_int>(rt, out, count);
}

// The probe agrees with device_info() for every slot present, and every such slot has ops.
void check_probe_agrees(const clatomics::Runtime& rt) {
  const auto codes = probed_paths(rt);
  const auto slots = clatomics::testing::native_slots();
  for (std::size_t s = 0; s < slots.size(); ++s) {
    CAPTURE(slots[s].name);
    CHECK((codes[s] < 0) == !present(rt, slots[s]));
    if (codes[s] < 0) continue;
    const auto ops = ops_of(rt, slots[s]);
    CHECK_FALSE(ops.empty());
    for (const auto& p : ops) CHECK(codes[s] == int(p.path));
  }
}

// The add and min/max slots' ops under full contention give exact results: add/sub counts with
// olds exactly 0..m-1; min/max of values with NaNs and ±0 (from NaN) are the exact reference bits.
template <class T>
void check_exact(const clatomics::Runtime& rt, const NativeSlot& slot) {
  const bool local = slot.space == "local", minmax = slot.check == "minmax";
  const std::size_t group = std::min<std::size_t>(256, rt.device_info().caps.max_work_group_size);
  const std::size_t n = local ? 4 * group : 16 * group, m = local ? group : n, cells = n / m;
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int k = int((i * 2654435761u) % 1001u) - 500;  // a permutation-like spread of integers
    values[i] = i % 13 == 0 ? std::numeric_limits<T>::quiet_NaN() : i % 11 == 0 ? T(-0.0) : T(k) / T(4);
  }
  std::vector<T> start(2 * cells);
  for (std::size_t c = 0; c < cells; ++c) {
    start[2 * c] = minmax ? std::numeric_limits<T>::quiet_NaN() : T(0);
    start[2 * c + 1] = minmax ? std::numeric_limits<T>::quiet_NaN() : T(m);
  }
  cl::Buffer cells_buf = test::to_device(rt, start), values_buf = test::to_device(rt, values);
  cl::Buffer olds_buf(rt.context(), CL_MEM_READ_WRITE, n * sizeof(T));
  cl::Kernel kernel(rt.build(test::test_source("slot_ops.cl")), ("fam_" + slot.type + "_" + slot.space).c_str());
  kernel.setArg(0, cells_buf);
  kernel.setArg(1, olds_buf);
  kernel.setArg(2, values_buf);
  kernel.setArg(3, cl_uint(minmax));
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
  const auto got = test::to_host<T>(rt, cells_buf, 2 * cells);
  const auto olds = test::to_host<T>(rt, olds_buf, n);
  for (std::size_t c = 0; c < cells; ++c) {
    CAPTURE(c);
    if (minmax) {
      T lo = start[2 * c], hi = start[2 * c + 1];
      for (std::size_t i = c * m; i < (c + 1) * m; ++i) lo = test::ref_min(lo, values[i]), hi = test::ref_max(hi, values[i]);
      CHECK(test::bits(got[2 * c]) == test::bits(lo));
      CHECK(test::bits(got[2 * c + 1]) == test::bits(hi));
    } else {
      std::vector<T> mine(olds.begin() + std::ptrdiff_t(c * m), olds.begin() + std::ptrdiff_t((c + 1) * m));
      std::sort(mine.begin(), mine.end());
      bool exact = true;
      for (std::size_t k = 0; k < m; ++k) exact = exact && mine[k] == T(k);
      CHECK(exact);
      CHECK(got[2 * c] == T(m));
      CHECK(test::bits(got[2 * c + 1]) == test::bits(T(0)));
    }
  }
}

// The slot's ops are exact on rt: through the contention kernels above for add and min/max, and
// through the slot's own check (whose expectations are exact) for every slot.
void check_exact(const clatomics::Runtime& rt, const NativeSlot& slot) {
  if (!present(rt, slot)) return;
  CAPTURE(slot.name);
  if (slot.check == "add" || slot.check == "minmax") {
    if (slot.type == "double") check_exact<double>(rt, slot);
    else check_exact<float>(rt, slot);
  }
  const auto outcome = clatomics::testing::run_native_check(rt, slot.name);
  CHECK(outcome.why == "");
}

}  // namespace

TEST_CASE("the baseline: every slot's probe agrees with device_info, ops exact") {
  const auto& rt = baseline();
  MESSAGE(rt.device_info().describe());
  check_probe_agrees(rt);
  for (const auto& slot : clatomics::testing::native_slots()) check_exact(rt, slot);
}

TEST_CASE("every check passes on the path this device builds and forced onto the CAS loop") {
  // The checks' exact expectations hold for the fallbacks too: a failing check on a device means
  // the native path is wrong there, not the check.
  const auto& rt = baseline();
  for (const auto& slot : clatomics::testing::native_slots()) {
    if (!present(rt, slot)) continue;
    CAPTURE(slot.name);
    CHECK(clatomics::testing::run_native_check(rt, slot.name).why == "");
    const auto cas = clatomics::testing::run_native_check(rt, slot.name, "-DCLAT_FORCE_CAS");
    CHECK(cas.why == "");
    CHECK_FALSE(cas.flushes_subnormals);  // the CAS loop adds in IEEE arithmetic
  }
  CHECK_THROWS_AS(clatomics::testing::run_native_check(rt, "no_such_slot"), std::invalid_argument);
}

TEST_CASE("a native check forced to fail moves its ops to the next path, says why, stays exact") {
  const auto& base = baseline();
  std::size_t tried = 0;
  for (const auto& slot : clatomics::testing::native_slots()) {
    if (!present(base, slot)) continue;
    const Path native = path_of(base, slot);
    if (!is_native(slot, native)) continue;  // nothing native to fail here
    ++tried;
    CAPTURE(slot.name);
    const auto rt = failing(slot.name);
    const auto& info = rt->device_info();
    const Path now = path_of(*rt, slot);
    CHECK(now != native);
    CHECK(!is_native(slot, now));  // every native path of the slot was forced to fail
    CHECK(now == slot.fallback);
    for (const auto& p : ops_of(*rt, slot)) {
      CHECK(contains(p.note, std::string(clatomics::path_name(native)) + " check failed"));
      CHECK(contains(p.note, "on purpose"));
    }
    CHECK(contains(info.describe(), "check " + slot.name + " (" + clatomics::path_name(native) + "): FAILED"));
    CHECK(contains(info.build_options, "-DCLAT_NO_" + upper(clatomics::path_name(native)) + "_" + slot.macro));
    for (const auto& other : clatomics::testing::native_slots()) {  // the other slots keep their paths,
      if (other.name == slot.name || !present(*rt, other)) continue;
      CAPTURE(other.name);
      // but for the no-return add, which takes PTX red only where its returning add is PTX atom
      // (config.cl) and else becomes that add (plain).
      const bool follows = other.check == "noret" && slot.check == "add" && other.type == slot.type && slot.space == "global";
      if (follows && path_of(base, other) == Path::ptx) CHECK(path_of(*rt, other) == Path::plain);
      else CHECK(path_of(*rt, other) == path_of(base, other));
    }
    check_probe_agrees(*rt);
    check_exact(*rt, slot);
  }
  if (tried == 0) MESSAGE(("no native path on " + base.device_info().caps.device_name + ": nothing to fail"));
}

TEST_CASE("every check failing leaves each op on its fallback, exact") {
  const auto rt = failing("all");
  for (const auto& c : rt->device_info().checks) {
    CAPTURE(c.slot);
    CHECK_FALSE(c.passed);
  }
  for (const auto& slot : clatomics::testing::native_slots())
    if (present(*rt, slot)) {
      CAPTURE(slot.name);
      CHECK(path_of(*rt, slot) == slot.fallback);
    }
  for (const auto& p : rt->device_info().paths) {
    const std::string op = p.op + " " + p.type + " " + p.space;
    CAPTURE(op);
    CHECK((p.path == Path::cas || p.path == Path::hardware));
  }
  check_probe_agrees(*rt);
  for (const auto& slot : clatomics::testing::native_slots()) check_exact(*rt, slot);
}

TEST_CASE("device_info lists every op family") {
  const auto& info = baseline().device_info();
  for (const char* family : {"aggregated", "16-bit", "no-return", "saturating", "float2"}) {
    CAPTURE(family);
    CHECK(std::any_of(info.variant_paths.begin(), info.variant_paths.end(), [&](const auto& p) { return p.family == family; }));
  }
  CHECK(info.variant_path_of("saturating", "inc_sat", "uint", "local") == Path::cas);
  CHECK(info.variant_path_of("16-bit", "min", "bf16", "global") == Path::cas);
  CHECK_THROWS_AS(info.variant_path_of("aggregated", "xchg", "float", "global"), std::invalid_argument);
  CHECK(contains(info.describe(), "aggregated float global:"));
}

// Subnormal operands and results through the public add: -0 + tiny, 4 tiny - tiny, min - tiny.
template <class T>
void check_subnormal_adds(const clatomics::Runtime& rt, const std::string& space) {
  using L = std::numeric_limits<T>;
  const T tiny = L::denorm_min();
  const std::vector<T> start = {T(-0.0), T(4) * tiny, L::min()}, v = {tiny, -tiny, -tiny};
  cl::Buffer cells = test::to_device(rt, start), values = test::to_device(rt, v);
  cl::Kernel kernel(rt.build(test::test_source("slot_ops.cl")), ("subnormal_" + std::string(sizeof(T) == 4 ? "float" : "double") + "_" + space).c_str());
  kernel.setArg(0, cells);
  kernel.setArg(1, values);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  const auto got = test::to_host<T>(rt, cells, 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(test::bits(got[k]) == test::bits(T(start[k] + v[k])));
  }
}

TEST_CASE("Options::exact_subnormals: every add keeps subnormals, and no op path flushes them") {
  auto options = base_options();
  options.exact_subnormals = true;
  const clatomics::Runtime rt(options);
  for (const auto* list : {&rt.device_info().paths, &rt.device_info().variant_paths})
    for (const auto& p : *list) {
      const std::string op = p.family + " " + p.op + " " + p.type + " " + p.space;
      CAPTURE(op);
      CHECK_FALSE(p.flushes_subnormals);
    }
  for (const std::string space : {"global", "local"}) {
    CAPTURE(space);
    check_subnormal_adds<float>(rt, space);
    if (rt.supports_double()) check_subnormal_adds<double>(rt, space);
  }
  // Where the baseline's path flushes, the exact runtime took another path and says why.
  const auto& base = baseline().device_info();
  for (std::size_t i = 0; i < base.paths.size(); ++i)
    if (base.paths[i].flushes_subnormals) {
      CAPTURE(base.paths[i].slot);
      CHECK(rt.device_info().paths[i].path != base.paths[i].path);
      CHECK(contains(rt.device_info().paths[i].note, "exact_subnormals"));
    }
}

TEST_CASE("a path that flushes subnormals says so") {
  const auto& info = baseline().device_info();
  for (const auto& p : info.paths) {
    const std::string op = p.op + " " + p.type + " " + p.space;
    CAPTURE(op);
    CHECK(p.flushes_subnormals == contains(p.note, "flushes subnormals"));
    if (p.path == Path::cas) CHECK_FALSE(p.flushes_subnormals);
  }
}
