// Trust, then verify: a native path is used only after its check kernel passed on the device.
// Forcing a check to fail (Options::fail_checks / CLATOMICS_FAIL_CHECKS) must move that op to
// the CAS loop, say why in the op's note and in describe(), add the CLAT_NO_<PATH>_<SLOT> macro
// to the build options (so kernels really compile the loop: a probe kernel reads the path
// macros back), leave the other slots alone, and the ops must stay exact.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "support.hpp"

namespace {

using clatomics::Path;

struct Slot {
  const char* name;
  const char* macro;  // CLAT_NO_<PATH>_<macro>
  const char* ops[2];
  const char* type;
  const char* space;
};
// The slots in the order the probe kernel reports them (as cl/kernels/native_checks.cl).
const Slot slots[] = {
    {"add_float_global", "ADD_FLOAT_GLOBAL", {"add", "sub"}, "float", "global"},
    {"add_float_local", "ADD_FLOAT_LOCAL", {"add", "sub"}, "float", "local"},
    {"add_double_global", "ADD_DOUBLE_GLOBAL", {"add", "sub"}, "double", "global"},
    {"add_double_local", "ADD_DOUBLE_LOCAL", {"add", "sub"}, "double", "local"},
    {"minmax_float_global", "MINMAX_FLOAT_GLOBAL", {"min", "max"}, "float", "global"},
    {"minmax_float_local", "MINMAX_FLOAT_LOCAL", {"min", "max"}, "float", "local"},
    {"minmax_double_global", "MINMAX_DOUBLE_GLOBAL", {"min", "max"}, "double", "global"},
    {"minmax_double_local", "MINMAX_DOUBLE_LOCAL", {"min", "max"}, "double", "local"},
};

// probe: the path each slot compiles to. fam_*: add/sub (minmax = 0) or min/max (minmax = 1)
// by every work-item on two cells (global: cells 0 and 1; local: two per work-group).
const char* kernels = R"CLC(
#ifdef CLAT_HAS_DOUBLE
#define DOUBLE_PATH(x) (x)
#else
#define DOUBLE_PATH(x) (-1)
#endif
kernel void probe(global int *out) {
  out[0] = CLAT_PATH_ADD_FLOAT_GLOBAL;
  out[1] = CLAT_PATH_ADD_FLOAT_LOCAL;
  out[2] = DOUBLE_PATH(CLAT_PATH_ADD_DOUBLE_GLOBAL);
  out[3] = DOUBLE_PATH(CLAT_PATH_ADD_DOUBLE_LOCAL);
  out[4] = CLAT_PATH_MINMAX_FLOAT_GLOBAL;
  out[5] = CLAT_PATH_MINMAX_FLOAT_LOCAL;
  out[6] = DOUBLE_PATH(CLAT_PATH_MINMAX_DOUBLE_GLOBAL);
  out[7] = DOUBLE_PATH(CLAT_PATH_MINMAX_DOUBLE_LOCAL);
  out[8] = CLAT_PATH_AGG;
  out[9] = CLAT_PATH_ADD_HALF_GLOBAL;
  out[10] = CLAT_PATH_ADD_BF16_GLOBAL;
  out[11] = CLAT_PATH_NORET_ADD_FLOAT_GLOBAL;
  out[12] = DOUBLE_PATH(CLAT_PATH_NORET_ADD_DOUBLE_GLOBAL);
}
#define FAM(T)                                                                          \
  kernel void fam_##T##_global(global T *cells, global T *olds, global const T *v, uint minmax) { \
    size_t i = get_global_id(0);                                                        \
    if (minmax) {                                                                       \
      clat_atomic_min_##T(cells, v[i]);                                                 \
      clat_atomic_max_##T(cells + 1, v[i]);                                             \
    } else {                                                                            \
      olds[i] = clat_atomic_add_##T(cells, (T)1);                                       \
      clat_atomic_sub_##T(cells + 1, (T)1);                                             \
    }                                                                                   \
  }                                                                                     \
  kernel void fam_##T##_local(global T *cells, global T *olds, global const T *v, uint minmax) { \
    local T l[2];                                                                       \
    size_t i = get_global_id(0), lid = get_local_id(0), g = get_group_id(0);            \
    if (lid < 2) l[lid] = cells[2 * g + lid];                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                       \
    if (minmax) {                                                                       \
      clat_atomic_min_##T##_local(l, v[i]);                                             \
      clat_atomic_max_##T##_local(l + 1, v[i]);                                         \
    } else {                                                                            \
      olds[i] = clat_atomic_add_##T##_local(l, (T)1);                                   \
      clat_atomic_sub_##T##_local(l + 1, (T)1);                                         \
    }                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                       \
    if (lid < 2) cells[2 * g + lid] = l[lid];                                           \
  }
FAM(float)
#ifdef CLAT_HAS_DOUBLE
FAM(double)
#endif
)CLC";

std::string upper(std::string text) {
  for (auto& c : text) c = char(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The environment's options, with native paths on and no check failed: the baseline.
clatomics::Options base_options() {
  auto options = clatomics::Options::from_env();
  options.force_cas = false;
  options.fail_checks.clear();
  return options;
}

// The baseline's options with the named check (or "all") forced to fail.
clatomics::Options failing_options(const std::string& check) {
  auto options = base_options();
  options.fail_checks = {check};
  return options;
}

clatomics::Runtime& baseline() {
  static clatomics::Runtime rt(base_options());
  return rt;
}

// The issue-9 slots (probe outputs 8..12): aggregation, packed 16-bit add, PTX red.
struct VariantSlot {
  const char* name;
  const char* macro;   // CLAT_NO_<PATH>_<macro>
  const char* family;  // where device_info() lists its ops (variant_paths)
  const char* op;
  const char* type;
  bool doubles;        // needs double
};
const VariantSlot variant_slots[] = {
    {"agg", "AGG", "aggregated", "add", "float", false},
    {"add_half_global", "ADD_HALF_GLOBAL", "16-bit", "add", "half", false},
    {"add_bf16_global", "ADD_BF16_GLOBAL", "16-bit", "add", "bf16", false},
    {"noret_add_float_global", "RED_FLOAT_GLOBAL", "no-return", "add", "float", false},
    {"noret_add_double_global", "RED_DOUBLE_GLOBAL", "no-return", "add", "double", true},
};
constexpr std::size_t probe_count = sizeof(slots) / sizeof(slots[0]) + sizeof(variant_slots) / sizeof(variant_slots[0]);

// What the probe kernel, built by rt, says each slot compiles to.
std::vector<int> probed_paths(const clatomics::Runtime& rt) {
  const cl::Program program = rt.build(kernels);
  cl::Kernel probe(program, "probe");
  cl::Buffer out(rt.context(), CL_MEM_WRITE_ONLY, probe_count * sizeof(cl_int));
  probe.setArg(0, out);
  rt.queue().enqueueNDRangeKernel(probe, cl::NullRange, cl::NDRange(1), cl::NullRange);
  return test::to_host<cl_int>(rt, out, probe_count);
}

// The native paths a variant slot's own check covers (as src/device_info.cpp).
bool owned(const VariantSlot& slot, Path path) {
  if (std::string(slot.name) == "agg") return path == Path::warp || path == Path::subgroup;
  return path == Path::ptx;
}
Path variant_path(const clatomics::Runtime& rt, const VariantSlot& slot, const char* op = nullptr) {
  return rt.device_info().variant_path_of(slot.family, op ? op : slot.op, slot.type, "global");
}
// The path a variant slot's ops take once its own native path is off.
Path fallback(const clatomics::Runtime& rt, const VariantSlot& slot) {
  if (std::string(slot.name) == "agg") return Path::plain;
  if (std::string(slot.family) == "no-return") return rt.device_info().path_of("add", slot.type, "global");
  return Path::cas;
}

// The probe agrees with device_info() for every slot present.
void check_probe_agrees(const clatomics::Runtime& rt) {
  const auto codes = probed_paths(rt);
  for (std::size_t s = 0; s < sizeof(slots) / sizeof(slots[0]); ++s) {
    if (codes[s] < 0) continue;  // double hidden or absent
    CAPTURE(slots[s].name);
    CHECK(codes[s] == int(rt.device_info().path_of(slots[s].ops[0], slots[s].type, slots[s].space)));
  }
  const std::size_t first = sizeof(slots) / sizeof(slots[0]);
  for (std::size_t v = 0; v < sizeof(variant_slots) / sizeof(variant_slots[0]); ++v) {
    const auto& slot = variant_slots[v];
    if (codes[first + v] < 0) continue;
    CAPTURE(slot.name);
    // A no-return add off PTX red compiles to the returning add's path, and is listed so.
    CHECK(codes[first + v] == int(variant_path(rt, slot)));
    CHECK(codes[first + v] == int(variant_path(rt, slot, "sub")));
  }
}

template <class T>
T ref_min(T a, T b) {  // cl/clatomics/order.cl
  if (std::isnan(b)) return a;
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return b < a ? b : a;
}
template <class T>
T ref_max(T a, T b) {
  if (std::isnan(b)) return a;
  if (std::isnan(a)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return b > a ? b : a;
}

// The slot's ops under full contention give exact results: add/sub counts with olds exactly
// 0..m-1; min/max of values with NaNs and ±0 (from NaN) are the exact reference bits.
template <class T>
void check_exact(const clatomics::Runtime& rt, const Slot& slot) {
  const bool local = std::string(slot.space) == "local", minmax = std::string(slot.ops[0]) == "min";
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
  cl::Kernel kernel(rt.build(kernels), (std::string("fam_") + slot.type + "_" + slot.space).c_str());
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
      for (std::size_t i = c * m; i < (c + 1) * m; ++i) lo = ref_min(lo, values[i]), hi = ref_max(hi, values[i]);
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

void check_exact(const clatomics::Runtime& rt, const Slot& slot) {
  if (std::string(slot.type) == "double") {
    if (rt.supports_double()) check_exact<double>(rt, slot);
  } else {
    check_exact<float>(rt, slot);
  }
}

bool present(const clatomics::Runtime& rt, const Slot& slot) {
  return std::string(slot.type) == "float" || rt.supports_double();
}

}  // namespace

TEST_CASE("the baseline: native paths as checked, the probe agrees, ops exact") {
  const auto& rt = baseline();
  MESSAGE(rt.device_info().describe());
  check_probe_agrees(rt);
  for (const auto& slot : slots)
    if (present(rt, slot)) {
      CAPTURE(slot.name);
      check_exact(rt, slot);
    }
}

TEST_CASE("a native check forced to fail moves its ops to the CAS loop, says why, stays exact") {
  const auto& base = baseline().device_info();
  std::size_t tried = 0;
  for (const auto& slot : slots) {
    if (!present(baseline(), slot)) continue;
    const Path native = base.path_of(slot.ops[0], slot.type, slot.space);
    if (native == Path::cas) continue;  // nothing native to fail here
    ++tried;
    CAPTURE(slot.name);
    const clatomics::Runtime rt(failing_options(slot.name));
    const auto& info = rt.device_info();
    for (const char* op : slot.ops) {
      CHECK(info.path_of(op, slot.type, slot.space) == Path::cas);
      for (const auto& p : info.paths)
        if (p.op == op && p.type == slot.type && p.space == slot.space) {
          CHECK(contains(p.note, std::string(clatomics::path_name(native)) + " check failed"));
          CHECK(contains(p.note, "on purpose"));
        }
    }
    const std::string described = info.describe();
    CHECK(contains(described, std::string("check ") + slot.name + " (" + clatomics::path_name(native) + "): FAILED"));
    CHECK(contains(described, "on purpose"));
    CHECK(contains(info.build_options, "-DCLAT_NO_" + upper(clatomics::path_name(native)) + "_" + slot.macro));
    for (const auto& other : slots)  // the other slots keep their paths
      if (&other != &slot && present(rt, other))
        for (const char* op : other.ops) CHECK(info.path_of(op, other.type, other.space) == base.path_of(op, other.type, other.space));
    check_probe_agrees(rt);
    check_exact(rt, slot);
  }
  if (tried == 0) MESSAGE(("no native path on " + base.caps.device_name + ": nothing to fail"));
}

TEST_CASE("fail_checks = all leaves every op on the CAS loop or a plain hardware atomic") {
  const clatomics::Runtime rt(failing_options("all"));
  for (const auto& p : rt.device_info().paths) {
    const std::string op = p.op + " " + p.type + " " + p.space;
    CAPTURE(op);
    CHECK((p.path == Path::cas || p.path == Path::hardware));
    CHECK(((p.op == "xchg" || p.op == "cmpxchg") == (p.path == Path::hardware)));
  }
  for (const auto& c : rt.device_info().checks) {
    CAPTURE(c.slot);
    CHECK_FALSE(c.passed);
  }
  for (const auto& p : rt.device_info().variant_paths) {
    const std::string op = p.family + " " + p.op + " " + p.type + " " + p.space;
    CAPTURE(op);
    if (p.family == "aggregated") CHECK(p.path == Path::plain);
    else CHECK((p.path == Path::cas || p.path == Path::hardware));
  }
  check_probe_agrees(rt);
  for (const auto& slot : slots)
    if (present(rt, slot)) {
      CAPTURE(slot.name);
      check_exact(rt, slot);
    }
}

TEST_CASE("the issue-9 checks pass on every path this device builds, and list their ops") {
  const auto& rt = baseline();
  for (const auto& slot : variant_slots) {
    if (slot.doubles && !rt.supports_double()) continue;
    CAPTURE(slot.name);
    // On the paths device_info() chose (where native, the check it already ran), and forced onto
    // the fallbacks: the checks' exact expectations hold for the fallback too, so a failing
    // check on a device means the native path is wrong there, not the check.
    CHECK(clatomics::run_native_check(rt, slot.name) == "");
    CHECK(clatomics::run_native_check(rt, slot.name, "-DCLAT_FORCE_CAS") == "");
  }
  CHECK_THROWS_AS(clatomics::run_native_check(rt, "no_such_slot"), std::invalid_argument);
  const auto& info = rt.device_info();
  for (const char* family : {"aggregated", "16-bit", "no-return", "saturating", "float2"}) {
    CAPTURE(family);
    CHECK(std::any_of(info.variant_paths.begin(), info.variant_paths.end(), [&](const auto& p) { return p.family == family; }));
  }
  CHECK(info.variant_path_of("saturating", "inc_sat", "uint", "local") == Path::cas);
  CHECK(info.variant_path_of("16-bit", "min", "bf16", "global") == Path::cas);
  CHECK_THROWS_AS(info.variant_path_of("aggregated", "xchg", "float", "global"), std::invalid_argument);
  CHECK(contains(info.describe(), "aggregated float global:"));
}

TEST_CASE("an issue-9 check forced to fail moves its ops to the fallback, says why, stays exact") {
  const auto& base = baseline();
  std::size_t tried = 0;
  for (const auto& slot : variant_slots) {
    if (slot.doubles && !base.supports_double()) continue;
    const Path native = variant_path(base, slot);
    if (!owned(slot, native)) continue;  // nothing native to fail here
    ++tried;
    CAPTURE(slot.name);
    const clatomics::Runtime rt(failing_options(slot.name));
    const auto& info = rt.device_info();
    const Path now = variant_path(rt, slot);
    // A no-return add whose red check fails falls back to the returning add, on NVIDIA PTX atom:
    // another instruction under the same path label, told apart by the macro and the note below.
    const bool same_label = std::string(slot.family) == "no-return" && fallback(rt, slot) == native;
    if (!same_label) {
      CHECK(now != native);
      CHECK(!owned(slot, now));
    }
    if (std::string(slot.name) != "agg" || native == Path::subgroup) CHECK(now == fallback(rt, slot));
    for (const auto& p : info.variant_paths)
      if (p.family == slot.family && p.type == slot.type && p.space == "global" && (p.op == "add" || p.op == "sub")) {
        CHECK(contains(p.note, std::string(clatomics::path_name(native)) + " check failed"));
        CHECK(contains(p.note, "on purpose"));
      }
    CHECK(contains(info.describe(), std::string("check ") + slot.name + " (" + clatomics::path_name(native) + "): FAILED"));
    CHECK(contains(info.build_options, "-DCLAT_NO_" + upper(clatomics::path_name(native)) + "_" + slot.macro));
    for (const auto& other : slots)  // the core slots keep their paths
      if (present(rt, other))
        for (const char* op : other.ops) CHECK(info.path_of(op, other.type, other.space) == base.device_info().path_of(op, other.type, other.space));
    check_probe_agrees(rt);
    CHECK(clatomics::run_native_check(rt, slot.name) == "");  // the fallback is exact
  }
  if (tried == 0) MESSAGE(("no issue-9 native path on " + base.device_info().caps.device_name + ": nothing to fail"));
}

TEST_CASE("CLATOMICS_FAIL_CHECKS is read from the environment") {
  const char* previous = std::getenv("CLATOMICS_FAIL_CHECKS");
  const std::string saved = previous ? previous : "";
  ::setenv("CLATOMICS_FAIL_CHECKS", "minmax_float_global,,add_float_local", 1);
  const auto options = clatomics::Options::from_env();
  if (previous)
    ::setenv("CLATOMICS_FAIL_CHECKS", saved.c_str(), 1);
  else
    ::unsetenv("CLATOMICS_FAIL_CHECKS");
  CHECK(options.fail_checks == std::vector<std::string>{"minmax_float_global", "add_float_local"});
}
