// Several devices of one host (device_group.hpp) and partial results that merge (each algorithm's header):
// results equal one device's (deterministic float sums bit for bit, whatever the device count and
// the chunks), resident parts, host data through pinned or pageable memory, the caller's own
// out-of-order queue, refusals, a failing chunk reported. CTest runs it with POCL_DEVICES="pthread
// pthread": two PoCL devices on this machine (CLATOMICS_TEST_GROUP picks the group elsewhere).
// scatter_reduce over a group: test_device_group_scatter.cpp.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <future>
#include <limits>
#include <thread>
#include <tuple>
#include <type_traits>

#include "device_group_harness.hpp"
#include "groups/copy_pool.hpp"
#include "groups/group_spread.hpp"
#include "groups/started.hpp"
#include "support.hpp"

using namespace group_test;

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

TEST_CASE("a group or Runtime made without Options takes the environment's, as Runtime() does; given Options are kept") {
  const bool forced = test::runtime().options().force_cas;
  const test::ScopedEnv env("CLATOMICS_FORCE_CAS", forced ? "0" : "1");
  DeviceGroup from_selector("0");
  const cl::CommandQueue& queue = group_of_all().runtime(0).queue();
  DeviceGroup from_queues(std::vector<cl::CommandQueue>{queue});
  const clatomics::Runtime adopted(queue.getInfo<CL_QUEUE_CONTEXT>(), queue.getInfo<CL_QUEUE_DEVICE>(), queue);
  CHECK(from_selector.runtime(0).options().force_cas == !forced);
  CHECK(from_queues.runtime(0).options().force_cas == !forced);
  CHECK(adopted.options().force_cas == !forced);
  clatomics::Options given;
  given.force_cas = forced;
  CHECK(DeviceGroup("0", given).runtime(0).options().force_cas == forced);
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

    const clatomics::EvenHistogram even = clatomics::histogram_even(group, x, {100, -50000.0f, 50000.0f});
    const clatomics::EvenHistogram ref = clatomics::histogram_even(rt, x, {100, -50000.0f, 50000.0f});
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

// A group's resident calls start every device, then collect: starting must not wait for the
// call's commands (NVIDIA's OpenCL finishes a "non-blocking" read into pageable memory before it
// returns, so a read enqueued while starting held the next device back until this one was done).
// The caller's queue is held shut by a marker on a user event; each started form must return
// while it is shut, then give the exact result once it opens.
TEST_CASE("a started call returns while its queue is held shut, and collects the exact result once it opens") {
  auto& rt = test::runtime();
  const cl::Context& context = rt.context();
  cl::CommandQueue queue(context, rt.device());
  clatomics::Runtime caller(context, rt.device(), queue);
  std::vector<float> x(300000);
  std::vector<std::uint8_t> bytes(x.size());
  std::vector<std::uint64_t> counts(256, 0);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 100), bytes[i] = std::uint8_t(i * 13 % 256), ++counts[bytes[i]];
  // The fast sum adds in any order: non-negative integers totalling below 2^24 keep every partial sum exact.
  const double sum = 100.0 * 99 / 2 * 3000;
  REQUIRE(sum < 16777216.0);
  cl::Buffer xb(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * 4, x.data());
  cl::Buffer bb(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
  namespace d = clatomics::detail;
  using Start = std::function<std::function<void()>()>;  // starts a call; its result is checked by the function it returns
  const std::vector<std::pair<const char*, Start>> calls = {
      {"reduce_buffer_later", [&]() -> std::function<void()> {
         auto p = std::make_shared<d::Pending<float>>(d::reduce_buffer_later<float>(caller, xb(), 0, x.size(), ReduceOp::sum, {}));
         return [p, sum] { CHECK(double(p->get()) == sum); };
       }},
      {"reduce_buffer_later, deterministic", [&]() -> std::function<void()> {
         auto p = std::make_shared<d::Pending<float>>(d::reduce_buffer_later<float>(caller, xb(), 0, x.size(), ReduceOp::sum, {true}));
         return [p, sum] { CHECK(double(p->get()) == sum); };
       }},
      {"reduce_partial_later, deterministic", [&]() -> std::function<void()> {
         auto p = std::make_shared<d::Pending<clatomics::ReducePartial<float>>>(
             d::reduce_partial_later<float>(caller, xb(), 0, x.size(), ReduceOp::sum, 0, {true}));
         return [p, sum] { CHECK(double(clatomics::merge_reduce(std::vector<clatomics::ReducePartial<float>>{p->get()})) == sum); };
       }},
      {"histogram_buffer_later", [&]() -> std::function<void()> {
         auto p = std::make_shared<d::Pending<std::vector<std::uint64_t>>>(d::histogram_buffer_later(caller, bb(), 0, bytes.size(), {}));
         return [p, &counts] { CHECK(p->get() == counts); };
       }},
  };
  for (const auto& [name, start] : calls) {
    CAPTURE(name);
    start()();  // once with the queue open: programs built, nothing left to set up
    cl::UserEvent gate(context);
    const std::vector<cl::Event> shut{gate};
    queue.enqueueMarkerWithWaitList(&shut);
    auto started = std::async(std::launch::async, start);
    const bool returned = started.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    gate.setStatus(CL_COMPLETE);
    CHECK_MESSAGE(returned, "starting the call waited for its commands");
    started.get()();
  }
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
    CHECK(bits(clatomics::merge_reduce<float>(parts)) == bits(whole));
  }
  // Refused: a deterministic part that starts inside a tile; gaps, overlaps, mixed ops.
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce_partial<float>(rt, x, ReduceOp::sum, 5, det); }),
                       "multiple of clatomics::reduce_tile"));
  const auto a = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::sum, 0, det);
  const auto c = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::sum, 2 * tile, det);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>({a, c}); }), "gap"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>({a, a}); }), "overlaps"));
  const auto m = clatomics::reduce_partial<float>(rt, std::vector<float>(x.begin(), x.begin() + tile), ReduceOp::max, tile);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::merge_reduce<float>({a, m}); }), "another op"));
  // Untiled parts (integers) merge exactly.
  std::vector<cl_int> ints(100000);
  cl_int sum = 0;
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = cl_int(test::mix(std::uint32_t(i)) % 1000), sum += ints[i];
  const auto p0 = clatomics::reduce_partial<cl_int>(rt, std::vector<cl_int>(ints.begin(), ints.begin() + 12345), ReduceOp::sum, 0);
  const auto p1 = clatomics::reduce_partial<cl_int>(rt, std::vector<cl_int>(ints.begin() + 12345, ints.end()), ReduceOp::sum, 12345);
  CHECK(clatomics::merge_reduce<cl_int>({p1, p0}) == sum);
  // Parts rebuilt from another engine's arrays that no call could have made are refused: tiled
  // integers or min/max, an unknown op, an empty part of another op.
  using IntPart = clatomics::ReducePartial<cl_int>;
  using FloatPart = clatomics::ReducePartial<float>;
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::merge_reduce<cl_int>({IntPart{ReduceOp::sum, true, 0, 3, {6}}}); }),
                       "tiled parts"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::merge_reduce<float>({FloatPart{ReduceOp::max, true, 0, 1, {3}}}); }),
                       "tiled parts"));
  CHECK(test::contains(
      test::message_of<std::invalid_argument>([] { clatomics::merge_reduce<cl_int>({IntPart{ReduceOp(99), false, 0, 1, {5}}}); }),
      "not a ReduceOp"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] {
                         clatomics::merge_reduce<cl_int>({p0, IntPart{ReduceOp::max, false, 12345, 0, {}}});
                       }),
                       "another op"));
}

TEST_CASE("a DistributedBuffer whose fields disagree with its parts is refused before anything runs") {
  DeviceGroup& group = group_of_all();
  std::vector<cl_int> x(100000);
  std::vector<std::uint8_t> bytes(100000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = cl_int(i % 7), bytes[i] = std::uint8_t(i);
  const auto good = clatomics::distribute(group, x);
  const auto good_bytes = clatomics::distribute(group, bytes);
  const auto refused = [&](auto edit, const char* why) {
    CAPTURE(why);
    auto d = good;
    edit(d);
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce<cl_int>(group, d, ReduceOp::sum); }), why));
    auto b = good_bytes;
    edit(b);
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram(group, b); }), why));
  };
  refused([](auto& d) { d.first.pop_back(); }, "first and");
  refused([](auto& d) { d.count.clear(), d.first.clear(); }, "first and");
  refused([](auto& d) { d.size += 1; }, "whose size is");
  refused([](auto& d) { d.first.front() += 1; }, "starts at element");
  refused([](auto& d) { d.parts.clear(), d.first.clear(), d.count.clear(); }, "empty DistributedBuffer");
  if (group.size() > 1) refused([](auto& d) { d.count[0] -= 1, d.size -= 1; }, "starts at element");
  CHECK(clatomics::reduce<cl_int>(group, good, ReduceOp::sum) == clatomics::reduce<cl_int>(test::runtime(), x, ReduceOp::sum));
}

TEST_CASE("a stream's staging that fails to grow leaves the stream able to stage again") {
  auto& rt = test::runtime();
  clatomics::detail::Staging staging;
  staging.reserve(rt, 4096, false);
  REQUIRE(staging.device);
  const std::size_t too_large = std::size_t(rt.device_info().caps.max_mem_alloc_size) + 4096;
  CHECK_THROWS(staging.reserve(rt, too_large, false));
  staging.reserve(rt, 4096, false);
  CHECK(staging.device);
  CHECK(staging.bytes >= 4096);
}

TEST_CASE("calls from one thread while another's first call of many chunks makes the group's second streams") {
  // Each round a fresh group: its second streams are made while the other thread's calls run.
  SmallChunks small(16 << 10);
  std::atomic<std::size_t> wrong{0};
  for (int round = 0; round < 3; ++round) {
    DeviceGroup group(group_selector());
    std::atomic<bool> started{false}, done{false};
    const std::vector<std::uint8_t> few(100, 7), many(200000, 9);
    std::thread small_calls([&] {
      while (!started) std::this_thread::yield();
      while (!done) wrong += clatomics::histogram(group, few)[7] != few.size();
    });
    started = true;
    wrong += clatomics::histogram(group, many)[9] != many.size();
    done = true;
    small_calls.join();
  }
  CHECK(wrong.load() == 0);
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
    a[i] = float(h % 64), b[i] = float((h >> 8) % 4), w[i] = float(h % 4);  // exact products and sums
    keys[i] = h % 1100;  // some beyond 1000 bins
  }
  // dot adds in any order: non-negative integer products totalling below 2^24 keep every partial sum exact.
  double products = 0;
  for (std::size_t i = 0; i < n; ++i) products += double(a[i]) * double(b[i]);
  REQUIRE(products < 16777216.0);
  CHECK(double(clatomics::dot<float>(group, a, b)) == products);
  CHECK(double(clatomics::dot<float>(rt, a, b)) == products);
  const auto k = clatomics::histogram_keys(group, keys, 1000), k1 = clatomics::histogram_keys(rt, keys, 1000);
  CHECK(k.counts == k1.counts);
  CHECK(k.out_of_range == k1.out_of_range);
  const auto none = clatomics::histogram_keys(group, keys, 0);  // no bins: every key out of range
  CHECK(none.counts.empty());
  CHECK(none.out_of_range == n);
  const auto e = clatomics::histogram_even(group, a, {16, 0.0f, 64.0f}, {w}), e1 = clatomics::histogram_even(rt, a, {16, 0.0f, 64.0f}, {w});
  CHECK(e.counts == e1.counts);
  REQUIRE(e.sums.size() == 1);
  CHECK(e.sums[0] == e1.sums[0]);  // small integers: exact in any order
  // Several weight channels, each at its own place in a chunk's staging buffer; double positions.
  const auto e2 = clatomics::histogram_even(group, a, {16, 0.0f, 64.0f}, {w, a, w});
  REQUIRE(e2.sums.size() == 3);
  CHECK(e2.sums[0] == e1.sums[0]);
  CHECK(e2.sums[1] == clatomics::histogram_even(rt, a, {16, 0.0f, 64.0f}, {a}).sums[0]);
  CHECK(e2.sums[2] == e1.sums[0]);
  if (rt.supports_double()) {
    const std::vector<double> ad(a.begin(), a.end());
    const auto d = clatomics::histogram_even(group, ad, {16, 0.0, 64.0}, {w}), d1 = clatomics::histogram_even(rt, ad, {16, 0.0, 64.0}, {w});
    CHECK(d.counts == d1.counts);
    CHECK(d.sums == d1.sums);
    CHECK(d.edges == clatomics::EvenHistogram::Edges::double_linspace);
  }
  const clatomics::Predicate big = clatomics::where::x > 40.0f;
  CHECK(clatomics::compact<float>(group, a, big, {true}) == clatomics::compact<float>(rt, a, big, {true}));
  auto unordered = clatomics::compact<float>(group, a, big), expect = clatomics::compact<float>(rt, a, big, {true});
  std::sort(unordered.begin(), unordered.end()), std::sort(expect.begin(), expect.end());
  CHECK(unordered == expect);
  CHECK_THROWS_AS(clatomics::dot<float>(group, a, std::vector<float>(3)), std::invalid_argument);
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(group, a, {16, 0.0f, 64.0f}, {w, std::vector<float>(3)}); }),
                       "weights[1] has 3 elements, values has " + std::to_string(a.size())));
}

TEST_CASE("2-D even histograms over the group's host data equal one device's and the host's, in one chunk or many") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  const Points2d p(200003);
  const clatomics::EvenHistogram2D expect = p.expect(2);
  REQUIRE(expect.x.below > 0);
  REQUIRE(expect.y.nan > 0);
  REQUIRE(expect.outside < p.x.size());
  const clatomics::EvenHistogram2D one = clatomics::histogram2d_even(rt, p.x, p.y, p.xbins, p.ybins, {p.w, p.w2});
  CHECK(same_histogram2d(one, expect));
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(1) << 16}) {  // one chunk; 13 chunks of 16384 points
    CAPTURE(chunk_bytes);
    SmallChunks small(chunk_bytes);
    CHECK(same_histogram2d(clatomics::histogram2d_even(group, p.x, p.y, p.xbins, p.ybins, {p.w, p.w2}), expect));
    const clatomics::EvenHistogram2D counted = clatomics::histogram2d_even(group, p.x, p.y, {16, 0.0f, 16.0f}, {10, 0.0f, 10.0f});
    CHECK(counted.sums.empty());
    CHECK(counted.counts == expect.counts);
    CHECK(counted.outside == expect.outside);
    if (rt.supports_double()) {
      const std::vector<double> x(p.x.begin(), p.x.end()), y(p.y.begin(), p.y.end());
      const clatomics::EvenBins<double> xbins{16, 0.0, 16.0}, ybins{10, 0.0, 10.0};
      const clatomics::EvenHistogram2D d = clatomics::histogram2d_even(group, x, y, xbins, ybins, {p.w, p.w2});
      CHECK(same_histogram2d(d, expect));
      CHECK(same_histogram2d(d, clatomics::histogram2d_even(rt, x, y, xbins, ybins, {p.w, p.w2})));
    }
  }
  // No points: every bin 0, one sum per bin and channel.
  const std::vector<float> none;
  const clatomics::EvenHistogram2D empty = clatomics::histogram2d_even(group, none, none, p.xbins, p.ybins, {none});
  CHECK(empty.counts == std::vector<std::uint64_t>(160, 0));
  CHECK(empty.sums == std::vector<std::vector<double>>{std::vector<double>(160, 0.0)});
  CHECK(empty.outside == 0);
  // Refused as the one-device call refuses them.
  const auto refusal = [](auto&& call) { return test::message_of<std::invalid_argument>(call); };
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, p.x, std::vector<float>(3), p.xbins, p.ybins); }),
                       "histogram2d_even: y has 3 elements, x has 200003"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, p.x, p.y, p.xbins, p.ybins, {p.w, std::vector<float>(3)}); }),
                       "histogram2d_even: weights[1] has 3 elements, values has 200003"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, p.x, p.y, {0, 0.0f, 1.0f}, p.ybins); }), "xbins.nbins is 0"));
  CHECK(test::contains(refusal([&] { (void)clatomics::histogram2d_even(group, p.x, p.y, p.xbins, {4, 2.0f, 1.0f}); }), "histogram2d_even: ybins"));
  // A chunk that fails is reported as every group call reports it.
  SmallChunks small(std::size_t(1) << 16);
  clatomics::testing::set_failing_group_chunk(3);
  const std::string failed = test::message_of<clatomics::Error>([&] { (void)clatomics::histogram2d_even(group, p.x, p.y, p.xbins, p.ybins, {p.w}); });
  clatomics::testing::set_failing_group_chunk(SIZE_MAX);
  CHECK(test::contains(failed, "chunk 3 (elements 49152 .. 65535)"));
  CHECK(test::contains(failed, "device "));
}

TEST_CASE("group host data through pinned staging memory: the same results as from pageable memory") {
  DeviceGroup& group = group_of_all();
  const std::size_t n = 300007;
  const std::vector<float> x = mixed_floats(n);
  std::vector<float> w(n);
  std::vector<cl_uint> keys(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = float(i % 7), keys[i] = test::mix(std::uint32_t(i)) % 1000;
  const SmallChunks chunks(256 << 10);
  const clatomics::Predicate positive = clatomics::where::x > 0.0f;
  clatomics::CompactOptions stable;
  stable.stable = true;
  const auto run_all = [&](clatomics::testing::PinnedStaging staging) {
    clatomics::testing::set_pinned_staging(staging);
    std::vector<float> scattered(1000, 0.0f);
    clatomics::scatter_reduce<float, cl_uint>(group, scattered, keys, w, clatomics::ScatterOp::sum);
    const auto result = std::make_tuple(clatomics::reduce<float>(group, x, ReduceOp::sum, ReduceOptions{true}),
                                        clatomics::histogram_even(group, x, {64, -1e3f, 1e3f}, {w}).counts,
                                        clatomics::histogram_even(group, x, {64, -1e3f, 1e3f}, {w}).sums,
                                        clatomics::dot<float>(group, x, w), clatomics::compact<float>(group, x, positive, stable), scattered);
    clatomics::testing::set_pinned_staging(clatomics::testing::PinnedStaging::automatic);
    return result;
  };
  const auto pinned = run_all(clatomics::testing::PinnedStaging::always);
  const auto pageable = run_all(clatomics::testing::PinnedStaging::never);
  CHECK(bits(std::get<0>(pinned)) == bits(std::get<0>(pageable)));
  CHECK(std::get<1>(pinned) == std::get<1>(pageable));
  CHECK(std::get<2>(pinned) == std::get<2>(pageable));
  CHECK(std::get<4>(pinned) == std::get<4>(pageable));
  CHECK(std::get<5>(pinned) == std::get<5>(pageable));
  // and exact where exact values exist: the kept elements, the scattered integer-valued sums
  std::vector<float> kept;
  for (const float v : x)
    if (v > 0.0f) kept.push_back(v);
  std::vector<float> expected(1000, 0.0f);
  for (std::size_t i = 0; i < n; ++i) expected[keys[i]] += w[i];
  CHECK(std::get<4>(pinned) == kept);
  CHECK(std::get<5>(pinned) == expected);
}

TEST_CASE("staging copies shared by host threads: every byte where it belongs, several callers at once") {
  using clatomics::detail::CopyPool;
  CHECK(CopyPool::default_threads(0) == 1);
  CHECK(CopyPool::default_threads(2) == 1);
  CHECK(CopyPool::default_threads(32) == 15);
  // A group's pool: Options::staging_threads, else CLATOMICS_STAGING_THREADS, whatever Options the
  // group was made with.
  const std::vector<cl::CommandQueue> queue{group_of_all().runtime(0).queue()};
  {
    const test::ScopedEnv env("CLATOMICS_STAGING_THREADS", "2");
    DeviceGroup from_env(queue);
    CHECK(clatomics::detail::copy_pool_of(from_env).threads() == 2);
    clatomics::Options none;
    none.staging_threads = 0;
    DeviceGroup given(queue, none);
    CHECK(clatomics::detail::copy_pool_of(given).threads() == 0);
  }
  {
    // The pool reads its one variable: another's typo is refused where Options are read from the
    // environment, never at a group's first copy.
    const test::ScopedEnv env("CLATOMICS_FORCE_CAS", "maybe");
    DeviceGroup given(queue, clatomics::Options{});
    CHECK_NOTHROW(clatomics::detail::copy_pool_of(given));
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { DeviceGroup g(queue); }), "CLATOMICS_FORCE_CAS='maybe'"));
  }
  // Sizes around the slicing (none, one byte, under one slice, several slices with a short last
  // one), at odd offsets in both buffers, from four threads at once as four streams copy; a pool
  // of no threads of its own leaves each caller to copy alone.
  const std::vector<std::size_t> sizes{0, 1, 63, CopyPool::min_slice - 1, 3 * CopyPool::min_slice + 17, 10 * CopyPool::min_slice + 5};
  for (const std::size_t threads : {0, 3}) {
    CopyPool pool(threads);
    CHECK(pool.threads() == threads);
    const auto copy_all = [&](std::uint32_t seed) {
      std::size_t wrong = 0;
      for (const std::size_t bytes : sizes) {
        std::vector<unsigned char> from(bytes + 7), to(bytes + 9, 0xee);
        for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<unsigned char>(test::mix(std::uint32_t(i) ^ seed));
        pool.copy(to.data() + 5, from.data() + 3, bytes);
        wrong += std::memcmp(to.data() + 5, from.data() + 3, bytes) != 0;
        for (std::size_t i = 0; i < 5; ++i) wrong += to[i] != 0xee || to[bytes + 5 + i % 4] != 0xee;  // nothing around it touched
      }
      return wrong;
    };
    std::vector<std::future<std::size_t>> callers;
    for (std::uint32_t t = 0; t < 4; ++t) callers.push_back(std::async(std::launch::async, copy_all, t));
    for (auto& c : callers) CHECK(c.get() == 0);
  }
}

TEST_CASE("a group of the caller's own out-of-order queue: host data and resident parts exact; another group's parts refused") {
  auto& rt = test::runtime();
  const auto out_of_order = test::out_of_order_queue(rt);
  if (!out_of_order) return;
  const cl::CommandQueue& queue = *out_of_order;
  DeviceGroup adopted(std::vector<cl::CommandQueue>{queue});
  REQUIRE(adopted.size() == 1);
  CHECK(adopted.runtime(0).queue()() == queue());  // the caller's queue itself
  // Small integers as floats (sums exact in any order) and bytes, with their exact results.
  const auto make = [](std::size_t n, std::uint32_t seed, std::vector<float>& x, float& sum, std::vector<std::uint8_t>& bytes,
                       std::vector<std::uint64_t>& counts) {
    x.resize(n), bytes.resize(n + 4099), counts.assign(256, 0), sum = 0.0f;
    for (std::size_t i = 0; i < n; ++i) x[i] = float(int(test::mix(std::uint32_t(i) ^ seed) % 17) - 8), sum += x[i];
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(test::mix(std::uint32_t(i) + seed) >> 8), ++counts[bytes[i]];
  };
  const std::size_t n = 200003;  // 13 tiles, the last one partial
  std::vector<float> x;
  float sum = 0.0f;
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint64_t> counts;
  make(n, 0, x, sum, bytes, counts);
  const ReduceOptions det{true};
  const float one_pass = clatomics::reduce<float>(rt, x, ReduceOp::sum, det);
  REQUIRE(one_pass == sum);
  // Host data: one chunk on the caller's queue alone, then many shared with the group's second
  // stream on that device.
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(1) << 16}) {
    CAPTURE(chunk_bytes);
    SmallChunks small(chunk_bytes);
    CHECK(clatomics::reduce<float>(adopted, x, ReduceOp::sum) == sum);
    CHECK(bits(clatomics::reduce<float>(adopted, x, ReduceOp::sum, det)) == bits(one_pass));
    CHECK(clatomics::histogram(adopted, bytes) == counts);
  }
  // Resident parts: one, on the caller's queue's device and context.
  const auto resident = clatomics::distribute(adopted, x);
  const auto resident_bytes = clatomics::distribute(adopted, bytes);
  REQUIRE(resident.parts.size() == 1);
  CHECK(resident.parts[0].getInfo<CL_MEM_CONTEXT>()() == rt.context()());
  CHECK(resident.first == std::vector<std::size_t>{0});
  CHECK(resident.count == std::vector<std::size_t>{n});
  CHECK(resident.size == n);
  CHECK(clatomics::reduce<float>(adopted, resident, ReduceOp::sum) == sum);
  CHECK(bits(clatomics::reduce<float>(adopted, resident, ReduceOp::sum, det)) == bits(one_pass));
  CHECK(clatomics::histogram(adopted, resident_bytes) == counts);
  // The caller's own non-blocking writes of new data into the resident parts, enqueued on its
  // queue just before each call: seen. In the second round the writes also wait for an event of
  // the caller's that another thread completes 10 ms later (a call that did not wait for them
  // would surely read the old data).
  for (unsigned round = 1; round <= 2; ++round) {
    CAPTURE(round);
    std::vector<float> y;
    float y_sum = 0.0f;
    std::vector<std::uint8_t> y_bytes;
    std::vector<std::uint64_t> y_counts;
    make(n, round * 0x9e3779b9u, y, y_sum, y_bytes, y_counts);
    const float y_one_pass = clatomics::reduce<float>(rt, y, ReduceOp::sum, det);
    test::CallerWrites writes(rt.context(), queue);
    const auto write = [&](const cl::Buffer& part, const void* host, std::size_t size) { writes.write(part, host, size, round == 2); };
    write(resident.parts[0], y.data(), n * sizeof(float));
    CHECK(clatomics::reduce<float>(adopted, resident, ReduceOp::sum) == y_sum);
    write(resident.parts[0], x.data(), n * sizeof(float));
    CHECK(bits(clatomics::reduce<float>(adopted, resident, ReduceOp::sum, det)) == bits(one_pass));
    write(resident.parts[0], y.data(), n * sizeof(float));
    CHECK(bits(clatomics::reduce<float>(adopted, resident, ReduceOp::sum, det)) == bits(y_one_pass));
    write(resident_bytes.parts[0], y_bytes.data(), y_bytes.size());
    CHECK(clatomics::histogram(adopted, resident_bytes) == y_counts);
    write(resident_bytes.parts[0], bytes.data(), bytes.size());
    CHECK(clatomics::histogram(adopted, resident_bytes) == counts);
    write(resident.parts[0], x.data(), n * sizeof(float));  // x again, for what follows
    writes.join();
    queue.finish();  // y outlives the writes even where a call did not wait for them
  }
  // Refused before anything is enqueued: parts made for a group of another size, either way.
  DeviceGroup& all = group_of_all();
  if (all.size() == 1) {
    MESSAGE("the group of all devices has one device: no group of another size to refuse parts of");
  } else {
    const auto theirs = clatomics::distribute(all, x);
    const auto their_bytes = clatomics::distribute(all, bytes);
    clatomics::ProfileScope enqueued;
    using IA = std::invalid_argument;
    CHECK(test::contains(test::message_of<IA>([&] { clatomics::reduce<float>(adopted, theirs, ReduceOp::sum); }), "another group"));
    CHECK_THROWS_AS(clatomics::reduce<float>(adopted, theirs, ReduceOp::sum, det), IA);
    CHECK(test::contains(test::message_of<IA>([&] { clatomics::histogram(adopted, their_bytes); }), "another group"));
    CHECK_THROWS_AS(clatomics::reduce<float>(all, resident, ReduceOp::sum), IA);
    CHECK_THROWS_AS(clatomics::histogram(all, resident_bytes), IA);
    CHECK(enqueued.commands() == 0);
    CHECK(clatomics::reduce<float>(all, theirs, ReduceOp::sum) == sum);  // each in its own group: fine
  }
  // A group of as many devices but its own context: its parts are refused too.
  DeviceGroup own_context("0");
  const auto foreign = clatomics::distribute(own_context, x);
  const auto foreign_bytes = clatomics::distribute(own_context, bytes);
  REQUIRE(foreign.parts.size() == 1);
  {
    clatomics::ProfileScope enqueued;
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce<float>(adopted, foreign, ReduceOp::sum); }),
                         "another OpenCL context"));
    CHECK_THROWS_AS(clatomics::histogram(adopted, foreign_bytes), std::invalid_argument);
    CHECK_THROWS_AS(clatomics::reduce<float>(own_context, resident, ReduceOp::sum, det), std::invalid_argument);
    CHECK(enqueued.commands() == 0);
  }
  CHECK(clatomics::reduce<float>(adopted, resident, ReduceOp::sum) == sum);
}
