// scatter_reduce over several devices of one host (device_group.hpp): every op with and without
// out's values and rows against the host's exact result, deterministic float sums with the same
// bits on one device and on the group, NaN in min/max as on one device, empty outputs, rows far
// wider than a chunk, refusals with out untouched, a failing chunk reported. CTest runs it, as
// test_device_group, on two PoCL devices (POCL_DEVICES="pthread pthread").
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "device_group_harness.hpp"
#include "group_scatter_reference.hpp"
#include "groups/group_spread.hpp"
#include "support.hpp"

using namespace group_test;

TEST_CASE("group scatter_reduce: an absurd width is refused at once, and rows far wider than a chunk still run") {
  DeviceGroup& group = group_of_all();
  std::vector<float> out{1, 2, 3, 4};
  const std::vector<cl_uint> one_index{0};
  const std::vector<float> one_value{1.0f};
  for (const std::size_t width : {std::size_t(1) << 40, SIZE_MAX / 2, std::size_t(3), std::size_t(0)})
    CHECK_THROWS_AS((clatomics::scatter_reduce<float, cl_uint>(group, out, one_index, one_value, clatomics::ScatterOp::sum, {}, width)),
                    std::invalid_argument);
  CHECK(out == std::vector<float>{1, 2, 3, 4});
  // Rows of 8 MiB: 64 of them (the chunk's usual multiple) would be 512 MiB of staging.
  const std::vector<clatomics::detail::HostArray> arrays{{nullptr, sizeof(cl_uint)}, {nullptr, std::size_t(8) << 20}};
  const std::size_t chunk = clatomics::detail::group_chunk(group, 1000, arrays, 64);
  CHECK(chunk >= 1);
  CHECK(chunk * (std::size_t(8) << 20) <= std::size_t(64) << 20);
  for (std::size_t d = 0; d < group.size(); ++d)
    CHECK(clatomics::detail::staging_offset(arrays, 2, chunk) <= group.runtime(d).device_info().caps.max_mem_alloc_size);
  // And a call with such rows: 20 rows of 2^21 floats into 3 bins.
  const std::size_t width = std::size_t(1) << 21;
  std::vector<float> wide_out(3 * width, 0.0f), values(20 * width);
  std::vector<cl_uint> rows(20);
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = cl_uint(r % 3);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i % 5);
  clatomics::scatter_reduce<float, cl_uint>(group, wide_out, rows, values, clatomics::ScatterOp::sum, {}, width);
  std::size_t wrong = 0;
  for (std::size_t b = 0; b < 3; ++b)
    for (std::size_t c = 0; c < width; ++c) {
      float expect = 0;
      for (std::size_t r = b; r < rows.size(); r += 3) expect += values[r * width + c];
      wrong += wide_out[b * width + c] != expect;
    }
  CHECK(wrong == 0);
}

TEST_CASE("group scatter_reduce, deterministic, of values that are all zero: as one device's fast mode") {
  DeviceGroup& group = group_of_all();
  clatomics::ScatterOptions o;
  o.include_self = false;
  o.deterministic = true;
  std::vector<float> out{5, 5, 5};
  const auto r = clatomics::scatter_reduce<float, cl_uint>(group, out, {0, 0, 1, 9}, {0.0f, 0.0f, 0.0f, 0.0f}, clatomics::ScatterOp::sum, o);
  CHECK(r.out_of_range == 1);
  CHECK(out == std::vector<float>{0, 0, 5});
  CHECK(!std::signbit(out[0]));
}

namespace {

template <class V>
void check_group_scatter(std::size_t width) {
  using clatomics::ScatterOp;
  // Indices past bins (counted), and every tenth bin reached by none (keeps its value).
  const std::size_t bins = 3001, n = 100003;
  std::vector<cl_uint> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = test::mix(std::uint32_t(i)) % cl_uint(bins + 50) / 10 * 10 + 1 + i % 9;
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean})
    for (const bool include_self : {true, false}) {
      CAPTURE(int(op));
      CAPTURE(include_self);
      auto c = group_test::scatter_case<V>(indices, bins, width, op, include_self);
      const SmallChunks chunks(64 << 10);  // a dozen chunks or more
      const clatomics::ScatterResult r = clatomics::scatter_reduce<V, cl_uint>(group_of_all(), c.out, indices, c.values, op, c.options, width);
      CHECK(r.out_of_range == c.out_of_range);
      CHECK(c.out == c.expected);
    }
}

}  // namespace

TEST_CASE("group scatter_reduce: every op, with and without out's values, rows; equal to the host's exact result") {
  check_group_scatter<float>(1);
  check_group_scatter<cl_int>(1);
  check_group_scatter<cl_uint>(1);
  check_group_scatter<float>(3);
  if (group_of_all().runtime(0).supports_double()) check_group_scatter<double>(1);
}

TEST_CASE("group scatter_reduce: deterministic float sums have the same bits on one device and on the group") {
  const std::size_t bins = 257, n = 200003;
  std::vector<cl_ulong> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = test::mix(std::uint32_t(i)) % bins;
  const std::vector<float> values = mixed_floats(n);
  clatomics::ScatterOptions det;
  det.deterministic = true;
  const SmallChunks chunks(128 << 10);
  if (!group_of_all().runtime(0).supports_double()) return;  // deterministic sums need fp64 and 64-bit atomics
  DeviceGroup& first_device = first_device_alone();
  std::vector<float> one(bins, 1.5f), all(bins, 1.5f);
  clatomics::scatter_reduce<float, cl_ulong>(first_device, one, indices, values, clatomics::ScatterOp::sum, det);
  for (int run = 0; run < 3; ++run) {
    std::fill(all.begin(), all.end(), 1.5f);
    clatomics::scatter_reduce<float, cl_ulong>(group_of_all(), all, indices, values, clatomics::ScatterOp::sum, det);
    for (std::size_t b = 0; b < bins; ++b) REQUIRE(bits(all[b]) == bits(one[b]));
  }
  // Each chunk's sum rounded once, then the result: within eps * (sum of |values| + |result|).
  std::vector<double> exact(bins, 1.5), magnitude(bins, 1.5);
  for (std::size_t i = 0; i < n; ++i) exact[indices[i]] += values[i], magnitude[indices[i]] += std::abs(values[i]);
  for (std::size_t b = 0; b < bins; ++b)
    CHECK(std::abs(all[b] - exact[b]) <= std::numeric_limits<float>::epsilon() * (magnitude[b] + std::abs(exact[b])));
}

TEST_CASE("group scatter_reduce refuses bad input with out untouched; a failing chunk is reported") {
  using clatomics::ScatterOp;
  DeviceGroup& group = group_of_all();
  const std::vector<cl_uint> indices{0, 1, 2, 7};
  const std::vector<float> values{1, 2, 3, 4};
  std::vector<float> out{5, 6, 7}, empty;
  const std::vector<float> before = out;
  clatomics::ScatterOptions refuse;
  refuse.out_of_range = clatomics::OutOfRange::refuse;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, indices, values, ScatterOp::sum, refuse); }),
                       ">= bins"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, empty, indices, values, ScatterOp::sum, refuse); }),
                       "bins is 0"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, indices, values, ScatterOp::sum, {}, 0); }),
                       "width"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, {0, 1}, values, ScatterOp::sum); }),
                       "elements"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, indices, values, ScatterOp(99)); }),
                       "op"));
  CHECK(out == before);
  const SmallChunks chunks(4 << 10);
  std::vector<cl_uint> many(100000, 1);
  std::vector<float> ones(100000, 1.0f);
  clatomics::testing::set_failing_group_chunk(3);
  const std::string failed = test::message_of<clatomics::Error>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, many, ones, ScatterOp::sum); });
  clatomics::testing::set_failing_group_chunk(SIZE_MAX);
  CHECK(test::contains(failed, "chunk 3"));
  CHECK(out == before);
  clatomics::scatter_reduce<float, cl_uint>(group, out, many, ones, ScatterOp::sum);
  CHECK(out == std::vector<float>{5, 100006, 7});
}

TEST_CASE("group scatter_reduce: float min/max propagate NaN by default and treat it as missing with NanRule::missing, as one device") {
  using clatomics::NanRule;
  using clatomics::ScatterOp;
  DeviceGroup& group = group_of_all();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  float odd;
  const std::uint32_t odd_bits = 0xffc00123u;  // out's own NaN, negative with a payload
  std::memcpy(&odd, &odd_bits, 4);
  // Many chunks; bin 0 meets one NaN in the middle, bin 1 only finite values, bin 2 only NaN (of
  // both signs), bin 3 none (out's odd NaN, kept bit for bit), bin 4 finite values into out's NaN.
  const std::size_t n = 60000;
  std::vector<cl_uint> indices(n);
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    indices[i] = cl_uint(i % 5 == 3 ? 1 : i % 5);
    values[i] = float(int(test::mix(std::uint32_t(i)) % 2001) - 1000);
    if (indices[i] == 2) values[i] = (i & 1) ? nan : -nan;
  }
  values[30000] = nan;  // bin 0
  values[5] = -inf;     // bin 0
  const std::vector<float> init = {0, 0, 0, odd, nan};
  const auto bits_of = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  };
  const SmallChunks chunks(16 << 10);
  DeviceGroup& first_device = first_device_alone();
  group_test::each_nan_case([&](bool self, ScatterOp op, NanRule rule, const auto& same) {
    clatomics::ScatterOptions o;
    o.include_self = self;
    o.nan = rule;
    std::vector<float> one = init, all = init;
    clatomics::scatter_reduce<float, cl_uint>(first_device, one, indices, values, op, o);  // one device, in chunks
    std::vector<float> single = init;
    clatomics::scatter_reduce<float, cl_uint>(group.runtime(0), single, indices, values, op, o);
    clatomics::scatter_reduce<float, cl_uint>(group, all, indices, values, op, o);
    for (std::size_t b = 0; b < init.size(); ++b) {
      CAPTURE(b);
      CHECK(same(all[b], single[b]));
      CHECK(same(one[b], single[b]));
    }
    CHECK(bits_of(all[3]) == odd_bits);
    float finite = op == ScatterOp::min ? inf : -inf;
    for (std::size_t i = 1; i < n; i += 5) finite = op == ScatterOp::min ? std::min(finite, values[i]) : std::max(finite, values[i]);
    for (std::size_t i = 3; i < n; i += 5) finite = op == ScatterOp::min ? std::min(finite, values[i]) : std::max(finite, values[i]);
    const float bin1 = self ? (op == ScatterOp::min ? std::min(0.0f, finite) : std::max(0.0f, finite)) : finite;
    CHECK(all[1] == bin1);
    if (rule == NanRule::propagate) {
      CHECK(bits_of(all[0]) == 0x7fc00000u);
      CHECK(bits_of(all[2]) == 0x7fc00000u);
      if (self) CHECK(bits_of(all[4]) == 0x7fc00000u);  // out's own NaN
      else CHECK(!std::isnan(all[4]));
    } else {
      CHECK(!std::isnan(all[0]));
      if (op == ScatterOp::min) CHECK(all[0] == -inf);
      CHECK(std::isnan(all[2]) == !self);  // NaN alone: out's value with self, else NaN
      CHECK(!std::isnan(all[4]));
    }
  });
}

TEST_CASE("group scatter_reduce: an empty out (or rows of width 0) runs nothing; every index is out of range") {
  using clatomics::ScatterOp;
  DeviceGroup& group = group_of_all();
  std::vector<float> none;
  const std::vector<cl_uint> indices{0, 1, 2, 7};
  const std::vector<float> values{1, 2, 3, 4};
  CHECK(clatomics::scatter_reduce<float, cl_uint>(group, none, indices, values, ScatterOp::sum).out_of_range == 4);
  CHECK(clatomics::scatter_reduce<float, cl_uint>(group, none, {}, {}, ScatterOp::max).out_of_range == 0);
  clatomics::ScatterOptions refuse;
  refuse.out_of_range = clatomics::OutOfRange::refuse;
  CHECK_THROWS_AS((clatomics::scatter_reduce<float, cl_uint>(group, none, indices, values, ScatterOp::sum, refuse)), std::invalid_argument);
  CHECK(clatomics::scatter_reduce<float, cl_uint>(group, none, indices, {}, ScatterOp::sum, refuse, 0).out_of_range == 0);
  CHECK_THROWS_AS((clatomics::scatter_reduce<float, cl_uint>(group, none, indices, values, ScatterOp(99))), std::invalid_argument);
  CHECK(none.empty());
}
