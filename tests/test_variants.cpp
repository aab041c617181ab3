// No-return add/sub/min/max (noret.cl), saturating inc/dec (saturating.cl) and float2 as one
// 64-bit compare-exchange (float2.cl), on __global and __local, under full contention and spread,
// with exact expected results.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

#include "support.hpp"

namespace {

constexpr std::size_t n_items = 8192;

cl::Program program() { return test::runtime().build(test::test_sources({"local_cells.cl", "variants_ops.cl"})); }

using test::mix;

// cells for n items: full contention (1 cell; local: 1 per group) or spread (8 items per cell)
struct Shape {
  bool local, full;
  std::size_t group() const { return test::group_size(); }
  std::size_t cells() const { return full ? 1 : (local ? group() / 8 : n_items / 8); }  // global: all; local: per group
  std::size_t total_cells() const { return local ? (n_items / group()) * cells() : cells(); }
  cl_uint cell(std::size_t i) const { return cl_uint(local ? (i % group()) % cells() : i % cells()); }
  std::size_t global_cell(std::size_t i) const { return cell(i) + (local ? (i / group()) * cells() : 0); }
  const char* name() const { return full ? (local ? "local, full contention" : "global, full contention") : (local ? "local, spread" : "global, spread"); }
};

// ---- no-return ----
enum NoretOp : cl_uint { nr_add, nr_sub, nr_min, nr_max };
const char* noret_names[] = {"add", "sub", "min", "max"};

template <class T>
void check_noret(NoretOp op, Shape s) {
  auto& rt = test::runtime();
  std::vector<T> a(n_items), mem(s.total_cells()), expect(s.total_cells());
  for (std::size_t i = 0; i < n_items; ++i)
    a[i] = (op == nr_add || op == nr_sub) ? T(1 + mix(std::uint32_t(i)) % 3) : T(int(mix(std::uint32_t(i)) % 2001) - 1000);
  for (std::size_t c = 0; c < mem.size(); ++c) mem[c] = expect[c] = (op == nr_min || op == nr_max) ? T(0.5) : T(0);
  for (std::size_t i = 0; i < n_items; ++i) {
    T& e = expect[s.global_cell(i)];
    switch (op) {
      case nr_add: e += a[i]; break;
      case nr_sub: e -= a[i]; break;
      case nr_min: e = std::min(e, a[i]); break;
      case nr_max: e = std::max(e, a[i]); break;
    }
  }
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  cl::Kernel kernel(program(), (std::string("noret_") + test::cl_type_name<T>() + (s.local ? "_local" : "_global")).c_str());
  cl::Buffer mem_buf = test::to_device(rt, mem), a_buf = test::to_device(rt, a), cell_buf = test::to_device(rt, cell);
  test::set_args(kernel, mem_buf, a_buf, cell_buf, cl_uint(op));
  if (s.local) {
    kernel.setArg(4, cl_uint(s.cells()));
    kernel.setArg(5, cl::Local(s.cells() * sizeof(T)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  const auto got = test::to_host<T>(rt, mem_buf, mem.size());
  std::size_t bad = 0;
  for (std::size_t c = 0; c < got.size(); ++c) bad += test::bits(got[c]) != test::bits(expect[c]);
  INFO(noret_names[op], "_", test::cl_type_name<T>(), "_noret ", s.name());
  CHECK(bad == 0);
}

// ---- saturating ----
template <class T>
void check_saturating(bool inc, T start, T limit, Shape s) {
  auto& rt = test::runtime();
  std::vector<T> mem(s.total_cells(), start);
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  cl::Kernel kernel(program(), (std::string("sat_") + test::cl_type_name<T>() + (s.local ? "_local" : "_global")).c_str());
  cl::Buffer mem_buf = test::to_device(rt, mem), cell_buf = test::to_device(rt, cell);
  cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(T));
  test::set_args(kernel, mem_buf, olds, cell_buf, cl_uint(inc ? 0 : 1), limit);
  if (s.local) {
    kernel.setArg(5, cl_uint(s.cells()));
    kernel.setArg(6, cl::Local(s.cells() * sizeof(T)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  const auto got = test::to_host<T>(rt, mem_buf, mem.size());
  const auto old = test::to_host<T>(rt, olds, n_items);
  std::vector<std::vector<T>> by_cell(mem.size());
  for (std::size_t i = 0; i < n_items; ++i) by_cell[s.global_cell(i)].push_back(old[i]);
  std::size_t bad = 0;
  for (std::size_t c = 0; c < mem.size(); ++c) {
    auto olds_c = by_cell[c];
    std::sort(olds_c.begin(), olds_c.end());
    // the serial order: the value steps towards its bound once per item, then stays there
    std::vector<T> expect;
    T v = start;
    for (std::size_t k = 0; k < olds_c.size(); ++k) {
      expect.push_back(v);
      if (inc && v < limit) v = T(v + 1);
      if (!inc && v > T(0)) v = T(v - 1);
    }
    std::sort(expect.begin(), expect.end());
    bad += olds_c != expect || got[c] != v;
  }
  INFO((inc ? "inc_sat_" : "dec_sat_"), test::cl_type_name<T>(), " from ", start, (inc ? " to limit " : ""), (inc ? std::to_string(limit) : ""),
       " ", s.name());
  CHECK(bad == 0);
}

template <class T>
void check_saturating_all() {
  constexpr bool wide = sizeof(T) == 8;
  const T big = wide ? T(std::uint64_t(1) << 40) : T(1000000);  // 64-bit ops must keep the high bits
  for (bool local : {false, true})
    for (bool full : {true, false}) {
      const Shape s{local, full};
      check_saturating<T>(true, T(0), T(100), s);        // reaches the limit and stays
      check_saturating<T>(true, big, T(big + 5000), s);  // stops short of it (spread) or reaches it
      check_saturating<T>(true, T(200), T(100), s);      // already beyond: unchanged
      check_saturating<T>(true, std::numeric_limits<T>::max() - T(3), std::numeric_limits<T>::max(), s);  // no wrap
      check_saturating<T>(false, T(100), T(0), s);        // reaches 0 and stays
      check_saturating<T>(false, big, T(0), s);
      if (std::is_signed<T>::value) check_saturating<T>(false, T(-5), T(0), s);  // negative: unchanged
    }
}

// ---- float2 ----
enum F2Op : cl_uint { f2_add, f2_sub, f2_cmul, f2_xchg, f2_cmpxchg };
const char* f2_names[] = {"add", "sub", "cmul", "xchg", "cmpxchg"};

void check_float2(F2Op op, Shape s) {
  auto& rt = test::runtime();
  std::vector<cl_float2> mem(s.total_cells()), a(n_items);
  std::vector<std::vector<std::size_t>> by_cell(mem.size());
  for (std::size_t i = 0; i < n_items; ++i) by_cell[s.global_cell(i)].push_back(i);
  for (std::size_t c = 0; c < mem.size(); ++c) {
    const float n = float(by_cell[c].size());
    mem[c] = op == f2_sub ? cl_float2{{n, 2 * n}} : op == f2_cmul ? cl_float2{{1, 0}} : cl_float2{{0, 0}};
  }
  for (std::size_t i = 0; i < n_items; ++i) {
    switch (op) {
      case f2_add:
      case f2_sub: a[i] = cl_float2{{1, 2}}; break;
      case f2_cmul: a[i] = cl_float2{{0, 1}}; break;  // times i: (x, y) -> (-y, x)
      default: a[i] = cl_float2{{float(i + 1), -float(i + 1)}};
    }
  }
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  cl::Kernel kernel(program(), s.local ? "f2_local" : "f2_global");
  cl::Buffer mem_buf = test::to_device(rt, mem), a_buf = test::to_device(rt, a), cell_buf = test::to_device(rt, cell);
  cl::Buffer olds_buf(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(cl_float2));
  test::set_args(kernel, mem_buf, olds_buf, a_buf, cell_buf, cl_uint(op), cl_float2{{0, 0}});
  if (s.local) {
    kernel.setArg(6, cl_uint(s.cells()));
    kernel.setArg(7, cl::Local(s.cells() * sizeof(cl_float2)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  const auto got = test::to_host<cl_float2>(rt, mem_buf, mem.size());
  const auto olds = test::to_host<cl_float2>(rt, olds_buf, n_items);
  auto pair = [](const cl_float2& v) { return std::make_pair(v.s[0], v.s[1]); };
  std::size_t bad = 0;
  for (std::size_t c = 0; c < mem.size(); ++c) {
    std::vector<std::pair<float, float>> seen, expect;
    for (auto i : by_cell[c]) seen.push_back(pair(olds[i]));
    const std::size_t n = by_cell[c].size();
    std::pair<float, float> fin{};
    switch (op) {
      case f2_add:  // olds (k, 2k), k = 0..n-1: never one component without the other
      case f2_sub:
        for (std::size_t k = 0; k < n; ++k) expect.emplace_back(float(op == f2_add ? k : k + 1), float(2 * (op == f2_add ? k : k + 1)));
        fin = op == f2_add ? std::make_pair(float(n), float(2 * n)) : std::make_pair(0.0f, 0.0f);
        break;
      case f2_cmul: {  // 1, i, -1, -i, 1, ...
        const std::pair<float, float> cycle[] = {{1.f, 0.f}, {0.f, 1.f}, {-1.f, 0.f}, {0.f, -1.f}};
        for (std::size_t k = 0; k < n; ++k) expect.push_back(cycle[k % 4]);
        fin = cycle[n % 4];
        break;
      }
      case f2_xchg:  // the olds and the final value are the start and every operand
        expect.emplace_back(0.0f, 0.0f);
        for (auto i : by_cell[c]) expect.push_back(pair(a[i]));
        seen.push_back(pair(got[c]));
        fin = pair(got[c]);
        break;
      case f2_cmpxchg: {  // one winner; the others see it
        std::size_t winners = 0;
        for (auto& o : seen) winners += o == std::make_pair(0.0f, 0.0f);
        bad += winners != 1;
        for (auto i : by_cell[c]) {
          if (pair(olds[i]) == std::make_pair(0.0f, 0.0f)) expect.emplace_back(0.0f, 0.0f);
          else expect.push_back(pair(got[c]));
        }
        fin = pair(got[c]);
        break;
      }
    }
    // -0.0 == 0.0 in the sort below is fine: every expected value here is exact and unsigned zero
    std::sort(seen.begin(), seen.end());
    std::sort(expect.begin(), expect.end());
    bad += seen != expect || pair(got[c]) != fin;
  }
  INFO(f2_names[op], "_float2 ", s.name());
  CHECK(bad == 0);
}

void check_torn(bool local) {
  auto& rt = test::runtime();
  const std::size_t g = test::group_size(), items = local ? 16 * g : 16 * g;
  const cl_uint reps = 16;
  cl::Kernel kernel(program(), local ? "f2_torn_local" : "f2_torn_global");
  cl::Buffer mem = test::to_device(rt, std::vector<cl_float2>(items / g, cl_float2{{0, 0}}));
  cl::Buffer torn = test::to_device(rt, std::vector<cl_uint>(1, 0));
  test::set_args(kernel, mem, torn, reps);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(g));
  const auto t = test::to_host<cl_uint>(rt, torn, 1);
  const auto m = test::to_host<cl_float2>(rt, mem, local ? items / g : 1);
  CHECK_MESSAGE(t[0] == 0, "values seen half-updated: ", t[0]);
  const float writes = float((local ? g : items) / 2 * reps);
  for (const auto& v : m) CHECK((v.s[0] == writes && v.s[1] == 2 * writes));
}

bool has_int64() { return test::runtime().device_info().caps.int64_base_atomics; }

}  // namespace

TEST_CASE_TEMPLATE("no-return add, sub, min, max", T, float, double) {
  if (test::skip_without_double<T>()) return;
  static bool logged = false;
  if (!logged) {
    logged = true;
    const auto& o = test::runtime().build_options();
    std::cerr << "[variants] " << test::runtime().device_info().caps.device_name << ": no-return global add "
              << (o.find("CLAT_NVIDIA_PTX") != std::string::npos && o.find("CLAT_FORCE_CAS") == std::string::npos ? "ptx red" : "the plain add")
              << "\n";
  }
  for (auto op : {nr_add, nr_sub, nr_min, nr_max})
    for (bool local : {false, true})
      for (bool full : {true, false}) check_noret<T>(op, Shape{local, full});
}

TEST_CASE_TEMPLATE("saturating inc and dec stop at their bounds", T, cl_uint, cl_int, cl_ulong, cl_long) {
  if (sizeof(T) == 8 && !has_int64()) {
    MESSAGE("no 64-bit atomics on this device: skipped");
    return;
  }
  check_saturating_all<T>();
}

TEST_CASE("float2 updated as one 64-bit value") {
  if (!has_int64()) {
    MESSAGE("no 64-bit atomics on this device: skipped");
    return;
  }
  for (auto op : {f2_add, f2_sub, f2_cmul, f2_xchg, f2_cmpxchg})
    for (bool local : {false, true})
      for (bool full : {true, false}) check_float2(op, Shape{local, full});
}

TEST_CASE("float2 readers never see a half-updated value") {
  if (!has_int64()) {
    MESSAGE("no 64-bit atomics on this device: skipped");
    return;
  }
  for (bool local : {false, true}) check_torn(local);
}
