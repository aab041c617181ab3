// half and bfloat16 on the host, for the tests: every value of a format (its ladder of
// magnitudes) and an independent reference rounding (nearest value by search, ties to the even
// pattern), shared by test_half.cpp (the device's conversions) and test_scatter16.cpp (16-bit
// scatter outputs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "support.hpp"

namespace test {

// One 16-bit format: its exact values and the reference rounding.
struct Format {
  const char* name;      // "half", "bf16"
  std::uint16_t inf;     // bits of +inf
  std::uint16_t nan_sentinel;  // a signalling NaN with a payload, for untouched neighbours
  std::size_t exact_ints;      // integers up to this are exact
  std::vector<double> ladder;  // values of 0 .. inf-1, and at [inf] the next power past the max

  double value(std::uint16_t bits) const {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const std::uint16_t mag = bits & 0x7fff;
    if (mag > inf) return std::numeric_limits<double>::quiet_NaN();
    if (mag == inf) return sign * std::numeric_limits<double>::infinity();
    return sign * ladder[mag];
  }
  // Round a double (exact or already within half an ulp of the format's precision) to nearest even.
  std::uint16_t round(double x) const {
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double ax = std::fabs(x);
    if (std::isnan(x)) return 0x7fff;
    if (ax >= ladder[inf]) return sign | inf;
    const auto hi = std::size_t(std::upper_bound(ladder.begin(), ladder.end(), ax) - ladder.begin());
    const std::size_t lo = hi - 1;
    if (ladder[lo] == ax) return std::uint16_t(sign | lo);
    const double below = ax - ladder[lo], above = ladder[hi] - ax;
    const std::size_t pick = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
    return std::uint16_t(sign | pick);
  }
  bool is_nan(std::uint16_t bits) const { return (bits & 0x7fff) > inf; }
  // A subnormal becomes the zero of its sign (the exponent bits are those of inf).
  std::uint16_t flush(std::uint16_t bits) const {
    return (bits & inf) == 0 && (bits & 0x7fff) != 0 ? std::uint16_t(bits & 0x8000) : bits;
  }
};

inline const Format& half_format() {
  static const Format f = [] {
    Format h{"half", 0x7c00, 0x7d01, 2048, {}};
    for (int b = 0; b < 0x7c00; ++b) {
      const int e = b >> 10, m = b & 0x3ff;
      h.ladder.push_back(e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), e - 25));
    }
    h.ladder.push_back(65536.0);
    return h;
  }();
  return f;
}
inline const Format& bf16_format() {
  static const Format f = [] {
    Format b{"bf16", 0x7f80, 0x7f81, 256, {}};
    for (std::uint32_t bits = 0; bits < 0x7f80; ++bits) b.ladder.push_back(double(test::from_bits<float>(bits << 16)));
    b.ladder.push_back(std::ldexp(1.0, 128));
    return b;
  }();
  return f;
}

// float <-> 16-bit patterns: exact to float, nearest even (a NaN as 0x7fff) from float.
inline float half_to_float(std::uint16_t bits) { return float(half_format().value(bits)); }
inline float bf16_to_float(std::uint16_t bits) { return float(bf16_format().value(bits)); }
inline std::uint16_t float_to_half(float f) { return half_format().round(double(f)); }
inline std::uint16_t float_to_bf16(float f) { return bf16_format().round(double(f)); }

}  // namespace test
