// NaN in scatter's min/max (and argmin/argmax, reduce_by_key): propagated by default, as
// torch's amax/amin, written as the positive quiet NaN; missing data under NanRule::missing, as
// NumPy's fmax/fmin, with -0 ordered below +0; on every strategy, in values and in out's own
// values, for float, double and the float outputs of 16-bit values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("float min/max with NanRule::missing: NaN is missing data, -0 orders below +0, in values and in out's own values") {
  auto& rt = test::runtime();
  const auto options = [](bool self, ScatterStrategy s = ScatterStrategy::automatic) {
    ScatterOptions o = ::options(self, s);
    o.nan = NanRule::missing;
    return o;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // bin 0: +0, -0, NaN; bin 1: NaN only; bin 2: 3, NaN, -inf; bin 3: nothing; bin 4: -0, +0.
  const std::vector<cl_uint> indices = {0, 0, 0, 1, 2, 2, 2, 4, 4, 1};
  const std::vector<float> values = {0.0f, -0.0f, nan, nan, 3.0f, nan, -inf, -0.0f, 0.0f, nan};
  const std::vector<float> init = {nan, 5.0f, 1.0f, -2.0f, 0.0f};
  // include_self: out's NaN is missing data too; a bin of NaN values keeps out's value. min on
  // every strategy (the programs of the strategies case).
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache}) {
    INFO(name_of(s));
    std::vector<float> mn = init;
    clatomics::scatter_reduce(rt, mn, indices, values, ScatterOp::min, options(true, s));
    CHECK(test::bits(mn[0]) == test::bits(-0.0f));
    CHECK(mn[1] == 5.0f);
    CHECK(mn[2] == -inf);
    CHECK(mn[3] == -2.0f);
    CHECK(test::bits(mn[4]) == test::bits(-0.0f));
  }
  std::vector<float> mn = init, mx = init;
  clatomics::scatter_reduce(rt, mx, indices, values, ScatterOp::max, options(true));
  CHECK(test::bits(mx[0]) == test::bits(0.0f));
  CHECK(mx[1] == 5.0f);
  CHECK(mx[2] == 3.0f);
  CHECK(mx[3] == -2.0f);
  CHECK(test::bits(mx[4]) == test::bits(0.0f));
  // Without self: the values alone; NaN only where every value is NaN (as reduce gives it).
  mn = init, mx = init;
  clatomics::scatter_reduce(rt, mn, indices, values, ScatterOp::min, options(false));
  clatomics::scatter_reduce(rt, mx, indices, values, ScatterOp::max, options(false));
  CHECK(test::bits(mn[0]) == test::bits(-0.0f));
  CHECK(test::bits(mx[0]) == test::bits(0.0f));
  CHECK(std::isnan(mn[1]));
  CHECK(std::isnan(mx[1]));
  CHECK(mn[2] == -inf);
  CHECK(mx[2] == 3.0f);
  CHECK(mn[3] == -2.0f);
  CHECK(mx[3] == -2.0f);
  CHECK(test::bits(mn[4]) == test::bits(-0.0f));
  CHECK(test::bits(mx[4]) == test::bits(0.0f));
}

// ---- NaN in min/max: propagated by default (torch's amax/amin), missing data on request --------

namespace {

template <class T>
T from_bits(std::uint64_t u) {
  T t;
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t w = std::uint32_t(u);
    std::memcpy(&t, &w, 4);
  } else {
    std::memcpy(&t, &u, 8);
  }
  return t;
}
// The NaN every propagated NaN result is written as: the positive quiet NaN.
template <class T>
T written_nan() {
  return from_bits<T>(sizeof(T) == 4 ? 0x7fc00000u : 0x7ff8000000000000ull);
}

ScatterOptions nan_options(NanRule rule, bool include_self, ScatterStrategy s = ScatterStrategy::automatic, bool deterministic = false) {
  ScatterOptions o = options(include_self, s, deterministic);
  o.nan = rule;
  return o;
}

// got against want bit for bit, but for a want of NaN under NanRule::missing: any NaN.
template <class T>
void check_nan_out(const std::vector<T>& got, const std::vector<T>& want, NanRule rule, const std::string& what) {
  REQUIRE(got.size() == want.size());
  for (std::size_t b = 0; b < got.size(); ++b) {
    INFO(what, ", bin ", b, ": expected ", show(want[b]), " (bits ", test::bits(want[b]), "), got ", show(got[b]), " (bits ",
         test::bits(got[b]), ")");
    if (rule == NanRule::missing && std::isnan(want[b])) CHECK(std::isnan(got[b]));
    else CHECK(test::bits(got[b]) == test::bits(want[b]));
  }
}

// By hand: bin 0: +0, -0, NaN (out NaN); bin 1: NaN and a negative NaN only; bin 2: 3, NaN,
// -inf; bin 3: nothing; bin 4: -0, +0; bin 5: 7 into out's own negative NaN of odd payload; bin 6:
// 2, -1; bin 7: nothing, out that odd NaN (kept bit for bit under both rules).
template <class T>
void nan_by_hand() {
  if (test::skip_without_double<T>()) return;
  auto& rt = test::runtime();
  const T inf = std::numeric_limits<T>::infinity(), N = written_nan<T>(), z = T(0), nz = T(-0.0);
  const T odd = from_bits<T>(sizeof(T) == 4 ? 0xffc00123u : 0xfff8000000000123ull);
  const std::vector<cl_uint> indices = {0, 0, 0, 1, 2, 2, 2, 4, 4, 1, 5, 6, 6};
  const std::vector<T> values = {z, nz, N, N, 3, N, -inf, nz, z, -N, 7, 2, -1};
  const std::vector<T> init = {N, 5, 1, -2, z, odd, 4, odd};
  struct Case {
    NanRule rule;
    bool self;
    std::vector<T> min, max;
  };
  const std::vector<Case> cases = {
      {NanRule::propagate, true, {N, N, N, -2, nz, N, -1, odd}, {N, N, N, -2, z, N, 4, odd}},
      {NanRule::propagate, false, {N, N, N, -2, nz, 7, -1, odd}, {N, N, N, -2, z, 7, 2, odd}},
      {NanRule::missing, true, {nz, 5, -inf, -2, nz, 7, -1, odd}, {z, 5, 3, -2, z, 7, 4, odd}},
      {NanRule::missing, false, {nz, N, -inf, -2, nz, 7, -1, odd}, {z, N, 3, -2, z, 7, 2, odd}},
  };
  for (const Case& c : cases)
    for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                    ScatterStrategy::local_cache})
      for (const ScatterOp op : {ScatterOp::min, ScatterOp::max}) {
        std::ostringstream w;
        w << type_name<T>() << " " << op_name(op) << (c.rule == NanRule::propagate ? ", propagate" : ", missing")
          << (c.self ? ", include_self" : ", without self") << ", " << name_of(s);
        std::vector<T> out = init;
        const auto r = clatomics::scatter_reduce(rt, out, indices, values, op, nan_options(c.rule, c.self, s));
        check_nan_out(out, op == ScatterOp::min ? c.min : c.max, c.rule, w.str());
        if (s != ScatterStrategy::automatic) CHECK(r.strategy == s);
      }
  // The default is propagate; deterministic mode gives the same (min/max are exact either way),
  // and views at offsets the same.
  for (const bool self : {true, false}) {
    std::vector<T> dflt = init, det = init;
    ScatterOptions o;
    o.include_self = self;
    clatomics::scatter_reduce(rt, dflt, indices, values, ScatterOp::max, o);
    o.deterministic = true;
    clatomics::scatter_reduce(rt, det, indices, values, ScatterOp::max, o);
    check_nan_out(dflt, cases[self ? 0 : 1].max, NanRule::propagate, "the default rule");
    check_nan_out(det, cases[self ? 0 : 1].max, NanRule::propagate, "deterministic");
    std::vector<T> padded(2, T(9));
    padded.insert(padded.end(), init.begin(), init.end());
    std::vector<cl_uint> pi(3, 0);
    pi.insert(pi.end(), indices.begin(), indices.end());
    const cl::Buffer dout = device(padded);
    scatter_ranges<T, cl_uint>(rt, dout, 2, init.size(), device(pi), 3, device(values), 0, values.size(), ScatterOp::min,
                                          nan_options(NanRule::propagate, self));
    const auto got = test::to_host<T>(rt, dout, padded.size());
    check_nan_out(std::vector<T>(got.begin() + 2, got.end()), cases[self ? 0 : 1].min, NanRule::propagate, "buffers at offsets");
    CHECK(got[0] == T(9));
  }
}

// Many values on few bins (every strategy's atomics meet): NaN (positive and negative) in every
// third bin only, out's own NaN in bin 1 and 2.
template <class T>
void nan_many() {
  if (test::skip_without_double<T>()) return;
  auto& rt = test::runtime();
  const std::size_t bins = 61, n = 200003;
  std::mt19937_64 gen(11);
  std::vector<cl_uint> indices(n);
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    indices[i] = cl_uint(gen() % (bins + 2));  // some out of range
    values[i] = T(std::ldexp(double(std::int64_t(gen() % 2001) - 1000), int(gen() % 20) - 10));
    if (indices[i] % 3 == 0 && gen() % 500 == 0) values[i] = (gen() & 1) ? -written_nan<T>() : written_nan<T>();
  }
  std::vector<T> init(bins);
  for (std::size_t b = 0; b < bins; ++b) init[b] = T(int(b % 11) - 5);
  init[1] = written_nan<T>(), init[2] = -written_nan<T>();
  for (const ScatterOp op : {ScatterOp::min, ScatterOp::max})
    for (const bool self : {true, false}) {
      std::vector<T> want = init;
      std::vector<int> reached(bins, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t b = indices[i];
        if (b >= bins) continue;
        const T v = values[i];
        T& a = want[b];
        if (!reached[b]++ && !self) a = v;
        else if (std::isnan(a) || std::isnan(v)) a = written_nan<T>();
        else a = op == ScatterOp::min ? test::ref_min(a, v) : test::ref_max(a, v);
      }
      for (std::size_t b = 0; b < bins; ++b)
        if (reached[b] && std::isnan(want[b])) want[b] = written_nan<T>();
      CHECK(std::isnan(want[0]));
      for (const ScatterStrategy s : forced_strategies) {
        std::ostringstream w;
        w << "many " << type_name<T>() << " " << op_name(op) << (self ? ", include_self" : ", without self") << ", " << name_of(s);
        std::vector<T> out = init;
        clatomics::scatter_reduce(rt, out, indices, values, op, nan_options(NanRule::propagate, self, s));
        check_nan_out(out, want, NanRule::propagate, w.str());
      }
    }
}

// argmin/argmax with NaN: bin 0: 1, NaN, NaN (positions 0, 1, 2); bin 1: 5, 2; bin 2: 3 into out's
// own NaN.
template <class T>
void nan_arg() {
  if (test::skip_without_double<T>()) return;
  auto& rt = test::runtime();
  const T N = written_nan<T>();
  const std::vector<cl_uint> indices = {0, 0, 0, 1, 1, 2};
  const std::vector<T> values = {1, N, -N, 5, 2, 3};
  const cl_ulong count = values.size();
  for (const bool self : {true, false}) {
    const std::vector<T> init = {0, 0, N};
    std::vector<T> out = init;
    auto arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::max, nan_options(NanRule::propagate, self));
    // A NaN value wins: the lowest NaN's position. Bin 2 with self: out's own NaN won (count).
    check_nan_out(out, {N, 5, self ? N : T(3)}, NanRule::propagate, "argmax, propagate");
    CHECK(arg == std::vector<cl_ulong>{1, 3, self ? count : 5});
    out = init;
    arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, nan_options(NanRule::propagate, self));
    check_nan_out(out, {N, self ? T(0) : T(2), self ? N : T(3)}, NanRule::propagate, "argmin, propagate");
    CHECK(arg == std::vector<cl_ulong>{1, self ? count : 4, self ? count : 5});
    // missing: NaN values never win.
    out = init;
    arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::max, nan_options(NanRule::missing, self));
    check_nan_out(out, {1, 5, 3}, NanRule::missing, "argmax, missing");
    CHECK(arg == std::vector<cl_ulong>{0, 3, 5});
  }
}

}  // namespace

TEST_CASE("float and double min/max propagate NaN by default, as torch's amax/amin; NanRule::missing keeps NumPy's fmax rule") {
  nan_by_hand<float>();
  nan_by_hand<double>();
}

TEST_CASE("propagated NaN on many values and few bins, every strategy") {
  nan_many<float>();
  nan_many<double>();
}

TEST_CASE("half and bfloat16 min/max propagate NaN into their float outputs") {
  auto& rt = test::runtime();
  const float N = written_nan<float>();
  std::vector<float> out = {0, 0};
  clatomics::scatter_reduce(rt, out, std::vector<cl_uint>{0, 0, 1}, std::vector<half_t>{{0x3c00}, {0x7e00}, {0x4000}}, ScatterOp::max);
  CHECK(test::bits(out[0]) == test::bits(N));
  CHECK(out[1] == 2.0f);
  out = {0, 0};
  clatomics::scatter_reduce(rt, out, std::vector<cl_ulong>{1, 0, 1}, std::vector<bfloat16_t>{{0xffc0}, {0xbf80}, {0x4000}}, ScatterOp::min);
  CHECK(out[0] == -1.0f);
  CHECK(test::bits(out[1]) == test::bits(N));
}

TEST_CASE("argmin/argmax with NaN: under propagate the lowest NaN's position wins") {
  nan_arg<float>();
  nan_arg<double>();
}

TEST_CASE("reduce_by_key min/max follow the NaN rule") {
  auto& rt = test::runtime();
  const float N = written_nan<float>();
  const std::vector<cl_uint> keys = {1, 1, 1, 2, 2, 3};
  const std::vector<float> values = {4, N, 2, 7, 8, N};
  const auto prop = clatomics::reduce_by_key(rt, keys, values, ScatterOp::max);
  CHECK(prop.first == std::vector<cl_uint>{1, 2, 3});
  check_nan_out(prop.second, {N, 8, N}, NanRule::propagate, "reduce_by_key max, propagate");
  ScatterOptions missing;
  missing.nan = NanRule::missing;
  const auto fmax = clatomics::reduce_by_key(rt, keys, values, ScatterOp::max, missing);
  check_nan_out(fmax.second, {4, 8, N}, NanRule::missing, "reduce_by_key max, missing");
  CHECK(clatomics::reduce_by_key(rt, std::vector<cl_uint>{}, std::vector<float>{}, ScatterOp::max).first.empty());
}

