// Special values through every float/double op: +0, -0, 1, -1, the smallest denormal, the
// largest finite value, +inf, -inf and a quiet NaN.
//
// Single work-item: every pair (old, operand) — every triple for mad and cmpxchg — runs with one
// work-item per address, on __global and __local memory, against a host reference that follows
// the library's semantics: sub is add of -v; mad is fma(a, b, old) with one rounding (checked
// against both the fused and the unfused reference); min/max follow cl/clatomics/order.cl (NaN is
// missing data, -0 < +0); xchg and cmpxchg move and compare bits.
//
// Equality is bit-for-bit, on the CAS path and on every native path, with these exceptions, which
// IEEE 754 and OpenCL leave to the device (each is checked as narrowly as it can be):
// - NaN results of arithmetic (add sub mul div mad): sign and payload of a NaN an operation
//   produces are not specified (x86 returns 0xffc00000 for inf - inf and passes an operand's
//   payload through; NVIDIA returns 0x7fffffff), so there the result must only be *a* NaN.
//   min, max, xchg and cmpxchg only move values, so for them NaN bits must match exactly.
// - Float denormals: a device may flush them when CL_DEVICE_SINGLE_FP_CONFIG lacks CL_FP_DENORM
//   (PoCL on x86 keeps them: the test prints what the device reports). Then a result is also
//   accepted if it equals the reference computed with denormal inputs and outputs flushed to a
//   zero of the same sign. Double denormals are required by OpenCL wherever fp64 exists.
//   NVIDIA's PTX atom.add.f32 always flushes denormals (PTX ISA), so the same applies to float
//   add/sub when the device info says that path is ptx. xchg/cmpxchg never flush.
//
// Under contention (every work-item on one address), the same values must lose no update and no
// loop may spin forever (CTest's timeout catches a hang): sign flips of ±0 and ±inf by mul/div
// (a float compare would see -0 == +0 and skip the write), denormal steps by add/sub/mad, a
// cmpxchg chain through -0, +0, ±inf, a denormal and NaNs with distinct payloads (a float
// compare never matches NaN), an xchg chain through the same patterns, and min/max over NaN and
// ±0 mixtures with exact expected bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>

#include "support.hpp"

namespace {

enum Op : cl_uint { op_add, op_sub, op_mul, op_div, op_mad, op_min, op_max, op_xchg, op_cmpxchg };
const char* const op_names[] = {"add", "sub", "mul", "div", "mad", "min", "max", "xchg", "cmpxchg"};

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

template <class T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  return {T(0), T(-0.0), T(1), T(-1), L::denorm_min(), L::max(), L::infinity(), -L::infinity(), L::quiet_NaN()};
}

template <class T>
bool same(T a, T b) {
  return test::bits(a) == test::bits(b);
}

template <class T>
std::string show(T v) {
  std::ostringstream s;
  s << std::hexfloat << v << " [0x" << std::hex << test::bits(v) << "]";
  return s.str();
}

// cl/clatomics/order.cl on the host.
template <class T>
T ref_min(T a, T b) {
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

// What memory holds after op(old, a, b), per the library's documented semantics.
template <class T>
T reference(Op op, T old, T a, T b) {
  switch (op) {
    case op_add: return old + a;
    case op_sub: return old + (-a);
    case op_mul: return old * a;
    case op_div: return old / a;
    case op_mad: return std::fma(a, b, old);
    case op_min: return ref_min(old, a);
    case op_max: return ref_max(old, a);
    case op_xchg: return a;
    case op_cmpxchg: return same(old, a) ? b : old;
  }
  return old;
}

// a * b + old with two roundings (the volatile keeps the compiler from contracting it).
template <class T>
T unfused_mad(T old, T a, T b) {
  volatile T product = a * b;
  return product + old;
}

template <class T>
T flush(T x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

bool arithmetic(Op op) { return op <= op_mad; }

// got equals want under the rules in the header comment.
template <class T>
bool equal_result(Op op, T got, T want) {
  if (arithmetic(op) && std::isnan(want)) return std::isnan(got);
  return same(got, want);
}

template <class T>
bool device_keeps_denormals() {
  const auto& device = test::runtime().device();
  cl_device_fp_config config = 0;
  if constexpr (sizeof(T) == 4)
    config = device.getInfo<CL_DEVICE_SINGLE_FP_CONFIG>();
  else
    config = device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>();
  return (config & CL_FP_DENORM) != 0;
}

// Whether a result of op may be the denormal-flushed one on this device and path.
template <class T>
bool may_flush(Op op, bool local) {
  if (op == op_xchg || op == op_cmpxchg) return false;
  if (!device_keeps_denormals<T>()) return true;
  const auto path = test::runtime().device_info().path_of("add", type_name<T>(), local ? "local" : "global");
  return sizeof(T) == 4 && (op == op_add || op == op_sub) && path == clatomics::Path::ptx;
}

template <class T>
bool acceptable(Op op, bool local, T old, T a, T b, T got) {
  if (equal_result(op, got, reference(op, old, a, b))) return true;
  return may_flush<T>(op, local) && equal_result(op, flush(got), flush(reference(op, flush(old), flush(a), flush(b))));
}

// ---- launching ----

template <class T>
struct Outcome {
  std::vector<T> mem, olds;
};

template <class T>
cl::Kernel make_kernel(const std::string& kind, bool local) {
  const cl::Program program = test::runtime().build(test::test_source("special_values.cl"));
  return cl::Kernel(program, (kind + "_" + type_name<T>() + (local ? "_local" : "_global")).c_str());
}

// kind: "single" or "contend" (operands a, b and op), or "chain" (none). n work-items.
template <class T>
Outcome<T> launch(const std::string& kind, bool local, const std::vector<T>& mem, const std::vector<T>& a,
                  const std::vector<T>& b, Op op, std::size_t n) {
  auto& rt = test::runtime();
  const std::size_t group = test::group_size();
  REQUIRE(n % group == 0);
  cl::Kernel kernel = make_kernel<T>(kind, local);
  cl::Buffer mem_buf = test::to_device(rt, mem);
  cl::Buffer olds_buf(rt.context(), CL_MEM_READ_WRITE, n * sizeof(T));
  cl::Buffer a_buf, b_buf;
  kernel.setArg(0, mem_buf);
  kernel.setArg(1, olds_buf);
  if (kind != "chain") {
    a_buf = test::to_device(rt, a);
    b_buf = test::to_device(rt, b);
    kernel.setArg(2, a_buf);
    kernel.setArg(3, b_buf);
    kernel.setArg(4, cl_uint(op));
    if (kind == "single" && local) kernel.setArg(5, cl::Local(group * sizeof(T)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
  return {test::to_host<T>(rt, mem_buf, mem.size()), test::to_host<T>(rt, olds_buf, n)};
}

bool skip_double(bool is_double) {
  if (is_double && !test::runtime().supports_double()) {
    MESSAGE("double not supported on this device: skipped");
    return true;
  }
  return false;
}

// ---- single work-item, every pair ----

template <class T>
struct Case {
  T old, a, b;
};

template <class T>
std::vector<Case<T>> cases_for(Op op) {
  const auto values = special_values<T>();
  std::vector<Case<T>> cases;
  const bool triples = op == op_mad || op == op_cmpxchg;
  for (T old : values)
    for (T a : values) {
      if (!triples) cases.push_back({old, a, T(0)});
      else
        for (T b : values) cases.push_back({old, a, b});
    }
  if (op == op_mad) {  // products whose rounding tells fused from unfused in finite arithmetic
    const T e = std::ldexp(T(1), sizeof(T) == 4 ? -12 : -27), x = T(1) + e;  // x*x = 1 + 2e + e^2
    cases.push_back({T(-1), x, x});
    cases.push_back({T(1), -x, x});
  }
  return cases;
}

template <class T>
void check_single(Op op) {
  if (skip_double(sizeof(T) == 8)) return;
  const auto cases = cases_for<T>(op);
  const std::size_t group = test::group_size();
  const std::size_t n = (cases.size() + group - 1) / group * group;  // padding items work on 0
  std::vector<T> mem(n, T(0)), a(n, T(0)), b(n, T(0));
  for (std::size_t i = 0; i < cases.size(); ++i) mem[i] = cases[i].old, a[i] = cases[i].a, b[i] = cases[i].b;
  for (bool local : {false, true}) {
    const auto out = launch<T>("single", local, mem, a, b, op, n);
    std::ostringstream bad;
    std::size_t failures = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& c = cases[i];
      const bool old_ok = same(out.olds[i], c.old);
      const bool ok = acceptable(op, local, c.old, c.a, c.b, out.mem[i]);
      if (old_ok && ok) continue;
      if (++failures <= 12)
        bad << "  old " << show(c.old) << ", a " << show(c.a) << (op == op_mad || op == op_cmpxchg ? ", b " + show(c.b) : "")
            << ": memory " << show(out.mem[i]) << ", expected " << show(reference(op, c.old, c.a, c.b))
            << ", returned " << show(out.olds[i]) << "\n";
    }
    const auto path = test::runtime().device_info().path_of(op_names[op], type_name<T>(), local ? "local" : "global");
    INFO((std::string(op_names[op]) + " " + type_name<T>() + (local ? " local" : " global") + " on the " +
          clatomics::path_name(path) + " path: "),
         failures, " of ", cases.size(), " cases wrong\n", bad.str());
    CHECK(failures == 0);
    if (op == op_mad) {  // fused, not unfused: count the cases where the two differ
      std::size_t telling = 0, fused = 0;
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& c = cases[i];
        const T f = std::fma(c.a, c.b, c.old), u = unfused_mad(c.old, c.a, c.b);
        if (equal_result(op, f, u) && equal_result(op, u, f)) continue;
        ++telling;
        fused += equal_result(op, out.mem[i], f) && !equal_result(op, out.mem[i], u);
      }
      INFO(telling, " cases tell fused from unfused; the device matched fused in ", fused);
      CHECK(telling >= 3);  // max * max + -inf, and the two rounding cases
      CHECK(fused == telling);
    }
  }
}

}  // namespace

TEST_CASE("the device's denormal support") {
  MESSAGE((test::runtime().device_info().caps.device_name + ": float denormals " +
           (device_keeps_denormals<float>() ? "kept (CL_FP_DENORM)" : "may be flushed (no CL_FP_DENORM)")));
  if (test::runtime().supports_double()) CHECK(device_keeps_denormals<double>());  // required with fp64
}

#define SINGLE_TEST(OP)                                                                               \
  TEST_CASE_TEMPLATE("special values: " #OP " (single work-item, every pair)", T, float, double) { \
    check_single<T>(op_##OP);                                                                         \
  }
SINGLE_TEST(add)
SINGLE_TEST(sub)
SINGLE_TEST(mul)
SINGLE_TEST(div)
SINGLE_TEST(mad)
SINGLE_TEST(min)
SINGLE_TEST(max)
SINGLE_TEST(xchg)
SINGLE_TEST(cmpxchg)

// ---- full contention ----

namespace {

constexpr std::size_t global_items = 65536;

// One scenario: every work-item applies op with its operands to one address (global: one cell
// for all; local: one cell per work-group, 4 groups). Returns, per cell, the final value and
// the olds its work-items got (in item order).
template <class T>
struct Cell {
  T final_value;
  std::vector<T> olds;
  std::vector<std::size_t> items;
};

template <class T>
std::vector<Cell<T>> contend(Op op, bool local, T init, const std::function<T(std::size_t)>& a_of,
                             const std::function<T(std::size_t)>& b_of = {}) {
  const std::size_t group = test::group_size(), n = local ? 4 * group : global_items;
  std::vector<T> a(n), b(n, T(0));
  for (std::size_t i = 0; i < n; ++i) a[i] = a_of(i), b[i] = b_of ? b_of(i) : T(0);
  const std::size_t cells = local ? n / group : 1;
  const auto out = launch<T>("contend", local, std::vector<T>(cells, init), a, b, op, n);
  std::vector<Cell<T>> result(cells);
  for (std::size_t c = 0; c < cells; ++c) result[c].final_value = out.mem[c];
  for (std::size_t i = 0; i < n; ++i) {
    result[local ? i / group : 0].olds.push_back(out.olds[i]);
    result[local ? i / group : 0].items.push_back(i);
  }
  return result;
}

template <class T>
std::vector<Bits<T>> sorted_bits(const std::vector<T>& values) {
  std::vector<Bits<T>> bits;
  for (T v : values) bits.push_back(test::bits(v));
  std::sort(bits.begin(), bits.end());
  return bits;
}

// Steps of one denormal (add, sub, mad): the olds must be exactly 0, d, 2d, ... (negated for
// sub), each once, and the final value m*d: every step kept, no update lost. Where the device
// may flush, an all-zero outcome is accepted too.
template <class T>
void check_denormal_steps(Op op, bool local) {
  const T d = std::numeric_limits<T>::denorm_min(), sign = op == op_sub ? T(-1) : T(1);
  const auto cells = contend<T>(op, local, T(0), [&](std::size_t) { return op == op_mad ? T(1) : d; },
                                [&](std::size_t) { return d; });
  for (const auto& cell : cells) {
    const std::size_t m = cell.olds.size();
    std::vector<T> expected;
    for (std::size_t k = 0; k < m; ++k) expected.push_back(k ? sign * T(k) * d : T(0));  // exact: k*d < 2^-126
    const bool exact = sorted_bits(cell.olds) == sorted_bits(expected) && same(cell.final_value, sign * T(m) * d);
    const bool flushed = std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(0)); }) &&
                         same(cell.final_value, T(0));
    INFO((std::string(op_names[op]) + " of denormals, "), m, std::string(" work-items on one ") + (local ? "local" : "global"),
         " cell: final ", show(cell.final_value), ", expected ", show(sign * T(m) * d));
    CHECK((exact || (may_flush<T>(op, local) && flushed)));
  }
}

// add: 1s and some +infs from 0: the finite olds are exactly 0..j-1, the other olds are +inf, and
// the final value is +inf. Signed zeros: -0 plus -0s stays -0 (bits); with +0s mixed in, +0.
template <class T>
void check_add_specials(bool local) {
  const T inf = std::numeric_limits<T>::infinity();
  for (const auto& cell : contend<T>(op_add, local, T(0), [&](std::size_t i) { return i % 64 == 5 ? inf : T(1); })) {
    std::vector<T> finite;
    for (T o : cell.olds)
      if (std::isfinite(o)) finite.push_back(o);
    std::sort(finite.begin(), finite.end());
    bool counted = true;
    for (std::size_t k = 0; k < finite.size(); ++k) counted = counted && same(finite[k], T(k));
    const auto infs = std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, inf); });
    CHECK(counted);
    CHECK(std::size_t(infs) + finite.size() == cell.olds.size());
    CHECK(same(cell.final_value, inf));
  }
  for (const auto& cell : contend<T>(op_add, local, T(-0.0), [](std::size_t) { return T(-0.0); })) {
    CHECK(same(cell.final_value, T(-0.0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
  for (const auto& cell : contend<T>(op_add, local, T(-0.0), [](std::size_t i) { return i % 7 == 3 ? T(0) : T(-0.0); })) {
    CHECK(same(cell.final_value, T(0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return o == T(0); }));  // either zero
    CHECK(std::any_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
}

// mul/div by -1 from ±0 and ±inf: the sign flips once per work-item, so the olds hold each
// sign exactly half the time and the final sign is the start's (an even count).
template <class T>
void check_sign_flips(Op op, bool local) {
  const T inf = std::numeric_limits<T>::infinity();
  for (T init : {T(-0.0), T(0), inf, -inf}) {
    for (const auto& cell : contend<T>(op, local, init, [](std::size_t) { return T(-1); })) {
      const std::size_t m = cell.olds.size();
      INFO((std::string(op_names[op]) + " by -1 from " + show(init) + ", "), m, std::string(" work-items, ") + (local ? "local" : "global"));
      REQUIRE(m % 2 == 0);
      CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, init); }) == std::ptrdiff_t(m / 2));
      CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, -init); }) == std::ptrdiff_t(m / 2));
      CHECK(same(cell.final_value, init));
    }
  }
}

template <class T>
T nan_with(Bits<T> payload, bool negative) {
  const Bits<T> quiet = sizeof(T) == 4 ? Bits<T>(0x7fc00000u) : Bits<T>(0x7ff8000000000000ull);
  const Bits<T> sign = Bits<T>(1) << (8 * sizeof(T) - 1);
  return test::from_bits<T>(quiet | payload | (negative ? sign : 0));
}

// min/max over mixtures: the final bits are exactly the reference fold; every old is the start
// or an operand (bits), and never beats the final value.
template <class T>
void check_minmax_mix(Op op, bool local, T init, const std::vector<T>& offered, const char* what) {
  for (const auto& cell : contend<T>(op, local, init, [&](std::size_t i) { return offered[i % offered.size()]; })) {
    T expected = init;
    std::vector<Bits<T>> allowed{test::bits(init)};
    for (auto i : cell.items) {
      const T v = offered[i % offered.size()];
      expected = reference(op, expected, v, T(0));
      allowed.push_back(test::bits(v));
    }
    std::sort(allowed.begin(), allowed.end());
    bool plausible = true;
    for (T o : cell.olds)
      plausible = plausible && std::binary_search(allowed.begin(), allowed.end(), test::bits(o)) &&
                  same(reference(op, o, cell.final_value, T(0)), cell.final_value);
    INFO((std::string(op_names[op]) + " over " + what + " from " + show(init) + (local ? ", local" : ", global") +
          ": final " + show(cell.final_value) + ", expected " + show(expected)));
    const bool flushed_ok = may_flush<T>(op, local) && same(flush(cell.final_value), flush(expected));
    CHECK((same(cell.final_value, expected) || flushed_ok));
    CHECK(plausible);
  }
}

template <class T>
void check_minmax(Op op, bool local) {
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN();
  std::vector<T> zeros_and_nans{T(0), T(-0.0), nan, nan_with<T>(0x55, true), nan_with<T>(3, false), T(-0.0)};
  check_minmax_mix<T>(op, local, nan, zeros_and_nans, "±0 and NaNs");
  check_minmax_mix<T>(op, local, nan_with<T>(0x123, true), zeros_and_nans, "±0 and NaNs");
  std::vector<T> all = special_values<T>();
  all.push_back(nan_with<T>(7, true));
  all.push_back(-L::denorm_min());
  check_minmax_mix<T>(op, local, T(1), all, "every special value");
  std::vector<T> nans{nan, nan_with<T>(1, true), nan_with<T>(0x42, false)};
  check_minmax_mix<T>(op, local, nan_with<T>(0x123, false), nans, "NaNs only (memory keeps its NaN)");
  check_minmax_mix<T>(op, local, T(0), {T(-0.0), L::denorm_min(), T(0), -L::denorm_min()}, "±0 and ±denormals");
}

// The chain states of special_values.cl: -0, +0, +inf, -inf, denormal, NaN payloads.
template <class T>
Bits<T> chain_bits(Bits<T> k) {
  switch (k) {
    case 0: return test::bits(T(-0.0));
    case 1: return 0;
    case 2: return test::bits(std::numeric_limits<T>::infinity());
    case 3: return test::bits(-std::numeric_limits<T>::infinity());
    case 4: return 1;
    default: return test::bits(nan_with<T>(k, k & 1));
  }
}

// xchg: each work-item swaps in its own state; olds plus the final value are every state once.
template <class T>
void check_xchg_chain(bool local) {
  const std::size_t group = test::group_size();
  for (const auto& cell : contend<T>(op_xchg, local, test::from_bits<T>(chain_bits<T>(0)), [&](std::size_t i) {
         return test::from_bits<T>(chain_bits<T>(Bits<T>(local ? i % group : i) + 1));
       })) {
    std::vector<T> seen = cell.olds;
    seen.push_back(cell.final_value);
    std::vector<Bits<T>> expected;
    for (std::size_t k = 0; k <= cell.olds.size(); ++k) expected.push_back(chain_bits<T>(Bits<T>(k)));
    std::sort(expected.begin(), expected.end());
    CHECK(sorted_bits(seen) == expected);
  }
}

// cmpxchg: the chain kernel advances the cell one state per work-item with a CAS loop; the olds
// are states 0..m-1 exactly once, the final state is m. Then one-shot compare-exchanges: against
// -0 in memory, a +0 compare never succeeds; a -0 compare succeeds exactly once.
template <class T>
void check_cmpxchg(bool local) {
  const std::size_t group = test::group_size(), n = local ? 4 * group : global_items, m = local ? group : n;
  const std::size_t cells = n / m;
  const auto out = launch<T>("chain", local, std::vector<T>(cells, test::from_bits<T>(chain_bits<T>(0))), {}, {},
                             op_cmpxchg, n);
  for (std::size_t c = 0; c < cells; ++c) {
    std::vector<T> olds(out.olds.begin() + std::ptrdiff_t(c * m), out.olds.begin() + std::ptrdiff_t((c + 1) * m));
    std::vector<Bits<T>> expected;
    for (std::size_t k = 0; k < m; ++k) expected.push_back(chain_bits<T>(Bits<T>(k)));
    std::sort(expected.begin(), expected.end());
    INFO("cmpxchg chain of ", m, std::string(" work-items, ") + (local ? "local" : "global") + ": final " + show(out.mem[c]));
    CHECK(sorted_bits(olds) == expected);
    CHECK(test::bits(out.mem[c]) == chain_bits<T>(Bits<T>(m)));
  }
  const auto distinct_nan = [](std::size_t i) { return nan_with<T>(Bits<T>(i + 1), i & 1); };
  for (const auto& cell : contend<T>(op_cmpxchg, local, T(-0.0), [](std::size_t) { return T(0); }, distinct_nan)) {
    CHECK(same(cell.final_value, T(-0.0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
  for (const auto& cell : contend<T>(op_cmpxchg, local, T(-0.0), [](std::size_t) { return T(-0.0); }, distinct_nan)) {
    const auto winners = std::count_if(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); });
    CHECK(winners == 1);
    std::size_t winner = 0;
    for (std::size_t k = 0; k < cell.olds.size(); ++k)
      if (same(cell.olds[k], T(-0.0))) winner = cell.items[k];
    CHECK(same(cell.final_value, distinct_nan(winner)));
    CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, cell.final_value); }) ==
          std::ptrdiff_t(cell.olds.size() - 1));
  }
}

template <class T>
void check_contention(Op op) {
  if (skip_double(sizeof(T) == 8)) return;
  for (bool local : {false, true}) {
    switch (op) {
      case op_add:
        check_denormal_steps<T>(op, local);
        check_add_specials<T>(local);
        break;
      case op_sub:
      case op_mad: check_denormal_steps<T>(op, local); break;
      case op_mul:
      case op_div: check_sign_flips<T>(op, local); break;
      case op_min:
      case op_max: check_minmax<T>(op, local); break;
      case op_xchg: check_xchg_chain<T>(local); break;
      case op_cmpxchg: check_cmpxchg<T>(local); break;
    }
  }
}

}  // namespace

#define CONTENTION_TEST(OP)                                                                     \
  TEST_CASE_TEMPLATE("special values: " #OP " (full contention, no update lost)", T, float, double) { \
    check_contention<T>(op_##OP);                                                               \
  }
CONTENTION_TEST(add)
CONTENTION_TEST(sub)
CONTENTION_TEST(mul)
CONTENTION_TEST(div)
CONTENTION_TEST(mad)
CONTENTION_TEST(min)
CONTENTION_TEST(max)
CONTENTION_TEST(xchg)
CONTENTION_TEST(cmpxchg)
