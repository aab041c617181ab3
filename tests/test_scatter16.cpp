// 16-bit scatter outputs: scatter_reduce, segment_reduce and reduce_by_key of half_t / bfloat16_t
// values into outputs of the same type, accumulated in float and rounded once at the end to
// nearest even (checked against test::Format's reference rounding, sixteen_bits.hpp): every op,
// include_self both ways, ties, overflow to inf, NaN, the bits of a bin no value reaches, views at
// offsets, row strides, host vectors, buffers, every strategy, deterministic sums, refusals that
// leave the output untouched; and the float output, still offered, unrounded.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/scatter.hpp"
#include "sixteen_bits.hpp"
#include "scatter_calls.hpp"
#include "support.hpp"

namespace {

using clatomics::bfloat16_t;
using clatomics::half_t;
using clatomics::OutOfRange;
using clatomics::Rows;
using clatomics::ScatterOp;
using clatomics::ScatterOptions;
using clatomics::ScatterStrategy;

template <class H>
const test::Format& format_of() {
  if constexpr (std::is_same_v<H, half_t>) return test::half_format();
  else return test::bf16_format();
}
template <class H>
const char* name_of() {
  return std::is_same_v<H, half_t> ? "half" : "bfloat16";
}
// x must be a value of the format (the tests' data are).
template <class H>
H make(double x) {
  const H h{format_of<H>().round(x)};
  REQUIRE_MESSAGE(format_of<H>().value(h.bits) == x, "test data: ", x, " is not a ", name_of<H>(), " value");
  return h;
}
template <class H>
std::vector<H> make(const std::vector<double>& xs) {
  std::vector<H> out;
  for (double x : xs) out.push_back(make<H>(x));
  return out;
}
template <class H>
double value(H h) {
  return format_of<H>().value(h.bits);
}
// A signalling NaN with a payload: a bin no value reaches must keep these bits.
template <class H>
H sentinel() {
  return H{format_of<H>().nan_sentinel};
}

using test::op_name;

std::string hex(cl_ushort b) {
  std::ostringstream s;
  s << "0x" << std::hex << b;
  return s.str();
}

// The same bits, or both NaN (a rounded NaN's payload is the device's).
template <class H>
void check_bits(const std::vector<H>& got, const std::vector<cl_ushort>& expected, const std::string& what) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    const test::Format& f = format_of<H>();
    const bool same = got[k].bits == expected[k] || (f.is_nan(got[k].bits) && f.is_nan(expected[k]) && expected[k] == 0x7fff);
    CHECK_MESSAGE(same, what, ": element ", k, " is ", hex(got[k].bits), " (", value(got[k]), "), expected ", hex(expected[k]), " (",
                  f.value(expected[k]), ")");
  }
}

// The reference: each bin's float result as the library computes it (the data keep every sum and
// product exact in float, in any order), rounded once to the format; a bin no value reaches keeps
// its bits. bin_of[i]: element i's bin.
template <class H>
std::vector<cl_ushort> reference(const std::vector<H>& out, const std::vector<std::size_t>& bin_of, const std::vector<H>& values,
                                 ScatterOp op, bool include_self) {
  std::vector<cl_ushort> e(out.size());
  for (std::size_t b = 0; b < out.size(); ++b) {
    std::vector<double> members;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (bin_of[i] == b) members.push_back(value(values[i]));
    if (members.empty()) {
      e[b] = out[b].bits;
      continue;
    }
    if (include_self) members.push_back(value(out[b]));
    double r = op == ScatterOp::prod ? 1.0 : op == ScatterOp::min ? INFINITY : op == ScatterOp::max ? -INFINITY : 0.0;
    for (double m : members) {
      if (op == ScatterOp::sum || op == ScatterOp::mean) r += m;
      else if (op == ScatterOp::prod) r *= m;
      else if (op == ScatterOp::min) r = std::fmin(r, m);
      else r = std::fmax(r, m);
    }
    float f = float(r);
    REQUIRE_MESSAGE(double(f) == r, "test data: a result not exact in float");
    if (op == ScatterOp::mean) f = f / float(members.size());
    e[b] = format_of<H>().round(double(f));
  }
  return e;
}

// Four bins reached and one (a signalling NaN) left alone; rounding cases among the results:
// half 2051.5 -> 2052, bfloat16 5*7*9 = 315 -> 316 and 247.5 -> 248 (ties to even).
struct Case {
  std::vector<double> out = {1, 0.5, -3, 7, 0};
  std::vector<cl_uint> indices = {0, 0, 0, 1, 1, 2, 2, 2, 3};
  std::vector<double> values = {5, 7, 9, 2048, 3, 255, 1.5, -6, 96};
};

template <class H>
std::vector<H> case_out() {
  std::vector<H> out = make<H>(Case{}.out);
  out[4] = sentinel<H>();
  return out;
}

using test::options;

template <class H>
void every_op() {
  auto& rt = test::runtime();
  const Case c;
  const std::vector<H> values = make<H>(c.values);
  const std::vector<std::size_t> bin_of(c.indices.begin(), c.indices.end());
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean})
    for (const bool self : {true, false}) {
      const std::string what = std::string(name_of<H>()) + " " + op_name(op) + (self ? ", include_self" : ", without out's values");
      const auto e = reference(case_out<H>(), bin_of, values, op, self);
      // Host vectors, every strategy.
      for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                      ScatterStrategy::local_cache}) {
        std::vector<H> out = case_out<H>();
        clatomics::scatter_reduce(rt, out, c.indices, values, op, options(self, s));
        check_bits(out, e, what + ", host, " + clatomics::strategy_name(s));
      }
      // Deterministic sums and means: the same (the sums here are exact), but for the bin no value
      // reaches with include_self: the float path's finish writes out's own value back, a NaN
      // (quiet) for a signalling one, as it does for a float output.
      if ((op == ScatterOp::sum || op == ScatterOp::mean) && rt.supports_double() && rt.device_info().caps.int64_base_atomics) {
        std::vector<H> out = case_out<H>();
        clatomics::scatter_reduce(rt, out, c.indices, values, op, options(self, ScatterStrategy::automatic, true));
        auto ed = e;
        if (self) ed[4] = 0x7fff;
        check_bits(out, ed, what + ", host, deterministic");
      }
      // Views at offsets: the elements around out keep their bits.
      {
        std::vector<H> padded(3, sentinel<H>());
        const auto init = case_out<H>();
        padded.insert(padded.end(), init.begin(), init.end());
        padded.push_back(sentinel<H>());
        std::vector<cl_uint> pidx(2, 99);
        pidx.insert(pidx.end(), c.indices.begin(), c.indices.end());
        std::vector<H> pval(5, make<H>(1000));
        pval.insert(pval.end(), values.begin(), values.end());
        const cl::Buffer dout = test::to_device(rt, padded), didx = test::to_device(rt, pidx), dval = test::to_device(rt, pval);
        clatomics::scatter_reduce(rt, clatomics::view<H>(dout, 3, init.size()), clatomics::view<cl_uint>(didx, 2, c.indices.size()),
                                  clatomics::view<H>(dval, 5, values.size()), op, options(self));
        const auto got = test::to_host<H>(rt, dout, padded.size());
        std::vector<cl_ushort> ep(3, sentinel<H>().bits);
        ep.insert(ep.end(), e.begin(), e.end());
        ep.push_back(sentinel<H>().bits);
        check_bits(got, ep, what + ", views at offsets");
      }
      // Views of rows of width 1 at stride 3 from offset 1: the gaps keep their bits.
      {
        const auto init = case_out<H>();
        std::vector<H> strided(1 + 3 * init.size(), sentinel<H>());
        for (std::size_t b = 0; b < init.size(); ++b) strided[1 + 3 * b] = init[b];
        const cl::Buffer dout = test::to_device(rt, strided);
        clatomics::scatter_reduce(rt, clatomics::view<H>(dout, 1, 3 * init.size() - 2), clatomics::view<cl_uint>(test::to_device(rt, c.indices)),
                                  clatomics::view<H>(test::to_device(rt, values)), op, options(self), Rows{1, 1, 3});
        std::vector<cl_ushort> es(strided.size(), sentinel<H>().bits);
        for (std::size_t b = 0; b < init.size(); ++b) es[1 + 3 * b] = e[b];
        check_bits(test::to_host<H>(rt, dout, strided.size()), es, what + ", buffer rows at a stride");
      }
    }
}

TEST_CASE("16-bit outputs: every op, with and without out's values, rounded once to nearest even") {
  every_op<half_t>();
  every_op<bfloat16_t>();
}

TEST_CASE("bfloat16 prod 5*7*9: 316 (0x439e) as torch gives, 315 in a float output") {
  auto& rt = test::runtime();
  const std::vector<bfloat16_t> values = make<bfloat16_t>({5, 7, 9});
  const std::vector<cl_uint> indices = {0, 0, 0};
  std::vector<bfloat16_t> out = {make<bfloat16_t>(1)};
  clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::prod);
  CHECK(out[0].bits == 0x439e);
  // The second choice: a float output holds the float accumulation, unrounded.
  std::vector<float> wide = {1.0f};
  clatomics::scatter_reduce(rt, wide, indices, values, ScatterOp::prod);
  CHECK(wide[0] == 315.0f);
  const cl::Buffer dwide = test::to_device(rt, std::vector<float>{1.0f}), didx = test::to_device(rt, indices),
                   dval = test::to_device(rt, values);
  clatomics::scatter_reduce(rt, clatomics::view<float>(dwide), clatomics::view<cl_uint>(didx), clatomics::view<bfloat16_t>(dval),
                            ScatterOp::prod);
  CHECK(test::to_host<float>(rt, dwide, 1)[0] == 315.0f);
  const cl::Buffer dnarrow = test::to_device(rt, std::vector<bfloat16_t>{make<bfloat16_t>(1)});
  clatomics::scatter_reduce(rt, clatomics::view<bfloat16_t>(dnarrow), clatomics::view<cl_uint>(didx), clatomics::view<bfloat16_t>(dval),
                            ScatterOp::prod);
  CHECK(test::to_host<bfloat16_t>(rt, dnarrow, 1)[0].bits == 0x439e);
}

// One sum per bin (include_self false): pairs of values and the bits their float sum rounds to.
template <class H>
void check_sums(const std::vector<std::vector<double>>& bins, const std::vector<cl_ushort>& expected, const std::string& what) {
  auto& rt = test::runtime();
  std::vector<cl_uint> indices;
  std::vector<H> values;
  for (std::size_t b = 0; b < bins.size(); ++b)
    for (double v : bins[b]) {
      indices.push_back(cl_uint(b));
      values.push_back(std::isnan(v) ? H{cl_ushort(format_of<H>().inf | 0x1)} : make<H>(v));
    }
  for (const bool deterministic : {false, true}) {
    if (deterministic && !(rt.supports_double() && rt.device_info().caps.int64_base_atomics)) continue;
    std::vector<H> out(bins.size(), make<H>(0));
    clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::sum, options(false, ScatterStrategy::automatic, deterministic));
    check_bits(out, expected, what + (deterministic ? ", deterministic" : ""));
  }
}

TEST_CASE("16-bit sums: ties to even, overflow to inf, NaN stays NaN") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // half: 2049 and 2051 are ties (steps of 2 from 2048); 120000 and 65520 overflow (65520 is the
  // tie between the largest half and 65536: even is inf); 65512 rounds down to 65504.
  check_sums<half_t>({{2048, 1}, {2048, 3}, {60000, 60000}, {-60000, -60000}, {65504, 16}, {65504, 8}, {nan, 1}, {0.5, 0.25}},
                     {0x6800, 0x6802, 0x7c00, 0xfc00, 0x7c00, 0x7bff, 0x7fff, 0x3a00}, "half sums");
  // bfloat16: steps of 2 from 256 (257 -> 256, 259 -> 260); 255.5 is a tie carried into the
  // next exponent; float's own overflow is inf (a call of its own: deterministic sums round
  // values far below a call's largest to its grid).
  check_sums<bfloat16_t>({{256, 1}, {256, 3}, {255, 0.5}, {nan, 1}}, {0x4380, 0x4382, 0x4380, 0x7fff}, "bfloat16 sums");
  check_sums<bfloat16_t>({{3.3895313892515355e38, 3.3895313892515355e38}, {-3.3895313892515355e38, -3.3895313892515355e38}},
                         {0x7f80, 0xff80}, "bfloat16 overflow");
}

TEST_CASE("16-bit min and max: NaN propagates (or is missing data under NanRule::missing), -0 below +0, the values' own bits") {
  auto& rt = test::runtime();
  const std::vector<cl_uint> indices = {0, 0, 1, 1};
  std::vector<half_t> values = make<half_t>({-0.0, 0.0, 3, -7});
  values[3] = half_t{0x7e01};  // a NaN with a payload
  ScatterOptions missing = options(false);
  missing.nan = clatomics::NanRule::missing;
  for (const ScatterOp op : {ScatterOp::max, ScatterOp::min}) {
    const cl_ushort zero = op == ScatterOp::max ? 0x0000 : 0x8000;
    std::vector<half_t> out = make<half_t>({5, 1});
    clatomics::scatter_reduce(rt, out, indices, values, op, options(false));
    check_bits(out, {zero, 0x7e00}, op_name(op) + ": the NaN propagates, written as the quiet NaN");
    out = make<half_t>({5, 1});
    clatomics::scatter_reduce(rt, out, indices, values, op, missing);
    check_bits(out, {zero, make<half_t>(3).bits}, op_name(op) + ", NanRule::missing");
  }
}

// Many values per bin (multiples of 1/4 below 64: every float sum exact in any order), every
// strategy, rows of 3: the exact sum rounded once.
template <class H>
void many_values() {
  auto& rt = test::runtime();
  const std::size_t n = 20000, width = 3;
  for (const std::size_t bins : {std::size_t(7), std::size_t(3000)}) {
    std::mt19937 gen{unsigned(bins)};
    std::vector<cl_uint> indices(n);
    std::vector<H> values(n * width);
    for (auto& i : indices) i = cl_uint(gen() % (gen() % 4 == 0 ? 2 : bins));  // some hot bins
    for (auto& v : values) v = make<H>(double(int(gen() % 511) - 255) / 4);
    std::vector<H> init(bins * width);
    for (auto& v : init) v = make<H>(double(int(gen() % 511) - 255));
    for (const bool self : {true, false})
      for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
        std::vector<double> sums(init.size(), 0.0);
        std::vector<std::size_t> reached(bins, 0);
        for (std::size_t i = 0; i < n; ++i) {
          ++reached[indices[i]];
          for (std::size_t d = 0; d < width; ++d) sums[indices[i] * width + d] += value(values[i * width + d]);
        }
        std::vector<cl_ushort> e(init.size());
        for (std::size_t b = 0; b < bins; ++b)
          for (std::size_t d = 0; d < width; ++d) {
            const std::size_t j = b * width + d;
            if (!reached[b]) {
              e[j] = init[j].bits;
              continue;
            }
            const double s = sums[j] + (self ? value(init[j]) : 0.0);
            const float count = float(reached[b] + (self ? 1 : 0));
            const float f = op == ScatterOp::mean ? float(s) / count : float(s);
            e[j] = format_of<H>().round(double(f));
          }
        for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                        ScatterStrategy::local_cache}) {
          std::vector<H> out = init;
          try {
            clatomics::scatter_reduce(rt, out, indices, values, op, options(self, s), width);
          } catch (const std::invalid_argument&) {
            CHECK(s == ScatterStrategy::local_private);  // 3000 rows of 3 need not fit
            continue;
          }
          check_bits(out, e, std::string(name_of<H>()) + " " + op_name(op) + ", " + std::to_string(bins) + " bins of 3" +
                                 (self ? ", include_self, " : ", ") + clatomics::strategy_name(s));
        }
      }
  }
}

TEST_CASE("16-bit outputs of many values, every strategy, rows") {
  many_values<half_t>();
  many_values<bfloat16_t>();
}

template <class H>
void segments_and_keys() {
  auto& rt = test::runtime();
  const Case c;
  const std::vector<H> values = make<H>(c.values);
  const std::vector<std::size_t> bin_of(c.indices.begin(), c.indices.end());
  // Segments: offsets of the same bins (the indices are sorted), the last segment empty.
  const std::vector<cl_ulong> offsets = {0, 3, 5, 8, 9, 9};
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::mean})
    for (const bool self : {true, false}) {
      const std::string what = std::string(name_of<H>()) + " " + op_name(op) + (self ? ", include_self" : "");
      auto e = reference(case_out<H>(), bin_of, values, op, self);
      // The empty last segment without include_self: the empty reduction (torch_scatter's segment_csr).
      if (!self) e[4] = make<H>(op == ScatterOp::prod ? 1 : 0).bits;
      std::vector<H> out = case_out<H>();
      clatomics::segment_reduce(rt, out, offsets, values, op, options(self));
      check_bits(out, e, "segment_reduce " + what + ", host");
      const auto init = case_out<H>();
      std::vector<H> padded(2, sentinel<H>());
      padded.insert(padded.end(), init.begin(), init.end());
      const cl::Buffer dout = test::to_device(rt, padded), doff = test::to_device(rt, offsets), dval = test::to_device(rt, values);
      clatomics::segment_reduce(rt, clatomics::view<H>(dout, 2, init.size()), clatomics::view<cl_ulong>(doff), clatomics::view<H>(dval), op,
                                options(self));
      std::vector<cl_ushort> ep(2, sentinel<H>().bits);
      ep.insert(ep.end(), e.begin(), e.end());
      check_bits(test::to_host<H>(rt, dout, padded.size()), ep, "segment_reduce " + what + ", views");
    }
  // reduce_by_key: runs of keys 1, 4, 7, 9 over the same values.
  const std::vector<cl_uint> keys = {1, 1, 1, 4, 4, 7, 7, 7, 9};
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::mean}) {
    const auto e = reference(std::vector<H>(4, make<H>(0)), bin_of, values, op, false);
    const auto [unique, reductions] = clatomics::reduce_by_key(rt, keys, values, op);
    CHECK(unique == std::vector<cl_uint>{1, 4, 7, 9});
    static_assert(std::is_same_v<typename std::decay_t<decltype(reductions)>::value_type, H>);
    check_bits(reductions, e, std::string("reduce_by_key ") + name_of<H>() + " " + op_name(op) + ", host");
    // Views at offsets: the reductions from element 3, those before and after kept.
    const cl::Buffer dkeys = test::to_device(rt, keys), dval = test::to_device(rt, values),
                     dunique = test::to_device(rt, std::vector<cl_uint>(keys.size())),
                     dred = test::to_device(rt, std::vector<H>(3 + keys.size(), sentinel<H>()));
    CHECK(clatomics::reduce_by_key(rt, clatomics::view<cl_uint>(dkeys), clatomics::view<H>(dval), clatomics::view<cl_uint>(dunique),
                                   clatomics::view<H>(dred, 3, keys.size()), op) == 4);
    const auto got = test::to_host<H>(rt, dred, 3 + keys.size());
    std::vector<cl_ushort> er(3 + keys.size(), sentinel<H>().bits);
    for (std::size_t u = 0; u < 4; ++u) er[3 + u] = e[u];
    check_bits(got, er, std::string("reduce_by_key ") + name_of<H>() + " " + op_name(op) + ", buffers");
    // The float output, on request: unrounded.
    const auto wide = clatomics::reduce_by_key<cl_uint, H, float>(rt, keys, values, op);
    if (op == ScatterOp::prod) CHECK(wide.second[0] == 315.0f);
  }
}

TEST_CASE("segment_reduce and reduce_by_key: 16-bit outputs") {
  segments_and_keys<half_t>();
  segments_and_keys<bfloat16_t>();
}

TEST_CASE("a refused call leaves a 16-bit output untouched") {
  auto& rt = test::runtime();
  const std::vector<half_t> init = make<half_t>({1, 2, 3});
  const std::vector<half_t> values = make<half_t>({1, 1, 1});
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  const cl::Buffer dout = test::to_device(rt, init), dval = test::to_device(rt, values),
                   didx = test::to_device(rt, std::vector<cl_uint>{0, 5, 1});
  CHECK_THROWS_AS(clatomics::scatter_reduce(rt, clatomics::view<half_t>(dout), clatomics::view<cl_uint>(didx), clatomics::view<half_t>(dval),
                                            ScatterOp::sum, refuse),
                  std::invalid_argument);
  check_bits(test::to_host<half_t>(rt, dout, 3), {init[0].bits, init[1].bits, init[2].bits}, "after an index >= bins");
  // Offsets that decrease: found on the device, before out is widened or written.
  const cl::Buffer doff = test::to_device(rt, std::vector<cl_uint>{0, 2, 1, 3});
  CHECK_THROWS_AS(clatomics::segment_reduce(rt, clatomics::view<half_t>(dout), clatomics::view<cl_uint>(doff), clatomics::view<half_t>(dval),
                                            ScatterOp::sum),
                  std::invalid_argument);
  check_bits(test::to_host<half_t>(rt, dout, 3), {init[0].bits, init[1].bits, init[2].bits}, "after decreasing offsets");
  // A 16-bit output too short for its bins: the range check, before anything runs.
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, clatomics::view<half_t>(dout, 0, 4), clatomics::view<cl_uint>(test::to_device(rt, std::vector<cl_uint>{0, 1, 2, 3})),
                                              clatomics::view<half_t>(dval, 0, 4), ScatterOp::sum)),
                  std::invalid_argument);
  check_bits(test::to_host<half_t>(rt, dout, 3), {init[0].bits, init[1].bits, init[2].bits}, "after a range refusal");
}

}  // namespace
