// What a hostile or careless caller tries, beyond buffers and queues: bin ranges that collapse in
// float and bin counts beyond any memory, ProfileScopes ended out of order or on another thread,
// environment flags that say "false" or nothing sensible, #include lines in comments and inactive
// blocks, and a stream of distinct programs against the bounded cache.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "support.hpp"

namespace {

using clatomics::ReduceOp;

}  // namespace

TEST_CASE("histogram_even refuses a range with fewer floats than bins, like NumPy") {
  auto& rt = test::runtime();
  const std::vector<float> values(1000, 1.0f);
  clatomics::ProfileScope enqueued;
  const float next = std::nextafter(1.0f, 2.0f);
  const auto what = test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, values, {1000000, 1.0f, next}); });
  CHECK(test::contains(what, "too many bins"));
  CHECK_THROWS_AS(clatomics::histogram_even(rt, values, {3, 1.0f, std::nextafter(next, 2.0f)}), std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(clatomics::histogram_even(rt, values, {2, 1.0f, std::nextafter(next, 2.0f)}).counts == std::vector<std::uint64_t>{1000, 0});
}

TEST_CASE("histogram_even with about one float per bin: every value in NumPy's bin, in bounded time") {
  // [1, 1.125) holds 2^20 floats; 2^20 - 1 bins of a little over one float each: the float guess
  // misses often, and each value's bin is found by the bounded search (no walk over the edges).
  auto& rt = test::runtime();
  const float lo = 1.0f, hi = 1.125f;
  const std::size_t nbins = (std::size_t(1) << 20) - 1;
  std::mt19937 gen(3);
  std::vector<float> values(100000);
  for (auto& v : values) v = lo + float(gen() % (1u << 20)) * 0x1p-23f;
  values.push_back(hi);
  values.push_back(lo);
  const auto edges = test::numpy_edges(nbins, lo, hi);
  std::vector<std::uint64_t> expected(nbins, 0);
  for (const float v : values) ++expected[test::even_slot(v, edges)];  // every value lies in [lo, hi]
  const auto h = clatomics::histogram_even(rt, values, {nbins, lo, hi});
  CHECK(h.counts == expected);
  CHECK(h.below + h.above + h.nan == 0);
}

TEST_CASE("bin counts beyond the device's or the host's memory are refused before anything is allocated") {
  auto& rt = test::runtime();
  const auto& caps = rt.device_info().caps;
  const std::vector<float> values(10, 0.5f);
  const std::vector<cl_uint> keys(10, 1);
  clatomics::ProfileScope enqueued;
  for (const std::size_t nbins : {std::size_t(1) << 31, std::size_t(1) << 28, (std::size_t(1) << 32) - 4}) {
    CAPTURE(nbins);
    if (nbins * 8 <= caps.max_mem_alloc_size) continue;  // this device can hold them: nothing to refuse
    const auto what = test::message_of<std::invalid_argument>([&] { clatomics::histogram_even(rt, values, {nbins, 0.0f, 1.0f}); });
    CHECK(test::contains(what, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::histogram_keys(rt, keys, nbins); }), "nbins"));
  }
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, keys, (std::size_t(1) << 32) - 3), std::invalid_argument);
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("ProfileScopes ended in creation order or on another thread leave nothing dangling") {
  auto& rt = test::runtime();
  const std::vector<float> data(5000, 1.0f);
  auto outer = std::make_unique<clatomics::ProfileScope>();
  auto inner = std::make_unique<clatomics::ProfileScope>();
  outer.reset();  // the outer one first: the inner one records on
  CHECK(clatomics::reduce(rt, data, ReduceOp::sum) == 5000.0f);
  const std::size_t recorded = inner->commands();
  CHECK(recorded > 0);
  std::thread([&] { inner.reset(); }).join();  // ended on another thread
  CHECK(clatomics::reduce(rt, data, ReduceOp::sum) == 5000.0f);  // records nowhere, touches nothing freed
  clatomics::ProfileScope last;
  CHECK(clatomics::reduce(rt, data, ReduceOp::sum) == 5000.0f);
  CHECK(last.commands() == recorded);
  CHECK(last.device_ms() >= 0.0);
}

TEST_CASE("environment flags are read strictly") {
  for (const char* yes : {"1", "true", "TRUE", "yes", "On"}) {
    const test::ScopedEnv env("CLATOMICS_FORCE_CAS", yes);
    CHECK(clatomics::Options::from_env().force_cas);
  }
  for (const char* no : {"0", "false", "False", "no", "off", "OFF", ""}) {
    const test::ScopedEnv env("CLATOMICS_FORCE_CAS", no);
    CHECK_FALSE(clatomics::Options::from_env().force_cas);
    const test::ScopedEnv fp64("CLATOMICS_HIDE_FP64", no);
    CHECK_FALSE(clatomics::Options::from_env().hide_fp64);
  }
  for (const char* name : {"CLATOMICS_FORCE_CAS", "CLATOMICS_HIDE_FP64", "CLATOMICS_SUBGROUP_AGG", "CLATOMICS_EXACT_SUBNORMALS"})
    for (const char* nonsense : {"maybe", "2", "tru", " 1"}) {
      const test::ScopedEnv env(name, nonsense);
      const auto what = test::message_of<std::invalid_argument>([] { clatomics::Options::from_env(); });
      CHECK(test::contains(what, name));
    }
  for (const auto& [text, count] : std::vector<std::pair<const char*, int>>{{"", -1}, {"0", 0}, {"7", 7}, {"0256", 256}}) {
    const test::ScopedEnv env("CLATOMICS_STAGING_THREADS", text);
    CHECK(clatomics::Options::from_env().staging_threads == count);
  }
  for (const char* nonsense : {"-1", "257", "4 ", "many", "99999999999", "1e3"}) {
    const test::ScopedEnv env("CLATOMICS_STAGING_THREADS", nonsense);
    CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::Options::from_env(); }), "CLATOMICS_STAGING_THREADS"));
  }
  for (const char* blank : {" ", "\t"}) {
    const test::ScopedEnv env("CLATOMICS_DEVICE", blank);
    CHECK(test::contains(test::message_of<std::invalid_argument>([] { clatomics::Runtime rt; }), "CLATOMICS_DEVICE"));
  }
  for (const char* selector : {"/", " / ", "pocl/", "/cpu"}) {
    CAPTURE(selector);
    CHECK_THROWS_AS(clatomics::select_device(selector), std::invalid_argument);
  }
}

TEST_CASE("Runtime::build: #include lines in comments and #if 0 change nothing, and user lines stay the user's") {
  auto& rt = test::runtime();
  const std::string commented =
      "/* a note:\n#include \"clatomics/atomics.cl\" */\n"
      "// #include \"clatomics/float.cl\"\n"
      "#if 0\n#include \"clatomics/no_such_file.cl\"\n#include \"clatomics/atomics.cl\"\n#endif\n"
      "kernel void k(global float *p) { clat_atomic_add_float(p, 1.0f); }\n";
  CHECK_NOTHROW(rt.build(commented));
  // A user error on line 3, after an include on line 1.
  const std::string broken = "#include \"clatomics/atomics.cl\"\nkernel void k(global float *p) {\n  p[0] = no_such_name;\n}\n";
  try {
    rt.build(broken);
    FAIL("built");
  } catch (const clatomics::Error& e) {
    if (!rt.device_info().caps.nvidia) CHECK(test::contains(e.build_log(), ":3:"));
  }
}

TEST_CASE("the program cache holds at most its limits, least recently used first") {
  auto options = clatomics::Options::from_env();
  options.program_cache_entries = 2;
  clatomics::Runtime rt(options);
  const auto source = [](int k) { return "kernel void k" + std::to_string(k) + "(global uint *p) { clat_atomic_inc_uint(p, 7u); }\n"; };
  rt.build(source(1));
  rt.build(source(2));
  rt.build(source(1));  // 1 used last: 2 goes first
  rt.build(source(3));
  CHECK(rt.cache_entries() == 2);
  CHECK(rt.build_count() == 3);
  rt.build(source(1));  // still held
  CHECK(rt.build_count() == 3);
  rt.build(source(2));  // was dropped: built again
  CHECK(rt.build_count() == 4);
  CHECK(rt.cache_entries() == 2);

  options.program_cache_entries = 0;
  options.program_cache_bytes = 1;  // every program is bigger: none is kept beyond the newest
  clatomics::Runtime tiny(options);
  tiny.build(source(1));
  tiny.build(source(2));
  CHECK(tiny.cache_entries() == 0);  // each was dropped as soon as its build ended
  CHECK(tiny.cache_bytes() == 0);
  CHECK(clatomics::Options{}.program_cache_entries > 0);  // bounded by default
  CHECK(clatomics::Options{}.program_cache_bytes > 0);
}
