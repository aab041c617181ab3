// Every algorithm over data resident on a device group (DistributedBuffer): dot, compact, the
// key, even and 2-D even histograms give what one device gives over the same data (exactly:
// integer counts, kept elements in order; dot's float sum as the parts' sums added in order),
// scatter_reduce the host's exact result (every op, rows, out of range) and, deterministic, the
// host-data group form's bits; arrays of one call laid out differently are refused before
// anything runs, out untouched. reduce and the byte histogram over resident data are tested with
// the other group forms (test_device_group). CTest runs it with POCL_DEVICES="pthread pthread":
// two PoCL devices on this machine.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "device_group_harness.hpp"
#include "group_scatter_reference.hpp"
#include "groups/group_spread.hpp"
#include "sixteen_bits.hpp"

namespace {

using clatomics::DeviceGroup;
using group_test::group_of_all;

std::vector<float> quarters(std::size_t n, unsigned salt) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(test::mix(std::uint32_t(i) ^ salt) % 2001) / 4.0f - 250.0f;  // exact sums
  return x;
}

}  // namespace

TEST_CASE("dot over resident parts: exact where the sum is, laid out alike or refused") {
  DeviceGroup& group = group_of_all();
  const std::vector<float> a = quarters(300001, 1), b = quarters(300001, 2);
  double exact = 0;
  for (std::size_t i = 0; i < a.size(); ++i) exact += double(a[i]) * double(b[i]);
  const float got = clatomics::dot(group, clatomics::distribute(group, a), clatomics::distribute(group, b));
  CHECK(double(got) == doctest::Approx(exact).epsilon(1e-6));
  CHECK(clatomics::dot(group, clatomics::distribute(group, std::vector<float>{}), clatomics::distribute(group, std::vector<float>{})) == 0.0f);
  // 8 ones by 8 twos: 16, on whichever device holds them.
  CHECK(clatomics::dot(group, clatomics::distribute(group, std::vector<float>(8, 1.0f)), clatomics::distribute(group, std::vector<float>(8, 2.0f))) ==
        16.0f);
  const auto shorter = clatomics::distribute(group, std::vector<float>(a.begin(), a.begin() + 1000));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { (void)clatomics::dot(group, clatomics::distribute(group, a), shorter); }),
                       "laid out alike"));
}

TEST_CASE("compact over resident parts keeps what one device keeps, in order when stable") {
  using clatomics::where::x;
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  const std::vector<float> in = quarters(400003, 3);
  const auto parts = clatomics::distribute(group, in);
  std::vector<float> expect;
  for (const float v : in)
    if (v > 100.0f) expect.push_back(v);
  CHECK(clatomics::compact(group, parts, x > 100.0f, {true}) == expect);
  std::vector<float> unstable = clatomics::compact(group, parts, x > 100.0f, {false});
  std::sort(unstable.begin(), unstable.end());
  std::sort(expect.begin(), expect.end());
  CHECK(unstable == expect);
  const std::vector<cl_uint> u(70000, 6);
  CHECK(clatomics::compact(group, clatomics::distribute(group, u), x == 6u, {true}) == clatomics::compact(rt, u, x == 6u, {true}));
}

TEST_CASE("key and even histograms over resident parts equal one device's, weights laid out alike or refused") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  std::vector<cl_uint> keys(500000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = test::mix(std::uint32_t(i)) % 1100;
  const clatomics::KeyHistogram one = clatomics::histogram_keys(rt, keys, 1000);
  const clatomics::KeyHistogram many = clatomics::histogram_keys(group, clatomics::distribute(group, keys), 1000);
  CHECK(many.counts == one.counts);
  CHECK(many.out_of_range == one.out_of_range);
  CHECK(many.out_of_range > 0);

  const std::vector<float> x = quarters(300000, 4), w = quarters(300000, 5);
  const clatomics::EvenBins<float> bins{64, -200.0f, 200.0f};
  const clatomics::EvenHistogram ref = clatomics::histogram_even(rt, x, bins, {w});
  const clatomics::EvenHistogram got = clatomics::histogram_even(group, clatomics::distribute(group, x), bins, {clatomics::distribute(group, w)});
  CHECK(got.counts == ref.counts);
  CHECK(got.below == ref.below);
  CHECK(got.above == ref.above);
  REQUIRE(got.sums.size() == 1);
  CHECK(got.sums[0] == ref.sums[0]);  // quarters: every partial sum is exact
  if (rt.supports_double()) {
    const std::vector<double> d(x.begin(), x.end());
    const clatomics::EvenHistogram dd = clatomics::histogram_even(group, clatomics::distribute(group, d), clatomics::EvenBins<double>{64, -200.0, 200.0});
    CHECK(dd.counts == clatomics::histogram_even(rt, d, clatomics::EvenBins<double>{64, -200.0, 200.0}).counts);
  }
  const auto short_weights = clatomics::distribute(group, std::vector<float>(1000, 1.0f));
  CHECK(test::contains(test::message_of<std::invalid_argument>(
                           [&] { (void)clatomics::histogram_even(group, clatomics::distribute(group, x), bins, {short_weights}); }),
                       "weights[0] has 1000 elements"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { (void)clatomics::histogram_keys(group, clatomics::DistributedBuffer<cl_uint>{}, 10); }),
                       "empty DistributedBuffer"));
}

TEST_CASE("2-D even histograms over resident parts equal one device's and the host's; x, y and weights laid out alike or refused") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  const group_test::Points2d p(250007);  // on two devices, parts of 131072 and 118935 points
  const clatomics::EvenHistogram2D expect = p.expect(2);
  const auto x = clatomics::distribute(group, p.x), y = clatomics::distribute(group, p.y);
  const auto w = clatomics::distribute(group, p.w), w2 = clatomics::distribute(group, p.w2);
  const clatomics::EvenHistogram2D got = clatomics::histogram2d_even(group, x, y, p.xbins, p.ybins, {w, w2});
  CHECK(group_test::same_histogram2d(got, expect));
  CHECK(group_test::same_histogram2d(got, clatomics::histogram2d_even(rt, p.x, p.y, p.xbins, p.ybins, {p.w, p.w2})));
  const clatomics::EvenHistogram2D counted = clatomics::histogram2d_even(group, x, y, {16, 0.0f, 16.0f}, {10, 0.0f, 10.0f});
  CHECK(counted.counts == expect.counts);
  CHECK(counted.outside == expect.outside);
  CHECK(counted.sums.empty());
  if (rt.supports_double()) {
    const std::vector<double> xd(p.x.begin(), p.x.end()), yd(p.y.begin(), p.y.end());
    const clatomics::EvenBins<double> xbins{16, 0.0, 16.0}, ybins{10, 0.0, 10.0};
    CHECK(group_test::same_histogram2d(
        clatomics::histogram2d_even(group, clatomics::distribute(group, xd), clatomics::distribute(group, yd), xbins, ybins, {w, w2}), expect));
  }
  // Fewer points than a part holds (the later parts empty), and none.
  const group_test::Points2d few(5);
  CHECK(group_test::same_histogram2d(clatomics::histogram2d_even(group, clatomics::distribute(group, few.x), clatomics::distribute(group, few.y),
                                                                 few.xbins, few.ybins, {clatomics::distribute(group, few.w)}),
                                     few.expect(1)));
  const auto none = clatomics::distribute(group, std::vector<float>{});
  const clatomics::EvenHistogram2D empty = clatomics::histogram2d_even(group, none, none, p.xbins, p.ybins, {none});
  CHECK(empty.counts == std::vector<std::uint64_t>(160, 0));
  CHECK(empty.sums == std::vector<std::vector<double>>{std::vector<double>(160, 0.0)});
  // Refused before anything runs: y or a weight channel laid out otherwise than x, and the
  // one-device call's own refusals.
  const auto refusal = [](auto&& call) { return test::message_of<std::invalid_argument>(call); };
  const auto shorter = clatomics::distribute(group, std::vector<float>(p.y.begin(), p.y.begin() + 1000));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, x, shorter, p.xbins, p.ybins); }),
                       "histogram2d_even: x and y: the DistributedBuffers are not laid out alike"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, x, y, p.xbins, p.ybins, {w, shorter}); }),
                       "histogram2d_even: weights[1] has 1000 elements, values has 250007"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, x, y, p.xbins, {0, 0.0f, 1.0f}); }), "ybins.nbins is 0"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, x, clatomics::DistributedBuffer<float>{}, p.xbins, p.ybins); }),
                       "empty DistributedBuffer"));
}

namespace {

using clatomics::ScatterOp;
using group_test::mixed_floats;
using group_test::scatter_values;
using group_test::SmallChunks;

// Indices past bins (counted), every tenth bin reached by none (it keeps its value).
template <class I>
std::vector<I> scatter_indices(std::size_t n, std::size_t bins) {
  std::vector<I> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = I(test::mix(std::uint32_t(i)) % cl_uint(bins + 50) / 10 * 10 + 1 + i % 9);
  return indices;
}

// Every op with and without out's values, over resident indices and rows of values, against the
// host's exact result.
template <class V, class I = cl_uint>
void check_resident_scatter(std::size_t width) {
  DeviceGroup& group = group_of_all();
  const std::size_t bins = 3001, n = 100003;  // parts of 49152 and 50851 rows on two devices
  const std::vector<I> indices = scatter_indices<I>(n, bins);
  const auto resident_indices = clatomics::distribute(group, indices);
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean})
    for (const bool include_self : {true, false}) {
      CAPTURE(int(op));
      CAPTURE(include_self);
      auto c = group_test::scatter_case<V>(indices, bins, width, op, include_self);
      const auto r = clatomics::scatter_reduce<V, I>(group, c.out, resident_indices, clatomics::distribute(group, c.values, width), op, c.options, width);
      CHECK(r.out_of_range == c.out_of_range);
      CHECK(c.out == c.expected);
    }
}

// The same bits, float by float (NaN payloads and the sign of zero included).
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

}  // namespace

TEST_CASE("scatter_reduce over resident parts: every op, with and without out's values, rows; the host's exact result") {
  {
    const SmallChunks pieces(16 << 10);  // each part's values counted in pieces of 4096
    check_resident_scatter<float>(1);
  }
  check_resident_scatter<float>(1);
  check_resident_scatter<cl_int>(1);
  check_resident_scatter<cl_uint, cl_ulong>(1);
  check_resident_scatter<float>(3);
  check_resident_scatter<cl_long>(2);
  if (group_of_all().runtime(0).supports_double()) check_resident_scatter<double, cl_ulong>(1);
}

TEST_CASE("scatter_reduce over resident parts: 16-bit values into float, as the host-data group form; empty parts and outputs") {
  DeviceGroup& group = group_of_all();
  const std::size_t bins = 500, n = 70001;
  const std::vector<cl_uint> indices = scatter_indices<cl_uint>(n, bins);
  std::vector<clatomics::half_t> halves(n);
  std::vector<clatomics::bfloat16_t> brains(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float v = float(int(test::mix(std::uint32_t(i) + 3u) % 17) - 8);  // sums of these are exact in float
    halves[i].bits = test::float_to_half(v), brains[i].bits = test::float_to_bf16(v);
  }
  const auto resident = clatomics::distribute(group, indices);
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max, ScatterOp::mean}) {
    CAPTURE(int(op));
    std::vector<float> host(bins, 1.0f), got(bins, 1.0f);
    CHECK(clatomics::scatter_reduce<clatomics::half_t, cl_uint>(group, host, indices, halves, op).out_of_range ==
          clatomics::scatter_reduce<clatomics::half_t, cl_uint>(group, got, resident, clatomics::distribute(group, halves), op).out_of_range);
    CHECK(same_bits(got, host));
    std::fill(host.begin(), host.end(), 1.0f), std::fill(got.begin(), got.end(), 1.0f);
    clatomics::scatter_reduce<clatomics::bfloat16_t, cl_uint>(group, host, indices, brains, op);
    clatomics::scatter_reduce<clatomics::bfloat16_t, cl_uint>(group, got, resident, clatomics::distribute(group, brains), op);
    CHECK(same_bits(got, host));
  }
  // Fewer elements than devices' tiles: the later parts are empty.
  const std::vector<cl_uint> few{0, 2, 2, 7};
  std::vector<float> out{1, 1, 1};
  auto r = clatomics::scatter_reduce<float, cl_uint>(group, out, clatomics::distribute(group, few), clatomics::distribute(group, std::vector<float>{1, 2, 3, 4}),
                                                     ScatterOp::sum);
  CHECK(out == std::vector<float>{2, 1, 6});
  CHECK(r.out_of_range == 1);
  // No elements: out as it was; no bins: every index out of range; rows of width 0: none.
  const auto none = clatomics::distribute(group, std::vector<cl_uint>{});
  r = clatomics::scatter_reduce<float, cl_uint>(group, out, none, clatomics::distribute(group, std::vector<float>{}), ScatterOp::sum);
  CHECK(out == std::vector<float>{2, 1, 6});
  CHECK(r.out_of_range == 0);
  CHECK(r.strategy == clatomics::ScatterStrategy::global_atomics);
  std::vector<float> empty;
  CHECK(clatomics::scatter_reduce<float, cl_uint>(group, empty, clatomics::distribute(group, few), clatomics::distribute(group, std::vector<float>{1, 2, 3, 4}),
                                                  ScatterOp::sum)
            .out_of_range == 4);
  CHECK(clatomics::scatter_reduce<float, cl_uint>(group, empty, clatomics::distribute(group, few), clatomics::distribute(group, std::vector<float>{}, 0),
                                                  ScatterOp::sum, {}, 0)
            .out_of_range == 0);
  clatomics::ScatterOptions refuse;
  refuse.out_of_range = clatomics::OutOfRange::refuse;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         clatomics::scatter_reduce<float, cl_uint>(group, empty, clatomics::distribute(group, few),
                                                                   clatomics::distribute(group, std::vector<float>{1, 2, 3, 4}), ScatterOp::sum, refuse);
                       }),
                       "bins is 0"));
}

TEST_CASE("deterministic scatter_reduce over resident parts has the host-data group form's bits, however the chunks fall on the parts") {
  DeviceGroup& group = group_of_all();
  if (!group.runtime(0).supports_double()) return;  // deterministic sums need fp64 and 64-bit atomics
  const std::size_t bins = 257, n = 200003;
  std::vector<cl_uint> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = test::mix(std::uint32_t(i)) % (bins + 3);  // a few out of range
  const auto resident_indices = clatomics::distribute(group, indices);
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(100) << 10}) {
    // 0: the data is one chunk, which spans every part; 100 KiB: chunks of some thousands of rows,
    // one of them across the parts' boundary.
    CAPTURE(chunk_bytes);
    const SmallChunks chunks(chunk_bytes);
    for (const std::size_t width : {std::size_t(1), std::size_t(3)}) {
      const std::vector<float> values = mixed_floats(n * width);
      const auto resident_values = clatomics::distribute(group, values, width);
      if (group.size() > 1 && chunk_bytes) {
        const std::vector<clatomics::detail::HostArray> arrays{{nullptr, sizeof(cl_uint)}, {nullptr, width * sizeof(float), width}};
        const std::size_t chunk = clatomics::detail::group_chunk(group, n, arrays, 64);
        CHECK(resident_indices.first[1] % chunk != 0);
      }
      for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean})
        for (const bool include_self : {true, false}) {
          CAPTURE(width);
          CAPTURE(int(op));
          CAPTURE(include_self);
          clatomics::ScatterOptions det;
          det.deterministic = true;
          det.include_self = include_self;
          std::vector<float> host(bins * width), got(bins * width);
          for (std::size_t j = 0; j < host.size(); ++j) host[j] = got[j] = float(j % 5) * 0.3f;
          const auto a = clatomics::scatter_reduce<float, cl_uint>(group, host, indices, values, op, det, width);
          const auto b = clatomics::scatter_reduce<float, cl_uint>(group, got, resident_indices, resident_values, op, det, width);
          CHECK(a.out_of_range == b.out_of_range);
          CHECK(same_bits(got, host));
        }
    }
  }
  // A chunk that fails is reported with its device and elements, out untouched.
  const SmallChunks chunks(100 << 10);
  clatomics::ScatterOptions det;
  det.deterministic = true;
  std::vector<float> out(bins, 2.0f);
  const auto values = clatomics::distribute(group, mixed_floats(n));
  clatomics::testing::set_failing_group_chunk(3);
  const std::string failed =
      test::message_of<clatomics::Error>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, resident_indices, values, ScatterOp::sum, det); });
  clatomics::testing::set_failing_group_chunk(SIZE_MAX);
  const std::vector<clatomics::detail::HostArray> arrays{{nullptr, sizeof(cl_uint)}, {nullptr, sizeof(float)}};
  const std::size_t chunk = clatomics::detail::group_chunk(group, n, arrays, 64);
  CAPTURE(failed);
  CHECK(test::contains(failed, "chunk 3 (elements " + std::to_string(3 * chunk) + " .. " + std::to_string(4 * chunk - 1) + ")"));
  CHECK(out == std::vector<float>(bins, 2.0f));
}

TEST_CASE("scatter_reduce over resident parts refuses what is not laid out alike, of another group or out of range, out untouched") {
  DeviceGroup& group = group_of_all();
  const std::size_t n = 50000, bins = 100;  // rows split at 32768, single values at 49152
  const std::vector<cl_uint> indices = scatter_indices<cl_uint>(n, bins);
  const std::vector<float> values = scatter_values<float>(n * 2, ScatterOp::sum);
  const auto ri = clatomics::distribute(group, indices);
  const auto rows = clatomics::distribute(group, values, 2);
  std::vector<float> out(bins * 2, 3.0f);
  const std::vector<float> before = out;
  const auto refused = [&](const clatomics::DistributedBuffer<cl_uint>& i, const clatomics::DistributedBuffer<float>& v,
                           clatomics::ScatterOptions options = {}, ScatterOp op = ScatterOp::sum) {
    const std::string what = test::message_of<std::invalid_argument>([&] { clatomics::scatter_reduce<float, cl_uint>(group, out, i, v, op, options, 2); });
    CHECK(out == before);
    return what;
  };
  // Values laid out one element a row (not in rows of 2): refused where the group has two parts.
  if (group.size() > 1) CHECK(test::contains(refused(ri, clatomics::distribute(group, values)), "not laid out as the rows of the indices"));
  CHECK(test::contains(refused(ri, clatomics::distribute(group, std::vector<float>(values.begin(), values.begin() + 2000), 2)), "elements"));
  auto shifted = ri;  // parts that no longer follow one another
  shifted.first.back() += 1;
  if (group.size() > 1) CHECK(test::contains(refused(shifted, rows), "starts at element"));
  auto short_part = rows;  // a part's buffer smaller than its count says
  short_part.parts[0] = cl::Buffer(group.runtime(0).context(), CL_MEM_READ_ONLY, 64);
  CHECK(test::contains(refused(ri, short_part), "DistributedBuffer part 0"));
  DeviceGroup other(group_test::group_selector());  // the same devices, other contexts
  CHECK(test::contains(refused(clatomics::distribute(other, indices), rows), "another OpenCL context"));
  CHECK(test::contains(refused(ri, clatomics::DistributedBuffer<float>{}), "empty DistributedBuffer"));
  clatomics::ScatterOptions refuse_range;
  refuse_range.out_of_range = clatomics::OutOfRange::refuse;
  CHECK(test::contains(refused(ri, rows, refuse_range), ">= bins"));
  CHECK(test::contains(refused(ri, rows, {}, ScatterOp(99)), "op"));
  CHECK_THROWS_AS(clatomics::distribute(group, values, 3), std::invalid_argument);
  // And the same call, laid out right, runs.
  clatomics::scatter_reduce<float, cl_uint>(group, out, ri, rows, ScatterOp::sum, {}, 2);
  CHECK(out != before);
}
