// Special values through every float/double op: +0, -0, 1, -1, the smallest denormal, the
// largest finite value, +inf, -inf and a quiet NaN. Shared by test_special_values_single.cpp
// (every pair of values, one work-item per address) and test_special_values_contention.cpp
// (every work-item on one address).
//
// The host reference follows the library's semantics: sub is add of -v; mad is fma(a, b, old)
// with one rounding; min/max follow cl/clatomics/order.cl (NaN is missing data, -0 < +0); xchg
// and cmpxchg move and compare bits.
//
// Equality is bit-for-bit, on the CAS path and on every native path, with these exceptions, which
// IEEE 754 and OpenCL leave to the device (each is checked as narrowly as it can be):
// - NaN results of arithmetic (add sub mul div mad): sign and payload of a NaN an operation
//   produces are not specified (x86 returns 0xffc00000 for inf - inf and passes an operand's
//   payload through; NVIDIA returns 0x7fffffff), so there the result must only be *a* NaN.
//   min, max, xchg and cmpxchg only move values, so for them NaN bits must match exactly.
// - Float denormals: a device may flush them when CL_DEVICE_SINGLE_FP_CONFIG lacks CL_FP_DENORM
//   (PoCL on x86 keeps them: test_special_values_single prints what the device reports). Then a
//   result is also accepted if it equals the reference computed with denormal inputs and outputs
//   flushed to a zero of the same sign. Double denormals are required by OpenCL wherever fp64
//   exists. NVIDIA's PTX atom.add.f32 always flushes denormals (PTX ISA), so the same applies to
//   float add/sub when the device info says that path is ptx. xchg/cmpxchg never flush.
#pragma once

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "real_ops.hpp"

namespace specials {

using namespace real_ops;

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

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

// The library's min and max on the host (order.cl: NaN is missing data, -0 < +0), under the
// names ops.def's new-value expressions call (its type parameter is empty on the host).
template <class X>
X clat_min_(X a, X b) {
  return test::ref_min(a, b);
}
template <class X>
X clat_max_(X a, X b) {
  return test::ref_max(a, b);
}

// What memory holds after op(old, a, b): each read-modify-write as ops.def's line computes it
// (the operand v is a; a_b ops read a and b), a VIA op as its base op with its operand.
#define REFERENCE_NEW_v(value) \
  {                            \
    const T v = a;             \
    return value;              \
  }
#define REFERENCE_NEW_a_b(value) return value;
#define REFERENCE_ROW(T_, A_, B_, C_, D_, name, operands, value, ...) \
  case op_##name:                                                    \
    REFERENCE_NEW_##operands(value)
#define REFERENCE_VIA(T_, A_, B_, C_, D_, name, operands, base, operand) \
  case op_##name: {                                                     \
    const T v = a;                                                      \
    return reference(op_##base, old, T(operand), b);                    \
  }
template <class T>
T reference(Op op, T old, T a, T b) {
  using std::fma;
  switch (op) {
    CLAT_REAL_OPS(REFERENCE_ROW, REFERENCE_VIA, , , , , )
    case op_xchg: return a;
    case op_cmpxchg: return same(old, a) ? b : old;
  }
  return old;
}
#undef REFERENCE_NEW_v
#undef REFERENCE_NEW_a_b
#undef REFERENCE_ROW
#undef REFERENCE_VIA

template <class T>
T flush(T x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

// Every op but the order (min, max) and exchange ones, wherever ops.def puts it.
inline bool arithmetic(Op op) { return op != op_min && op != op_max && op != op_xchg && op != op_cmpxchg; }

// got equals want under the rules in this file's header comment.
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
  const auto path = test::runtime().device_info().path_of("add", test::cl_type_name<T>(), local ? "local" : "global");
  return sizeof(T) == 4 && (op == op_add || op == op_sub) && path == clatomics::Path::ptx;
}

// ---- launching ----

template <class T>
struct Outcome {
  std::vector<T> mem, olds;
};

template <class T>
cl::Kernel make_kernel(const std::string& kind, bool local) {
  const cl::Program program = test::runtime().build(test::test_sources({"real_apply.cl", "special_values.cl"}));
  return cl::Kernel(program, (kind + "_" + test::cl_type_name<T>() + (local ? "_local" : "_global")).c_str());
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
  test::set_args(kernel, mem_buf, olds_buf);
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

}  // namespace specials
