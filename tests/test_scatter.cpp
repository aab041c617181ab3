// Scatter-reduce (scatter_reduce, scatter_reduce_arg), segment_reduce and reduce_by_key against
// one host reference model (reference() below, used by every case): every op and value type
// with both index types and with and without include_self; all-in-one-bin, uniform, sorted and
// skewed indices at sizes 0, 1, a prime and larger than a launch's tile; rows with strides and
// padding through buffers at offsets; every forced strategy against the automatic one; the
// deterministic sums and means (the same bits on every run, strategy and launch size, within an
// ulp of the exact sum; IEEE infinities and NaN); argmin/argmax ties; indices out of range
// counted or refused; CSR segments; runs of keys; host data in many small launches; bad input
// refused before anything is enqueued with the output untouched. The matrix is chosen for the
// programs it builds on PoCL (see "The cases" below).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/scatter.hpp"
#include "scatter_calls.hpp"
#include "support.hpp"

namespace {

using clatomics::bfloat16_t;
using clatomics::half_t;
using clatomics::NanRule;
using clatomics::OutOfRange;
using clatomics::Rows;
using clatomics::ScatterOp;
using clatomics::ScatterOptions;
using clatomics::ScatterResult;
using clatomics::ScatterStrategy;
// The outputs these tests check: the values' type, and float for 16-bit values (accumulated in
// float, unrounded: the second choice scatter.hpp offers; test_scatter16.cpp checks the 16-bit
// outputs rounded once).
template <class V>
using Out = std::conditional_t<std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>, float, V>;

const ScatterOp all_ops[] = {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean};
const ScatterStrategy forced_strategies[] = {ScatterStrategy::global_atomics, ScatterStrategy::local_private, ScatterStrategy::local_cache};
constexpr std::size_t none = std::numeric_limits<std::size_t>::max();  // an element no bin receives

using test::op_name;
std::string name_of(ScatterStrategy s) { return clatomics::strategy_name(s); }
template <class V>
const char* type_name() {
  if constexpr (std::is_same_v<V, half_t>) return "half";
  else if constexpr (std::is_same_v<V, bfloat16_t>) return "bfloat16";
  else return test::cl_type_name<V>();
}

using test::options;

// Buffer ranges as the entry points' views, so that one test reaches a range by offset and
// count whatever the layout: `rows` rows of `width` a `stride` apart (0: the width) from
// `offset`, the last row its width only. A size that overflows saturates, so that the call
// refuses it as a view beyond its buffer.
template <class T>
clatomics::View<T> rows_view(const cl::Buffer& b, std::size_t offset, std::size_t rows, std::size_t width = 1, std::size_t stride = 0) {
  const std::size_t step = stride ? stride : width;
  std::size_t count = 0;
  if (rows && width) count = rows - 1 > (none - width) / step ? none : (rows - 1) * step + width;
  return clatomics::view<T>(b, offset, count);
}
template <class V, class I>
ScatterResult scatter_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& indices,
                             std::size_t indices_offset, const cl::Buffer& values, std::size_t values_offset, std::size_t count, ScatterOp op,
                             ScatterOptions o = {}, Rows rows = {}) {
  return clatomics::scatter_reduce(rt, rows_view<Out<V>>(out, out_offset, bins, rows.width, rows.out_stride),
                                   clatomics::view<I>(indices, indices_offset, count),
                                   rows_view<V>(values, values_offset, count, rows.width, rows.value_stride), op, o, rows);
}
template <class V, class I>
ScatterResult arg_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& arg,
                         std::size_t arg_offset, const cl::Buffer& indices, std::size_t indices_offset, const cl::Buffer& values,
                         std::size_t values_offset, std::size_t count, ScatterOp op, ScatterOptions o = {}) {
  return clatomics::scatter_reduce_arg(rt, clatomics::view<Out<V>>(out, out_offset, bins), clatomics::view<cl_ulong>(arg, arg_offset, bins),
                                       clatomics::view<I>(indices, indices_offset, count), clatomics::view<V>(values, values_offset, count),
                                       op, o);
}
template <class V, class I>
ScatterResult segment_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t segments,
                             const cl::Buffer& offsets, std::size_t offsets_offset, const cl::Buffer& values, std::size_t values_offset,
                             std::size_t count, ScatterOp op, ScatterOptions o = {}, Rows rows = {}) {
  return clatomics::segment_reduce(rt, rows_view<Out<V>>(out, out_offset, segments, rows.width, rows.out_stride),
                                   clatomics::view<I>(offsets, offsets_offset, segments + 1),
                                   rows_view<V>(values, values_offset, count, rows.width, rows.value_stride), op, o, rows);
}
template <class K, class V>
std::size_t by_key_ranges(clatomics::Runtime& rt, const cl::Buffer& keys, std::size_t keys_offset, const cl::Buffer& values,
                          std::size_t values_offset, std::size_t count, const cl::Buffer& unique_keys, std::size_t unique_offset,
                          const cl::Buffer& reductions, std::size_t reductions_offset, ScatterOp op, ScatterOptions o = {}) {
  return clatomics::reduce_by_key(rt, clatomics::view<K>(keys, keys_offset, count), clatomics::view<V>(values, values_offset, count),
                                  clatomics::view<K>(unique_keys, unique_offset, count),
                                  clatomics::view<Out<V>>(reductions, reductions_offset, count), op, o);
}

// Restores the default stream limits however the scope ends.
struct StreamLimits {
  explicit StreamLimits(std::size_t chunk_bytes, std::uint64_t launch_elements) {
    clatomics::testing::set_stream_limits({chunk_bytes, launch_elements});
  }
  ~StreamLimits() { clatomics::testing::set_stream_limits({}); }
  StreamLimits(const StreamLimits&) = delete;
  StreamLimits& operator=(const StreamLimits&) = delete;
};

// ---- 16-bit values, decoded and encoded exactly on the host --------------------------------

float from_half(cl_ushort h) {
  const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  float v;
  if (exponent == 0) v = std::ldexp(float(fraction), -24);
  else if (exponent == 31) v = fraction ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(float(fraction | 0x400), exponent - 25);
  return (h & 0x8000) ? -v : v;
}
// f must be a half value exactly (the tests' data are): anything else is a bug in the test.
cl_ushort to_half(float f) {
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
float from_bf16(cl_ushort b) { return test::from_bits<float>(std::uint32_t(b) << 16); }
cl_ushort to_bf16(float f) {
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
const Dist all_dists[] = {Dist::one_bin, Dist::uniform, Dist::sorted, Dist::zipf};
std::string dist_name(Dist d) {
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

template <class T>
cl::Buffer device(const std::vector<T>& host) {
  std::vector<T> padded = host;
  if (padded.empty()) padded.push_back(T());  // OpenCL has no empty buffers
  return test::to_device(test::runtime(), padded);
}

std::vector<unsigned char> bytes_of(const cl::Buffer& buffer) {
  const std::size_t size = buffer.getInfo<CL_MEM_SIZE>();
  std::vector<unsigned char> b(size);
  test::runtime().queue().enqueueReadBuffer(buffer, CL_TRUE, 0, size, b.data());
  return b;
}

// ---- The host reference model ----------------------------------------------------------------

// What an output buffer must hold afterwards. Integers, min/max and the sums and products of
// exact data: out, bit for bit. Other floating-point results (bound > 0): |got - ref| <= bound,
// ref the long double result. A sum of n terms (out's own value one of them with include_self)
// in any order of float adds: n * eps * sum |terms| ((n - 1) roundings of at most eps/2 of a
// partial sum, and the last); a product: n * eps * |product|; a mean, that sum's bound divided by
// n and one more rounding: eps * (sum |terms| + 2 |mean|).
template <class O>
struct Expected {
  std::vector<O> out;
  std::vector<long double> ref;
  std::vector<double> bound;
  std::uint64_t out_of_range = 0;
};

template <class W>
W floor_div(W a, W b) {  // b > 0
  W q = a / b;
  if constexpr (std::is_signed_v<W>)
    if (a % b != 0 && a < 0) --q;
  return q;
}

// Bin b, column d lives at out[out_offset + b * out_stride + d]; element i's column d at
// values[value_offset + i * value_stride + d] goes to bin bin_of[i] (none: nowhere). Bins that
// receive nothing keep their value; with include_self, a bin's own value is one more term (for
// mean: (self + sum) / (count + 1)); integer sums and products wrap as unsigned arithmetic and
// integer means round toward minus infinity; float min/max as test::ref_min/ref_max.
template <class V>
Expected<Out<V>> reference(const std::vector<Out<V>>& out0, std::size_t out_offset, std::size_t out_stride, std::size_t bins,
                           std::size_t width, const std::vector<std::size_t>& bin_of, const std::vector<V>& values,
                           std::size_t value_offset, std::size_t value_stride, ScatterOp op, bool include_self, bool exact) {
  using O = Out<V>;
  Expected<O> e;
  e.out = out0;
  e.ref.assign(out0.size(), 0);
  e.bound.assign(out0.size(), 0);
  const std::size_t cells = bins * width;
  std::vector<std::uint64_t> n(cells);
  const auto at = [&](std::size_t c) { return out_offset + (c / width) * out_stride + c % width; };
  if constexpr (std::is_integral_v<O>) {
    using U = std::make_unsigned_t<O>;
    using W = std::conditional_t<std::is_signed_v<O>, std::int64_t, std::uint64_t>;
    std::vector<U> acc(cells);
    std::vector<O> best(cells);
    for (std::size_t i = 0; i < bin_of.size(); ++i) {
      if (bin_of[i] == none) continue;
      for (std::size_t d = 0; d < width; ++d) {
        const std::size_t c = bin_of[i] * width + d;
        const O v = values[value_offset + i * value_stride + d];
        if (n[c]++ == 0) {
          acc[c] = U(v), best[c] = v;
          continue;
        }
        if (op == ScatterOp::sum || op == ScatterOp::mean) acc[c] = U(acc[c] + U(v));
        if (op == ScatterOp::prod) acc[c] = U(acc[c] * U(v));
        if (op == ScatterOp::min) best[c] = std::min(best[c], v);
        if (op == ScatterOp::max) best[c] = std::max(best[c], v);
      }
    }
    for (std::size_t c = 0; c < cells; ++c) {
      if (!n[c]) continue;
      const O self = out0[at(c)];
      O r{};
      switch (op) {
        case ScatterOp::sum: r = O(include_self ? U(U(self) + acc[c]) : acc[c]); break;
        case ScatterOp::prod: r = O(include_self ? U(U(self) * acc[c]) : acc[c]); break;
        case ScatterOp::min: r = include_self ? std::min(self, best[c]) : best[c]; break;
        case ScatterOp::max: r = include_self ? std::max(self, best[c]) : best[c]; break;
        case ScatterOp::mean: {  // the sum wraps in O, as the device's does, then floor division
          const O sum = O(include_self ? U(U(self) + acc[c]) : acc[c]);
          r = O(floor_div<W>(W(sum), W(n[c] + include_self)));
          break;
        }
      }
      e.out[at(c)] = r;
    }
  } else {
    const double eps = std::numeric_limits<O>::epsilon();
    std::vector<long double> acc(cells), abs_sum(cells);
    std::vector<O> best(cells);
    for (std::size_t i = 0; i < bin_of.size(); ++i) {
      if (bin_of[i] == none) continue;
      for (std::size_t d = 0; d < width; ++d) {
        const std::size_t c = bin_of[i] * width + d;
        const O v = widen(values[value_offset + i * value_stride + d]);
        if (n[c]++ == 0) {
          acc[c] = v, abs_sum[c] = std::fabs(v), best[c] = v;
          continue;
        }
        if (op == ScatterOp::prod) acc[c] *= v;
        else acc[c] += v;
        abs_sum[c] += std::fabs(v);
        if (op == ScatterOp::min) best[c] = test::ref_min(best[c], v);
        if (op == ScatterOp::max) best[c] = test::ref_max(best[c], v);
      }
    }
    for (std::size_t c = 0; c < cells; ++c) {
      if (!n[c]) continue;
      const std::size_t pos = at(c);
      const O self = out0[pos];
      const double terms = double(n[c] + include_self);
      const long double abs_total = abs_sum[c] + (include_self ? std::fabs(self) : 0);
      switch (op) {
        case ScatterOp::min: e.out[pos] = include_self ? test::ref_min(self, best[c]) : best[c]; break;
        case ScatterOp::max: e.out[pos] = include_self ? test::ref_max(self, best[c]) : best[c]; break;
        case ScatterOp::sum:
          e.ref[pos] = include_self ? self + acc[c] : acc[c];
          e.out[pos] = O(e.ref[pos]);
          if (!exact) e.bound[pos] = double(terms * eps * abs_total);
          break;
        case ScatterOp::prod:
          e.ref[pos] = include_self ? self * acc[c] : acc[c];
          e.out[pos] = O(e.ref[pos]);
          if (!exact) e.bound[pos] = double(terms * eps * std::fabs(e.ref[pos]));
          break;
        case ScatterOp::mean:
          e.ref[pos] = (include_self ? self + acc[c] : acc[c]) / terms;
          e.out[pos] = O(e.ref[pos]);
          e.bound[pos] = double(eps * (abs_total + 2 * std::fabs(e.ref[pos])));
          break;
      }
    }
  }
  for (std::size_t i = 0; i < bin_of.size(); ++i) e.out_of_range += bin_of[i] == none;
  return e;
}

// Compares a whole output buffer with the reference; names the first few wrong elements.
template <class O>
void check_out(const std::vector<O>& got, const Expected<O>& e, const std::string& what) {
  REQUIRE(got.size() == e.out.size());
  std::size_t wrong = 0;
  std::ostringstream first;
  for (std::size_t k = 0; k < got.size(); ++k) {
    bool ok;
    if constexpr (std::is_integral_v<O>) ok = got[k] == e.out[k];
    else if (e.bound[k] > 0) ok = std::fabs((long double)got[k] - e.ref[k]) <= e.bound[k];
    else ok = same(got[k], e.out[k]);
    if (ok || wrong++ >= 5) continue;
    first << "\n  [" << k << "] expected " << show(e.out[k]);
    if constexpr (!std::is_integral_v<O>)
      if (e.bound[k] > 0) first << " (+- " << e.bound[k] << ")";
    first << ", got " << show(got[k]);
  }
  INFO(what, ": ", wrong, " of ", got.size(), " output elements wrong", first.str());
  CHECK(wrong == 0);
}

// ---- One scatter_reduce call: its data, layout, and the checks of its result -----------------

// Element i's row is values[value_offset + i * value_stride + d], d < width; bin b's row is
// out[out_offset + b * out_stride + d]. Everything else in the three vectors is junk (values,
// indices) or sentinels (out) that must stay.
template <class V, class I>
struct Problem {
  std::size_t bins = 1, count = 0, width = 1, value_stride = 1, out_stride = 1;
  std::size_t out_offset = 0, index_offset = 0, value_offset = 0;
  std::vector<I> indices;
  std::vector<V> values;
  std::vector<Out<V>> out;
};

struct Shape {
  std::size_t width = 1, value_pad = 0, out_pad = 0;  // strides: width + pad
  std::size_t out_offset = 0, index_offset = 0, value_offset = 0;
};

template <class V, class I>
Problem<V, I> make_problem(std::size_t count, std::size_t bins, Dist dist, ScatterOp op, unsigned seed, unsigned oor64 = 0,
                           Shape shape = {}) {
  Problem<V, I> p;
  p.bins = bins, p.count = count, p.width = shape.width;
  p.value_stride = shape.width + shape.value_pad, p.out_stride = shape.width + shape.out_pad;
  p.out_offset = shape.out_offset, p.index_offset = shape.index_offset, p.value_offset = shape.value_offset;
  p.indices.assign(p.index_offset, I(0));  // bin 0, were it read
  const auto idx = make_indices<I>(count, bins, dist, seed, oor64);
  p.indices.insert(p.indices.end(), idx.begin(), idx.end());
  const auto v = make_values<V>(count * p.width, op, seed);
  p.values.resize(p.value_offset + count * p.value_stride);
  for (std::size_t k = 0; k < p.values.size(); ++k) p.values[k] = junk<V>(k);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t d = 0; d < p.width; ++d) p.values[p.value_offset + i * p.value_stride + d] = v[i * p.width + d];
  const auto init = make_init<Out<V>>(bins * p.width, op, seed);
  p.out.assign(p.out_offset + bins * p.out_stride, sentinel<Out<V>>());
  for (std::size_t b = 0; b < bins; ++b)
    for (std::size_t d = 0; d < p.width; ++d) p.out[p.out_offset + b * p.out_stride + d] = init[b * p.width + d];
  return p;
}

template <class V, class I>
Expected<Out<V>> reference(const Problem<V, I>& p, ScatterOp op, bool include_self, bool exact) {
  std::vector<std::size_t> bin_of(p.count);
  for (std::size_t i = 0; i < p.count; ++i) {
    const I k = p.indices[p.index_offset + i];
    bin_of[i] = std::uint64_t(k) < p.bins ? std::size_t(k) : none;
  }
  return reference<V>(p.out, p.out_offset, p.out_stride, p.bins, p.width, bin_of, p.values, p.value_offset, p.value_stride, op,
                      include_self, exact);
}

enum class Api { host, buffers };

template <class O>
struct Ran {
  ScatterResult result;
  std::vector<O> out;
};

// Runs p through the std::vector overload (p must be contiguous, at offsets 0) or the cl::Buffer
// one, and returns what it gave; throws what the call throws.
template <class V, class I>
Ran<Out<V>> run(const Problem<V, I>& p, ScatterOp op, const ScatterOptions& o, Api api) {
  auto& rt = test::runtime();
  Ran<Out<V>> r;
  if (api == Api::host) {
    REQUIRE((p.out_offset == 0 && p.index_offset == 0 && p.value_offset == 0));
    REQUIRE((p.value_stride == p.width && p.out_stride == p.width));
    r.out = p.out;
    r.result = clatomics::scatter_reduce(rt, r.out, p.indices, p.values, op, o, p.width);
  } else {
    const cl::Buffer out = device(p.out);
    r.result = scatter_ranges<V, I>(rt, out, p.out_offset, p.bins, device(p.indices), p.index_offset, device(p.values),
                                               p.value_offset, p.count, op, o, Rows{p.width, p.value_stride, p.out_stride});
    r.out = test::to_host<Out<V>>(rt, out, p.out.size());
  }
  return r;
}

// The strategy a call reports: the forced one, else the one automatic chose (never automatic).
void check_strategy(const ScatterResult& r, const ScatterOptions& o, std::size_t count) {
  if (!count) return;  // nothing ran
  INFO("reported strategy ", name_of(r.strategy));
  if (o.strategy != ScatterStrategy::automatic) CHECK(r.strategy == o.strategy);
  else CHECK(r.strategy != ScatterStrategy::automatic);
}

template <class V, class I>
Ran<Out<V>> check_scatter(const Problem<V, I>& p, ScatterOp op, const ScatterOptions& o, Api api, bool exact, const std::string& what) {
  const auto e = reference(p, op, o.include_self, exact);
  const auto r = run(p, op, o, api);
  check_out(r.out, e, what);
  CHECK(r.result.out_of_range == e.out_of_range);
  check_strategy(r.result, o, p.count);
  return r;
}

template <class V, class I>
std::string describe(const char* api, ScatterOp op, std::size_t n, std::size_t bins, Dist dist, bool include_self,
                     ScatterStrategy s = ScatterStrategy::automatic) {
  std::ostringstream w;
  w << api << " " << type_name<V>() << " " << op_name(op) << " by " << type_name<I>() << ", n=" << n << " bins=" << bins << " "
    << dist_name(dist) << (include_self ? ", include_self" : ", without self") << ", " << name_of(s);
  return w.str();
}

// Bins past __local memory: twice what the device's __local memory holds of O.
template <class O>
std::size_t big_bins() {
  return std::size_t(test::runtime().device_info().caps.local_mem_size / sizeof(O)) * 2 + 1;
}

// ---- The cases -------------------------------------------------------------------------------

// What a case costs on PoCL is mostly its programs: a call builds one program for its (value
// type, op, index width, segments) and one for that plus its plan (include_self false or mean
// keeps counts; strategy; aggregation; fixed point), each ~2 s on 2 cores. So each value type has
// one index type (they alternate: both widths meet every op), and the cases below reuse the
// programs of the op-and-type matrix wherever they can: include_self false there for float sum,
// min and max, int sum, double sum and long max; the other plans (forced strategies, the
// deterministic mode, segments, reduce_by_key) only where those are what a case is about.
template <class V>
struct Index {
  using type = cl_uint;
};
template <>
struct Index<double> {
  using type = cl_ulong;
};
template <>
struct Index<cl_uint> {
  using type = cl_ulong;
};
template <>
struct Index<cl_ulong> {
  using type = cl_ulong;
};
template <>
struct Index<bfloat16_t> {
  using type = cl_ulong;
};
template <class V>
using Idx = typename Index<V>::type;

// Every op on uniform indices over 97 bins (some receive nothing), 1 in 32 out of range, a prime
// count; with include_self, and without it for mean (the same program) and the ops listed. The
// std::vector overload for some ops, buffers at offsets for the others.
template <class V>
void every_op(std::initializer_list<ScatterOp> without_self = {}) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  const std::size_t n = 10007, bins = 97;
  for (const ScatterOp op : all_ops)
    for (const bool self : {true, false}) {
      if (!self && op != ScatterOp::mean && std::find(without_self.begin(), without_self.end(), op) == without_self.end()) continue;
      const unsigned seed = unsigned(int(op) * 2 + self);
      const bool host = (int(op) + self) % 2 == 0;
      Shape shape;
      if (!host) shape.out_offset = 3, shape.index_offset = 5, shape.value_offset = 2;
      const auto p = make_problem<V, I>(n, bins, Dist::uniform, op, seed, 2, shape);
      check_scatter(p, op, options(self), host ? Api::host : Api::buffers, true,
                    describe<V, I>(host ? "host" : "buffers", op, n, bins, Dist::uniform, self));
    }
}

// Every distribution at sizes 0, 1, a prime and past a launch's tile, over 7 and 4099 bins (more
// bins than __local memory holds: the strategies case); the std::vector overload with
// include_self, buffers without.
template <class V>
void every_distribution(ScatterOp op, bool without_self = true) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  for (const Dist dist : all_dists)
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(10007), std::size_t(300007)})
      for (const std::size_t bins : {std::size_t(7), std::size_t(4099)})
        for (const bool self : {true, false}) {
          if (!self && !without_self) continue;
          const unsigned seed = unsigned(n + bins + int(dist) * 7 + self);
          const unsigned oor = (dist == Dist::uniform || dist == Dist::zipf) ? 1 : 0;
          ScatterOptions o = options(self);
          o.indices_are_sorted = dist == Dist::sorted || dist == Dist::one_bin;
          const auto p = make_problem<V, I>(n, bins, dist, op, seed, oor);
          check_scatter(p, op, o, self ? Api::host : Api::buffers, true,
                        describe<V, I>(self ? "host" : "buffers", op, n, bins, dist, self));
        }
}

}  // namespace

TEST_CASE("every op and value type, both index types, with and without include_self") {
  every_op<float>({ScatterOp::sum, ScatterOp::min, ScatterOp::max});
  every_op<double>({ScatterOp::sum});
  every_op<cl_int>({ScatterOp::sum});
  every_op<cl_uint>();
  every_op<cl_long>({ScatterOp::max});
  every_op<cl_ulong>();
  every_op<half_t>();
  every_op<bfloat16_t>();
}

TEST_CASE("every distribution and size: one bin, uniform, sorted, skewed; 0, 1, a prime, past a tile") {
  every_distribution<float>(ScatterOp::sum);
  every_distribution<cl_int>(ScatterOp::sum);
  every_distribution<float>(ScatterOp::min);
  every_distribution<cl_long>(ScatterOp::max);
  every_distribution<cl_ulong>(ScatterOp::sum, false);
  every_distribution<half_t>(ScatterOp::sum, false);
  every_distribution<cl_int>(ScatterOp::mean);
  every_distribution<double>(ScatterOp::mean);
}

TEST_CASE("indices_are_sorted is a hint: unsorted indices with it give the same results") {
  ScatterOptions o = options(false);
  o.indices_are_sorted = true;
  for (const Dist dist : {Dist::uniform, Dist::zipf}) {
    const auto p = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::sum, 11, 1);
    check_scatter(p, ScatterOp::sum, o, Api::buffers, true, "float sum, wrongly hinted sorted, " + dist_name(dist));
    const auto q = make_problem<cl_int, cl_uint>(10007, 1000, dist, ScatterOp::sum, 12, 1);
    check_scatter(q, ScatterOp::sum, o, Api::host, true, "int sum, wrongly hinted sorted, " + dist_name(dist));
  }
}

namespace {

// Floating-point sums and means of values that round, against the long double reference within
// the bound of reference() (n * eps * sum |terms|).
template <class V>
void rounded_sums(bool sum_without_self) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
    for (const Dist dist : {Dist::one_bin, Dist::uniform, Dist::zipf})
      for (const bool self : {true, false}) {
        if (!self && op == ScatterOp::sum && !sum_without_self) continue;
        Problem<V, I> p = make_problem<V, I>(300007, 1000, dist, op, 21, 1);
        const auto rounding = rounding_values<V>(p.count, 22);
        std::copy(rounding.begin(), rounding.end(), p.values.begin());
        for (auto& v : p.out) v = O(v) / O(3);  // out's own values round too
        check_scatter(p, op, options(self), Api::host, false, describe<V, I>("rounded", op, p.count, p.bins, dist, self));
      }
}

}  // namespace

TEST_CASE("rounded float, double and half sums and means stay within n eps sum|v| of the reference") {
  rounded_sums<float>(true);
  rounded_sums<double>(true);
  rounded_sums<half_t>(false);
}

TEST_CASE("rows: widths 1, 3 and 32 with strides past the width, through buffers at offsets; padding untouched") {
  for (const std::size_t width : {std::size_t(1), std::size_t(3), std::size_t(32)}) {
    Shape shape;
    shape.width = width, shape.value_pad = width == 1 ? 1 : 5, shape.out_pad = 3;
    shape.out_offset = 5, shape.index_offset = 3, shape.value_offset = 7;
    const std::size_t n = 10007, bins = 61;
    for (const Dist dist : {Dist::uniform, Dist::one_bin})
      for (const bool self : {true, false}) {
        const unsigned seed = unsigned(width * 10 + int(dist) * 2 + self);
        INFO("width ", width);
        const auto fs = make_problem<float, cl_uint>(n, bins, dist, ScatterOp::sum, seed, 1, shape);
        check_scatter(fs, ScatterOp::sum, options(self), Api::buffers, true,
                      describe<float, cl_uint>("rows", ScatterOp::sum, n, bins, dist, self));
        const auto fm = make_problem<float, cl_uint>(n, bins, dist, ScatterOp::mean, seed, 1, shape);
        check_scatter(fm, ScatterOp::mean, options(self), Api::buffers, true,
                      describe<float, cl_uint>("rows", ScatterOp::mean, n, bins, dist, self));
        if (self) {
          const auto im = make_problem<cl_int, cl_uint>(n, bins, dist, ScatterOp::max, seed, 1, shape);
          check_scatter(im, ScatterOp::max, options(self), Api::buffers, true,
                        describe<cl_int, cl_uint>("rows", ScatterOp::max, n, bins, dist, self));
          const auto dm = make_problem<double, cl_ulong>(n, bins, dist, ScatterOp::min, seed, 1, shape);
          check_scatter(dm, ScatterOp::min, options(self), Api::buffers, true,
                        describe<double, cl_ulong>("rows", ScatterOp::min, n, bins, dist, self));
          const auto us = make_problem<cl_ulong, cl_ulong>(n, bins, dist, ScatterOp::sum, seed, 1, shape);
          check_scatter(us, ScatterOp::sum, options(self), Api::buffers, true,
                        describe<cl_ulong, cl_ulong>("rows", ScatterOp::sum, n, bins, dist, self));
        } else {
          // Every strategy on rows (bins * width fits in __local memory).
          for (const ScatterStrategy s : forced_strategies)
            check_scatter(fs, ScatterOp::sum, options(self, s), Api::buffers, true,
                          describe<float, cl_uint>("rows", ScatterOp::sum, n, bins, dist, self, s));
        }
      }
    // Contiguous rows through the std::vector overload.
    Shape contiguous;
    contiguous.width = width;
    const auto host = make_problem<cl_int, cl_uint>(n, 61, Dist::uniform, ScatterOp::sum, unsigned(width), 1, contiguous);
    check_scatter(host, ScatterOp::sum, options(true), Api::host, true, "host int sum rows of " + std::to_string(width));
  }
  // Strides 0 mean the width.
  auto& rt = test::runtime();
  Shape contiguous;
  contiguous.width = 3;
  const auto p = make_problem<float, cl_uint>(10007, 61, Dist::uniform, ScatterOp::sum, 5, 1, contiguous);
  const auto e = reference(p, ScatterOp::sum, true, true);
  const cl::Buffer out = device(p.out);
  const auto r = scatter_ranges<float, cl_uint>(rt, out, 0, p.bins, device(p.indices), 0, device(p.values), 0, p.count,
                                                           ScatterOp::sum, options(true), Rows{3, 0, 0});
  check_out(test::to_host<float>(rt, out, p.out.size()), e, "rows of 3, strides 0");
  CHECK(r.out_of_range == e.out_of_range);
}

// Two GPU paths of the global strategy (NVIDIA; elsewhere these run the common path): rows of
// float sums whose every row starts on 16 bytes take four columns per vector atomic, and sorted
// indices combine runs across a warp's lanes (accumulators of one, two and four 32-bit words:
// int, long/double, the deterministic 128 bits).
TEST_CASE("one column with a value stride, from an aligned start: every strategy reads each element's own value") {
  auto& rt = test::runtime();
  const std::size_t n = 20011, bins = 7;
  for (const std::size_t stride : {std::size_t(2), std::size_t(3)}) {
    std::vector<cl_uint> indices(n);
    std::vector<cl_int> values(n * stride);
    for (std::size_t i = 0; i < n; ++i) indices[i] = cl_uint(test::mix(std::uint32_t(i)) % bins);
    for (std::size_t j = 0; j < values.size(); ++j) values[j] = j % stride == 0 ? cl_int(j / stride % 13) - 6 : 1000000;  // padding
    std::vector<cl_int> sums(bins, 0), mins(bins, std::numeric_limits<cl_int>::max());
    for (std::size_t i = 0; i < n; ++i) sums[indices[i]] += values[i * stride], mins[indices[i]] = std::min(mins[indices[i]], values[i * stride]);
    const cl::Buffer ib(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, indices.data());
    const cl::Buffer vb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * 4, values.data());
    for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                    ScatterStrategy::local_cache}) {
      INFO("stride ", stride, " strategy ", clatomics::strategy_name(s));
      for (const ScatterOp op : {ScatterOp::sum, ScatterOp::min}) {
        std::vector<cl_int> zero(bins, op == ScatterOp::min ? std::numeric_limits<cl_int>::max() : 0);
        const cl::Buffer ob(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bins * 4, zero.data());
        scatter_ranges<cl_int, cl_uint>(rt, ob, 0, bins, ib, 0, vb, 0, n, op, options(true, s), Rows{1, stride, 0});
        std::vector<cl_int> got(bins);
        rt.queue().enqueueReadBuffer(ob, CL_TRUE, 0, bins * 4, got.data());
        CHECK(got == (op == ScatterOp::sum ? sums : mins));
      }
    }
  }
}

TEST_CASE("deterministic sums with include_self: a bin no value reached, or whose values cancel, keeps its own value") {
  auto& rt = test::runtime();
  if (!rt.supports_double()) return;
  ScatterOptions o;
  o.deterministic = true;
  std::vector<float> out{0.0f, 1e-30f, 3e-30f, -0.0f};
  // Bin 0 takes 1e30 (the grid's scale), bin 2 takes +1 and -1 (exactly 0), bins 1 and 3 nothing.
  clatomics::scatter_reduce<float, cl_uint>(rt, out, {0, 2, 2}, {1e30f, 1.0f, -1.0f}, ScatterOp::sum, o);
  CHECK(out[0] == 1e30f);
  CHECK(out[1] == 1e-30f);
  CHECK(out[2] == 3e-30f);
  CHECK((out[3] == 0.0f && !std::signbit(out[3])));  // an exact 0 is +0 in this mode
  std::vector<double> wide{0.0, 1e-200};
  clatomics::scatter_reduce<double, cl_uint>(rt, wide, {0}, {1e200}, ScatterOp::sum, o);
  CHECK(wide[1] == 1e-200);
}

TEST_CASE("global atomics: rows of four columns on 16 bytes and beside them; sorted runs combined across lanes") {
  for (const std::size_t width : {std::size_t(4), std::size_t(32)})
    for (const std::size_t pad : {std::size_t(0), std::size_t(4), std::size_t(1)})
      for (const bool self : {true, false}) {
        Shape shape;
        shape.width = width, shape.value_pad = pad, shape.out_pad = pad;
        shape.value_offset = pad == 1 ? 1 : 8, shape.out_offset = pad == 1 ? 3 : 4, shape.index_offset = 1;
        const unsigned seed = unsigned(width + pad * 3 + self);
        INFO("width ", width, ", padding ", pad);
        // Spread rows, and skewed ones (many rows on a few bins: the vector atomics contend).
        for (const Dist dist : {Dist::uniform, Dist::zipf})
          for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
            const auto p = make_problem<float, cl_uint>(20011, 1009, dist, op, seed, 1, shape);
            check_scatter(p, op, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                          describe<float, cl_uint>("rows", op, p.count, p.bins, dist, self, ScatterStrategy::global_atomics));
          }
      }
  for (const Dist dist : {Dist::sorted, Dist::one_bin})
    for (const bool self : {true, false}) {
      const unsigned seed = unsigned(int(dist) * 2 + self);
      const auto is = make_problem<cl_int, cl_uint>(300007, 3001, dist, ScatterOp::sum, seed, 0);
      check_scatter(is, ScatterOp::sum, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<cl_int, cl_uint>("runs", ScatterOp::sum, is.count, is.bins, dist, self, ScatterStrategy::global_atomics));
      const auto lm = make_problem<cl_long, cl_ulong>(300007, 3001, dist, ScatterOp::max, seed, 0);
      check_scatter(lm, ScatterOp::max, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<cl_long, cl_ulong>("runs", ScatterOp::max, lm.count, lm.bins, dist, self, ScatterStrategy::global_atomics));
      if (test::skip_without_double<double>()) continue;
      const auto dm = make_problem<double, cl_ulong>(300007, 3001, dist, ScatterOp::mean, seed, 0);
      check_scatter(dm, ScatterOp::mean, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<double, cl_ulong>("runs", ScatterOp::mean, dm.count, dm.bins, dist, self, ScatterStrategy::global_atomics));
    }
}

TEST_CASE("rows need (count - 1) * value_stride + width values and (bins - 1) * out_stride + width outputs, not more") {
  // The last row's padding lies past the buffer: nothing reads or writes it.
  auto& rt = test::runtime();
  Shape shape;
  shape.width = 3, shape.value_pad = 4, shape.out_pad = 2;
  auto p = make_problem<float, cl_uint>(1009, 17, Dist::uniform, ScatterOp::sum, 3, 0, shape);
  p.values.resize(p.values.size() - shape.value_pad);
  p.out.resize(p.out.size() - shape.out_pad);
  check_scatter(p, ScatterOp::sum, options(true), Api::buffers, true, "rows without the last row's padding");
  // One value or output less is a range beyond the buffer.
  const cl::Buffer out = device(p.out), indices = device(p.indices);
  const cl::Buffer short_values = test::to_device(rt, std::vector<float>(p.values.begin(), p.values.end() - 1));
  const cl::Buffer short_out = test::to_device(rt, std::vector<float>(p.out.begin(), p.out.end() - 1));
  const Rows rows{p.width, p.value_stride, p.out_stride};
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS(
      (scatter_ranges<float, cl_uint>(rt, out, 0, p.bins, indices, 0, short_values, 0, p.count, ScatterOp::sum, {}, rows)),
      std::invalid_argument);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, short_out, 0, p.bins, indices, 0, device(p.values), 0, p.count,
                                                             ScatterOp::sum, {}, rows)),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
}

namespace {

// Every forced strategy gives what automatic gives (and the reference: exact data), reports
// itself, and automatic follows its rule (scatter.hpp): local_private where the bins fit in
// __local memory; else local_cache for hot, unsorted indices; else global_atomics. local_private
// with bins past __local memory is refused before anything is enqueued.
template <class V>
void strategies_agree(ScatterOp op, std::size_t width, bool self) {
  using O = Out<V>;
  using I = Idx<V>;
  auto& rt = test::runtime();
  const std::size_t big = big_bins<O>() / width;
  Shape shape;
  shape.width = width;
  if (width > 1) shape.value_pad = 1, shape.out_pad = 2, shape.out_offset = 1, shape.value_offset = 3, shape.index_offset = 2;
  for (const Dist dist : all_dists)
    for (const std::size_t bins : {std::size_t(1000), big}) {
        const unsigned seed = unsigned(int(dist) * 4 + (bins == big) * 2 + self);
        const auto p = make_problem<V, I>(300007, bins, dist, op, seed, dist == Dist::uniform ? 1 : 0, shape);
        const auto a = check_scatter(p, op, options(self), Api::buffers, true, describe<V, I>("strategies", op, p.count, bins, dist, self));
        if (bins == 1000) CHECK(a.result.strategy == ScatterStrategy::local_private);
        else if (dist == Dist::zipf) CHECK(a.result.strategy == ScatterStrategy::local_cache);
        else if (dist != Dist::one_bin) CHECK(a.result.strategy == ScatterStrategy::global_atomics);
        for (const ScatterStrategy s : forced_strategies) {
          const std::string what = describe<V, I>("strategies", op, p.count, bins, dist, self, s);
          INFO(what);
          if (s == ScatterStrategy::local_private && bins == big) {
            const cl::Buffer out = device(p.out), indices = device(p.indices), values = device(p.values);
            clatomics::ProfileScope enqueued;
            CHECK_THROWS_AS((scatter_ranges<V, I>(rt, out, p.out_offset, p.bins, indices, p.index_offset, values, p.value_offset,
                                                            p.count, op, options(self, s), Rows{p.width, p.value_stride, p.out_stride})),
                            std::invalid_argument);
            CHECK(enqueued.commands() == 0);
            CHECK(same(test::to_host<O>(rt, out, p.out.size()), p.out));
            continue;
          }
          const auto f = check_scatter(p, op, options(self, s), Api::buffers, true, what);
          CHECK(same(f.out, a.out));
        }
      }
}

}  // namespace

TEST_CASE("every forced strategy gives the automatic results and reports itself") {
  strategies_agree<cl_int>(ScatterOp::sum, 1, true);
  strategies_agree<float>(ScatterOp::min, 1, true);
  strategies_agree<float>(ScatterOp::sum, 3, false);
}

namespace {

// ---- Deterministic sums and means ----------------------------------------------------------

// Fixed-point data: every value is k * 2^-scale with an integer k, so that a bin's exact sum is
// an int64 (below 2^44 units a value, at most 300008 terms), its correctly rounded value one
// conversion away. The magnitudes vary over 2^20 (float: 24-bit k times 2^0..2^20) or 2^30
// (double: 43-bit k shifted right by 0..29): many adds round, and the fixed point's sums carry
// from its low 64-bit word into the high one (values far below the largest).
template <class V>
int scale_of() {
  return std::is_same_v<V, double> || std::is_same_v<V, float> ? 40 : 30;  // 16-bit values: 30
}
template <class O>
std::vector<O> fixed_values(std::size_t n, unsigned seed, int scale) {
  std::mt19937_64 gen(seed);
  std::vector<O> x(n);
  for (auto& v : x) {
    std::int64_t k;
    if constexpr (std::is_same_v<O, double>) k = std::int64_t(gen() % (std::uint64_t(1) << 43)) >> (gen() % 30);
    else k = std::int64_t(gen() % (std::uint64_t(1) << 24)) << (gen() % 21);
    v = std::ldexp(O(gen() % 3 == 0 ? -k : k), -scale);
  }
  return x;
}
std::int64_t units(long double v, int scale) {
  const long double x = std::ldexp(v, scale);
  const auto k = std::int64_t(x);
  if ((long double)k != x) throw std::logic_error("test data: not a fixed-point value");
  return k;
}
// How many representable values lie between a and b (0: the same).
template <class O>
std::uint64_t ulps_apart(O a, O b) {
  const auto ordered = [](O v) {
    const auto u = test::bits(v);
    using S = std::make_signed_t<decltype(u)>;
    return S(u) < 0 ? std::numeric_limits<S>::min() - S(u) : S(u);
  };
  const auto x = ordered(a), y = ordered(b);
  return x > y ? std::uint64_t(x - y) : std::uint64_t(y - x);
}

template <class V>
std::vector<V> deterministic_values(std::size_t n, unsigned seed) {
  if constexpr (std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>) return rounding_values<V>(n, seed);
  else return fixed_values<V>(n, seed, scale_of<V>());
}

// The same bits on 3 runs, every forced strategy, both overloads (buffers at offsets) and host
// data in small launches; the sum within an ulp of the exact sum (rounded about once; with
// include_self out's own value is one of its terms), the mean within 2 of the exact mean. The
// forced strategies for mean and sum without include_self (the same programs: counts kept), for
// float and double; 16-bit values with include_self only.
template <class V>
void deterministic(ScatterOp op) {
  using O = Out<V>;
  using I = Idx<V>;
  if (test::skip_without_double<O>()) return;
  constexpr bool sixteen = std::is_same_v<V, half_t> || std::is_same_v<V, bfloat16_t>;
  auto& rt = test::runtime();
  const int scale = scale_of<V>();
  const std::size_t n = 300007;
  for (const Dist dist : {Dist::one_bin, Dist::uniform, Dist::zipf})
    for (const bool self : {true, false}) {
      if (sixteen && !self) continue;
      const bool every_strategy = !sixteen && (op == ScatterOp::mean || !self);
      const std::size_t bins = dist == Dist::one_bin ? 3 : 1000;
      const unsigned seed = unsigned(int(dist) * 2 + self + int(op) * 10);
      const auto indices = make_indices<I>(n, bins, dist, seed, dist == Dist::uniform ? 1 : 0);
      const auto values = deterministic_values<V>(n, seed);
      const auto init = fixed_values<O>(bins, seed + 1, scale);
      std::vector<std::int64_t> exact(bins);
      std::vector<std::uint64_t> terms(bins);
      for (std::size_t b = 0; b < bins; ++b)
        if (self) exact[b] = units(init[b], scale), terms[b] = 1;
      std::vector<std::size_t> received(bins);
      for (std::size_t i = 0; i < n; ++i)
        if (indices[i] < bins) exact[indices[i]] += units(widen(values[i]), scale), ++terms[indices[i]], ++received[indices[i]];
      const std::string what = describe<V, I>("deterministic", op, n, bins, dist, self);
      INFO(what);

      std::vector<std::vector<O>> outs;
      std::vector<std::string> how;
      const auto host = [&](ScatterStrategy s) {
        std::vector<O> out = init;
        const auto r = clatomics::scatter_reduce(rt, out, indices, values, op, options(self, s, true));
        check_strategy(r, options(self, s, true), n);
        outs.push_back(out), how.push_back("host, " + name_of(s));
      };
  for (int run = 0; run < 3; ++run) host(ScatterStrategy::automatic);
      if (every_strategy)
        for (const ScatterStrategy s : forced_strategies) host(s);
      {
        std::vector<I> padded_indices(2, 0);
        padded_indices.insert(padded_indices.end(), indices.begin(), indices.end());
        std::vector<V> padded_values(5, junk<V>(0));
        padded_values.insert(padded_values.end(), values.begin(), values.end());
        std::vector<O> padded_out(3, sentinel<O>());
        padded_out.insert(padded_out.end(), init.begin(), init.end());
        const cl::Buffer out = device(padded_out);
        scatter_ranges<V, I>(rt, out, 3, bins, device(padded_indices), 2, device(padded_values), 5, n, op,
                                              options(self, ScatterStrategy::automatic, true));
        const auto got = test::to_host<O>(rt, out, padded_out.size());
        CHECK(same(std::vector<O>(got.begin(), got.begin() + 3), std::vector<O>(3, sentinel<O>())));
        outs.emplace_back(got.begin() + 3, got.end()), how.push_back("buffers at offsets");
      }
      {
        const StreamLimits limits(16 << 10, 4099);
        host(ScatterStrategy::automatic);
        how.back() = "host, chunks of 16 KiB, launches of 4099";
      }
      for (std::size_t k = 1; k < outs.size(); ++k) {
        INFO("the same bits as the first run: ", how[k]);
        CHECK(same(outs[k], outs[0]));
      }
      // Every run near the exact result (so that a failure names the runs that are off).
      for (std::size_t k = 0; k < outs.size(); ++k) {
        std::size_t wrong = 0;
        std::ostringstream first;
        for (std::size_t b = 0; b < bins; ++b) {
          const O got = outs[k][b];
          O want;
          std::uint64_t allowed = 0;
          if (!received[b]) want = init[b];
          else if (op == ScatterOp::sum) want = O(std::ldexp((long double)exact[b], -scale)), allowed = 1;
          else want = O(std::ldexp((long double)exact[b] / (long double)terms[b], -scale)), allowed = 2;
          if (ulps_apart(got, want) <= allowed || wrong++ >= 3) continue;
          first << "\n  bin " << b << ": exact " << show(want) << ", got " << show(got) << " (" << ulps_apart(got, want) << " ulp)";
        }
        INFO(how[k], ": ", wrong, " bins off the exact result", first.str());
        CHECK(wrong == 0);
      }
    }
}

}  // namespace

TEST_CASE("deterministic sums and means: the same bits on every run, strategy and chunking, near the exact result") {
  deterministic<float>(ScatterOp::sum);
  deterministic<float>(ScatterOp::mean);
  deterministic<double>(ScatterOp::sum);
  deterministic<double>(ScatterOp::mean);
  deterministic<half_t>(ScatterOp::sum);
  deterministic<bfloat16_t>(ScatterOp::sum);
}

TEST_CASE("deterministic sums and means whose values are all zero: out and the out-of-range tally as the fast mode's") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> indices{0, 0, 1, 9};
  const auto check_type = [&](auto zero) {
    using V = decltype(zero);
    using O = clatomics::scatter_output_t<V>;
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
      for (const bool self : {true, false}) {
        CAPTURE(int(op));
        CAPTURE(self);
        const std::vector<V> values(indices.size(), zero);
        std::vector<O> fast(3, O(5)), det(3, O(5));
        ScatterOptions o;
        o.include_self = self;
        const auto r_fast = clatomics::scatter_reduce(rt, fast, indices, values, op, o);
        o.deterministic = true;
        const auto r_det = clatomics::scatter_reduce(rt, det, indices, values, op, o);
        CHECK(r_det.out_of_range == 1);
        CHECK(r_fast.out_of_range == 1);
        for (std::size_t b = 0; b < 3; ++b) CHECK(double(det[b]) == double(fast[b]));
        // Bins 0 and 1 were reached by zeros: 0 (or out's 5 added, or 5 / 3 and 5 / 2 for means).
        CHECK(double(det[2]) == 5.0);
        CHECK(double(det[0]) == (self ? (op == ScatterOp::mean ? double(O(5) / O(3)) : 5.0) : 0.0));
        CHECK(double(det[1]) == (self ? (op == ScatterOp::mean ? 2.5 : 5.0) : 0.0));
      }
  };
  check_type(0.0f);
  if (rt.supports_double()) check_type(0.0);
}

TEST_CASE("deterministic mode: integer ops and min/max are exact as ever, floating-point prod is refused") {
  auto& rt = test::runtime();
  for (const bool self : {true, false}) {
    const auto is = make_problem<cl_int, cl_uint>(10007, 97, Dist::zipf, ScatterOp::sum, 1, 1);
    check_scatter(is, ScatterOp::sum, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic int sum");
    const auto fm = make_problem<float, cl_uint>(10007, 97, Dist::zipf, ScatterOp::min, 2, 1);
    check_scatter(fm, ScatterOp::min, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic float min");
    const auto um = make_problem<cl_uint, cl_ulong>(10007, 97, Dist::uniform, ScatterOp::mean, 3, 1);
    check_scatter(um, ScatterOp::mean, options(self, ScatterStrategy::automatic, true), Api::host, true, "deterministic uint mean");
  }
  const ScatterOptions det = options(true, ScatterStrategy::automatic, true);
  const std::vector<cl_uint> indices = {0, 1, 1};
  std::vector<float> out(2, 1.0f);
  const cl::Buffer dout = device(out), dindices = device(indices), dvalues = device(std::vector<float>{2, 3, 4});
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         clatomics::scatter_reduce(rt, out, indices, std::vector<float>{2, 3, 4}, ScatterOp::prod, det);
                       }),
                       "determin"));
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, out, indices, std::vector<half_t>(3, half_t{0x3c00}), ScatterOp::prod, det)),
                  std::invalid_argument);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, dout, 0, 2, dindices, 0, dvalues, 0, 3, ScatterOp::prod, det)),
                  std::invalid_argument);
  if (rt.supports_double()) {
    std::vector<double> dout_host(2, 1.0);
    CHECK_THROWS_AS((clatomics::scatter_reduce(rt, dout_host, indices, std::vector<double>{2, 3, 4}, ScatterOp::prod, det)),
                    std::invalid_argument);
  }
  CHECK(enqueued.commands() == 0);
  CHECK(out == std::vector<float>(2, 1.0f));
  CHECK(test::to_host<float>(rt, dout, 2) == std::vector<float>(2, 1.0f));
}

namespace {

// Infinities and NaN, as IEEE sums give them: bin 0 has one +inf among finite values (+inf),
// bin 1 +inf and -inf (NaN), bin 2 one NaN (NaN), bin 3 two -inf (-inf), bin 4 finite values
// only (near the exact sum), bin 5 nothing (its own value). Atomic and deterministic; every
// strategy where the deterministic programs of the case above are (mean, sum without self), the
// deterministic bits the same on all.
template <class O>
void special_sums() {
  using I = Idx<O>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  const O inf = std::numeric_limits<O>::infinity(), nan = std::numeric_limits<O>::quiet_NaN();
  const std::size_t n = 10007;
  const int scale = scale_of<O>();
  std::vector<I> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = I(i % 5);
  auto values = fixed_values<O>(n, 3, scale);
  values[5000] = inf;                      // bin 0
  values[1] = inf, values[9001] = -inf;    // bin 1
  values[7002] = nan;                      // bin 2
  values[3] = -inf, values[10003] = -inf;  // bin 3
  const std::vector<O> init = {O(1), O(2), O(3), O(4), O(0.5), O(-7)};
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
    for (const bool self : {true, false})
      for (const bool det : {false, true}) {
        std::vector<O> first;
        for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                        ScatterStrategy::local_cache}) {
          if (s != ScatterStrategy::automatic && !(det && (op == ScatterOp::mean || !self))) continue;
          INFO(test::cl_type_name<O>(), " ", op_name(op), self ? ", include_self" : ", without self", det ? ", deterministic" : ", atomic",
               ", ", name_of(s));
          std::vector<O> out = init;
          clatomics::scatter_reduce(rt, out, indices, values, op, options(self, s, det));
          CHECK(out[0] == inf);
          CHECK(std::isnan(out[1]));
          CHECK(std::isnan(out[2]));
          CHECK(out[3] == -inf);
          CHECK(same(out[5], init[5]));
          std::int64_t exact = self ? units(init[4], scale) : 0;
          long double abs_sum = self ? std::fabs(init[4]) : 0;
          std::uint64_t terms = self;
          for (std::size_t i = 4; i < n; i += 5) exact += units(values[i], scale), abs_sum += std::fabs(values[i]), ++terms;
          const long double want = std::ldexp((long double)exact, -scale) / (op == ScatterOp::mean ? (long double)terms : 1.0L);
          if (det) CHECK(ulps_apart(out[4], O(want)) <= 2);
          else CHECK(std::fabs(out[4] - want) <= double(terms) * std::numeric_limits<O>::epsilon() * abs_sum);
          if (!det) continue;
          if (first.empty()) first = out;
          else CHECK(same(out, first));
        }
      }
}

}  // namespace

TEST_CASE("sums of infinities and NaN are IEEE's, atomic and deterministic") {
  special_sums<float>();
  special_sums<double>();
}

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

namespace {

// ---- argmin / argmax -------------------------------------------------------------------------

// arg[b]: the lowest position whose value is out[b] afterwards (the same bits), else count.
template <class V>
std::vector<cl_ulong> arg_reference(const std::vector<Out<V>>& out, const std::vector<std::size_t>& bin_of, const std::vector<V>& values) {
  std::vector<cl_ulong> arg(out.size(), cl_ulong(bin_of.size()));
  for (std::size_t i = bin_of.size(); i-- > 0;)
    if (bin_of[i] != none && same(widen(values[i]), out[bin_of[i]])) arg[bin_of[i]] = cl_ulong(i);
  return arg;
}

void check_args(const std::vector<cl_ulong>& got, const std::vector<cl_ulong>& want, const std::string& what) {
  REQUIRE(got.size() == want.size());
  std::size_t wrong = 0;
  std::ostringstream first;
  for (std::size_t b = 0; b < got.size(); ++b)
    if (got[b] != want[b] && wrong++ < 5) first << "\n  arg[" << b << "] expected " << want[b] << ", got " << got[b];
  INFO(what, ": ", wrong, " of ", got.size(), " positions wrong", first.str());
  CHECK(wrong == 0);
}

// Values of 7 kinds only (many ties), into the even bins of 101 (the odd ones receive nothing),
// 1 in 64 out of range. With include_self, out's own value is better than every value in half
// the bins (arg: count) and worse in the others.
template <class V>
void check_arg(ScatterOp op, bool without_self) {
  using O = Out<V>;
  using I = Idx<V>;
  auto& rt = test::runtime();
  const std::size_t bins = 101;
  for (const std::size_t n : {std::size_t(1), std::size_t(10007), std::size_t(300007)})
    for (const Dist dist : {Dist::uniform, Dist::one_bin})
      for (const bool self : {true, false}) {
        if (!self && !without_self) continue;
        std::mt19937_64 gen(n + self);
        auto indices = make_indices<I>(n, 50, dist, unsigned(n), 1);
        for (auto& k : indices)
          if (std::uint64_t(k) < 50) k = I(2 * k);
        std::vector<V> values(n);
        for (auto& v : values) v = narrow<V>(O(int(gen() % 7) + 10));
        std::vector<O> init(bins);
        const O better = op == ScatterOp::min ? O(0) : O(100), worse = op == ScatterOp::min ? O(100) : O(0);
        for (std::size_t b = 0; b < bins; ++b) init[b] = self ? ((b / 2) % 2 ? better : worse) : O(int(gen() % 50));
        std::vector<std::size_t> bin_of(n);
        for (std::size_t i = 0; i < n; ++i) bin_of[i] = std::uint64_t(indices[i]) < bins ? std::size_t(indices[i]) : none;
        const auto e = reference<V>(init, 0, 1, bins, 1, bin_of, values, 0, 1, op, self, true);
        const auto want = arg_reference(e.out, bin_of, values);
        const std::string what = describe<V, I>("arg", op, n, bins, dist, self);
        // Host data.
        std::vector<O> out = init;
        ScatterResult r;
        const auto arg = clatomics::scatter_reduce_arg(rt, out, indices, values, op, options(self), &r);
        check_out(out, e, what);
        check_args(arg, want, what);
        CHECK(r.out_of_range == e.out_of_range);
        // Buffers at offsets; arg's padding untouched.
        std::vector<I> pi(2, I(0));
        pi.insert(pi.end(), indices.begin(), indices.end());
        std::vector<V> pv(7, junk<V>(op != ScatterOp::min));  // would win, were it read
        pv.insert(pv.end(), values.begin(), values.end());
        std::vector<O> po(3, sentinel<O>());
        po.insert(po.end(), init.begin(), init.end());
        std::vector<cl_ulong> pa(5 + bins + 2, cl_ulong(0xDEADBEEF));
        const cl::Buffer dout = device(po), darg = device(pa);
        const auto rb = arg_ranges<V, I>(rt, dout, 3, bins, darg, 5, device(pi), 2, device(pv), 7, n, op, options(self));
        CHECK(rb.out_of_range == e.out_of_range);
        const auto got_out = test::to_host<O>(rt, dout, po.size());
        const auto got_arg = test::to_host<cl_ulong>(rt, darg, pa.size());
        check_out(std::vector<O>(got_out.begin() + 3, got_out.end()), e, what + ", buffers");
        check_args(std::vector<cl_ulong>(got_arg.begin() + 5, got_arg.begin() + 5 + std::ptrdiff_t(bins)), want, what + ", buffers");
        CHECK(same(std::vector<O>(got_out.begin(), got_out.begin() + 3), std::vector<O>(3, sentinel<O>())));
        CHECK(std::vector<cl_ulong>(got_arg.begin(), got_arg.begin() + 5) == std::vector<cl_ulong>(5, 0xDEADBEEF));
        CHECK(std::vector<cl_ulong>(got_arg.end() - 2, got_arg.end()) == std::vector<cl_ulong>(2, 0xDEADBEEF));
      }
}

}  // namespace

TEST_CASE("argmin and argmax: the lowest position wins ties, bins no element reached get count") {
  check_arg<float>(ScatterOp::min, true);
  check_arg<float>(ScatterOp::max, true);
  check_arg<cl_uint>(ScatterOp::min, false);
  check_arg<cl_uint>(ScatterOp::max, false);
}

TEST_CASE("argmin and argmax by hand: ties, signed zeros, out's own value") {
  auto& rt = test::runtime();
  // bin 0: 3 1 1 2 1 (positions 0 1 2 4 6); bin 1: -0 +0 -0 (3 5 7); bin 2: nothing; 9 is out of range.
  const std::vector<cl_uint> indices = {0, 0, 0, 1, 0, 1, 0, 1, 9};
  const std::vector<float> values = {3, 1, 1, -0.0f, 2, 0.0f, 1, -0.0f, -50};
  const cl_ulong count = values.size();
  std::vector<float> out = {7, 7, 7};
  ScatterResult r;
  auto arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(false), &r);
  CHECK(out[0] == 1.0f);
  CHECK(test::bits(out[1]) == test::bits(-0.0f));
  CHECK(out[2] == 7.0f);
  CHECK(arg == std::vector<cl_ulong>{1, 3, count});
  CHECK(r.out_of_range == 1);
  out = {7, 7, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::max, options(false));
  CHECK(out[0] == 3.0f);
  CHECK(test::bits(out[1]) == test::bits(0.0f));
  CHECK(arg == std::vector<cl_ulong>{0, 5, count});
  // include_self: out's own value wins in bin 0 (count); bin 1 is reached by -0.
  out = {0, 5, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(true));
  CHECK(out == std::vector<float>{0, -0.0f, 7});
  CHECK(arg == std::vector<cl_ulong>{count, 3, count});
  // A tie with out's own value: element 1's value is out[0] afterwards, so arg is 1 (scatter.hpp:
  // "the lowest position i whose value is out[b] afterwards"; count only when out's value won).
  out = {1, 5, 7};
  arg = clatomics::scatter_reduce_arg(rt, out, indices, values, ScatterOp::min, options(true));
  CHECK(out[0] == 1.0f);
  CHECK(arg[0] == 1);
}

TEST_CASE("indices out of range: counted and skipped by default, refused with OutOfRange::refuse before out is touched") {
  auto& rt = test::runtime();
  // Exact counts: past the end, the largest index, and 64-bit indices that are in range if truncated.
  {
    const std::vector<cl_uint> indices = {0, 5, 0xFFFFFFFFu, 6, 7, 1000, 3, 0x80000000u};
    const std::vector<float> values = {1, 2, 100, 3, 100, 100, 4, 100};
    std::vector<float> out(7, 0.0f);
    const auto r = clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::sum);
    CHECK(r.out_of_range == 4);
    CHECK(out == std::vector<float>{1, 0, 0, 4, 0, 2, 3});
  }
  {
    const std::vector<cl_ulong> indices = {(cl_ulong(1) << 32) + 1, cl_ulong(1) << 63, ~cl_ulong(0), 1, 7, (cl_ulong(1) << 32) + 6, 6};
    const std::vector<cl_ulong> values = {100, 100, 100, 5, 100, 100, 3};
    std::vector<cl_ulong> out(7, 1);
    const auto r = clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::max);
    CHECK(r.out_of_range == 5);
    CHECK(out == std::vector<cl_ulong>{1, 5, 1, 1, 1, 1, 3});
  }
  // Rows through buffers.
  Shape shape;
  shape.width = 3, shape.value_pad = 1, shape.out_pad = 1, shape.out_offset = 2, shape.value_offset = 1, shape.index_offset = 4;
  const auto p = make_problem<cl_ulong, cl_ulong>(10007, 50, Dist::uniform, ScatterOp::sum, 8, 8, shape);
  const auto counted = check_scatter(p, ScatterOp::sum, options(true), Api::buffers, true, "rows, 1 in 8 out of range");
  CHECK(counted.result.out_of_range > 1000);
  // refuse: nothing written, whatever the overload.
  ScatterOptions refuse = options(true);
  refuse.out_of_range = OutOfRange::refuse;
  {
    const cl::Buffer out = device(p.out), indices = device(p.indices), values = device(p.values);
    const auto before = bytes_of(out);
    const std::string what = test::message_of<std::invalid_argument>([&] {
      scatter_ranges<cl_ulong, cl_ulong>(rt, out, p.out_offset, p.bins, indices, p.index_offset, values, p.value_offset,
                                                    p.count, ScatterOp::sum, refuse, Rows{p.width, p.value_stride, p.out_stride});
    });
    CHECK(!what.empty());
    CHECK(bytes_of(out) == before);
  }
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache}) {
    INFO(name_of(s));
    const auto q = make_problem<cl_int, cl_uint>(300007, 1000, Dist::sorted, ScatterOp::sum, 9, 1);  // the largest indices last
    ScatterOptions o = refuse;
    o.strategy = s;
    std::vector<cl_int> out = q.out;
    CHECK_THROWS_AS(clatomics::scatter_reduce(rt, out, q.indices, q.values, ScatterOp::sum, o), std::invalid_argument);
    CHECK(out == q.out);
    // The same indices, all in range: fine.
    auto in_range = q;
    for (auto& k : in_range.indices) k = std::min<cl_uint>(k, 999);
    const auto ok = check_scatter(in_range, ScatterOp::sum, o, Api::host, true, "refuse, every index in range");
    CHECK(ok.result.out_of_range == 0);
  }
  // argmin with refuse: out and arg untouched.
  {
    const std::vector<cl_uint> indices = {0, 1, 2, 3};
    const std::vector<float> values = {1, 2, 3, 4};
    const cl::Buffer out = device(std::vector<float>(3, 9.0f)), arg = device(std::vector<cl_ulong>(3, 77));
    CHECK_THROWS_AS((arg_ranges<float, cl_uint>(rt, out, 0, 3, arg, 0, device(indices), 0, device(values), 0, 4,
                                                                  ScatterOp::min, refuse)),
                    std::invalid_argument);
    CHECK(test::to_host<float>(rt, out, 3) == std::vector<float>(3, 9.0f));
    CHECK(test::to_host<cl_ulong>(rt, arg, 3) == std::vector<cl_ulong>(3, 77));
  }
}

namespace {

// ---- segment_reduce --------------------------------------------------------------------------

// CSR offsets over count values: 60 segments from offset 11 (a third empty, one of 200003
// values), the values past the last offset unused; 5 empty segments; one segment of everything;
// no values at all.
template <class Off>
std::vector<std::vector<Off>> segment_layouts(std::vector<std::size_t>& counts) {
  std::mt19937_64 gen(5);
  std::vector<std::vector<Off>> layouts;
  std::vector<Off> a = {Off(11)};
  for (std::size_t s = 0; s < 60; ++s) a.push_back(Off(a.back() + (s % 3 == 0 ? 0 : s == 31 ? 200003 : gen() % 400)));
  layouts.push_back(a), counts.push_back(std::size_t(a.back()) + 13);
  layouts.push_back(std::vector<Off>(6, Off(4))), counts.push_back(10);
  layouts.push_back({Off(0), Off(300007)}), counts.push_back(300007);
  layouts.push_back({Off(0), Off(0), Off(0), Off(0)}), counts.push_back(0);
  return layouts;
}

// A segment with no values, without include_self: the empty reduction (torch_scatter's
// segment_csr), 1 for prod and 0 for the others, in every column.
template <class O, class Off>
void empty_segments(Expected<O>& e, const std::vector<Off>& offsets, std::size_t out_offset, std::size_t out_stride, std::size_t width,
                    ScatterOp op, bool include_self) {
  if (include_self) return;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    if (offsets[s] == offsets[s + 1])
      for (std::size_t d = 0; d < width; ++d) e.out[out_offset + s * out_stride + d] = O(op == ScatterOp::prod ? 1 : 0);
}

template <class V, class Off>
void check_segments(ScatterOp op, std::initializer_list<bool> selves) {
  using O = Out<V>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  std::vector<std::size_t> counts;
  const auto layouts = segment_layouts<Off>(counts);
  for (std::size_t l = 0; l < layouts.size(); ++l)
    for (const bool self : selves) {
      const auto& offsets = layouts[l];
      const std::size_t segments = offsets.size() - 1, count = counts[l];
      std::vector<std::size_t> bin_of(count, none);
      for (std::size_t s = 0; s < segments; ++s)
        for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) bin_of[i] = s;
      std::ostringstream w;
      w << "segments " << type_name<V>() << " " << op_name(op) << " by " << type_name<Off>() << ", layout " << l << ", " << segments
        << " segments over " << count << (self ? ", include_self" : ", without self");
      // Host data, one column.
      {
        const auto values = make_values<V>(count, op, unsigned(l));
        const auto init = make_init<O>(segments, op, unsigned(l));
        auto e = reference<V>(init, 0, 1, segments, 1, bin_of, values, 0, 1, op, self, true);
        empty_segments(e, offsets, 0, 1, 1, op, self);
        std::vector<O> out = init;
        clatomics::segment_reduce(rt, out, offsets, values, op, options(self));
        check_out(out, e, w.str() + ", host");
      }
      // Buffers: rows of 3 with strides, everything at offsets.
      {
        Shape shape;
        shape.width = 3, shape.value_pad = 2, shape.out_pad = 1, shape.out_offset = 4, shape.value_offset = 5;
        auto p = make_problem<V, Off>(count, segments, Dist::uniform, op, unsigned(l + 50), 0, shape);
        p.indices.assign(2, Off(0));
        p.indices.insert(p.indices.end(), offsets.begin(), offsets.end());
        auto e = reference<V>(p.out, p.out_offset, p.out_stride, segments, p.width, bin_of, p.values, p.value_offset, p.value_stride,
                              op, self, true);
        empty_segments(e, offsets, p.out_offset, p.out_stride, p.width, op, self);
        const cl::Buffer out = device(p.out);
        segment_ranges<V, Off>(rt, out, p.out_offset, segments, device(p.indices), 2, device(p.values), p.value_offset, count,
                                          op, options(self), Rows{p.width, p.value_stride, p.out_stride});
        check_out(test::to_host<O>(rt, out, p.out.size()), e, w.str() + ", buffers, rows of 3");
      }
    }
}

}  // namespace

TEST_CASE("segment_reduce over CSR offsets: empty and huge segments, values outside the offsets unused") {
  // 64-bit offsets: the programs reduce_by_key runs on (it passes its runs as 64-bit offsets).
  check_segments<float, cl_ulong>(ScatterOp::sum, {true, false});
  check_segments<cl_int, cl_ulong>(ScatterOp::mean, {true, false});
  check_segments<float, cl_ulong>(ScatterOp::min, {false});
  check_segments<float, cl_uint>(ScatterOp::sum, {true});
}

TEST_CASE("segment_reduce refuses offsets that decrease or pass count, before out is touched") {
  auto& rt = test::runtime();
  const std::vector<float> values(10, 1.0f);
  const std::vector<std::vector<cl_uint>> bad32 = {{0, 5, 3, 10}, {0, 5, 11}, {4, 2, 10}, {0, 10, 10, 12}, {11, 11}};
  for (const auto& offsets : bad32) {
    const std::size_t segments = offsets.size() - 1;
    INFO("offsets ", offsets[0], " .. ", offsets.back(), " (", segments, " segments)");
    std::vector<float> out(segments, 9.0f);
    CHECK_THROWS_AS(clatomics::segment_reduce(rt, out, offsets, values, ScatterOp::sum), std::invalid_argument);
    CHECK(out == std::vector<float>(segments, 9.0f));
    const cl::Buffer dout = device(out);
    const auto before = bytes_of(dout);
    CHECK_THROWS_AS(
        (segment_ranges<float, cl_uint>(rt, dout, 0, segments, device(offsets), 0, device(values), 0, 10, ScatterOp::sum)),
        std::invalid_argument);
    CHECK(bytes_of(dout) == before);
  }
  // 64-bit offsets past count that are in range if truncated to 32 bits.
  const std::vector<cl_ulong> bad64 = {0, (cl_ulong(1) << 32) + 5, (cl_ulong(1) << 32) + 6};
  std::vector<cl_int> out(2, 9);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, out, bad64, std::vector<cl_int>(10, 1), ScatterOp::mean)), std::invalid_argument);
  CHECK(out == std::vector<cl_int>(2, 9));
  // Offsets into fewer values than count: the count is what the values hold.
  const cl::Buffer dout = device(std::vector<float>(3, 9.0f));
  const std::vector<cl_uint> fine = {0, 4, 4, 10};
  CHECK_THROWS_AS((segment_ranges<float, cl_uint>(rt, dout, 0, 3, device(fine), 0, device(values), 0, 9, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK(test::to_host<float>(rt, dout, 3) == std::vector<float>(3, 9.0f));
  segment_ranges<float, cl_uint>(rt, dout, 0, 3, device(fine), 0, device(values), 0, 10, ScatterOp::sum);
  CHECK(test::to_host<float>(rt, dout, 3) == std::vector<float>{13, 9, 15});
}

namespace {

// ---- reduce_by_key ---------------------------------------------------------------------------

// Sorted keys (runs of every length, skewed), or unsorted ones: runs of 1 to 20 equal keys from
// 8 kinds, so that neighbouring runs often have the same key and merge into one; 64-bit keys past
// 2^32.
template <class K>
std::vector<K> make_keys(std::size_t n, bool sorted, unsigned seed) {
  std::vector<K> keys;
  if (sorted) keys = make_indices<K>(n, 5000, Dist::zipf, seed);
  else {
    std::mt19937_64 gen(seed);
    while (keys.size() < n) keys.insert(keys.end(), std::min<std::size_t>(n - keys.size(), 1 + gen() % 20), K(gen() % 8));
  }
  if (sorted) std::sort(keys.begin(), keys.end());
  if (sizeof(K) == 8)
    for (auto& k : keys) k = K(k + (K(1) << 33));
  return keys;
}

template <class K, class V>
void check_by_key(ScatterOp op) {
  using O = Out<V>;
  if (test::skip_without_double<O>()) return;
  auto& rt = test::runtime();
  for (const bool sorted : {true, false})
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(10007), std::size_t(300007)}) {
      const unsigned seed = unsigned(n + sorted);
      const auto keys = make_keys<K>(n, sorted, seed);
      const auto values = make_values<V>(n, op, seed);
      std::vector<K> unique;
      std::vector<std::size_t> bin_of(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) unique.push_back(keys[i]);
        bin_of[i] = unique.size() - 1;
      }
      const std::size_t runs = unique.size();
      const auto e = reference<V>(std::vector<O>(runs, sentinel<O>()), 0, 1, runs, 1, bin_of, values, 0, 1, op, false, true);
      std::ostringstream w;
      w << "reduce_by_key " << type_name<V>() << " " << op_name(op) << " by " << type_name<K>() << ", n=" << n
        << (sorted ? " sorted" : " unsorted") << ", " << runs << " runs";
      // include_self is ignored: the outputs start empty.
      for (const bool self : {false, true}) {
        const auto got = clatomics::reduce_by_key<K, V, O>(rt, keys, values, op, options(self));
        CHECK(got.first == unique);
        check_out(got.second, e, w.str() + (self ? ", host, include_self (ignored)" : ", host"));
      }
      // Buffers at offsets, the outputs exactly count long.
      std::vector<K> pk(3, K(0));
      pk.insert(pk.end(), keys.begin(), keys.end());
      std::vector<V> pv(1, junk<V>(0));
      pv.insert(pv.end(), values.begin(), values.end());
      const cl::Buffer dunique = device(std::vector<K>(2 + n)), dreductions = device(std::vector<O>(4 + n));
      const std::size_t got_runs =
          by_key_ranges<K, V>(rt, device(pk), 3, device(pv), 1, n, dunique, 2, dreductions, 4, op, options(false));
      CHECK(got_runs == runs);
      if (got_runs != runs || !runs) continue;
      const auto gk = test::to_host<K>(rt, dunique, 2 + runs), gr = test::to_host<O>(rt, dreductions, 4 + runs);
      CHECK(std::vector<K>(gk.begin() + 2, gk.end()) == unique);
      check_out(std::vector<O>(gr.begin() + 4, gr.end()), e, w.str() + ", buffers");
    }
}

}  // namespace

TEST_CASE("reduce_by_key: runs of equal consecutive keys, sorted or not, the number of runs returned") {
  check_by_key<cl_uint, float>(ScatterOp::sum);
  check_by_key<cl_ulong, float>(ScatterOp::sum);
  check_by_key<cl_ulong, float>(ScatterOp::min);
  check_by_key<cl_uint, cl_int>(ScatterOp::mean);
}

TEST_CASE("reduce_by_key refuses outputs shorter than count") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> keys = {1, 1, 2, 2, 2, 3};  // 3 runs, count 6
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const cl::Buffer dkeys = device(keys), dvalues = device(values);
  const cl::Buffer six_keys = device(std::vector<cl_uint>(6, 7)), five_keys = device(std::vector<cl_uint>(5, 7));
  const cl::Buffer six = device(std::vector<float>(6, 9.0f)), five = device(std::vector<float>(5, 9.0f));
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, five_keys, 0, six, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, five, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 1, six, 0, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, six, 1, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, six, 6) == std::vector<float>(6, 9.0f));
  CHECK(test::to_host<cl_uint>(rt, six_keys, 6) == std::vector<cl_uint>(6, 7));
  CHECK(by_key_ranges<cl_uint, float>(rt, dkeys, 0, dvalues, 0, 6, six_keys, 0, six, 0, ScatterOp::sum) == 3);
  CHECK(test::to_host<cl_uint>(rt, six_keys, 3) == std::vector<cl_uint>{1, 2, 3});
  CHECK(test::to_host<float>(rt, six, 3) == std::vector<float>{3, 12, 6});
}

TEST_CASE("host data in many small launches (and chunks, where it streams): the same results") {
  const StreamLimits limits(16 << 10, 4099);  // 4096 floats a chunk, 4099 elements a launch
  for (const Dist dist : all_dists)
    for (const bool self : {true, false}) {
      const unsigned seed = unsigned(int(dist) * 2 + self + 300);
      const auto fs = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::sum, seed, 1);
      check_scatter(fs, ScatterOp::sum, options(self), Api::host, true,
                    describe<float, cl_uint>("chunked", ScatterOp::sum, 300007, 1000, dist, self));
      const auto is = make_problem<cl_int, cl_uint>(300007, 7, dist, ScatterOp::sum, seed, 1);
      check_scatter(is, ScatterOp::sum, options(self), Api::host, true,
                    describe<cl_int, cl_uint>("chunked", ScatterOp::sum, 300007, 7, dist, self));
      const auto fm = make_problem<float, cl_uint>(300007, 1000, dist, ScatterOp::min, seed, 1);
      check_scatter(fm, ScatterOp::min, options(self), Api::host, true,
                    describe<float, cl_uint>("chunked", ScatterOp::min, 300007, 1000, dist, self));
      const auto im = make_problem<cl_int, cl_uint>(300007, 1000, dist, ScatterOp::mean, seed, 1);
      check_scatter(im, ScatterOp::mean, options(self), Api::host, true,
                    describe<cl_int, cl_uint>("chunked", ScatterOp::mean, 300007, 1000, dist, self));
    }
  // Rows of 32 through the std::vector overload: a chunk holds 128 rows.
  Shape rows;
  rows.width = 32;
  const auto wide = make_problem<float, cl_uint>(10007, 61, Dist::uniform, ScatterOp::sum, 4, 1, rows);
  check_scatter(wide, ScatterOp::sum, options(true), Api::host, true, "chunked rows of 32");
  // argmin: ties across chunks, the lowest position wins.
  check_arg<float>(ScatterOp::min, true);
  // A segment over many chunks, and runs of keys across their boundaries.
  check_segments<float, cl_ulong>(ScatterOp::sum, {true, false});
  check_by_key<cl_uint, float>(ScatterOp::sum);
  check_by_key<cl_uint, cl_int>(ScatterOp::mean);
}

TEST_CASE("bad input is refused before anything is enqueued, out untouched") {
  auto& rt = test::runtime();
  using IA = std::invalid_argument;
  using F = float;
  using U = cl_uint;
  const std::size_t n = 100, bins = 10, max = std::numeric_limits<std::size_t>::max();
  const cl::Buffer out = device(std::vector<float>(bins, 9.0f)), idx = device(std::vector<cl_uint>(n, 1)),
                   val = device(std::vector<float>(n, 1.0f)), arg = device(std::vector<cl_ulong>(bins, 77));
  std::vector<cl_uint> offsets(bins + 1);
  for (std::size_t s = 0; s <= bins; ++s) offsets[s] = cl_uint(s * 10);
  const cl::Buffer offs = device(offsets), keys = device(std::vector<cl_uint>(n, 3)), ukeys = device(std::vector<cl_uint>(n, 5)),
                   reds = device(std::vector<float>(n, 9.0f));
  const cl::Buffer none_buffer;
  // One buffer holding indices, values and out at disjoint ranges (fine), and sub-buffers of it
  // that overlap (refused).
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / 4;  // in 4-byte elements
  const std::size_t m = 4 * align + 1000;
  std::vector<float> shared_host(2 * m, 1.0f);
  cl::Buffer shared = device(shared_host);
  const auto sub = [&](std::size_t first, std::size_t count) {
    const cl_buffer_region region{first * 4, count * 4};
    return shared.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  };
  const cl::Buffer head = sub(0, m), overlapping = sub(align, m);
  const Rows rows3{3, 0, 0};
  std::vector<float> hout(bins, 9.0f);
  const std::vector<cl_uint> hidx(n, 1);
  const std::vector<float> hval(n, 1.0f);
  const auto before_out = bytes_of(out), before_shared = bytes_of(shared), before_reds = bytes_of(reds);
  const auto before_arg = bytes_of(arg), before_ukeys = bytes_of(ukeys);
  const auto sr = [&](const cl::Buffer& o, std::size_t oo, std::size_t b, const cl::Buffer& i, std::size_t io, const cl::Buffer& v,
                      std::size_t vo, std::size_t c, ScatterOp op = ScatterOp::sum, ScatterOptions opt = {},
                      Rows rows = {}) { scatter_ranges<F, U>(rt, o, oo, b, i, io, v, vo, c, op, opt, rows); };
  clatomics::ProfileScope enqueued;

  // Strides below the width (quoted).
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, 2, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{3, 2, 0}); }),
                       "rows.value_stride (2) is below rows.width (3)"));
  CHECK_THROWS_AS(sr(out, 0, 2, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{3, 0, 2}), IA);
  // Null buffers.
  CHECK_THROWS_AS(sr(none_buffer, 0, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, none_buffer, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, none_buffer, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, none_buffer, 0, none_buffer, 0, 0), IA);
  // Ranges beyond the buffers, or overflowing.
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n + 1); }), "buffer"));
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 1, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, 1, n), IA);
  CHECK_THROWS_AS(sr(out, 1, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins + 1, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, max, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, max, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, max, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, 0, max), IA);
  CHECK_THROWS_AS(sr(out, 0, max / 2, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, 2, idx, 0, val, 0, n, ScatterOp::sum, {}, Rows{1, 2, 0}), IA);       // values: 199 needed
  CHECK_THROWS_AS(sr(out, 0, 4, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{2, 0, 3}), IA);      // out: 11 needed
  CHECK_THROWS_AS(sr(out, 0, 4, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{1, 0, max / 2}), IA);  // overflowing
  CHECK_THROWS_AS(sr(out, 0, 3, idx, 0, val, 0, 34, ScatterOp::sum, {}, rows3), IA);               // 102 values
  // The output sharing memory with an input: the same buffer, a buffer and its sub-buffer, two sub-buffers.
  CHECK(test::contains(test::message_of<IA>([&] { sr(val, 0, bins, idx, 0, val, 0, n); }), "shares memory"));
  CHECK_THROWS_AS(sr(shared, 5, bins, idx, 0, shared, 0, n), IA);
  CHECK_THROWS_AS(sr(shared, 0, bins, shared, 5, val, 0, n), IA);
  CHECK_THROWS_AS(sr(head, 0, bins, idx, 0, shared, 0, n), IA);
  CHECK_THROWS_AS(sr(shared, 0, bins, idx, 0, head, 0, n), IA);
  CHECK_THROWS_AS(sr(overlapping, 0, bins, idx, 0, head, align, n), IA);
  CHECK_THROWS_AS(sr(head, align + 3, bins, overlapping, 0, val, 0, n), IA);
  // An op, a strategy, an out-of-range or NaN rule outside their enums (their values quoted); a
  // forced strategy that cannot run.
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, static_cast<ScatterOp>(99)); }), "op (99)"));
  ScatterOptions odd_strategy, odd_rule, odd_nan, too_big;
  odd_strategy.strategy = static_cast<ScatterStrategy>(9);
  odd_rule.out_of_range = static_cast<OutOfRange>(7);
  odd_nan.nan = static_cast<NanRule>(5);
  too_big.strategy = ScatterStrategy::local_private;
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::sum, odd_strategy); }), "(9)"));
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::sum, odd_rule); }), "(7)"));
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::max, odd_nan); }), "options.nan (5)"));
  // Also on calls with nothing to do.
  CHECK_THROWS_AS(sr(out, 0, 0, idx, 0, val, 0, n, ScatterOp::max, odd_nan), IA);
  CHECK_THROWS_AS((sr(out, 0, bins, idx, 0, val, 0, n, static_cast<ScatterOp>(99), {}, Rows{0, 0, 0})), IA);
  const cl::Buffer big_out = device(std::vector<float>(big_bins<float>(), 0.0f));
  CHECK_THROWS_AS((sr(big_out, 0, big_bins<float>(), idx, 0, val, 0, n, ScatterOp::sum, too_big)), IA);
  // argmin/argmax: only min and max, arg too short, arg sharing memory with an input (a null arg: below).
  const auto sa = [&](const cl::Buffer& a, std::size_t ao, ScatterOp op, const cl::Buffer& v = cl::Buffer()) {
    arg_ranges<F, U>(rt, out, 0, bins, a, ao, idx, 0, v() ? v : val, 0, n, op);
  };
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::sum), IA);
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::mean), IA);
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::prod), IA);
  CHECK_THROWS_AS((sa(arg, 0, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS(sa(arg, 1, ScatterOp::min), IA);
  CHECK_THROWS_AS(sa(shared, 0, ScatterOp::min, shared), IA);
  // segment_reduce: offsets too short, null, sharing memory with out; an odd op.
  const auto sg = [&](const cl::Buffer& o, std::size_t segments, const cl::Buffer& off, std::size_t oo, ScatterOp op = ScatterOp::sum) {
    segment_ranges<F, U>(rt, o, 0, segments, off, oo, val, 0, n, op);
  };
  CHECK_THROWS_AS(sg(out, bins, offs, 1), IA);
  CHECK_THROWS_AS(sg(out, bins, none_buffer, 0), IA);
  CHECK_THROWS_AS(sg(shared, bins, shared, 0), IA);
  CHECK_THROWS_AS((sg(out, bins, offs, 0, static_cast<ScatterOp>(99))), IA);
  // reduce_by_key: outputs sharing memory with the inputs or each other, null keys, an odd op.
  const auto rk = [&](const cl::Buffer& k, const cl::Buffer& v, const cl::Buffer& u, std::size_t uo, const cl::Buffer& r, std::size_t ro,
                      ScatterOp op = ScatterOp::sum) { by_key_ranges<U, F>(rt, k, 0, v, 0, n, u, uo, r, ro, op); };
  CHECK_THROWS_AS(rk(none_buffer, val, ukeys, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(keys, val, ukeys, 0, val, 0), IA);
  CHECK_THROWS_AS(rk(keys, val, keys, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(shared, val, shared, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(keys, shared, ukeys, 0, shared, n / 2), IA);
  CHECK_THROWS_AS((rk(keys, val, ukeys, 0, reds, 0, static_cast<ScatterOp>(99))), IA);
  // The std::vector overloads: sizes that do not match.
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, std::vector<float>(n + 1, 1.0f), ScatterOp::sum)), IA);
  std::vector<float> nine(9, 9.0f), eleven(11, 9.0f);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, nine, std::vector<cl_uint>(33, 1), std::vector<float>(98, 1.0f), ScatterOp::sum, {}, 3)),
                  IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, eleven, std::vector<cl_uint>(3, 1), std::vector<float>(9, 1.0f), ScatterOp::sum, {}, 3)),
                  IA);
  CHECK_THROWS_AS(clatomics::scatter_reduce(rt, hout, hidx, hval, ScatterOp::sum, {}, 0), IA);  // rows of width 0 hold no out
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, hval, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce_arg(rt, hout, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::min)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, hout, std::vector<cl_uint>(bins, 0), hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, hout, std::vector<cl_uint>(bins + 2, 0), hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, hidx, hval, static_cast<ScatterOp>(99))), IA);

  CHECK(enqueued.commands() == 0);
  CHECK(hout == std::vector<float>(bins, 9.0f));
  CHECK(nine == std::vector<float>(9, 9.0f));
  CHECK(eleven == std::vector<float>(11, 9.0f));
  CHECK(bytes_of(out) == before_out);
  CHECK(bytes_of(shared) == before_shared);
  CHECK(bytes_of(reds) == before_reds);
  CHECK(bytes_of(arg) == before_arg);
  CHECK(bytes_of(ukeys) == before_ukeys);

  // The valid calls next to the refused ones: fine. Indices, values and out in disjoint parts of
  // one buffer; the indices there are 1.0f's bits, out of range.
  sr(out, 0, bins, idx, 0, val, 0, n);
  CHECK(test::to_host<float>(rt, out, bins) == std::vector<float>{9, 109, 9, 9, 9, 9, 9, 9, 9, 9});
  const auto r = scatter_ranges<F, U>(rt, shared, m, bins, shared, 0, shared, 100, n, ScatterOp::sum);
  CHECK(r.out_of_range == n);
  CHECK(test::to_host<float>(rt, shared, 2 * m) == shared_host);
  sr(out, 0, bins, idx, 0, val, 0, 0);  // count 0
  CHECK(test::to_host<float>(rt, out, bins) == std::vector<float>{9, 109, 9, 9, 9, 9, 9, 9, 9, 9});
  // A null arg is refused too, not taken for a call without one (on its own output: were it
  // taken, the checks above would not be about what they say).
  const cl::Buffer own_out = device(std::vector<float>(bins, 9.0f));
  clatomics::ProfileScope arg_enqueued;
  CHECK_THROWS_AS((arg_ranges<F, U>(rt, own_out, 0, bins, none_buffer, 0, idx, 0, val, 0, n, ScatterOp::min)), IA);
  CHECK(arg_enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, own_out, bins) == std::vector<float>(bins, 9.0f));
}

TEST_CASE("double values, and deterministic sums, on a device without fp64 are refused") {
  clatomics::Options hidden = clatomics::Options::from_env();
  hidden.hide_fp64 = true;
  clatomics::Runtime rt(hidden);
  const std::vector<cl_uint> indices = {0, 1, 1};
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, 64);
  const cl::Buffer idx(rt.context(), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR), std::size_t(12),
                       const_cast<cl_uint*>(indices.data()));
  const cl::Buffer values(rt.context(), CL_MEM_READ_WRITE, 64);
  std::vector<double> dout(2, 1.0);
  std::vector<float> fout(2, 1.0f);
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS((scatter_ranges<double, cl_uint>(rt, out, 0, 2, idx, 0, values, 0, 3, ScatterOp::sum)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, dout, indices, std::vector<double>{1, 2, 3}, ScatterOp::max)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, dout, std::vector<cl_uint>{0, 1, 3}, std::vector<double>{1, 2, 3}, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, indices, std::vector<double>{1, 2, 3}, ScatterOp::sum)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, fout, indices, std::vector<float>{1, 2, 3}, ScatterOp::sum,
                                             options(true, ScatterStrategy::automatic, true))),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(dout == std::vector<double>(2, 1.0));
  CHECK(fout == std::vector<float>(2, 1.0f));
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

// ---- Empty outputs: results, not refusals ------------------------------------------------------

TEST_CASE("empty outputs (no bins, no segments, rows of width 0) return at once, enqueue nothing, touch nothing") {
  auto& rt = test::runtime();
  using IA = std::invalid_argument;
  const std::size_t n = 5;
  const std::vector<cl_uint> hidx = {0, 1, 2, 3, 4};
  const std::vector<float> hval(n, 1.0f);
  const cl::Buffer out = device(std::vector<float>(4, 9.0f)), idx = device(hidx), val = device(hval), arg = device(std::vector<cl_ulong>(4, 77));
  const cl::Buffer offs = device(std::vector<cl_uint>{0});
  const auto before_out = bytes_of(out), before_arg = bytes_of(arg);
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  clatomics::ProfileScope enqueued;
  // Buffer ranges, bins 0: every index out of range, counted; refused with OutOfRange::refuse; count 0: nothing.
  auto r = scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, n, ScatterOp::sum);
  CHECK(r.out_of_range == n);
  CHECK(r.strategy == ScatterStrategy::global_atomics);
  CHECK(test::contains(test::message_of<IA>([&] {
                         scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, n, ScatterOp::sum, refuse);
                       }),
                       "bins is 0"));
  CHECK(scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, 0, ScatterOp::max, refuse).out_of_range == 0);
  // Width 0: no values at all, nothing counted or refused (torch: an index tensor of no elements).
  r = scatter_ranges<float, cl_uint>(rt, out, 0, 4, idx, 0, val, 0, n, ScatterOp::sum, refuse, Rows{0, 0, 0});
  CHECK(r.out_of_range == 0);
  // argmin into no bins; segments: none.
  CHECK(arg_ranges<float, cl_uint>(rt, out, 0, 0, arg, 0, idx, 0, val, 0, n, ScatterOp::min).out_of_range == n);
  for (const bool self : {true, false})
    CHECK(segment_ranges<float, cl_uint>(rt, out, 0, 0, offs, 0, val, 0, n, ScatterOp::mean, options(self)).out_of_range == 0);
  // Views.
  using clatomics::view;
  CHECK(clatomics::scatter_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(idx, 0, n), view<float>(val, 0, n), ScatterOp::sum).out_of_range ==
        n);
  CHECK(clatomics::scatter_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(idx, 0, 3), view<float>(val, 0, 0), ScatterOp::sum, {}, 0)
            .out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(offs, 0, 1), view<float>(val, 0, n), ScatterOp::sum)
            .out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(offs, 0, 0), view<float>(val, 0, n), ScatterOp::sum, options(false))
            .out_of_range == 0);
  // Host vectors.
  std::vector<float> none;
  CHECK(clatomics::scatter_reduce(rt, none, hidx, hval, ScatterOp::max).out_of_range == n);
  CHECK_THROWS_AS(clatomics::scatter_reduce(rt, none, hidx, hval, ScatterOp::max, refuse), IA);
  CHECK(clatomics::scatter_reduce(rt, none, std::vector<cl_uint>{}, std::vector<float>{}, ScatterOp::max, refuse).out_of_range == 0);
  CHECK(clatomics::scatter_reduce(rt, none, hidx, std::vector<float>{}, ScatterOp::sum, refuse, 0).out_of_range == 0);
  CHECK(clatomics::scatter_reduce_arg(rt, none, hidx, hval, ScatterOp::min).empty());
  CHECK(clatomics::segment_reduce(rt, none, std::vector<cl_uint>{}, hval, ScatterOp::sum, options(false)).out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, none, std::vector<cl_ulong>{0}, hval, ScatterOp::sum).out_of_range == 0);
  CHECK(none.empty());
  CHECK(enqueued.commands() == 0);
  CHECK(bytes_of(out) == before_out);
  CHECK(bytes_of(arg) == before_arg);
  // Still refused: null buffers, odd ops, and sizes that do not match.
  const cl::Buffer null_buffer;
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, null_buffer, 0, 0, idx, 0, val, 0, n, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, out, 0, 0, null_buffer, 0, val, 0, n, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((segment_ranges<float, cl_uint>(rt, out, 0, 0, offs, 0, val, 0, n, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, none, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, none, std::vector<cl_uint>{0, 0}, hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, none, hidx, std::vector<float>(n, 1.0f), ScatterOp::sum, {}, 0)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce_arg(rt, none, hidx, hval, ScatterOp::sum)), IA);
  CHECK(enqueued.commands() == 0);
}

// ---- Empty CSR segments ----------------------------------------------------------------------------

TEST_CASE("an empty CSR segment: the empty reduction without include_self (torch_scatter's segment_csr), out's value with it") {
  auto& rt = test::runtime();
  // Segments 1 and 3 are empty.
  const std::vector<cl_ulong> offsets = {0, 3, 3, 7, 7, 10};
  std::vector<float> values(10);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i + 1);
  const std::vector<float> init = {100, -200, 300, 400, 500};
  struct Case {
    ScatterOp op;
    bool deterministic;
    std::vector<float> without_self, with_self;
  };
  const std::vector<Case> cases = {
      {ScatterOp::sum, false, {6, 0, 22, 0, 27}, {106, -200, 322, 400, 527}},
      {ScatterOp::sum, true, {6, 0, 22, 0, 27}, {106, -200, 322, 400, 527}},
      {ScatterOp::max, false, {3, 0, 7, 0, 10}, {100, -200, 300, 400, 500}},
      {ScatterOp::mean, false, {2, 0, 5.5f, 0, 9}, {26.5f, -200, 64.4f, 400, 131.75f}},
      {ScatterOp::prod, false, {6, 1, 840, 1, 720}, {600, -200, 252000, 400, 360000}},
  };
  for (const Case& c : cases) {
    if (c.deterministic && !rt.supports_double()) continue;
    for (const bool self : {false, true}) {
      INFO(op_name(c.op), c.deterministic ? " deterministic" : "", self ? ", include_self" : ", without self");
      std::vector<float> out = init;
      clatomics::segment_reduce(rt, out, offsets, values, c.op, options(self, ScatterStrategy::automatic, c.deterministic));
      CHECK(out == (self ? c.with_self : c.without_self));
      if (!self) CHECK(!std::signbit(out[1]));  // +0
    }
  }
  // No values at all (every segment empty); rows of 2 at an offset, padding untouched.
  const std::vector<cl_uint> flat = {0, 0, 0};
  const cl::Buffer dout = device(std::vector<float>{-1, 7, 7, -1, 7, 7}), doffs = device(flat), dval = device(std::vector<float>{1});
  segment_ranges<float, cl_uint>(rt, dout, 1, 2, doffs, 0, dval, 0, 0, ScatterOp::max, options(true), Rows{2, 3, 3});
  CHECK(test::to_host<float>(rt, dout, 6) == std::vector<float>{-1, 7, 7, -1, 7, 7});
  segment_ranges<float, cl_uint>(rt, dout, 1, 2, doffs, 0, dval, 0, 0, ScatterOp::max, options(false), Rows{2, 3, 3});
  CHECK(test::to_host<float>(rt, dout, 6) == std::vector<float>{-1, 0, 0, -1, 0, 0});
  std::vector<cl_int> iout = {5, 5};
  clatomics::segment_reduce(rt, iout, flat, std::vector<cl_int>{}, ScatterOp::prod, options(false));
  CHECK(iout == std::vector<cl_int>{1, 1});
  iout = {5, 5};
  clatomics::segment_reduce(rt, iout, flat, std::vector<cl_int>{}, ScatterOp::min, options(false));
  CHECK(iout == std::vector<cl_int>{0, 0});
}

TEST_CASE("refusals quote the offending values: an index out of range, an offset") {
  auto& rt = test::runtime();
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  std::vector<float> out(10, 0.0f);
  const std::string index = test::message_of<std::invalid_argument>(
      [&] { clatomics::scatter_reduce(rt, out, std::vector<cl_ulong>{1, 2, 12, 3, 40}, std::vector<float>(5, 1.0f), ScatterOp::sum, refuse); });
  INFO(index);
  CHECK(test::contains(index, "indices[2] = 12 is >= bins (10)"));
  CHECK(test::contains(index, "1 more"));
  std::vector<float> seg(3, 0.0f);
  const std::string down = test::message_of<std::invalid_argument>(
      [&] { clatomics::segment_reduce(rt, seg, std::vector<cl_uint>{0, 5, 3, 6}, std::vector<float>(6, 1.0f), ScatterOp::sum); });
  INFO(down);
  CHECK(test::contains(down, "offsets[1] = 5 is above offsets[2] = 3"));
  const std::string past = test::message_of<std::invalid_argument>(
      [&] { clatomics::segment_reduce(rt, seg, std::vector<cl_uint>{0, 2, 3, 9}, std::vector<float>(6, 1.0f), ScatterOp::sum); });
  INFO(past);
  CHECK(test::contains(past, "offsets[3] = 9 passes count (6)"));
  CHECK(out == std::vector<float>(10, 0.0f));
}
