// The integer helpers against CUDA's documented semantics (atomicInc / atomicDec) and C++'s
// compare_exchange_strong, under full contention and spread, on __global and __local memory.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <map>

#include "support.hpp"

namespace {

constexpr std::size_t n_items = 65536;

// CUDA: atomicInc computes ((old >= val) ? 0 : (old+1)); atomicDec computes
// (((old == 0) | (old > val)) ? val : (old-1)). Signed types compare signed, wrap unsigned.
template <class T>
T cuda_inc(T old, T limit) {
  using U = std::make_unsigned_t<T>;
  return old >= limit ? T(0) : T(U(old) + 1u);
}
template <class T>
T cuda_dec(T old, T limit) {
  using U = std::make_unsigned_t<T>;
  return (old == 0 || old > limit) ? limit : T(U(old) - 1u);
}

cl::Program program() { return test::runtime().build(test::test_source("integer_ops.cl")); }

// Every op on a cell is the same function of the old value, so the multiset of old values is the
// same for every serial order: simulate one and compare.
template <class T>
void check_contended(cl_uint op, bool local, bool full, T limit) {
  auto& rt = test::runtime();
  const std::size_t group = test::group_size();
  const std::size_t naddr = full ? 1 : (local ? group / 8 : n_items / 64);
  const std::size_t cells = local ? (n_items / group) * naddr : naddr;
  INFO(test::cl_type_name<T>(), op == 0 ? " inc" : op == 1 ? " dec" : " compare_exchange", local ? " local" : " global",
       full ? " full contention" : " spread", " limit ", limit);
  std::vector<T> init(cells, T(0));
  cl::Buffer mem = test::to_device(rt, init);
  cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, n_items * sizeof(T));
  cl::Buffer won = test::to_device(rt, std::vector<cl_int>(n_items, -1));
  cl::Kernel kernel(program(), (std::string("int_") + test::cl_type_name<T>() + (local ? "_local" : "_global")).c_str());
  test::set_args(kernel, mem, olds, won, limit, op, cl_uint(naddr));
  if (local) kernel.setArg(6, cl::Local(naddr * sizeof(T)));
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(group));
  const auto got_olds = test::to_host<T>(rt, olds, n_items);
  const auto got_final = test::to_host<T>(rt, mem, cells);
  const auto got_won = test::to_host<cl_int>(rt, won, n_items);

  std::vector<std::vector<std::size_t>> by_cell(cells);
  for (std::size_t i = 0; i < n_items; ++i)
    by_cell[local ? (i / group) * naddr + (i % group) % naddr : i % naddr].push_back(i);
  for (std::size_t c = 0; c < cells; ++c) {
    CAPTURE(c);
    std::vector<T> olds_here;
    for (auto i : by_cell[c]) olds_here.push_back(got_olds[i]);
    std::sort(olds_here.begin(), olds_here.end());
    if (op == 2) {
      const auto wins = std::count_if(by_cell[c].begin(), by_cell[c].end(), [&](std::size_t i) { return got_won[i] == 1; });
      REQUIRE(wins == 1);
      const auto winner = *std::find_if(by_cell[c].begin(), by_cell[c].end(), [&](std::size_t i) { return got_won[i] == 1; });
      CHECK(got_final[c] == T(winner + 1));
      CHECK(std::count(olds_here.begin(), olds_here.end(), T(0)) == 1);  // the winner saw 0
      CHECK(std::count(olds_here.begin(), olds_here.end(), got_final[c]) == std::ptrdiff_t(by_cell[c].size() - 1));
      continue;
    }
    std::vector<T> expected;
    T value = T(0);
    for (std::size_t k = 0; k < by_cell[c].size(); ++k) {
      expected.push_back(value);
      value = op == 0 ? cuda_inc(value, limit) : cuda_dec(value, limit);
    }
    std::sort(expected.begin(), expected.end());
    CHECK(olds_here == expected);
    CHECK(got_final[c] == value);
  }
}

template <class T>
bool available() {
  if (sizeof(T) == 8 && !test::runtime().device_info().caps.int64_base_atomics) {
    MESSAGE("no 64-bit atomics on this device: skipped");
    return false;
  }
  return true;
}

}  // namespace

TEST_CASE_TEMPLATE("wrapping inc and dec match CUDA under contention and spread", T, cl_uint, cl_int, cl_ulong, cl_long) {
  if (!available<T>()) return;
  for (bool local : {false, true})
    for (bool full : {true, false})
      for (cl_uint op : {0u, 1u}) {
        check_contended<T>(op, local, full, T(37));  // wraps many times
        check_contended<T>(op, local, full, T(0));   // limit 0: inc stays 0, dec stays 0
      }
}

TEST_CASE_TEMPLATE("compare_exchange: one winner per cell, losers see the winner", T, cl_uint, cl_int, cl_ulong, cl_long) {
  if (!available<T>()) return;
  for (bool local : {false, true})
    for (bool full : {true, false}) check_contended<T>(2, local, full, T(0));
}

TEST_CASE_TEMPLATE("inc, dec and compare_exchange edge cases in order", T, cl_uint, cl_int, cl_ulong, cl_long) {
  if (!available<T>()) return;
  auto& rt = test::runtime();
  const T max = std::numeric_limits<T>::max(), min = std::numeric_limits<T>::min();
  // (op, limit) steps from a chosen start; op 2 is compare_exchange(expected = limit).
  struct Step {
    cl_uint op;
    T limit;
  };
  for (const T start : {T(0), T(5), T(max - 1), min}) {
    CAPTURE(start);
    const std::vector<Step> steps = {
        {0, max}, {0, max}, {0, max},  // inc at the top wraps to 0 only at the limit
        {1, T(3)}, {1, T(3)}, {1, T(3)}, {1, T(3)}, {1, T(3)},  // dec wraps to the limit at 0 (or when above it)
        {0, T(2)}, {0, T(2)}, {0, T(2)}, {0, T(0)},  // limit 2: 0,1,2,0 ...
        {1, T(0)}, {1, max}, {2, T(0)}, {2, T(1)}, {2, T(1)},
    };
    std::vector<cl_uint> ops;
    std::vector<T> limits;
    for (const auto& s : steps) ops.push_back(s.op), limits.push_back(s.limit);
    cl::Buffer cell = test::to_device(rt, std::vector<T>{start});
    cl::Buffer ops_buf = test::to_device(rt, ops), limits_buf = test::to_device(rt, limits);
    cl::Buffer olds(rt.context(), CL_MEM_READ_WRITE, steps.size() * sizeof(T));
    cl::Kernel kernel(program(), (std::string("int_sequence_") + test::cl_type_name<T>()).c_str());
    test::set_args(kernel, cell, ops_buf, limits_buf, olds, cl_uint(steps.size()));
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange);
    const auto got = test::to_host<T>(rt, olds, steps.size());
    T value = start;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      CAPTURE(k);
      const auto& s = steps[k];
      if (s.op == 2) {
        const bool win = value == s.limit;
        CHECK(got[k] == (win ? T(3) : T(0)));
        if (win) value = T(s.limit + 1);
        continue;
      }
      CHECK(got[k] == value);
      value = s.op == 0 ? cuda_inc(value, s.limit) : cuda_dec(value, s.limit);
    }
    CHECK(test::to_host<T>(rt, cell, 1)[0] == value);
  }
}
