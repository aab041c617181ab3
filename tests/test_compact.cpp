// compact (copy_if): for float, int and uint, the unstable variant keeps exactly the matching
// elements (as a multiset) and the stable one keeps them in input order, at sizes 0, 1, a prime
// and larger than one work-group's share, from aligned and unaligned offsets, across several
// launches and streamed chunks; out beyond the kept elements is untouched; a predicate that does
// not compile throws clatomics::Error with the build log and leaves out untouched; bad input is
// refused before anything runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>

#include "support.hpp"

namespace {

using clatomics::CompactOptions;

const std::size_t sizes[] = {0, 1, 100003, (std::size_t(1) << 20) + 3};
const std::size_t offsets[] = {0, 5};

// A value no kept element has: the poison that must survive where compact writes nothing.
template <class T>
T poison() {
  if constexpr (std::is_same_v<T, float>) return -12345.5f;
  else return T(0xDEADBEEFu);
}

template <class T>
std::vector<T> compact_data(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> x(n);
  for (auto& v : x) {
    if constexpr (std::is_same_v<T, float>) v = float(int(gen() % 2001) - 1000) / 8.0f;  // distinct-ish, exact
    else if constexpr (std::is_same_v<T, cl_int>) v = cl_int(gen() % 2000001) - 1000000;
    else v = cl_uint(gen() % 3000000u);
  }
  return x;
}

// Per type: the predicate as OpenCL C text and the same on the host (about half kept).
template <class T>
const char* predicate() {
  if constexpr (std::is_same_v<T, float>) return "x > 3.5f";
  else if constexpr (std::is_same_v<T, cl_int>) return "(x & 3) != 1 && x < 500000";
  else return "x % 3u == 0u || x >= 2000000u";
}
template <class T>
bool keep(T x) {
  if constexpr (std::is_same_v<T, float>) return x > 3.5f;
  else if constexpr (std::is_same_v<T, cl_int>) return (x & 3) != 1 && x < 500000;
  else return x % 3u == 0u || x >= 2000000u;
}

template <class T>
std::vector<T> reference(const std::vector<T>& x, std::size_t first, std::size_t n) {
  std::vector<T> kept;
  for (std::size_t i = first; i < first + n; ++i)
    if (keep(x[i])) kept.push_back(x[i]);
  return kept;
}

template <class T>
std::vector<T> sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Runs compact on a device copy of x[first, first + n) into a poisoned out buffer; returns the
// kept elements and checks that out is untouched past them.
template <class T>
std::vector<T> device_compact(const std::vector<T>& x, std::size_t first, std::size_t n, bool stable, const char* pred = predicate<T>()) {
  auto& rt = test::runtime();
  std::vector<T> padded = x;
  if (padded.empty()) padded.push_back(T());
  const cl::Buffer in = test::to_device(rt, padded);
  cl::Buffer out = test::to_device(rt, std::vector<T>(std::max<std::size_t>(n, 1), poison<T>()));
  const std::size_t kept = clatomics::compact(rt, clatomics::view<T>(in, first, n), clatomics::view<T>(out, 0, n), pred, CompactOptions{stable});
  REQUIRE(kept <= n);
  auto all = test::to_host<T>(rt, out, std::max<std::size_t>(n, 1));
  for (std::size_t i = kept; i < all.size(); ++i) {
    INFO("out[", i, "] past the ", kept, " kept elements");
    REQUIRE(test::bits(all[i]) == test::bits(poison<T>()));
  }
  all.resize(kept);
  return all;
}

template <class T>
void check_type() {
  for (const std::size_t n : sizes)
    for (const std::size_t off : offsets) {
      const auto x = compact_data<T>(n + off, unsigned(n + off + sizeof(T)));
      const auto ref = reference(x, off, n);
      INFO("n=", n, " offset=", off);
      const auto unstable = device_compact(x, off, n, false);
      CHECK(unstable.size() == ref.size());
      CHECK(sorted(unstable) == sorted(ref));
      CHECK(device_compact(x, off, n, true) == ref);
    }
}

}  // namespace

TEST_CASE("compact keeps the matching elements: float, int, uint") {
  check_type<float>();
  check_type<cl_int>();
  check_type<cl_uint>();
}

TEST_CASE("compact keeping none and keeping all") {
  const auto x = compact_data<cl_uint>(100003, 7);
  for (const bool stable : {false, true}) {
    INFO((stable ? "stable" : "unstable"));
    CHECK(device_compact(x, 0, x.size(), stable, "false").empty());
    CHECK(device_compact(x, 0, x.size(), stable, "x == 0xFFFFFFFFu").empty());
    const auto all = device_compact(x, 3, x.size() - 3, stable, "true");
    CHECK(sorted(all) == sorted(std::vector<cl_uint>(x.begin() + 3, x.end())));
    if (stable) CHECK(all == std::vector<cl_uint>(x.begin() + 3, x.end()));
  }
}

TEST_CASE("many launches and streamed chunks") {
  auto& rt = test::runtime();
  const auto x = compact_data<cl_int>(300007, 11);
  const auto ref = reference(x, 0, x.size());
  // Small launches (the unstable counter restarts per launch) and small streamed chunks.
  clatomics::testing::set_stream_limits({std::size_t(64) << 10, 10007});
  const auto unstable_dev = device_compact(x, 1, x.size() - 1, false);
  const auto unstable_host = clatomics::compact<cl_int>(rt, x, predicate<cl_int>());
  const auto stable_host = clatomics::compact<cl_int>(rt, x, predicate<cl_int>(), CompactOptions{true});
  clatomics::testing::set_stream_limits({});
  CHECK(sorted(unstable_dev) == sorted(reference(x, 1, x.size() - 1)));
  CHECK(sorted(unstable_host) == sorted(ref));
  CHECK(stable_host == ref);
  // Default limits, host vectors, every type.
  const auto f = compact_data<float>(100003, 12);
  CHECK(clatomics::compact<float>(rt, f, predicate<float>(), CompactOptions{true}) == reference(f, 0, f.size()));
  const auto u = compact_data<cl_uint>(100003, 13);
  CHECK(sorted(clatomics::compact<cl_uint>(rt, u, predicate<cl_uint>())) == sorted(reference(u, 0, u.size())));
  CHECK(clatomics::compact<float>(rt, std::vector<float>{}, "x > 0.0f").empty());
}

TEST_CASE("a float predicate sees NaN and signed zeros as they are") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x;
  for (int i = 0; i < 1000; ++i) x.push_back(i % 4 == 0 ? nan : i % 4 == 1 ? -0.0f : i % 4 == 2 ? 0.0f : float(i));
  const auto kept = device_compact(x, 0, x.size(), true, "isnan(x) || signbit(x)");
  REQUIRE(kept.size() == 500);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    INFO("kept ", i);
    if (i % 2 == 0) CHECK(std::isnan(kept[i]));
    else CHECK(test::bits(kept[i]) == test::bits(-0.0f));
  }
}

TEST_CASE("a predicate that does not compile: clatomics::Error with the build log, out untouched") {
  auto& rt = test::runtime();
  const std::vector<float> x(1000, 1.0f);
  const cl::Buffer in = test::to_device(rt, x);
  cl::Buffer out = test::to_device(rt, std::vector<float>(x.size(), poison<float>()));
  clatomics::ProfileScope enqueued;
  for (const bool stable : {false, true}) {
    try {
      clatomics::compact(rt, clatomics::view<float>(in, 0, x.size()), clatomics::view<float>(out, 0, x.size()), "x > fabs()", CompactOptions{stable});
      FAIL("no exception");
    } catch (const clatomics::Error& e) {
      CHECK(e.build_log().find("fabs") != std::string::npos);
    }
    CHECK_THROWS_AS(clatomics::compact<float>(rt, x, "x >", CompactOptions{stable}), clatomics::Error);
  }
  CHECK(enqueued.commands() == 0);
  for (const float v : test::to_host<float>(rt, out, x.size())) REQUIRE(test::bits(v) == test::bits(poison<float>()));
}

TEST_CASE("bad input is refused before anything runs, out untouched") {
  auto& rt = test::runtime();
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const cl::Buffer in = test::to_device(rt, std::vector<cl_int>(100, 1));
  cl::Buffer out = test::to_device(rt, std::vector<cl_int>(100, poison<cl_int>()));
  cl::Buffer small_out = test::to_device(rt, std::vector<cl_int>(50, poison<cl_int>()));
  cl::Buffer null_out;
  using IA = std::invalid_argument;
  clatomics::ProfileScope enqueued;  // records every command the calls below enqueue
  const auto call = [&](const cl::Buffer& i, std::size_t off, std::size_t n, cl::Buffer& o, const char* pred) {
    return clatomics::compact(rt, clatomics::view<cl_int>(i, off, n), clatomics::view<cl_int>(o, 0, n), pred);
  };
  CHECK_THROWS_AS(call(cl::Buffer(), 0, 1, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 0, 1, null_out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 0, 101, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 99, 2, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 101, 0, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, max, 2, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 2, max, out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 0, 60, small_out, "x > 0"), IA);
  CHECK_THROWS_AS(call(in, 0, 10, out, ""), IA);
  CHECK_THROWS_AS(call(in, 0, 10, out, "  \n"), IA);
  CHECK_THROWS_AS(clatomics::compact<cl_int>(rt, std::vector<cl_int>(3), " "), IA);
  cl::Buffer same = in;
  CHECK_THROWS_AS(call(in, 0, 10, same, "x > 0"), IA);
  const auto message = [&](const cl::Buffer& i, std::size_t off, std::size_t n, cl::Buffer& o, const char* pred) -> std::string {
    try {
      call(i, off, n, o, pred);
    } catch (const IA& e) {
      return e.what();
    }
    return "no exception";
  };
  CHECK(message(in, 90, 20, out, "x > 0").find("in") != std::string::npos);
  CHECK(message(in, 0, 60, small_out, "x > 0").find("out") != std::string::npos);
  CHECK(message(in, 0, 10, out, "").find("predicate") != std::string::npos);
  CHECK(message(in, 0, 10, same, "x > 0").find("out") != std::string::npos);
  CHECK(enqueued.commands() == 0);
  for (const cl_int v : test::to_host<cl_int>(rt, out, 100)) REQUIRE(v == poison<cl_int>());
  for (const cl_int v : test::to_host<cl_int>(rt, small_out, 50)) REQUIRE(v == poison<cl_int>());
  // In range: fine, and count 0 writes nothing.
  CHECK(call(in, 0, 50, small_out, "x > 0") == 50);
  CHECK(call(in, 100, 0, out, "x > 0") == 0);
}

// Structured predicates: the values are data, so every threshold shares one program.
TEST_CASE("structured predicates keep exactly what the host keeps, one program per shape") {
  using clatomics::where::x;
  auto& rt = test::runtime();
  const auto f = compact_data<float>(100003, 21);
  const auto i = compact_data<cl_int>(100003, 22);
  const auto u = compact_data<cl_uint>(100003, 23);
  const auto host = [](const auto& data, auto keep) {
    std::decay_t<decltype(data)> kept;
    for (const auto v : data)
      if (keep(v)) kept.push_back(v);
    return kept;
  };
  for (const bool stable : {false, true}) {
    INFO((stable ? "stable" : "unstable"));
    const CompactOptions options{stable};
    const auto same = [&](auto got, auto want) { CHECK((stable ? got : sorted(got)) == (stable ? want : sorted(want))); };
    same(clatomics::compact(rt, f, x > 3.5f && x <= 60.25f, options), host(f, [](float v) { return v > 3.5f && v <= 60.25f; }));
    same(clatomics::compact(rt, f, !(x >= -2.0) || x == 7.5, options), host(f, [](float v) { return !(v >= -2.0f) || v == 7.5f; }));
    same(clatomics::compact(rt, i, in_range(x, -1000, 250000), options), host(i, [](cl_int v) { return -1000 <= v && v < 250000; }));
    same(clatomics::compact(rt, u, 1000000u < x || x != 17u, options), host(u, [](cl_uint v) { return v > 1000000u || v != 17u; }));
  }
  const auto before = rt.build_count();
  for (const float threshold : {-100.0f, 0.0f, 3.25f, 99.5f, 1e30f})
    CHECK(clatomics::compact(rt, f, x > threshold, CompactOptions{true}) == host(f, [&](float v) { return v > threshold; }));
  CHECK(rt.build_count() <= before + 1);  // one shape, five thresholds
  // NaN and signed zeros as the host sees them.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> special = {nan, -0.0f, 0.0f, 1.0f, -std::numeric_limits<float>::infinity(), nan};
  CHECK(clatomics::compact(rt, special, isnan(x), CompactOptions{true}).size() == 2);
  CHECK(clatomics::compact(rt, special, !isfinite(x) && !isnan(x), CompactOptions{true}).size() == 1);
  CHECK(clatomics::compact(rt, special, x == 0.0f, CompactOptions{true}).size() == 2);  // -0 == +0
}

TEST_CASE("a value the element type cannot hold is refused before anything runs") {
  using clatomics::where::x;
  auto& rt = test::runtime();
  const cl::Buffer in = test::to_device(rt, std::vector<cl_int>(100, 1));
  const cl::Buffer out = test::to_device(rt, std::vector<cl_int>(100, poison<cl_int>()));
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<cl_int>(in, 0, 100), clatomics::view<cl_int>(out, 0, 100), x > 0.5), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<cl_uint>(in, 0, 100), clatomics::view<cl_uint>(out, 0, 100), x > -1), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(in, 0, 100), clatomics::view<float>(out, 0, 100), x > 16777217), std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  for (const cl_int v : test::to_host<cl_int>(rt, out, 100)) REQUIRE(v == poison<cl_int>());
}

TEST_CASE("hostile predicate strings are refused before anything is compiled or enqueued") {
  auto& rt = test::runtime();
  const cl::Buffer in = test::to_device(rt, std::vector<cl_int>(100, 1));
  const cl::Buffer out = test::to_device(rt, std::vector<cl_int>(100, poison<cl_int>()));
  const std::string hostile[] = {
      "(*(volatile __global int *)0x55d58436d4e0UL = 1337) != 0",
      "x > 0); } kernel void evil(global int *p) { *p = 1; } static bool f(int x) { return (x",
      "x) || (1",
      "#include \"/etc/passwd\"",
      "\n#include \"/etc/passwd\"",
      "x > 0\n#define clat_atomic_add_float(p, v) 0",
      "x > 0 /* ",
      "x ?\?= 1",
      "clat_atomic_inc_uint(0, 1)",
      "(int)x > 0",
      "x = 1",
      "x++ > 0",
      std::string(300000, '1'),
      std::string(100, '(') + "x" + std::string(100, ')'),
  };
  clatomics::ProfileScope enqueued;
  const auto builds = rt.build_count();
  for (const auto& text : hostile) {
    CAPTURE(text.substr(0, 80));
    CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<cl_int>(in, 0, 100), clatomics::view<cl_int>(out, 0, 100), text), std::invalid_argument);
  }
  CHECK(rt.build_count() == builds);
  CHECK(enqueued.commands() == 0);
  for (const cl_int v : test::to_host<cl_int>(rt, out, 100)) REQUIRE(v == poison<cl_int>());
}

// ---- The one-pass tiles (the GPU path), forced on whatever device runs the tests ----
namespace {

using clatomics::testing::CompactPath;
using clatomics::testing::CompactPlan;

// compact's path and tile for one scope.
struct PlanScope {
  explicit PlanScope(const CompactPlan& plan) { clatomics::testing::set_compact_plan(plan); }
  ~PlanScope() { clatomics::testing::set_compact_plan({}); }
  PlanScope(const PlanScope&) = delete;
  PlanScope& operator=(const PlanScope&) = delete;
};

// compact of in[first, first + n) (in: a device buffer holding x) into a poisoned out: stable must
// equal std::copy_if, unstable the same multiset; out past the kept elements untouched.
template <class T, class P, class Keep>
void check_compact(const cl::Buffer& in, const std::vector<T>& x, std::size_t first, std::size_t n, const P& pred, Keep host_keep) {
  auto& rt = test::runtime();
  std::vector<T> ref;
  std::copy_if(x.begin() + first, x.begin() + first + n, std::back_inserter(ref), host_keep);
  cl::Buffer out = test::to_device(rt, std::vector<T>(n + 1, poison<T>()));
  for (const bool stable : {false, true}) {
    INFO(std::string(stable ? "stable" : "unstable"), " n=", n, " first=", first);
    const std::size_t kept = clatomics::compact(rt, clatomics::view<T>(in, first, n), clatomics::view<T>(out, 0, n), pred, CompactOptions{stable});
    REQUIRE(kept == ref.size());
    auto got = test::to_host<T>(rt, out, n + 1);
    for (std::size_t i = kept; i < got.size(); ++i) REQUIRE(test::bits(got[i]) == test::bits(poison<T>()));
    got.resize(kept);
    if (stable) CHECK(got == ref);
    else CHECK(sorted(got) == sorted(ref));
    rt.queue().enqueueFillBuffer(out, poison<T>(), 0, (n + 1) * sizeof(T));
  }
}

template <class T, class P, class Keep>
void check_compact(const std::vector<T>& x, std::size_t first, std::size_t n, const P& pred, Keep host_keep) {
  check_compact(test::to_device(test::runtime(), x.empty() ? std::vector<T>(1) : x), x, first, n, pred, host_keep);
}

// x[i] = i.
std::vector<cl_uint> iota(std::size_t n) {
  std::vector<cl_uint> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = cl_uint(i);
  return x;
}

// Sizes 0, 1, a tile and one either side, several tiles, at offsets 0, 1 and 3; kept about
// half, none, all, every other one, and only in the last tile.
void check_tiles(std::size_t tile) {
  using clatomics::where::x;
  const auto f = compact_data<float>(5 * tile + 10, unsigned(tile));
  const auto u = iota(5 * tile + 10);
  for (const std::size_t n : {std::size_t(0), std::size_t(1), tile - 1, tile, tile + 1, 4 * tile + 7})
    for (const std::size_t first : {0, 1, 3}) {
      check_compact(f, first, n, x > 3.5f, [](float v) { return v > 3.5f; });
      check_compact(u, first, n, "x % 2u == 1u", [](cl_uint v) { return v % 2u == 1u; });
    }
  // x[3 .. n + 3) holds 3 .. n + 2: keep all, none, the last tile's last five, one in the middle.
  const cl_uint n = cl_uint(4 * tile + 7);
  for (const auto& [lo, hi] : {std::pair{0u, n + 3}, std::pair{n + 3, n + 3}, std::pair{n - 2, n + 3}, std::pair{n / 2, n / 2 + 1}})
    check_compact(u, 3, n, x >= lo && x < hi, [&](cl_uint v) { return v >= lo && v < hi; });
}

}  // namespace

// One shape at a time keeps the kernels to build few: the GPU's own tile (256 work-items of 16
// elements), then 4 of 2 (a work-group smaller than the look-back window, 8-element tiles).
TEST_CASE("one pass: sizes around the GPU's 4096-element tile, every type, many launches") {
  auto& rt = test::runtime();
  PlanScope scope({CompactPath::one_pass, 0, 0});
  check_tiles(4096);
  const auto x = compact_data<cl_int>(1000003, 41);
  check_compact(x, 0, x.size(), predicate<cl_int>(), keep<cl_int>);
  // Launches of 10,007 elements (two whole tiles, 8,192 elements) and chunks of 64 KiB: the
  // output base carries from launch to launch.
  clatomics::testing::set_stream_limits({std::size_t(64) << 10, 10007});
  check_compact(x, 3, 300007, predicate<cl_int>(), keep<cl_int>);
  const auto stable_host = clatomics::compact<cl_int>(rt, x, predicate<cl_int>(), CompactOptions{true});
  const auto unstable_host = clatomics::compact<cl_int>(rt, x, predicate<cl_int>());
  clatomics::testing::set_stream_limits({});
  const auto ref = reference(x, 0, x.size());
  CHECK(stable_host == ref);
  CHECK(sorted(unstable_host) == sorted(ref));
}

TEST_CASE("one pass: work-groups smaller than the look-back window, 125,001 tiles") {
  PlanScope scope({CompactPath::one_pass, 4, 2});
  const auto u = iota(1000004);
  check_compact(u, 1, u.size() - 1, "x % 2u == 1u", [](cl_uint v) { return v % 2u == 1u; });
  check_compact(u, 0, 7, "x % 2u == 1u", [](cl_uint v) { return v % 2u == 1u; });
}

TEST_CASE("one pass and count + scan: host memory at 4-byte alignments (CL_MEM_USE_HOST_PTR)") {
  using clatomics::where::x;
  auto& rt = test::runtime();
  const std::size_t n = 70001;
  std::vector<float> host = compact_data<float>(n + 4, 51);
  for (const CompactPath path : {CompactPath::one_pass, CompactPath::count_scan}) {
    PlanScope scope({path, 0, 0});
    for (const std::size_t skip : {1, 3}) {
      INFO("path ", int(path), " buffer at element ", skip);
      const cl::Buffer in(rt.context(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n * sizeof(float), host.data() + skip);
      const std::vector<float> view(host.begin() + skip, host.begin() + skip + n);
      check_compact(in, view, 0, n, x > 3.5f, [](float v) { return v > 3.5f; });
      check_compact(in, view, 5, n - 5, x > 3.5f, [](float v) { return v > 3.5f; });
    }
  }
}

TEST_CASE("count + scan + scatter forced (the path without the one-pass kernel)") {
  PlanScope scope({CompactPath::count_scan, 0, 0});
  const auto u = compact_data<cl_uint>(300007, 61);
  check_compact(u, 1, u.size() - 1, predicate<cl_uint>(), keep<cl_uint>);
  check_compact(u, 0, 0, predicate<cl_uint>(), keep<cl_uint>);
}
