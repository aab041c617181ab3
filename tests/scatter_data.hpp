// The scatter tests' data, made on the host: the output type of each value type, 16-bit values
// decoded and encoded exactly, values whose results the reference knows (exactly, or within a
// stated bound), the junk and sentinels that must stay unread and untouched, and indices of every
// distribution.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/scatter.hpp"
#include "support.hpp"

namespace scatter_test {

using clatomics::bfloat16_t;
using clatomics::half_t;
using clatomics::ScatterOp;
// The outputs these tests check: the values' type, and float for 16-bit values (accumulated in
// float, unrounded: the second choice scatter.hpp offers; test_scatter16.cpp checks the 16-bit
// outputs rounded once).
template <class V>
using Out = std::conditional_t<std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>, float, V>;

inline constexpr std::size_t none = std::numeric_limits<std::size_t>::max();  // an element no bin receives

template <class V>
const char* type_name() {
  if constexpr (std::is_same_v<V, half_t>) return "half";
  else if constexpr (std::is_same_v<V, bfloat16_t>) return "bfloat16";
  else return test::cl_type_name<V>();
}

// ---- 16-bit values, decoded and encoded exactly on the host --------------------------------

inline float from_half(cl_ushort h) {
  const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  float v;
  if (exponent == 0) v = std::ldexp(float(fraction), -24);
  else if (exponent == 31) v = fraction ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(float(fraction | 0x400), exponent - 25);
  return (h & 0x8000) ? -v : v;
}
// f must be a half value exactly (the tests' data are): anything else is a bug in the test.
inline cl_ushort to_half(float f) {
  const float a = std::fabs(f);
  cl_ushort h = 0;
  if (std::isinf(a)) h = 0x7c00;
  else if (a != 0) {
    int e;
    (void)std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1)
    if (e - 1 < -14) h = cl_ushort(std::ldexp(a, 24));
    else h = cl_ushort(((e + 14) << 10) | (int(std::ldexp(a, 11 - e)) & 0x3ff));
  }
  if (std::signbit(f)) h = cl_ushort(h | 0x8000);
  if (test::bits(from_half(h)) != test::bits(f)) throw std::logic_error("test data: not a half value: " + std::to_string(f));
  return h;
}
inline float from_bf16(cl_ushort b) { return test::from_bits<float>(std::uint32_t(b) << 16); }
inline cl_ushort to_bf16(float f) {
  const std::uint32_t u = test::bits(f);
  if (u & 0xffff) throw std::logic_error("test data: not a bfloat16 value: " + std::to_string(f));
  return cl_ushort(u >> 16);
}

// A value as the library reads it (16-bit values as float), and the V holding a given value.
template <class V>
Out<V> widen(V v) {
  if constexpr (std::is_same_v<V, half_t>) return from_half(v.bits);
  else if constexpr (std::is_same_v<V, bfloat16_t>) return from_bf16(v.bits);
  else return v;
}
template <class V>
V narrow(Out<V> x) {
  if constexpr (std::is_same_v<V, half_t>) return half_t{to_half(x)};
  else if constexpr (std::is_same_v<V, bfloat16_t>) return bfloat16_t{to_bf16(x)};
  else return x;
}

// Equal as results: the same integer, the same bits, or both NaN.
template <class O>
bool same(O a, O b) {
  if constexpr (std::is_integral_v<O>) return a == b;
  else return (std::isnan(a) && std::isnan(b)) || test::bits(a) == test::bits(b);
}
template <class O>
bool same(const std::vector<O>& a, const std::vector<O>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!same(a[k], b[k])) return false;
  return true;
}

template <class O>
std::string show(O v) {
  std::ostringstream s;
  if constexpr (std::is_floating_point_v<O>) s.precision(std::numeric_limits<O>::max_digits10);
  s << v;
  return s.str();
}

// ---- Data ------------------------------------------------------------------------------------

// Values for op whose results the reference knows exactly in any order of evaluation: integers
// anything (sums and products wrap; products of odd numbers, so that they do not become 0; means
// small, so that the sum stays in range); floating-point sums and means small integers (every
// partial sum of 2^20 of them is exact in float), products +-1 with at most 60 twos, 60 halves
// and 10 of 1.5 (every partial product is exact), min/max any finite value of the type, zeros of
// both signs among them.
template <class V>
Out<V> minmax_value(std::mt19937_64& gen) {
  using O = Out<V>;
  if (gen() % 32 == 0) return (gen() & 1) ? O(0.0) : O(-0.0);
  if constexpr (std::is_same_v<V, half_t>) {
    cl_ushort h;
    do h = cl_ushort(gen());
    while ((h & 0x7c00) == 0x7c00);
    return from_half(h);
  } else if constexpr (std::is_same_v<V, bfloat16_t>) {
    cl_ushort b;
    do b = cl_ushort(gen());
    while ((b & 0x7f80) == 0x7f80);
    return from_bf16(b);
  } else {
    std::uniform_real_distribution<O> unit(-1, 1);
    return std::ldexp(unit(gen), int(gen() % 60) - 30);
  }
}

template <class V>
std::vector<V> make_values(std::size_t n, ScatterOp op, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<V> x(n);
  if constexpr (std::is_integral_v<V>) {
    for (auto& v : x) {
      v = V(gen());
      if (op == ScatterOp::prod) v = V(v | 1);
      if (op == ScatterOp::mean) v = std::is_signed_v<V> ? V(int(gen() % 2001) - 1000) : V(gen() % 2001);
    }
  } else {
    using O = Out<V>;
    for (auto& v : x) {
      if (op == ScatterOp::sum || op == ScatterOp::mean) v = narrow<V>(O(int(gen() % 17) - 8));
      else if (op == ScatterOp::prod) v = narrow<V>((gen() & 1) ? O(1) : O(-1));
      else v = narrow<V>(minmax_value<V>(gen));
    }
    if (op == ScatterOp::prod && n)
      for (std::size_t k = 0; k < 130; ++k) x[gen() % n] = narrow<V>(k < 60 ? O(2) : k < 120 ? O(0.5) : O(1.5));
  }
  return x;
}

// out's own values for op, by the same rules (out is float for 16-bit values: any float).
template <class O>
std::vector<O> make_init(std::size_t n, ScatterOp op, unsigned seed) {
  std::mt19937_64 gen(seed * 31 + 7);
  std::vector<O> x(n);
  for (auto& v : x) {
    if constexpr (std::is_integral_v<O>) {
      v = O(gen());
      if (op == ScatterOp::prod) v = O(v | 1);
      if (op == ScatterOp::mean) v = std::is_signed_v<O> ? O(int(gen() % 2001) - 1000) : O(gen() % 2001);
    } else {
      const O prods[] = {O(1), O(-1), O(2), O(0.5)};
      if (op == ScatterOp::sum || op == ScatterOp::mean) v = O(int(gen() % 17) - 8);
      else if (op == ScatterOp::prod) v = prods[gen() % 4];
      else v = minmax_value<O>(gen);
    }
  }
  return x;
}

// Values that round when summed: random significands at magnitudes 2^-10 .. 2^10, a quarter of
// them negative, in V.
template <class V>
std::vector<V> rounding_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<V> x(n);
  for (auto& v : x) {
    const bool negative = gen() % 4 == 0;
    const int e = int(gen() % 21) - 10;  // 2^e <= |v| < 2^(e + 1)
    if constexpr (std::is_same_v<V, half_t>) v.bits = cl_ushort((negative ? 0x8000 : 0) | ((e + 15) << 10) | (gen() & 0x3ff));
    else if constexpr (std::is_same_v<V, bfloat16_t>) v.bits = cl_ushort((negative ? 0x8000 : 0) | ((e + 127) << 7) | (gen() & 0x7f));
    else {
      std::uniform_real_distribution<V> unit(1, 2);
      v = std::ldexp(unit(gen), e) * (negative ? -1 : 1);
    }
  }
  return x;
}

// Junk where the library must not read (rows' padding, before an offset): extremes, which would
// change any op's result.
template <class V>
V junk(std::size_t k) {
  if constexpr (std::is_same_v<V, half_t>) return half_t{cl_ushort(k & 1 ? 0x7bff : 0xfbff)};
  else if constexpr (std::is_same_v<V, bfloat16_t>) return bfloat16_t{cl_ushort(k & 1 ? 0x7f7f : 0xff7f)};
  else if constexpr (std::is_integral_v<V>) return k & 1 ? std::numeric_limits<V>::max() : std::numeric_limits<V>::min();
  else return k & 1 ? std::numeric_limits<V>::max() : -std::numeric_limits<V>::max();
}
// What output padding holds, and must hold afterwards.
template <class O>
O sentinel() {
  if constexpr (std::is_integral_v<O>) return O(0x5EADBEEFu);
  else return O(-12345.5);
}

enum class Dist { one_bin, uniform, sorted, zipf };
inline const Dist all_dists[] = {Dist::one_bin, Dist::uniform, Dist::sorted, Dist::zipf};
inline std::string dist_name(Dist d) {
  const char* names[] = {"one bin", "uniform", "sorted", "zipf"};
  return names[int(d)];
}

// n indices over bins: all in the last bin, uniform, uniform and sorted, or skewed (P(b) falls
// like a power of 1/b: about 60 % of the elements in the first 16 bins of 500000, the rest
// spread over all). oor64 of every 64 are out of range (>= bins): just past the end, the type's
// largest value, and for 64-bit indices 2^32 + a bin (in range if truncated to 32 bits).
template <class I>
std::vector<I> make_indices(std::size_t n, std::size_t bins, Dist dist, unsigned seed, unsigned oor64 = 0) {
  std::mt19937_64 gen(seed * 17 + 3);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<I> idx(n);
  for (auto& k : idx) {
    if (dist == Dist::one_bin) k = I(bins - 1);
    else if (dist == Dist::zipf) {
      const double u = unit(gen);
      k = I(std::min<std::size_t>(bins - 1, std::size_t(std::pow(double(bins), u * u * u)) - 1));
    } else k = I(gen() % bins);
    if (oor64 && gen() % 64 < oor64) {
      const unsigned pick = unsigned(gen() % 3);
      if (pick == 0) k = I(bins + gen() % 3);
      else if (pick == 1) k = std::numeric_limits<I>::max();
      else k = sizeof(I) == 8 ? I((std::uint64_t(1) << 32) + gen() % bins) : I(bins + gen() % 1000);
    }
  }
  if (dist == Dist::sorted) std::sort(idx.begin(), idx.end());
  return idx;
}

}  // namespace scatter_test
