// segment_reduce and reduce_by_key over several devices of one host (device_group.hpp), host data
// and resident data: every op with and without out's values, rows, 16-bit values, against one
// device's call on the same data (exact data: the same results whatever the order); segments and
// runs cut by chunks and by the devices' parts; deterministic float sums and means with one
// device's bits where no chunk cuts them, and with the same bits on one device of the group and
// on all of it where one does; NaN in min/max as on one device; empty inputs; refusals with one
// device's message and out untouched; a failing chunk reported. CTest runs it on two PoCL devices
// (POCL_DEVICES="pthread pthread").
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "device_group_harness.hpp"
#include "group_scatter_reference.hpp"
#include "sixteen_bits.hpp"

namespace {

using clatomics::DeviceGroup;
using clatomics::ScatterOp;
using clatomics::ScatterOptions;
using clatomics::detail::group_scatter_output_t;
using group_test::first_device_alone;
using group_test::group_of_all;
using group_test::SmallChunks;

constexpr ScatterOp all_ops[] = {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean};
constexpr std::size_t rows = 50021;     // two devices: distribute()'s parts meet at row 32768
constexpr std::size_t long_at = 31000;  // a long segment (or run) from here, across that boundary
constexpr std::size_t long_length = 3001;

// Segment (or run) lengths for rows rows: short ones of up to max_length rows (a tenth of the
// segments empty, where empty allows it), and one of long_length from long_at (none when
// long_length is 0). With aligned, a length never crosses a multiple of 64 rows.
std::vector<std::size_t> lengths(std::size_t max_length, bool empty, std::size_t long_length_here, bool aligned, unsigned salt) {
  std::vector<std::size_t> out;
  for (std::size_t at = 0, i = 0; at < rows; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i) * 5u + salt);
    std::size_t length = (empty && h % 10 == 0) ? 0 : 1 + h / 16 % max_length;
    if (long_length_here && at <= long_at && at + length > long_at) length = long_at + long_length_here - at;
    if (aligned) length = std::min(length, 64 - at % 64);
    length = std::min(length, rows - at);
    out.push_back(length);
    at += length;
  }
  return out;
}

// CSR offsets of the lengths, after `lead` rows no segment takes.
template <class I>
std::vector<I> offsets_of(const std::vector<std::size_t>& segment_lengths, std::size_t lead) {
  std::vector<I> offsets{I(lead)};
  for (const std::size_t length : segment_lengths)
    if (offsets.back() + length <= rows) offsets.push_back(I(offsets.back() + length));
  return offsets;
}

// Sorted keys, one run a length.
template <class K>
std::vector<K> keys_of(const std::vector<std::size_t>& run_lengths) {
  std::vector<K> keys;
  for (std::size_t r = 0; r < run_lengths.size(); ++r) keys.insert(keys.end(), run_lengths[r], K(3 * r + 1));
  return keys;
}

// out's own values: small integers (1 or 2 for products).
template <class O>
std::vector<O> own_values(std::size_t n, ScatterOp op) {
  std::vector<O> out(n);
  for (std::size_t j = 0; j < n; ++j) out[j] = O(op == ScatterOp::prod ? 1 + j % 2 : j % 7);
  return out;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

ScatterOptions with(bool include_self, bool deterministic = false) {
  ScatterOptions o;
  o.include_self = include_self;
  o.deterministic = deterministic;
  return o;
}

// segment_reduce of exact values on the group, host and resident, against one device's call.
template <class V, class I>
void check_segments(const std::vector<I>& offsets, std::size_t width) {
  DeviceGroup& group = group_of_all();
  const std::size_t bins = offsets.size() - 1;
  for (const ScatterOp op : all_ops)
    for (const bool include_self : {true, false}) {
      CAPTURE(int(op));
      CAPTURE(include_self);
      const std::vector<V> values = group_test::scatter_values<V>(rows * width, op);
      std::vector<V> one = own_values<V>(bins * width, op), host = one, resident = one;
      clatomics::segment_reduce<V, I>(group.runtime(0), one, offsets, values, op, with(include_self), width);
      clatomics::segment_reduce<V, I>(group, host, offsets, values, op, with(include_self), width);
      clatomics::segment_reduce<V, I>(group, resident, offsets, clatomics::distribute(group, values, width), op, with(include_self), width);
      CHECK(host == one);
      CHECK(resident == one);
    }
}

// reduce_by_key of exact values on the group, host and resident, against one device's call.
template <class V, class K>
void check_by_key(const std::vector<K>& keys) {
  DeviceGroup& group = group_of_all();
  const auto resident_keys = clatomics::distribute(group, keys);
  for (const ScatterOp op : all_ops) {
    CAPTURE(int(op));
    const std::vector<V> values = group_test::scatter_values<V>(keys.size(), op);
    const auto one = clatomics::reduce_by_key<K, V>(group.runtime(0), keys, values, op);
    CHECK(clatomics::reduce_by_key<K, V>(group, keys, values, op) == one);
    CHECK(clatomics::reduce_by_key<K, V>(group, resident_keys, clatomics::distribute(group, values), op) == one);
  }
}

// A deterministic sum (or mean) of the rows from .. to - 1 of column d, out's value self joined,
// of pieces each rounded once and then the result: within eps * (sum of |terms| + |exact|).
bool near_exact(float got, const std::vector<float>& values, std::size_t width, std::size_t d, std::size_t from, std::size_t to,
                const float* self, bool mean) {
  double exact = self ? *self : 0.0, magnitude = std::abs(exact);
  for (std::size_t i = from; i < to; ++i) exact += values[i * width + d], magnitude += std::abs(values[i * width + d]);
  const double count = double(to - from) + (self ? 1 : 0);
  if (mean) exact /= count, magnitude /= count;
  return std::abs(got - exact) <= std::numeric_limits<float>::epsilon() * (magnitude + std::abs(exact));
}

}  // namespace

TEST_CASE("group segment_reduce: every op, with and without out's values, rows; one device's results, segments cut by chunks and parts") {
  const SmallChunks chunks(16 << 10);  // chunks of some hundred rows: the long segment cut in many
  const auto short_and_long = lengths(40, true, long_length, false, 1);
  check_segments<float, cl_ulong>(offsets_of<cl_ulong>(short_and_long, 0), 1);
  check_segments<cl_int, cl_uint>(offsets_of<cl_uint>(short_and_long, 17), 1);  // rows before the first segment
  check_segments<cl_long, cl_ulong>(offsets_of<cl_ulong>(lengths(9, true, 0, false, 2), 0), 1);
  auto few = offsets_of<cl_ulong>(lengths(30, true, long_length, false, 3), 5);
  few.resize(few.size() / 2);  // rows after the last segment
  check_segments<float, cl_ulong>(few, 3);
  if (group_of_all().runtime(0).supports_double()) check_segments<double, cl_ulong>(offsets_of<cl_ulong>(short_and_long, 0), 2);
}

TEST_CASE("group reduce_by_key: every op; one device's results, runs cut by chunks and parts, keys that repeat apart") {
  const SmallChunks chunks(16 << 10);
  check_by_key<float, cl_uint>(keys_of<cl_uint>(lengths(40, false, long_length, false, 4)));
  check_by_key<cl_int, cl_ulong>(keys_of<cl_ulong>(lengths(5, false, long_length, false, 5)));
  check_by_key<cl_uint, cl_uint>(keys_of<cl_uint>(lengths(1, false, 0, false, 6)));  // every key its own run
  std::vector<cl_uint> apart(rows);  // runs of 1 .. 100 keys alternating between two keys
  for (std::size_t i = 0; i < rows; ++i) apart[i] = cl_uint(i / (1 + i / 500 % 100) % 2);
  check_by_key<float, cl_uint>(apart);
  if (group_of_all().runtime(0).supports_double()) check_by_key<double, cl_ulong>(keys_of<cl_ulong>(lengths(70, false, long_length, false, 7)));
}

TEST_CASE("group segment_reduce and reduce_by_key of 16-bit values: float results, as one device's float output") {
  DeviceGroup& group = group_of_all();
  const SmallChunks chunks(16 << 10);
  const auto segment_lengths = lengths(40, true, long_length, false, 8);
  const auto offsets = offsets_of<cl_uint>(segment_lengths, 0);
  const auto keys = keys_of<cl_uint>(lengths(40, false, long_length, false, 9));
  std::vector<clatomics::half_t> halves(rows);
  std::vector<clatomics::bfloat16_t> brains(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    const float v = float(int(test::mix(std::uint32_t(i) + 11u) % 61) - 30);  // exact in both, sums exact in float
    halves[i].bits = test::float_to_half(v), brains[i].bits = test::float_to_bf16(v);
  }
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max, ScatterOp::mean}) {
    CAPTURE(int(op));
    std::vector<float> one = own_values<float>(offsets.size() - 1, op), host = one, resident = one;
    clatomics::segment_reduce<clatomics::half_t, cl_uint, float>(group.runtime(0), one, offsets, halves, op);
    clatomics::segment_reduce<clatomics::half_t, cl_uint>(group, host, offsets, halves, op);
    clatomics::segment_reduce<clatomics::half_t, cl_uint>(group, resident, offsets, clatomics::distribute(group, halves), op);
    CHECK(host == one);
    CHECK(resident == one);
    const auto by_key = clatomics::reduce_by_key<cl_uint, clatomics::bfloat16_t, float>(group.runtime(0), keys, brains, op);
    CHECK(clatomics::reduce_by_key<cl_uint, clatomics::bfloat16_t>(group, keys, brains, op) == by_key);
    CHECK(clatomics::reduce_by_key<cl_uint, clatomics::bfloat16_t>(group, clatomics::distribute(group, keys), clatomics::distribute(group, brains), op) ==
          by_key);
  }
}

TEST_CASE("deterministic float sums and means: one device's bits where no chunk cuts a segment or run; else the same bits on any number of devices") {
  DeviceGroup& group = group_of_all();
  if (!group.runtime(0).supports_double()) return;  // deterministic sums need fp64 and 64-bit atomics
  const SmallChunks chunks(16 << 10);
  DeviceGroup& first_device = first_device_alone();
  for (const bool cut : {false, true}) {
    CAPTURE(cut);
    // Without the long one, every segment is shorter than a chunk (chunks end at segments), and
    // no run crosses a multiple of 64 rows (chunks end at one).
    const auto offsets = offsets_of<cl_uint>(lengths(60, true, cut ? long_length : 0, false, 10), 0);
    const std::size_t bins = offsets.size() - 1;
    const std::size_t cut_segment = std::size_t(std::upper_bound(offsets.begin(), offsets.end(), cl_uint(long_at)) - offsets.begin()) - 1;
    for (const std::size_t width : {std::size_t(1), std::size_t(3)}) {
      const std::vector<float> values = group_test::mixed_floats(rows * width);
      const auto resident_values = clatomics::distribute(group, values, width);
      for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
        for (const bool include_self : {true, false}) {
          CAPTURE(width);
          CAPTURE(int(op));
          CAPTURE(include_self);
          const ScatterOptions det = with(include_self, true);
          std::vector<float> own(bins * width);
          for (std::size_t j = 0; j < own.size(); ++j) own[j] = float(1 + j % 5) * 0.3f;
          std::vector<float> one = own, alone = own, host = own, resident = own;
          clatomics::segment_reduce<float, cl_uint>(group.runtime(0), one, offsets, values, op, det, width);
          clatomics::segment_reduce<float, cl_uint>(first_device, alone, offsets, values, op, det, width);
          clatomics::segment_reduce<float, cl_uint>(group, host, offsets, values, op, det, width);
          clatomics::segment_reduce<float, cl_uint>(group, resident, offsets, resident_values, op, det, width);
          CHECK(same_bits(host, alone));
          CHECK(same_bits(resident, host));
          if (!cut) CHECK(same_bits(host, one));
          for (std::size_t d = 0; cut && d < width; ++d) {
            const std::size_t j = cut_segment * width + d;
            CHECK(near_exact(host[j], values, width, d, offsets[cut_segment], offsets[cut_segment + 1], include_self ? &own[j] : nullptr,
                             op == ScatterOp::mean));
          }
        }
    }
    const auto run_lengths = lengths(60, false, cut ? long_length : 0, !cut, 11);
    const auto keys = keys_of<cl_uint>(run_lengths);
    const std::vector<float> values = group_test::mixed_floats(rows);
    const auto resident_keys = clatomics::distribute(group, keys);
    const auto resident_values = clatomics::distribute(group, values);
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
      CAPTURE(int(op));
      const ScatterOptions det = with(true, true);
      const auto one = clatomics::reduce_by_key<cl_uint, float>(group.runtime(0), keys, values, op, det);
      const auto alone = clatomics::reduce_by_key<cl_uint, float>(first_device, keys, values, op, det);
      const auto host = clatomics::reduce_by_key<cl_uint, float>(group, keys, values, op, det);
      const auto resident = clatomics::reduce_by_key<cl_uint, float>(group, resident_keys, resident_values, op, det);
      CHECK(host.first == one.first);
      CHECK(resident.first == one.first);
      CHECK(same_bits(host.second, alone.second));
      CHECK(same_bits(resident.second, host.second));
      if (!cut) CHECK(same_bits(host.second, one.second));
      std::size_t from = 0;  // the long run: the one that holds row long_at
      for (std::size_t r = 0; cut && r < run_lengths.size(); from += run_lengths[r++])
        if (from <= long_at && long_at < from + run_lengths[r])
          CHECK(near_exact(host.second[r], values, 1, 0, from, from + run_lengths[r], nullptr, op == ScatterOp::mean));
    }
  }
}

TEST_CASE("float min/max over the group: NaN propagates by default and is missing data with NanRule::missing, as on one device") {
  using clatomics::NanRule;
  DeviceGroup& group = group_of_all();
  const SmallChunks chunks(16 << 10);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  float odd;
  const std::uint32_t odd_bits = 0xffc00123u;  // out's own NaN, negative with a payload
  std::memcpy(&odd, &odd_bits, 4);
  // The long segment (and run) meets one NaN in its second chunk; every 13th short one is all
  // NaN (of both signs); every 7th short one holds one NaN.
  const auto segment_lengths = lengths(30, true, long_length, false, 12);
  const auto offsets = offsets_of<cl_uint>(segment_lengths, 0);
  const auto keys = keys_of<cl_uint>(segment_lengths);  // the empty segments make no run
  std::vector<float> values(rows);
  for (std::size_t s = 0, at = 0; s < segment_lengths.size(); at += segment_lengths[s++])
    for (std::size_t i = at; i < at + segment_lengths[s]; ++i) {
      values[i] = float(int(test::mix(std::uint32_t(i) + 5u) % 2001) - 1000);
      if ((s % 13 == 0) || (s % 7 == 0 && i == at)) values[i] = (i & 1) ? nan : -nan;
    }
  values[long_at + 500] = nan;
  group_test::each_nan_case([&](bool self, ScatterOp op, NanRule rule, const auto& same) {
    ScatterOptions o = with(self);
    o.nan = rule;
    std::vector<float> one(offsets.size() - 1, 0.0f);
    for (std::size_t s = 0; s < one.size(); s += 5) one[s] = s % 10 ? nan : odd;
    std::vector<float> host = one, resident = one;
    clatomics::segment_reduce<float, cl_uint>(group.runtime(0), one, offsets, values, op, o);
    clatomics::segment_reduce<float, cl_uint>(group, host, offsets, values, op, o);
    clatomics::segment_reduce<float, cl_uint>(group, resident, offsets, clatomics::distribute(group, values), op, o);
    const auto by_key_one = clatomics::reduce_by_key<cl_uint, float>(group.runtime(0), keys, values, op, o);
    const auto by_key = clatomics::reduce_by_key<cl_uint, float>(group, keys, values, op, o);
    std::size_t wrong = 0;
    for (std::size_t s = 0; s < one.size(); ++s) wrong += !same(host[s], one[s]) + !same(resident[s], one[s]);
    for (std::size_t r = 0; r < by_key_one.second.size(); ++r) wrong += !same(by_key.second[r], by_key_one.second[r]);
    CHECK(wrong == 0);
    CHECK(by_key.first == by_key_one.first);
  });
}

TEST_CASE("empty inputs over the group: no segments, empty segments, no keys, rows of width 0, as on one device") {
  DeviceGroup& group = group_of_all();
  const auto nothing = clatomics::distribute(group, std::vector<float>{});
  for (const ScatterOp op : all_ops)
    for (const bool self : {true, false}) {
      CAPTURE(int(op));
      CAPTURE(self);
      std::vector<float> none;
      for (const std::vector<cl_uint>& no_offsets : {std::vector<cl_uint>{}, std::vector<cl_uint>{0}}) {
        clatomics::segment_reduce<float, cl_uint>(group, none, no_offsets, {}, op, with(self));
        clatomics::segment_reduce<float, cl_uint>(group, none, no_offsets, nothing, op, with(self));
      }
      clatomics::segment_reduce<float, cl_uint>(group, none, {0}, {}, op, with(self), 0);
      CHECK(none.empty());
      // Segments with no values among rows, and rows outside every segment.
      const std::vector<cl_uint> empty_segments{2, 2, 2, 5, 5};
      const std::vector<float> values{1, 2, 3, 4, 5, 6};
      std::vector<float> one{7, 8, 9, 10}, host = one, resident = one;
      clatomics::segment_reduce<float, cl_uint>(group.runtime(0), one, empty_segments, values, op, with(self));
      clatomics::segment_reduce<float, cl_uint>(group, host, empty_segments, values, op, with(self));
      clatomics::segment_reduce<float, cl_uint>(group, resident, empty_segments, clatomics::distribute(group, values), op, with(self));
      CHECK(host == one);
      CHECK(resident == one);
      CHECK(clatomics::reduce_by_key<cl_uint, float>(group, {}, {}, op).first.empty());
      CHECK(clatomics::reduce_by_key<cl_uint, float>(group, clatomics::distribute(group, std::vector<cl_uint>{}), nothing, op).second.empty());
    }
}

TEST_CASE("refusals over the group are one device's, before anything runs and with out untouched; a failing chunk is reported") {
  DeviceGroup& group = group_of_all();
  clatomics::Runtime& rt = group.runtime(0);
  const std::vector<float> values{1, 2, 3, 4, 5, 6};
  const std::vector<float> before{7, 8, 9};
  std::vector<float> out = before;
  ScatterOptions det_prod = with(true, true), bad_nan;
  bad_nan.nan = clatomics::NanRule(7);
  // The same message from one device and from the group, host and resident data.
  const auto same_refusal = [&](const std::vector<cl_uint>& offsets, const std::vector<float>& v, ScatterOp op, const ScatterOptions& o,
                                std::size_t width) {
    const std::string one = test::message_of<std::invalid_argument>([&] { clatomics::segment_reduce<float, cl_uint>(rt, out, offsets, v, op, o, width); });
    const std::string host = test::message_of<std::invalid_argument>([&] { clatomics::segment_reduce<float, cl_uint>(group, out, offsets, v, op, o, width); });
    const std::string resident = test::message_of<std::invalid_argument>(
        [&] { clatomics::segment_reduce<float, cl_uint>(group, out, offsets, clatomics::distribute(group, v, width ? width : 1), op, o, width); });
    CAPTURE(one);
    CHECK(host == one);
    CHECK(resident == one);
  };
  same_refusal({0, 2, 1, 6}, values, ScatterOp::sum, {}, 1);     // decreasing
  same_refusal({0, 2, 4, 9}, values, ScatterOp::max, {}, 1);     // past the values
  same_refusal({0, 2, 4}, values, ScatterOp::sum, {}, 1);        // one offset short
  same_refusal({0, 1, 2, 3}, values, ScatterOp::sum, {}, 2);     // out not whole rows of 2
  same_refusal({0, 2, 4, 6}, values, ScatterOp(99), {}, 1);
  same_refusal({0, 2, 4, 6}, values, ScatterOp::prod, det_prod, 1);
  same_refusal({0, 2, 4, 6}, values, ScatterOp::min, bad_nan, 1);
  CHECK(out == before);
  // Resident values that are not whole rows on every device are refused as such: rows of 3, the
  // second part from element 16384.
  const auto split = clatomics::distribute(group, std::vector<float>(16386, 1.0f));
  if (group.size() > 1) {
    CHECK(test::contains(test::message_of<std::invalid_argument>(
                             [&] { clatomics::segment_reduce<float, cl_uint>(group, out, {0, 1}, split, ScatterOp::sum, {}, 3); }),
                         "not whole rows"));
    CHECK(out == before);
  }
  const std::vector<cl_uint> keys{1, 1, 2};
  const auto same_by_key = [&](const std::vector<cl_uint>& k, const std::vector<float>& v, ScatterOp op, const ScatterOptions& o) {
    const std::string one = test::message_of<std::invalid_argument>([&] { (void)clatomics::reduce_by_key<cl_uint, float>(rt, k, v, op, o); });
    const std::string host = test::message_of<std::invalid_argument>([&] { (void)clatomics::reduce_by_key<cl_uint, float>(group, k, v, op, o); });
    CAPTURE(one);
    CHECK(host == one);
  };
  same_by_key(keys, {1, 2}, ScatterOp::sum, {});
  same_by_key(keys, {1, 2, 3}, ScatterOp(99), {});
  same_by_key(keys, {1, 2, 3}, ScatterOp::prod, det_prod);
  same_by_key(keys, {1, 2, 3}, ScatterOp::max, bad_nan);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         (void)clatomics::reduce_by_key<cl_uint, float>(group, clatomics::distribute(group, std::vector<cl_uint>(40000, 1)),
                                                                        clatomics::distribute(group, std::vector<float>(40001, 1.0f)), ScatterOp::sum);
                       }),
                       "not laid out alike"));
  // A chunk that fails is reported with its chunk, out untouched.
  const SmallChunks chunks(4 << 10);
  const std::vector<cl_uint> offsets = offsets_of<cl_uint>(lengths(20, true, long_length, false, 13), 0);
  const std::vector<float> many(rows, 1.0f);
  std::vector<float> sums(offsets.size() - 1, 5.0f);
  const auto run_lengths = lengths(20, false, 0, false, 14);
  const std::vector<cl_uint> many_keys = keys_of<cl_uint>(run_lengths);
  clatomics::testing::set_failing_group_chunk(3);
  const std::string segments_failed =
      test::message_of<clatomics::Error>([&] { clatomics::segment_reduce<float, cl_uint>(group, sums, offsets, many, ScatterOp::sum); });
  const std::string by_key_failed = test::message_of<clatomics::Error>([&] { (void)clatomics::reduce_by_key<cl_uint, float>(group, many_keys, many, ScatterOp::sum); });
  clatomics::testing::set_failing_group_chunk(SIZE_MAX);
  CHECK(test::contains(segments_failed, "chunk 3"));
  CHECK(test::contains(by_key_failed, "chunk 3"));
  CHECK(sums == std::vector<float>(offsets.size() - 1, 5.0f));
  clatomics::segment_reduce<float, cl_uint>(group, sums, offsets, many, ScatterOp::sum);
  for (std::size_t s = 0; s < sums.size(); ++s) CHECK(sums[s] == 5.0f + float(offsets[s + 1] - offsets[s]));
  const auto counted = clatomics::reduce_by_key<cl_uint, float>(group, many_keys, many, ScatterOp::sum);
  REQUIRE(counted.second.size() == run_lengths.size());
  for (std::size_t r = 0; r < run_lengths.size(); ++r) CHECK(counted.second[r] == float(run_lengths[r]));
}
