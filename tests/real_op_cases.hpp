// The case table every float/double op runs: under full contention (every work-item on one
// address) and spread over many addresses, on __global and __local memory, with operands whose
// results are exact, so that each cell's returned old values and final value are checked
// exactly. test_real_ops runs it on the public ops, test_backoff on backoff.cl's.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "real_ops.hpp"

namespace real_ops {

constexpr std::size_t n_items = 65536;

// Which kernels run the cases: build options for tests/cl/real_ops.cl and the kernels' name,
// <name>_<type>_global / _local.
struct Kernels {
  const char* options;
  const char* name;
};

// One launch: every work-item applies op to its cell; the cells' final values and the olds.
template <class T>
struct Launch {
  bool local = false;
  std::size_t naddr = 1;  // cells per work-group (local) or in all (global)
  std::size_t group = 1;
  std::vector<T> init, a, b, olds, final_values;

  std::size_t cell_of(std::size_t item) const {
    return local ? (item / group) * naddr + (item % group) % naddr : item % naddr;
  }
  std::size_t cells() const { return local ? (n_items / group) * naddr : naddr; }
  // The items of each cell.
  std::vector<std::vector<std::size_t>> items_by_cell() const {
    std::vector<std::vector<std::size_t>> by(cells());
    for (std::size_t i = 0; i < n_items; ++i) by[cell_of(i)].push_back(i);
    return by;
  }
};

template <class T>
void run(const Kernels& kernels, Launch<T>& l, Op op) {
  auto& rt = test::runtime();
  const cl::Program program = rt.build(test::test_sources({"real_apply.cl", "real_ops.cl"}), kernels.options);
  const std::string name = std::string(kernels.name) + "_" + test::cl_type_name<T>() + (l.local ? "_local" : "_global");
  cl::Kernel kernel(program, name.c_str());
  cl::Buffer mem = test::to_device(rt, l.init), a = test::to_device(rt, l.a), b = test::to_device(rt, l.b);
  cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(T));
  test::set_args(kernel, mem, olds, a, b, cl_uint(op), cl_uint(l.naddr));
  if (l.local) kernel.setArg(6, cl::Local(l.naddr * sizeof(T)));
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(l.group));
  l.olds = test::to_host<T>(rt, olds, n_items);
  l.final_values = test::to_host<T>(rt, mem, l.init.size());
}

// Sets up operands for op and mode, runs, and checks every cell exactly.
template <class T>
void check_op(const Kernels& kernels, Op op, bool local, bool full) {
  Launch<T> l;
  l.local = local;
  l.group = test::group_size();
  l.naddr = full ? 1 : (local ? l.group / 8 : n_items / 64);
  const std::size_t count = full ? (local ? l.group : n_items) : (local ? 8 : 64);  // ops per cell
  INFO(kernels.name, " ", op_names[op], " ", test::cl_type_name<T>(), local ? " local" : " global",
       full ? " full contention" : " spread", " (", count, " ops per cell)");
  const bool flip = full && (op == op_mul || op == op_div);  // 2^count would overflow: use -1
  T start = T(0);
  if (op == op_sub) start = T(count);
  if (op == op_mul || flip) start = T(1);
  if (op == op_div && !flip) start = std::ldexp(T(1), int(count));
  if (op == op_min || op == op_max) start = T(0.5);
  l.init.assign(l.cells(), start);
  l.a.resize(n_items);
  l.b.assign(n_items, T(0));
  for (std::size_t i = 0; i < n_items; ++i) {
    switch (op) {
      case op_mul:
      case op_div: l.a[i] = flip ? T(-1) : T(2); break;
      case op_mad: l.a[i] = T(2), l.b[i] = T(0.5); break;  // fma(2, 0.5, old) = old + 1
      case op_min:
      case op_max: l.a[i] = T(int((i * 2654435761u) % 2001u) - 1000); break;
      case op_xchg: l.a[i] = T(i + 1); break;
      case op_cmpxchg: l.a[i] = start, l.b[i] = T(i + 1); break;  // compare with the start, store i + 1
      default: l.a[i] = T(1);
    }
  }
  run(kernels, l, op);

  const auto by_cell = l.items_by_cell();
  for (std::size_t c = 0; c < by_cell.size(); ++c) {
    std::vector<T> olds;
    for (auto i : by_cell[c]) olds.push_back(l.olds[i]);
    std::sort(olds.begin(), olds.end());
    const T fin = l.final_values[c];
    CAPTURE(c);
    REQUIRE(olds.size() == count);
    switch (op) {
      case op_add:
      case op_mad:
      case op_sub: {
        // serial order visits start, start +- 1, ...: sorted olds are consecutive integers
        const T first = op == op_sub ? T(1) : T(0);
        bool exact = true;
        for (std::size_t k = 0; k < count; ++k) exact = exact && olds[k] == first + T(k);
        CHECK(exact);
        CHECK(fin == (op == op_sub ? T(0) : T(count)));
        break;
      }
      case op_mul:
      case op_div:
        if (flip) {  // values alternate 1, -1, 1, ...
          const auto plus = std::count(olds.begin(), olds.end(), T(1));
          CHECK(plus == std::ptrdiff_t((count + 1) / 2));
          CHECK(std::count(olds.begin(), olds.end(), T(-1)) == std::ptrdiff_t(count / 2));
          CHECK(fin == (count % 2 ? T(-1) : T(1)));
        } else {  // powers of two, each once
          const int first = op == op_mul ? 0 : 1;
          bool exact = true;
          for (std::size_t k = 0; k < count; ++k) exact = exact && olds[k] == std::ldexp(T(1), first + int(k));
          CHECK(exact);
          CHECK(fin == (op == op_mul ? std::ldexp(T(1), int(count)) : T(1)));
        }
        break;
      case op_min:
      case op_max: {
        T expected = start;
        std::vector<T> offered{start};
        for (auto i : by_cell[c]) {
          expected = op == op_min ? test::ref_min(expected, l.a[i]) : test::ref_max(expected, l.a[i]);
          offered.push_back(l.a[i]);
        }
        CHECK(test::bits(fin) == test::bits(expected));
        bool plausible = true;  // every old was offered (or the start) and no better than the final
        for (T o : olds)
          plausible = plausible && std::find(offered.begin(), offered.end(), o) != offered.end() &&
                      (op == op_min ? o >= fin : o <= fin);
        CHECK(plausible);
        break;
      }
      case op_xchg: {  // an exchange chain: olds plus the final value are the start plus all operands
        std::vector<T> all{start}, seen(olds);
        for (auto i : by_cell[c]) all.push_back(l.a[i]);
        seen.push_back(fin);
        std::sort(all.begin(), all.end());
        std::sort(seen.begin(), seen.end());
        CHECK(seen == all);
        break;
      }
      case op_cmpxchg: {  // exactly one compare succeeds; everyone else sees the winner
        CHECK(std::count(olds.begin(), olds.end(), start) == 1);
        CHECK(std::count(olds.begin(), olds.end(), fin) == std::ptrdiff_t(count - 1));
        bool offered = false;
        for (auto i : by_cell[c]) offered = offered || l.b[i] == fin;
        CHECK(offered);
        break;
      }
    }
  }
}

// Every case of op: __global and __local, full contention and spread.
template <class T>
void check_all_modes(const Kernels& kernels, Op op) {
  if (test::skip_without_double<T>()) return;
  for (bool local : {false, true})
    for (bool full : {true, false}) check_op<T>(kernels, op, local, full);
}

}  // namespace real_ops

// A doctest case "<title> <op> under contention and spread" running op's cases on kernels, for
// float and double.
#define REAL_OP_CASES(TITLE, KERNELS, OP)                                                     \
  TEST_CASE_TEMPLATE(TITLE " " #OP " under contention and spread", T, float, double) {        \
    real_ops::check_all_modes<T>(KERNELS, real_ops::op_##OP);                                 \
  }
