// What the registry's entries (tests/algorithms/<name>.cpp) share, whatever their kin.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "algorithm_cases.hpp"

namespace test::algorithms {

// Integers in [lo, hi] as floats: every sum, dot and weighted bin of them is exact in any order.
inline std::vector<float> small_floats(std::size_t n, std::mt19937& gen, int lo, int hi) {
  std::vector<float> v(n);
  for (auto& e : v) e = float(lo + int(gen() % unsigned(hi - lo + 1)));
  return v;
}
inline std::vector<cl_uint> below(std::size_t n, std::mt19937& gen, std::size_t bound) {
  std::vector<cl_uint> v(n);
  for (auto& e : v) e = bound ? cl_uint(gen() % bound) : 0u;
  return v;
}
// reach_kernels' data: small integers, negative and positive, as floats.
inline std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i % 97) - 40.0f;
  return v;
}
// An output's contents before a call: a pattern no result has.
inline Bytes poison(std::size_t bytes) { return Bytes(bytes, 0xA5); }

// The output at r holds want in its first elements and, after them, the bits it held before.
template <class T>
void check_output(const clatomics::Runtime& rt, const Range& r, const Bytes& before, const std::vector<T>& want) {
  const Bytes now = read(rt, r, sizeof(T));
  REQUIRE(want.size() <= r.count);
  CHECK(as<T>(Bytes(now.begin(), now.begin() + std::ptrdiff_t(want.size() * sizeof(T)))) == want);
  CHECK(Bytes(now.begin() + std::ptrdiff_t(want.size() * sizeof(T)), now.end()) ==
        Bytes(before.begin() + std::ptrdiff_t(want.size() * sizeof(T)), before.end()));
}

// A call the library must refuse for its own arguments (Algorithm::refusals), saying `says`.
inline Call refusal(std::string what, std::string says, std::function<void(clatomics::Runtime&, const Ranges&)> call) {
  Call c;
  c.what = std::move(what);
  c.says = std::move(says);
  c.valid = false;
  c.run = [call](clatomics::Runtime& rt, const Ranges& r, const Contents*) { call(rt, r); };
  return c;
}
// An invalid call of an entry's own making, saying `says` when refused.
inline Call saying(Call c, std::string says) {
  c.says = std::move(says);
  return c;
}
// The range with one element more: a view whose length does not fit the others.
inline Range longer(Range r) {
  ++r.count;
  return r;
}

inline bool int64_atomics(const clatomics::Runtime& rt) { return rt.device_info().caps.int64_base_atomics; }

}  // namespace test::algorithms
