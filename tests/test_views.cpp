// Typed device views (clatomics/view.hpp): every algorithm's view form gives what its host-vector
// form gives on the same data, types come from the views (an index buffer of cl_ulong is read as
// such), lengths that do not fit are refused before anything is enqueued, and a kernel asked for
// by a wrong name is a clear error. What must not compile is in tests/must_not_compile.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "support.hpp"

namespace {

using clatomics::ScatterOp;
using clatomics::view;
using clatomics::View;
using clatomics::where::x;
using IA = std::invalid_argument;

// values padded with `lead` poison elements before and 5 after: views start at lead.
template <class T>
cl::Buffer padded(clatomics::Runtime& rt, const std::vector<T>& values, std::size_t lead, T poison) {
  std::vector<T> all(lead, poison);
  all.insert(all.end(), values.begin(), values.end());
  all.insert(all.end(), 5, poison);
  return test::to_device(rt, all);
}

}  // namespace

TEST_CASE("an index buffer of cl_ulong, given as a view, is read as cl_ulong") {
  // The mistake a cl::Buffer cannot catch: scatter_reduce<float, cl_uint> over a cl_ulong index
  // buffer read half-indices and gave 5 1 1 1. A view carries its type.
  auto& rt = test::runtime();
  const std::vector<cl_ulong> idx = {0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<float> val(8, 1.0f);
  const cl::Buffer out = test::to_device(rt, std::vector<float>(4, 0.0f)), ib = test::to_device(rt, idx), vb = test::to_device(rt, val);
  clatomics::scatter_reduce(rt, view<float>(out), view<cl_ulong>(ib), view<float>(vb), ScatterOp::sum);
  CHECK(test::to_host<float>(rt, out, 4) == std::vector<float>{2, 2, 2, 2});
}

TEST_CASE("views: the whole buffer, a part, and what does not fit") {
  auto& rt = test::runtime();
  const cl::Buffer nine(rt.context(), CL_MEM_READ_WRITE, 9);
  CHECK(view<cl_uchar>(nine).count() == 9);
  CHECK(test::contains(test::message_of<IA>([&] { (void)view<cl_uint>(nine); }), "not a whole number of 4-byte elements"));
  CHECK_THROWS_AS((void)view<float>(cl::Buffer()), IA);
  const auto v = view<float>(cl::Buffer(rt.context(), CL_MEM_READ_WRITE, 40));
  CHECK(v.count() == 10);
  CHECK(v.sub(2, 8).offset() == 2);
  CHECK(v.sub(2, 8).count() == 8);
  CHECK_THROWS_AS((void)v.sub(3, 8), std::out_of_range);
  // A view beyond its buffer is refused by the call, before anything is enqueued.
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::reduce(rt, view<float>(v.buffer(), 5, 6), clatomics::ReduceOp::sum); }),
                       "beyond the buffer"));
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("every algorithm's view form equals its host-vector form") {
  auto& rt = test::runtime();
  constexpr std::size_t n = 5003, lead = 3;
  const auto a = test::small_floats(n, 1, 4), b = test::small_floats(n, 2, 4);
  const cl::Buffer da = padded(rt, a, lead, 99.0f), db = padded(rt, b, lead, -99.0f);
  const View<float> va = view<float>(da, lead, n), vb = view<float>(db, lead, n);
  using clatomics::ReduceOp;
  CHECK(clatomics::reduce(rt, va, ReduceOp::sum) == clatomics::reduce(rt, a, ReduceOp::sum));
  CHECK(clatomics::reduce(rt, va, ReduceOp::max, {true}) == 4.0f);
  CHECK(clatomics::dot(rt, va, vb) == clatomics::dot(rt, a, b));
  std::vector<std::uint8_t> a_bytes(n * 4);
  std::memcpy(a_bytes.data(), a.data(), n * 4);
  CHECK(clatomics::histogram(rt, view<cl_uchar>(da, lead * 4, n * 4)) == clatomics::histogram(rt, a_bytes));
  std::vector<cl_uint> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = cl_uint(i * 7 % 130);
  const cl::Buffer dk = padded(rt, keys, lead, cl_uint(5));
  const auto kv = clatomics::histogram_keys(rt, view<cl_uint>(dk, lead, n), 120);
  const auto kb = clatomics::histogram_keys(rt, keys, 120);
  CHECK(kv.counts == kb.counts);
  CHECK(kv.out_of_range == kb.out_of_range);
  // histogram_even: the same bins and weights as host data with host weights.
  const clatomics::EvenBins<float> bins{9, -4.5f, 4.5f};
  const auto ev = clatomics::histogram_even(rt, va, bins, {vb});
  const auto eh = clatomics::histogram_even(rt, a, bins, {b});
  CHECK(ev.counts == eh.counts);
  CHECK(ev.sums == eh.sums);
  CHECK(clatomics::histogram_even(rt, va, 9).counts == clatomics::histogram_even(rt, a, 9).counts);
  const auto g = clatomics::histogram2d_even(rt, va, vb, bins, bins, {va});
  const auto gh = clatomics::histogram2d_even(rt, a, b, bins, bins, {a});
  CHECK(g.counts == gh.counts);
  CHECK(g.sums == gh.sums);
  // compact into the middle of an output buffer: the elements before the view's offset stay.
  std::vector<float> kept;
  for (const float e : a)
    if (e > 1.5f) kept.push_back(e);
  const cl::Buffer dout = test::to_device(rt, std::vector<float>(n + 7, -1.0f));
  CHECK(clatomics::compact(rt, va, view<float>(dout, 7, n), x > 1.5f, {true}) == kept.size());
  const auto back = test::to_host<float>(rt, dout, n + 7);
  CHECK(std::vector<float>(back.begin(), back.begin() + 7) == std::vector<float>(7, -1.0f));
  CHECK(std::vector<float>(back.begin() + 7, back.begin() + 7 + std::ptrdiff_t(kept.size())) == kept);
  // scatter over rows of 4, segments and runs of keys: the host-vector forms as the reference.
  constexpr std::size_t width = 4, bins_out = 37, rows = n / width;
  std::vector<cl_uint> idx(rows);
  for (std::size_t r = 0; r < rows; ++r) idx[r] = cl_uint(r * 11 % bins_out);
  const std::vector<float> vals(a.begin(), a.begin() + std::ptrdiff_t(rows * width));
  std::vector<float> want(bins_out * width, 0.5f);
  clatomics::scatter_reduce(rt, want, idx, vals, ScatterOp::sum, {}, width);
  const cl::Buffer sout = test::to_device(rt, std::vector<float>(bins_out * width, 0.5f));
  clatomics::scatter_reduce(rt, view<float>(sout), view<cl_uint>(test::to_device(rt, idx)), view<float>(da, lead, rows * width),
                            ScatterOp::sum, {}, width);
  CHECK(test::to_host<float>(rt, sout, bins_out * width) == want);
  std::vector<cl_ulong> offsets{0};
  for (std::size_t s = 0; s < 20; ++s) offsets.push_back(std::min<cl_ulong>(n, offsets.back() + s * 31));
  offsets.back() = n;
  std::vector<float> seg(20, 0.0f);
  clatomics::segment_reduce(rt, seg, offsets, a, ScatterOp::sum);
  const cl::Buffer dseg = test::to_device(rt, std::vector<float>(20, 0.0f));
  clatomics::segment_reduce(rt, view<float>(dseg), view<cl_ulong>(test::to_device(rt, offsets)), va, ScatterOp::sum);
  CHECK(test::to_host<float>(rt, dseg, 20) == seg);
  std::vector<cl_uint> runs(n);
  for (std::size_t i = 0; i < n; ++i) runs[i] = cl_uint(i / 10);
  const auto [ukeys, sums] = clatomics::reduce_by_key(rt, runs, a, ScatterOp::sum);
  const cl::Buffer uk(rt.context(), CL_MEM_READ_WRITE, n * 4), us(rt.context(), CL_MEM_READ_WRITE, n * 4);
  const std::size_t nruns =
      clatomics::reduce_by_key(rt, view<cl_uint>(test::to_device(rt, runs)), va, view<cl_uint>(uk), view<float>(us), ScatterOp::sum);
  REQUIRE(nruns == ukeys.size());
  CHECK(test::to_host<cl_uint>(rt, uk, nruns) == ukeys);
  CHECK(test::to_host<float>(rt, us, nruns) == sums);
}

TEST_CASE("views whose lengths do not fit together are refused before anything is enqueued") {
  auto& rt = test::runtime();
  const cl::Buffer f(rt.context(), CL_MEM_READ_WRITE, 400), u(rt.context(), CL_MEM_READ_WRITE, 400);
  const auto v100 = view<float>(f), v99 = view<float>(f, 0, 99);
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::dot(rt, v100, v99); }), "same length"));
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::compact(rt, v100, view<float>(u, 0, 50), x > 0.0f); }),
                       "holds 50 elements, and 100 are needed"));
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::histogram_even(rt, v100, 10, {v99}); }), "same length"));
  CHECK(test::contains(
      test::message_of<IA>([&] { clatomics::scatter_reduce(rt, v100, view<cl_uint>(u, 0, 10), v99, ScatterOp::sum, {}, 3); }),
      "not whole rows of 3"));
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::scatter_reduce(rt, v99, view<cl_uint>(u, 0, 10), v100, ScatterOp::sum); }),
                       "10 indices for 100 rows"));
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::segment_reduce(rt, v99, view<cl_uint>(u, 0, 99), v100, ScatterOp::sum); }),
                       "segments + 1"));
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("scatter views with row strides: tight and pitched layouts hold the same rows; argmin over views") {
  auto& rt = test::runtime();
  // Rows of 2: values a row every 3 elements, out a row every 4; padding 100 (values) and -1 (out).
  const std::vector<cl_uint> idx = {0, 2, 2, 1};
  const std::vector<float> pitched_values = {1, 2, 100, 3, 4, 100, 5, 6, 100, 7, 8, 100};
  const clatomics::Rows rows{2, 3, 4};
  for (const bool pitched : {false, true}) {
    INFO((pitched ? "pitched" : "tight"));
    const std::size_t out_count = pitched ? 12 : 10, value_count = pitched ? 12 : 11;
    const cl::Buffer out = test::to_device(rt, std::vector<float>(12, -1.0f)), vals = test::to_device(rt, pitched_values);
    clatomics::ScatterOptions fresh;
    fresh.include_self = false;
    clatomics::scatter_reduce(rt, view<float>(out, 0, out_count), view<cl_uint>(test::to_device(rt, idx)), view<float>(vals, 0, value_count),
                              ScatterOp::sum, fresh, rows);
    CHECK(test::to_host<float>(rt, out, 12) == std::vector<float>{1, 2, -1, -1, 7, 8, -1, -1, 8, 10, -1, -1});
    // Three indices for the four rows the values hold.
    CHECK(test::contains(test::message_of<IA>([&] {
                           clatomics::scatter_reduce(rt, view<float>(out, 0, out_count), view<cl_uint>(test::to_device(rt, idx), 0, 3),
                                                     view<float>(vals, 0, value_count), ScatterOp::sum, fresh, rows);
                         }),
                         "3 indices for 4 rows"));
  }
  // argmin: the lowest position of each bin's minimum; arg one position a bin.
  const cl::Buffer out = test::to_device(rt, std::vector<float>(3, 9.0f)), arg = test::to_device(rt, std::vector<cl_ulong>(3, 77));
  const cl::Buffer di = test::to_device(rt, idx), dv = test::to_device(rt, std::vector<float>{5, 1, 3, 2});
  clatomics::scatter_reduce_arg(rt, view<float>(out), view<cl_ulong>(arg), view<cl_uint>(di), view<float>(dv), ScatterOp::min);
  CHECK(test::to_host<float>(rt, out, 3) == std::vector<float>{5, 2, 1});
  CHECK(test::to_host<cl_ulong>(rt, arg, 3) == std::vector<cl_ulong>{0, 3, 1});
  clatomics::ProfileScope enqueued;
  CHECK(test::contains(test::message_of<IA>([&] {
                         clatomics::scatter_reduce_arg(rt, view<float>(out), view<cl_ulong>(arg, 0, 2), view<cl_uint>(di), view<float>(dv),
                                                       ScatterOp::min);
                       }),
                       "arg holds 2 positions for 3 bins"));
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("a kernel asked for by a wrong name is an error that lists the program's kernels") {
  auto& rt = test::runtime();
  const cl::Program program = rt.build("kernel void weighted(global float *h) { clat_atomic_add_float(h, 1.0f); }\n"
                                       "kernel void plain(global int *c) { atomic_inc(c); }\n");
  CHECK(clatomics::Runtime::kernel(program, "weighted")() != nullptr);
  try {
    (void)clatomics::Runtime::kernel(program, "wieghted");
    FAIL("no error");
  } catch (const clatomics::Error& e) {
    CHECK(e.code() == CL_INVALID_KERNEL_NAME);
    CHECK(test::contains(e.what(), "wieghted"));
    CHECK(test::contains(e.what(), "weighted"));
    CHECK(test::contains(e.what(), "plain"));
  }
}
