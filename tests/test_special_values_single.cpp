// Special values (special_values.hpp) with one work-item per address: every pair (old, operand)
// of the values — every triple for mad and cmpxchg — on __global and __local memory, against the
// host reference; mad is checked against both the fused and the unfused reference.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "special_values.hpp"

namespace {

using namespace specials;

// a * b + old with two roundings (the volatile keeps the compiler from contracting it).
template <class T>
T unfused_mad(T old, T a, T b) {
  volatile T product = a * b;
  return product + old;
}

// The device's result is the reference's, or (where it may flush denormals) the flushed one's.
template <class T>
bool acceptable(Op op, bool local, T old, T a, T b, T got) {
  if (equal_result(op, got, reference(op, old, a, b))) return true;
  return may_flush<T>(op, local) && equal_result(op, flush(got), flush(reference(op, flush(old), flush(a), flush(b))));
}

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
  if (test::skip_without_double<T>()) return;
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
    const auto path = test::runtime().device_info().path_of(op_names[op], test::cl_type_name<T>(), local ? "local" : "global");
    INFO((std::string(op_names[op]) + " " + test::cl_type_name<T>() + (local ? " local" : " global") + " on the " +
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
REAL_OPS(SINGLE_TEST)
