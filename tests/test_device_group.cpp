// Several devices of one host (device_group.hpp) and partial results that merge (partial.hpp):
// results equal one device's (deterministic float sums bit for bit, whatever the device count and
// the chunks), refusals, a failing chunk reported. CTest runs it with POCL_DEVICES="pthread
// pthread": two PoCL devices on this machine (CLATOMICS_TEST_GROUP picks the group elsewhere).
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <thread>

#include "support.hpp"

namespace {

using clatomics::DeviceGroup;
using clatomics::ReduceOp;
using clatomics::ReduceOptions;

std::vector<float> mixed_floats(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i));
    x[i] = float(h % 100000) * (h % 7 == 0 ? 1e3f : 1e-3f) * (h % 3 == 0 ? -1.0f : 1.0f);  // sums that round differently by order
  }
  return x;
}

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Small chunks, so that a few hundred thousand elements make many chunks for the devices to share.
struct SmallChunks {
  explicit SmallChunks(std::size_t bytes) { clatomics::testing::set_stream_limits({bytes, 0, false}); }
  ~SmallChunks() { clatomics::testing::set_stream_limits({}); }
};

// The group under test: CLATOMICS_TEST_GROUP (a group selector, e.g. "gpu:all" on a machine with
// two GPUs), else the CLATOMICS_DEVICE of a run per device (scripts/device-matrix.sh), else every
// device.
DeviceGroup& group_of_all() {
  const char* group_selector = std::getenv("CLATOMICS_TEST_GROUP");
  const char* device = std::getenv("CLATOMICS_DEVICE");
  static DeviceGroup group(group_selector ? group_selector : device && *device ? device : "all");
  return group;
}

}  // namespace

TEST_CASE("group selectors: all, type:all, lists; refused: blank, no match, a device twice, an empty group") {
  const std::size_t devices = clatomics::all_device_ids().size();
  CHECK(clatomics::select_device_ids("all").size() == devices);
  CHECK(clatomics::select_device_ids(" 0 ") == std::vector<cl_device_id>{clatomics::all_device_ids()[0]});
  if (devices >= 2) CHECK(clatomics::select_device_ids("1,0") == std::vector<cl_device_id>{clatomics::all_device_ids()[1], clatomics::all_device_ids()[0]});
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::select_device_ids("  "); }), "blank"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::select_device_ids("no-such-device:all"); }), "no device matches"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::select_device_ids("0,0"); }), "named twice"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { DeviceGroup g(std::vector<cl::CommandQueue>{}); }), "empty group"));
  // Devices of two platforms (the GPU machine: NVIDIA and PoCL) form no group.
  const auto all = clatomics::all_device_ids();
  cl_platform_id first = nullptr;
  clGetDeviceInfo(all[0], CL_DEVICE_PLATFORM, sizeof first, &first, nullptr);
  for (std::size_t d = 1; d < all.size(); ++d) {
    cl_platform_id p = nullptr;
    clGetDeviceInfo(all[d], CL_DEVICE_PLATFORM, sizeof p, &p, nullptr);
    if (p != first) {
      CHECK(test::contains(test::message_of<std::invalid_argument>([&] { DeviceGroup g("0," + std::to_string(d)); }), "different OpenCL platforms"));
      break;
    }
  }
}

TEST_CASE("host data over the group: deterministic float sums bit-identical to one device, counts exact") {
  DeviceGroup& group = group_of_all();
  MESSAGE("group of ", group.size(), " devices");
  DeviceGroup one(std::to_string(0));
  auto& rt = test::runtime();
  const std::vector<float> x = mixed_floats(300000);  // 19 tiles, the last one partial
  const ReduceOptions det{true};
  const float single = clatomics::reduce<float>(rt, x, ReduceOp::sum, det);
  for (std::size_t chunk_bytes : {std::size_t(0), std::size_t(1) << 16, std::size_t(3) << 16}) {
    SmallChunks small(chunk_bytes);
    INFO("chunk bytes ", chunk_bytes);
    for (int run = 0; run < 3; ++run) {
      CHECK(bits(clatomics::reduce<float>(group, x, ReduceOp::sum, det)) == bits(single));
      CHECK(bits(clatomics::reduce<float>(one, x, ReduceOp::sum, det)) == bits(single));
    }
    CHECK(bits(clatomics::reduce<float>(group, x, ReduceOp::prod, det)) == bits(clatomics::reduce<float>(rt, x, ReduceOp::prod, det)));
    std::vector<cl_long> ints(x.size());
    cl_long sum = 0, least = std::numeric_limits<cl_long>::max();
    for (std::size_t i = 0; i < x.size(); ++i) ints[i] = cl_long(x[i] * 1000), sum += ints[i], least = std::min(least, ints[i]);
    CHECK(clatomics::reduce<cl_long>(group, ints, ReduceOp::sum) == sum);
    CHECK(clatomics::reduce<cl_long>(group, ints, ReduceOp::min) == least);
    CHECK(clatomics::reduce<float>(group, x, ReduceOp::max) == *std::max_element(x.begin(), x.end()));

    std::vector<std::uint8_t> bytes(1000003);
    std::vector<std::uint64_t> expect(256, 0);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(test::mix(std::uint32_t(i)) % 251), ++expect[bytes[i]];
    CHECK(clatomics::histogram(group, bytes) == expect);

    const clatomics::EvenHistogram even = clatomics::histogram_even(group, x, 100, -50000.0f, 50000.0f);
    const clatomics::EvenHistogram ref = clatomics::histogram_even(rt, x, 100, -50000.0f, 50000.0f);
    CHECK(even.counts == ref.counts);
    CHECK(even.below == ref.below);
    CHECK(even.above == ref.above);
  }
  CHECK(clatomics::reduce<float>(group, std::vector<float>{}, ReduceOp::min) == std::numeric_limits<float>::infinity());
}

TEST_CASE("resident data (DistributedBuffer): the same results, each device on its own part") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  const std::vector<float> x = mixed_floats(250000);
  const auto parts = clatomics::distribute(group, x);
  REQUIRE(parts.parts.size() == group.size());
  CHECK(parts.first.front() == 0);
  CHECK(parts.first.back() + parts.count.back() == x.size());
  CHECK(bits(clatomics::reduce<float>(group, parts, ReduceOp::sum, ReduceOptions{true})) ==
        bits(clatomics::reduce<float>(rt, x, ReduceOp::sum, ReduceOptions{true})));
  std::vector<std::uint8_t> bytes(777777);
  std::vector<std::uint64_t> expect(256, 0);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(i * 7 % 256), ++expect[bytes[i]];
  CHECK(clatomics::histogram(group, clatomics::distribute(group, bytes)) == expect);
  // Parts made for another group live in other contexts: refused before anything runs.
  DeviceGroup other("0");
  CHECK_THROWS_AS(clatomics::reduce<float>(other, parts, ReduceOp::sum), std::invalid_argument);
}

TEST_CASE("a chunk that fails on a device is reported with its device and elements, the Error's code kept") {
  DeviceGroup& group = group_of_all();
  SmallChunks small(std::size_t(1) << 16);
  clatomics::testing::set_failing_group_chunk(3);
  const std::vector<float> x = mixed_floats(200000);
  try {
    clatomics::reduce<float>(group, x, ReduceOp::sum);
    FAIL("no exception");
  } catch (const clatomics::Error& e) {
    CHECK(e.code() == CL_OUT_OF_RESOURCES);
    CHECK(test::contains(e.what(), "chunk 3 (elements 49152 .. 65535)"));
    CHECK(test::contains(e.what(), "device "));
  }
  clatomics::testing::set_failing_group_chunk(SIZE_MAX);
  CHECK(clatomics::reduce<float>(group, x, ReduceOp::max) == *std::max_element(x.begin(), x.end()));
}

TEST_CASE("partial reductions merge to one pass's bits however the range is cut (at tiles)") {
  auto& rt = test::runtime();
  const std::vector<float> x = mixed_floats(200000);
  const ReduceOptions det{true};
  const float whole = clatomics::reduce<float>(rt, x, ReduceOp::sum, det);
  const std::size_t tile = clatomics::reduce_tile;
  for (const std::vector<std::size_t>& cuts : std::vector<std::vector<std::size_t>>{{0}, {0, tile}, {0, 3 * tile, 5 * tile, 11 * tile}}) {
    std::vector<clatomics::ReducePartial<float>> parts;
    for (std::size_t k = cuts.size(); k-- > 0;) {  // any order
      const std::size_t first = cuts[k], end = k + 1 < cuts.size() ? cuts[k + 1] : x.size();
      parts.push_back(clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin() + first, x.begin() + end), ReduceOp::sum, first, det));
    }
    CHECK(parts.back().tiled);
    CHECK(bits(clatomics::merge_reduce<float>(rt, parts)) == bits(whole));
  }
  // Refused: a deterministic part that starts inside a tile; gaps, overlaps, mixed ops.
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce_partial<float>(rt, x, ReduceOp::sum, 5, det); }),
                       "multiple of clatomics::reduce_tile"));
  const auto a = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::sum, 0, det);
  const auto c = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::sum, 2 * tile, det);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>(rt, {a, c}); }), "gap"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>(rt, {a, a}); }), "overlaps"));
  const auto m = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::max, tile);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>(rt, {a, m}); }), "another op"));
  // Untiled parts (integers) merge exactly.
  std::vector<cl_int> ints(100000);
  cl_int sum = 0;
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = cl_int(test::mix(std::uint32_t(i)) % 1000), sum += ints[i];
  const auto p0 = clatomics::reduce_partial<cl_int>(rt, std::vector<cl_int>(ints.begin(), ints.begin() + 12345), ReduceOp::sum, 0);
  const auto p1 = clatomics::reduce_partial<cl_int>(rt, std::vector<cl_int>(ints.begin() + 12345, ints.end()), ReduceOp::sum, 12345);
  CHECK(clatomics::merge_reduce<cl_int>(rt, {p1, p0}) == sum);
}

TEST_CASE("histograms merge by adding; different bins are refused and leave the target unchanged") {
  std::vector<std::uint64_t> a{1, 2, 3}, b{10, 20, 30};
  clatomics::merge_into(a, b);
  CHECK(a == std::vector<std::uint64_t>{11, 22, 33});
  std::vector<std::uint64_t> c{1, 2};
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_into(a, c); }), "3 and 2 bins"));
  CHECK(a == std::vector<std::uint64_t>{11, 22, 33});
  clatomics::EvenHistogram e1, e2;
  e1.counts = {1, 2}, e1.below = 1, e1.lo = 0, e1.hi = 1;
  e2.counts = {3, 4}, e2.nan = 2, e2.lo = 0, e2.hi = 1;
  clatomics::merge_into(e1, e2);
  CHECK(e1.counts == std::vector<std::uint64_t>{4, 6});
  CHECK(e1.below == 1);
  CHECK(e1.nan == 2);
  e2.hi = 2;
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_into(e1, e2); }), "different ranges"));
}

TEST_CASE("calls from several host threads on one group each get their own result") {
  DeviceGroup& group = group_of_all();
  SmallChunks small(std::size_t(1) << 16);
  std::vector<cl_long> ints(300000);
  cl_long sum = 0;
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = cl_long(test::mix(std::uint32_t(i)) % 100000), sum += ints[i];
  std::vector<cl_long> got(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      std::vector<cl_long> mine(ints);
      mine[t] += cl_long(t);  // a different answer per thread
      got[t] = clatomics::reduce<cl_long>(group, mine, ReduceOp::sum);
    });
  for (auto& th : threads) th.join();
  for (std::size_t t = 0; t < got.size(); ++t) CHECK(got[t] == sum + cl_long(t));
}

TEST_CASE("dot, key histograms, weighted even histograms and compaction over the group equal one device's") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  SmallChunks small(std::size_t(1) << 16);
  const std::size_t n = 200003;
  std::vector<float> a(n), b(n), w(n);
  std::vector<cl_uint> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i));
    a[i] = float(h % 64), b[i] = float((h >> 8) % 64), w[i] = float(h % 4);  // exact products and sums
    keys[i] = h % 1100;  // some beyond 1000 bins
  }
  CHECK(clatomics::dot<float>(group, a, b) == clatomics::dot<float>(rt, a, b));
  const auto k = clatomics::histogram_keys(group, keys, 1000), k1 = clatomics::histogram_keys(rt, keys, 1000);
  CHECK(k.counts == k1.counts);
  CHECK(k.out_of_range == k1.out_of_range);
  const auto e = clatomics::histogram_even(group, a, 16, 0.0f, 64.0f, w), e1 = clatomics::histogram_even(rt, a, 16, 0.0f, 64.0f, w);
  CHECK(e.counts == e1.counts);
  REQUIRE(e.sums.size() == 1);
  CHECK(e.sums[0] == e1.sums[0]);  // small integers: exact in any order
  const clatomics::Predicate big = clatomics::where::x > 40.0f;
  CHECK(clatomics::compact<float>(group, a, big, {true}) == clatomics::compact<float>(rt, a, big, {true}));
  auto unordered = clatomics::compact<float>(group, a, big), expect = clatomics::compact<float>(rt, a, big, {true});
  std::sort(unordered.begin(), unordered.end()), std::sort(expect.begin(), expect.end());
  CHECK(unordered == expect);
  CHECK_THROWS_AS(clatomics::dot<float>(group, a, std::vector<float>(3)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::histogram_even(group, a, 16, 0.0f, 64.0f, std::vector<float>(3)), std::invalid_argument);
}
