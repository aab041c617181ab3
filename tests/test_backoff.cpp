// backoff.cl: the CAS loop with a pause after each failed compare-exchange must give exactly the
// results of the plain ops, under full contention (every work-item on one address) and spread,
// on __global and __local memory; and it must not exist unless the build asks for it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "support.hpp"

namespace {

enum Op : cl_uint { op_add, op_sub, op_mul, op_div, op_mad, op_min, op_max };
const char* op_names[] = {"add", "sub", "mul", "div", "mad", "min", "max"};

constexpr std::size_t n_items = 65536;

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

cl::Program backoff_program() {
  return test::runtime().build(test::test_source("backoff_ops.cl"), "-DCLAT_WITH_BACKOFF");
}

// One launch: work-item i applies op to its cell (i % naddr, or its group's lid % naddr).
template <class T>
struct Launch {
  bool local = false;
  std::size_t naddr = 1, group = 1;
  std::vector<T> init, a, b, olds, final_values;

  std::size_t cell_of(std::size_t item) const {
    return local ? (item / group) * naddr + (item % group) % naddr : item % naddr;
  }
  std::size_t cells() const { return local ? (n_items / group) * naddr : naddr; }
};

template <class T>
void run(Launch<T>& l, Op op) {
  auto& rt = test::runtime();
  cl::Kernel kernel(backoff_program(), (std::string("backoff_") + type_name<T>() + (l.local ? "_local" : "_global")).c_str());
  cl::Buffer mem = test::to_device(rt, l.init), a = test::to_device(rt, l.a), b = test::to_device(rt, l.b);
  cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(T));
  kernel.setArg(0, mem);
  kernel.setArg(1, olds);
  kernel.setArg(2, a);
  kernel.setArg(3, b);
  kernel.setArg(4, cl_uint(op));
  kernel.setArg(5, cl_uint(l.naddr));
  if (l.local) kernel.setArg(6, cl::Local(l.naddr * sizeof(T)));
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(l.group));
  l.olds = test::to_host<T>(rt, olds, n_items);
  l.final_values = test::to_host<T>(rt, mem, l.init.size());
}

template <class T>
void check_op(Op op, bool local, bool full) {
  Launch<T> l;
  l.local = local;
  l.group = test::group_size();
  l.naddr = full ? 1 : (local ? l.group / 8 : n_items / 64);
  const std::size_t count = full ? (local ? l.group : n_items) : (local ? 8 : 64);  // ops per cell
  INFO(op_names[op], " ", type_name<T>(), local ? " local" : " global", full ? " full contention" : " spread", " (",
       count, " ops per cell)");
  const bool flip = full && (op == op_mul || op == op_div);  // 2^count would overflow: multiply by -1
  T start = T(0);
  if (op == op_sub) start = T(count);
  if (op == op_mul || flip) start = T(1);
  if (op == op_div && !flip) start = std::ldexp(T(1), int(count));
  if (op == op_min || op == op_max) start = T(0.5);
  l.init.assign(l.cells(), start);
  l.a.resize(n_items);
  l.b.assign(n_items, T(0));
  for (std::size_t i = 0; i < n_items; ++i) {
    if (op == op_mul || op == op_div) l.a[i] = flip ? T(-1) : T(2);
    else if (op == op_mad) l.a[i] = T(2), l.b[i] = T(0.5);  // fma(2, 0.5, old) = old + 1
    else if (op == op_min || op == op_max) l.a[i] = T(int((i * 2654435761u) % 2001u) - 1000);
    else l.a[i] = T(1);
  }
  run(l, op);

  std::vector<std::vector<std::size_t>> by_cell(l.cells());
  for (std::size_t i = 0; i < n_items; ++i) by_cell[l.cell_of(i)].push_back(i);
  for (std::size_t c = 0; c < by_cell.size(); ++c) {
    std::vector<T> olds;
    for (auto i : by_cell[c]) olds.push_back(l.olds[i]);
    std::sort(olds.begin(), olds.end());
    const T fin = l.final_values[c];
    CAPTURE(c);
    REQUIRE(olds.size() == count);
    if (op == op_add || op == op_sub || op == op_mad) {
      // some serial order visits start, start +- 1, ...: the sorted olds are consecutive
      const T first = op == op_sub ? T(1) : T(0);
      bool exact = true;
      for (std::size_t k = 0; k < count; ++k) exact = exact && olds[k] == first + T(k);
      CHECK(exact);
      CHECK(fin == (op == op_sub ? T(0) : T(count)));
    } else if (flip) {  // 1, -1, 1, ...
      CHECK(std::count(olds.begin(), olds.end(), T(1)) == std::ptrdiff_t((count + 1) / 2));
      CHECK(std::count(olds.begin(), olds.end(), T(-1)) == std::ptrdiff_t(count / 2));
      CHECK(fin == (count % 2 ? T(-1) : T(1)));
    } else if (op == op_mul || op == op_div) {  // every power of two once
      const int first = op == op_mul ? 0 : 1;
      bool exact = true;
      for (std::size_t k = 0; k < count; ++k) exact = exact && olds[k] == std::ldexp(T(1), first + int(k));
      CHECK(exact);
      CHECK(fin == (op == op_mul ? std::ldexp(T(1), int(count)) : T(1)));
    } else {  // min, max
      T expected = start;
      std::vector<T> offered{start};
      for (auto i : by_cell[c]) {
        expected = op == op_min ? std::min(expected, l.a[i]) : std::max(expected, l.a[i]);
        offered.push_back(l.a[i]);
      }
      CHECK(test::bits(fin) == test::bits(expected));
      bool plausible = true;  // every old was offered (or the start) and no better than the final
      for (T o : olds)
        plausible = plausible && std::find(offered.begin(), offered.end(), o) != offered.end() &&
                    (op == op_min ? o >= fin : o <= fin);
      CHECK(plausible);
    }
  }
}

template <class T>
void check_all_modes(Op op) {
  if (std::is_same<T, double>::value && !test::runtime().supports_double()) {
    MESSAGE("double not supported on this device: skipped");
    return;
  }
  for (bool local : {false, true})
    for (bool full : {true, false}) check_op<T>(op, local, full);
}

}  // namespace

#define BACKOFF_TEST(OP)                                                                    \
  TEST_CASE_TEMPLATE("backoff " #OP " under contention and spread", T, float, double) {     \
    check_all_modes<T>(op_##OP);                                                            \
  }

BACKOFF_TEST(add)
BACKOFF_TEST(sub)
BACKOFF_TEST(mul)
BACKOFF_TEST(div)
BACKOFF_TEST(mad)
BACKOFF_TEST(min)
BACKOFF_TEST(max)

TEST_CASE("backoff functions exist only with CLAT_WITH_BACKOFF") {
  const std::string kernel =
      "kernel void k(global float *p) { clat_atomic_mul_float_backoff(p, 2.0f); }\n";
  CHECK_NOTHROW(test::runtime().build(kernel, "-DCLAT_WITH_BACKOFF"));
  CHECK_THROWS_AS(test::runtime().build(kernel), clatomics::Error);
}
