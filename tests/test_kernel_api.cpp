// The kernel author's API: one overloaded name per op (overloads.cl) for float, double, int,
// uint, long and ulong on __global and __local memory; compare-exchange that says whether it
// succeeded, atomic load and store (load_store.cl); user-defined ops (user_op.cl); release and
// acquire (message_passing.cl). Full contention and spread, exact expected values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "support.hpp"

namespace {

constexpr std::size_t n_items = 8192;

const cl::Program& program() {
  static const cl::Program p = test::runtime().build(test::test_sources({"local_cells.cl", "kernel_api.cl"}));
  return p;
}

using test::mix;

// cells for n items: full contention (1 cell; local: 1 per group) or spread (8 items per cell)
struct Shape {
  bool local, full;
  std::size_t group() const { return test::group_size(); }
  std::size_t cells() const { return full ? 1 : (local ? group() / 8 : n_items / 8); }
  std::size_t total_cells() const { return local ? (n_items / group()) * cells() : cells(); }
  cl_uint cell(std::size_t i) const { return cl_uint(local ? (i % group()) % cells() : i % cells()); }
  std::size_t global_cell(std::size_t i) const { return cell(i) + (local ? (i / group()) * cells() : 0); }
  const char* name() const { return full ? (local ? "local, full contention" : "global, full contention") : (local ? "local, spread" : "global, spread"); }
  static std::vector<Shape> all() { return {{false, true}, {false, false}, {true, true}, {true, false}}; }
};

enum Op : cl_uint { op_add, op_sub, op_mul, op_div, op_min, op_max, op_mad, op_xchg, op_cas_inc, op_store };
const char* op_names[] = {"fetch_add", "fetch_sub", "fetch_mul", "fetch_div", "fetch_min", "fetch_max", "fetch_mad", "exchange", "compare_exchange", "store"};

// Runs kernel ops_<T>_<space> with op; returns (final cells, olds).
template <class T>
std::pair<std::vector<T>, std::vector<T>> run_ops(Op op, const Shape& s, const std::vector<T>& start, const std::vector<T>& a,
                                                 const std::vector<T>& b) {
  auto& rt = test::runtime();
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  cl::Kernel kernel(program(), (std::string("ops_") + test::cl_type_name<T>() + (s.local ? "_local" : "_global")).c_str());
  cl::Buffer mem = test::to_device(rt, start), av = test::to_device(rt, a), bv = test::to_device(rt, b), cells = test::to_device(rt, cell);
  cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(T));
  test::set_args(kernel, mem, olds, av, bv, cells, cl_uint(op));
  if (s.local) {
    kernel.setArg(6, cl_uint(s.cells()));
    kernel.setArg(7, cl::Local(s.cells() * sizeof(T)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  return {test::to_host<T>(rt, mem, start.size()), test::to_host<T>(rt, olds, n_items)};
}

// The host's serial result of op on one cell (integers wrap; integer division by zero keeps the
// value, the least value by -1 wraps to itself).
template <class T>
T serial(Op op, T old, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case op_add: return T(U(old) + U(a));
      case op_sub: return T(U(old) - U(a));
      case op_mul: return T(U(old) * U(a));
      case op_div: return a == 0 ? old : (std::is_signed_v<T> && a == T(-1)) ? T(U(0) - U(old)) : T(old / a);
      case op_min: return std::min(old, a);
      case op_max: return std::max(old, a);
      case op_mad: return T(U(old) + U(a) * U(b));
      case op_cas_inc: return T(U(old) + 1);
      default: return a;
    }
  } else {
    switch (op) {
      case op_add: return old + a;
      case op_sub: return old - a;
      case op_mul: return old * a;
      case op_div: return old / a;
      case op_min: return test::ref_min(old, a);
      case op_max: return test::ref_max(old, a);
      case op_mad: return std::fma(a, b, old);
      case op_cas_inc: return old + T(1);
      default: return a;
    }
  }
}

// Operands whose every serial order gives the same exact result: powers of two for mul and div,
// small integers for add and sub, distinct values for min and max.
template <class T>
void operands(Op op, std::size_t i, T& a, T& b) {
  const std::uint32_t h = mix(std::uint32_t(i));
  b = T(3);
  switch (op) {
    case op_add:
    case op_sub: a = T(1 + h % 3); break;
    case op_mul: a = T(h % 512 == 0 ? 2 : 1); break;
    case op_div: a = T(h % 512 == 0 ? 2 : (std::is_integral_v<T> && h % 512 == 1) ? 0 : 1); break;  // integer 0: kept
    case op_min:
    case op_max: a = T(std::is_signed_v<T> ? int(h % 200001) - 100000 : int(h % 200001)); break;
    case op_mad: a = T(2), b = T(h % 2 ? 3 : std::is_signed_v<T> ? -1 : 0); break;
    default: a = T(1 + h % 1000); break;
  }
}

template <class T>
T start_value(Op op) {
  switch (op) {
    case op_sub: return T(100000);
    case op_div: return T(1 << 20);
    case op_mul: return T(1);
    case op_min: return T(150000);
    case op_max: return std::is_signed_v<T> ? T(-150000) : T(0);
    default: return T(7);
  }
}

template <class T>
void check_op(Op op, const Shape& s) {
  std::vector<T> a(n_items), b(n_items), start(s.total_cells(), start_value<T>(op));
  for (std::size_t i = 0; i < n_items; ++i) operands(op, i, a[i], b[i]);
  const auto [got, olds] = run_ops<T>(op, s, start, a, b);
  std::vector<std::vector<std::size_t>> by_cell(start.size());
  for (std::size_t i = 0; i < n_items; ++i) by_cell[s.global_cell(i)].push_back(i);
  std::size_t bad = 0;
  for (std::size_t c = 0; c < start.size(); ++c) {
    T expect = start[c];
    if (op == op_xchg || op == op_store) {
      // the final value is one of the operands; exchange: the olds and the final value are the
      // start and every operand, each once
      std::vector<T> all, seen;
      for (auto i : by_cell[c]) all.push_back(a[i]);
      bad += std::find(all.begin(), all.end(), got[c]) == all.end();
      if (op == op_xchg) {
        all.push_back(start[c]);
        for (auto i : by_cell[c]) seen.push_back(olds[i]);
        seen.push_back(got[c]);
        std::sort(all.begin(), all.end());
        std::sort(seen.begin(), seen.end());
        bad += all != seen;
      }
      continue;
    }
    for (auto i : by_cell[c]) expect = serial(op, expect, a[i], b[i]);
    bad += test::bits(got[c]) != test::bits(expect);
    if (op == op_cas_inc) {
      for (auto i : by_cell[c]) bad += olds[i] < T(1);  // 0: the bounded loop gave up
    } else if (op == op_add || op == op_sub) {
      // each old value is the cell's value after some of the others: between start and final
      for (auto i : by_cell[c]) {
        const T lo = std::min(start[c], expect), hi = std::max(start[c], expect);
        bad += olds[i] < lo || olds[i] > hi;
      }
    }
  }
  INFO((std::string("clat_") + op_names[op] + " on " + test::cl_type_name<T>() + ", " + s.name()));
  CHECK(bad == 0);
}

template <class T>
void check_all_ops() {
  if (test::skip_without_double<T>()) return;
  if (sizeof(T) == 8 && std::is_integral_v<T> && !test::runtime().device_info().caps.int64_base_atomics) return;
  for (Op op : {op_add, op_sub, op_mul, op_div, op_min, op_max, op_mad, op_xchg, op_cas_inc, op_store})
    for (const Shape& s : Shape::all()) check_op<T>(op, s);
}

}  // namespace

TEST_CASE("one name per op: clat_fetch_*, clat_exchange, clat_compare_exchange, clat_load/store on every type") {
  check_all_ops<float>();
  check_all_ops<double>();
  check_all_ops<cl_int>();
  check_all_ops<cl_uint>();
  check_all_ops<cl_long>();
  check_all_ops<cl_ulong>();
}

TEST_CASE("compare_exchange compares bits: -0.0 is not +0.0, a NaN equals itself, a float2 pair as one word") {
  auto& rt = test::runtime();
  cl::Kernel kernel(program(), "cas_bits");
  cl::Buffer f = test::to_device(rt, std::vector<float>{0.0f, 0.0f, 1.0f, 2.0f});
  cl::Buffer result = test::to_device(rt, std::vector<cl_uint>{9, 9, 9});
  test::set_args(kernel, f, result);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  const auto r = test::to_host<cl_uint>(rt, result, 3);
  CHECK(r[0] == 1);
  CHECK(r[1] == 1);
  CHECK(r[2] == 1);  // float2
}

TEST_CASE("half and bfloat16: load, store and compare_exchange keep the neighbour's bits") {
  auto& rt = test::runtime();
  // the bits of -2.5 and of the start value 0.333... in each format
  const std::map<std::string, std::pair<cl_ushort, cl_ushort>> formats = {{"half", {0xc100, 0x3555}}, {"bf16", {0xc020, 0x3eab}}};
  for (const auto& [name, f] : formats) {
    cl::Kernel kernel(program(), ("slot_" + name).c_str());
    cl::Buffer h = test::to_device(rt, std::vector<cl_ushort>{f.second, 0x1234});
    cl::Buffer loads(rt.context(), CL_MEM_READ_WRITE, 4 * sizeof(float));
    cl::Buffer result = test::to_device(rt, std::vector<cl_uint>{9, 9, 9});
    test::set_args(kernel, h, loads, result);
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
    const auto hv = test::to_host<cl_ushort>(rt, h, 2);
    const auto l = test::to_host<float>(rt, loads, 4);
    const auto r = test::to_host<cl_uint>(rt, result, 3);
    INFO(name);
    const float start = name == "half" ? 0.333251953125f : 0.333984375f;
    CHECK(l[0] == start);
    CHECK(l[1] == -2.5f);
    CHECK(l[2] == 1.0f);
    CHECK(test::bits(l[3]) == test::bits(-0.0f));
    CHECK(r == std::vector<cl_uint>{1, 1, 1});
    CHECK(hv[0] == 0x3c00);
    CHECK(hv[1] == f.first);
  }
}

TEST_CASE("atomic load and store of 8-byte values are never torn") {
  auto& rt = test::runtime();
  if (!rt.device_info().caps.int64_base_atomics) return;
  for (const char* type : {"long", "float2", "double"}) {
    if (std::string(type) == "double" && !rt.supports_double()) continue;
    cl::Kernel kernel(program(), (std::string("tear_") + type).c_str());
    cl::Buffer p = test::to_device(rt, std::vector<cl_ulong>{0x0123456789abcdefull});
    if (std::string(type) != "long") {
      const cl_ulong first = std::string(type) == "double" ? 0x3ff0000000000001ull : 0x400000003f800000ull;  // pattern a
      rt.queue().enqueueWriteBuffer(p, CL_TRUE, 0, 8, &first);
    }
    cl::Buffer torn = test::to_device(rt, std::vector<cl_uint>{0});
    test::set_args(kernel, p, torn, cl_uint(64));
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(test::group_size()));
    INFO((std::string(type)));
    CHECK(test::to_host<cl_uint>(rt, torn, 1)[0] == 0);
  }
}

namespace {

// Runs a user-op kernel NAME_<space> over float2 cells.
std::vector<cl_float2> run_user_f2(const std::string& name, const Shape& s, const std::vector<cl_float2>& start, const std::vector<cl_float2>& a) {
  auto& rt = test::runtime();
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  cl::Kernel kernel(program(), (name + (s.local ? "_local" : "_global")).c_str());
  cl::Buffer mem = test::to_device(rt, start), av = test::to_device(rt, a), cells = test::to_device(rt, cell);
  test::set_args(kernel, mem, av, cells);
  if (s.local) {
    kernel.setArg(3, cl_uint(s.cells()));
    kernel.setArg(4, cl::Local(s.cells() * sizeof(cl_float2)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  return test::to_host<cl_float2>(rt, mem, start.size());
}

template <class T>
void check_clamp(const Shape& s) {
  auto& rt = test::runtime();
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = s.cell(i);
  std::vector<T> start(s.total_cells(), T(90)), a(n_items);
  for (std::size_t i = 0; i < n_items; ++i) a[i] = T(1 + mix(std::uint32_t(i)) % 2);
  cl::Kernel kernel(program(), (std::string("clamp_") + test::cl_type_name<T>() + (s.local ? "_local" : "_global")).c_str());
  cl::Buffer mem = test::to_device(rt, start), av = test::to_device(rt, a), cells = test::to_device(rt, cell);
  test::set_args(kernel, mem, av, cells);
  if (s.local) {
    kernel.setArg(3, cl_uint(s.cells()));
    kernel.setArg(4, cl::Local(s.cells() * sizeof(T)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(s.group()));
  const auto got = test::to_host<T>(rt, mem, start.size());
  std::vector<T> expect(start);
  for (std::size_t i = 0; i < n_items; ++i) expect[s.global_cell(i)] = std::min(T(expect[s.global_cell(i)] + a[i]), T(100));
  INFO((std::string("add_clamp on ") + test::cl_type_name<T>() + ", " + s.name()));
  CHECK(got == expect);
}

}  // namespace

TEST_CASE("CLAT_DEFINE_ATOMIC_OP: a Kahan-compensated float pair keeps what a float sum loses") {
  if (!test::runtime().device_info().caps.int64_base_atomics) return;
  for (const Shape& s : Shape::all()) {
    // 2^24 + 1 rounds back to 2^24 in float: a plain float sum stays at 2^24, the pair's low
    // part counts every 1 exactly (each step is the same whatever the order).
    std::vector<cl_float2> start(s.total_cells(), cl_float2{{16777216.0f, 0.0f}}), a(n_items, cl_float2{{1.0f, 0.0f}});
    const auto got = run_user_f2("kahan_add", s, start, a);
    std::vector<float> count(start.size(), 0.0f);
    for (std::size_t i = 0; i < n_items; ++i) count[s.global_cell(i)] += 1.0f;
    std::size_t bad = 0;
    for (std::size_t c = 0; c < got.size(); ++c) bad += got[c].s[0] != 16777216.0f || got[c].s[1] != count[c];
    INFO((std::string("kahan_add, ") + s.name()));
    CHECK(bad == 0);
  }
}

TEST_CASE("CLAT_DEFINE_ATOMIC_OP: argmax with the least index, and add-and-clamp on one name for both spaces") {
  const bool pairs = test::runtime().device_info().caps.int64_base_atomics;
  for (const Shape& s : Shape::all()) {
    if (pairs) {
      std::vector<cl_float2> start(s.total_cells(), cl_float2{{-1.0f, -1.0f}}), a(n_items);
      for (std::size_t i = 0; i < n_items; ++i) a[i] = cl_float2{{float(mix(std::uint32_t(i)) % 97), float(i)}};  // many ties
      const auto got = run_user_f2("argmax", s, start, a);
      std::vector<std::pair<float, float>> expect(start.size(), {-1.0f, -1.0f});
      for (std::size_t i = 0; i < n_items; ++i) {
        auto& e = expect[s.global_cell(i)];
        if (a[i].s[0] > e.first || (a[i].s[0] == e.first && a[i].s[1] < e.second)) e = {a[i].s[0], a[i].s[1]};
      }
      std::size_t bad = 0;
      for (std::size_t c = 0; c < got.size(); ++c) bad += got[c].s[0] != expect[c].first || got[c].s[1] != expect[c].second;
      INFO((std::string("argmax, ") + s.name()));
      CHECK(bad == 0);
    }
    check_clamp<float>(s);
    check_clamp<cl_int>(s);
  }
}

TEST_CASE("release/acquire: a work-group that sees the flag sees the data written before it") {
  auto& rt = test::runtime();
  const cl_uint pairs = 64, n = 1024, rounds = 40;
  const bool gpu = rt.device_info().caps.is_gpu();
  cl::Kernel kernel(program(), "message_passing");
  cl::Buffer data(rt.context(), CL_MEM_READ_WRITE, std::size_t(pairs) * n * 4);
  cl::Buffer flag = test::to_device(rt, std::vector<cl_uint>(pairs, 0));
  cl::Buffer seen(rt.context(), CL_MEM_READ_WRITE, pairs * 4);
  std::size_t observed = 0, stale = 0;
  for (cl_uint round = 1; round <= rounds; ++round) {
    test::set_args(kernel, data, flag, seen, n, round, cl_uint(gpu ? 1u << 20 : 1u << 14));
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(2 * pairs * 64), cl::NDRange(64));
    for (cl_uint r : test::to_host<cl_uint>(rt, seen, pairs)) observed += r == 1, stale += r == 2;
  }
  MESSAGE("message passing: ", observed, " of ", pairs * rounds, " consumers saw the flag, ", stale, " with stale data");
  CHECK(stale == 0);
  if (gpu) CHECK(observed > 0);  // GPUs run the pairs at once: the test must have tested something
}

TEST_CASE("bad use of the one-name API fails to compile and names the supported forms") {
  auto& rt = test::runtime();
  const std::string forms = "takes a __global or __local pointer to float, double, int, uint, long or ulong";
  for (const char* body : {"constant float *c = k; clat_fetch_add(c, 1.0f);", "global uchar *c = (global uchar *)g; clat_fetch_max(c, (uchar)1);",
                           "global ushort *c = (global ushort *)g; clat_exchange(c, (ushort)1);",
                           "float mine = 0.0f; clat_fetch_add(&mine, 1.0f); g[0] = mine;"}) {
    const std::string source = std::string("kernel void bad(global float *g, constant float *k) { ") + body + " }";
    const std::string message = test::message_of<clatomics::Error>([&] { rt.build(source); });
    INFO((std::string(body)));
    CHECK(test::contains(message, forms));
  }
}

TEST_CASE("the overloads exist on this device; generic pointers reach them where the compiler has them") {
  auto& rt = test::runtime();
  cl::Kernel kernel(program(), "features");
  cl::Buffer f = test::to_device(rt, std::vector<cl_uint>{0, 0});
  test::set_args(kernel, f);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  const auto got = test::to_host<cl_uint>(rt, f, 2);
  const std::string overloads = got[0] ? "defined" : "undefined", generic_space = got[1] ? "offered" : "not offered";
  MESSAGE(rt.device_info().caps.device_name, ": CLAT_HAVE_OVERLOADS ", overloads, ", generic address space ", generic_space);
  CHECK(got[0] == 1);  // PoCL and NVIDIA, the devices this suite runs on (README lists them)
  if (!got[1]) return;
  cl::Kernel generic(program(), "generic_ops");
  const std::size_t group = test::group_size();
  cl::Buffer g = test::to_device(rt, std::vector<float>{0.0f, 0.0f});
  test::set_args(generic, g);
  rt.queue().enqueueNDRangeKernel(generic, cl::NullRange, cl::NDRange(group), cl::NDRange(group));
  const auto r = test::to_host<float>(rt, g, 2);
  CHECK(r[0] == float(group));
  CHECK(r[1] == float(group - 1));
}
