// A host model of scatter_reduce's deterministic float sum, bit for bit: the grid the device
// chooses (the largest exponent of 4096 evenly spaced values, 8 to spare, or of all values when one
// lies above that), each finite value rounded to the grid in 128-bit integers, the exact sum
// rounded once (kernels/scatter_fixed.cl, scatter_finish.cl), NaN and infinities as flags.
// Whatever path a value takes on the device, its sum must come out as this model's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace scatter_test {

struct FixedModel {
  __extension__ typedef __int128 I128;  // GCC and Clang
  __extension__ typedef unsigned __int128 U128;

  static std::uint32_t bits_of(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  }
  static int exponent(float v) { return int((bits_of(v) >> 23) & 0xff); }
  // The biased double exponent of a float, as clat_scatter_top reads it.
  static int double_exponent(float v) {
    const double d = v;
    std::uint64_t u;
    std::memcpy(&u, &d, 8);
    return int((u >> 52) & 0x7ff);
  }
  // round(v / 2^e_grid), ties to even, as 128 bits.
  static I128 fixed(float v, int e_grid) {
    const std::uint32_t u = bits_of(v);
    const int e = exponent(v);
    const std::uint64_t m = (u & 0x7fffffu) | (e ? 0x800000u : 0u);
    const int s = (e ? e : 1) - 150 - e_grid;
    U128 q;
    if (s >= 0) q = U128(m) << s;
    else if (-s > 40) q = 0;  // below half a step
    else {
      const int r = -s;
      const std::uint64_t lo = m >> r, rest = m & ((std::uint64_t(1) << r) - 1), tie = std::uint64_t(1) << (r - 1);
      q = lo + ((rest > tie || (rest == tie && (lo & 1))) ? 1 : 0);
    }
    return (u >> 31) ? -I128(q) : I128(q);
  }
  // The 128-bit sum rounded once: its top 64 bits with a sticky bit, to float, scaled.
  static float round_fixed(I128 sum, int e_grid) {
    const bool neg = sum < 0;
    const U128 mag = neg ? U128(-sum) : U128(sum);
    const std::uint64_t hi = std::uint64_t(mag >> 64), lo = std::uint64_t(mag);
    std::uint64_t top = lo;
    int shift = 0;
    if (hi) {
      int lz = 0;
      while (!((hi << lz) >> 63)) ++lz;
      top = lz ? (hi << lz) | (lo >> (64 - lz)) : hi;
      top |= (lz ? lo << lz : lo) != 0 ? 1 : 0;
      shift = 64 - lz;
    }
    const float m = std::ldexp(float(top), e_grid + shift);
    return neg ? -m : m;
  }

  // out[idx[i] * width + d] += values[i * width + d] for idx[i] < out.size() / width (rows of
  // width, contiguous), deterministic, include_self or not.
  static std::vector<float> sum(std::vector<float> out, const std::vector<std::uint32_t>& idx, const std::vector<float>& values,
                                bool include_self, std::size_t width = 1) {
    const std::size_t n = idx.size(), bins = out.size() / width, rows = std::min<std::size_t>(4096, n), stride = n / rows;
    int top = 0;
    for (std::size_t j = 0; j < rows; ++j)
      for (std::size_t d = 0; d < width; ++d)
        if (std::isfinite(values[j * stride * width + d])) top = std::max(top, double_exponent(values[j * stride * width + d]));
    top = std::max(top, 896) + 8;
    const auto keep = [&] { return std::min(top - 896, 254); };
    bool above = false;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t d = 0; d < width; ++d)
        if (idx[i] < bins && std::isfinite(values[i * width + d]) && exponent(values[i * width + d]) > keep()) above = true;
    if (above) {
      top = 0;
      for (float v : values)
        if (std::isfinite(v)) top = std::max(top, double_exponent(v));
      top = std::max(top, 896);
    }
    int bits = 0;
    for (std::uint64_t c = std::uint64_t(n) + 1; c; c >>= 1) ++bits;
    const int e_grid = top - 1022 + bits - 126;
    std::vector<I128> sums(out.size());
    std::vector<unsigned> flags(out.size()), counts(bins);
    for (std::size_t i = 0; i < n; ++i) {
      if (idx[i] >= bins) continue;
      ++counts[idx[i]];
      for (std::size_t d = 0; d < width; ++d) {
        const float v = values[i * width + d];
        const std::size_t slot = idx[i] * width + d;
        if (std::isnan(v)) flags[slot] |= 1;
        else if (std::isinf(v)) flags[slot] |= v > 0 ? 2 : 4;
        else sums[slot] += fixed(v, e_grid);
      }
    }
    for (std::size_t slot = 0; slot < out.size(); ++slot) {
      if (!include_self && !counts[slot / width]) continue;  // counts kept: a bin nothing reached keeps its value
      I128 s = sums[slot];
      const float self = include_self ? out[slot] : 0.0f;
      bool apart = false;
      if (include_self) {
        if (exponent(self) <= keep()) s += fixed(self, e_grid);
        else apart = true;
      }
      float r;
      if ((flags[slot] & 1) || (flags[slot] & 6) == 6) r = NAN;
      else if (flags[slot] & 2) r = INFINITY;
      else if (flags[slot] & 4) r = -INFINITY;
      else if (include_self && self != 0.0f && sums[slot] == 0) r = self, apart = false;
      else r = round_fixed(s, e_grid);
      out[slot] = apart ? self + r : r;
    }
    return out;
  }
};

}  // namespace scatter_test
