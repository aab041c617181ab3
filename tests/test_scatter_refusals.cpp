// What scatter refuses, and what it takes for a result instead: indices out of range counted and
// skipped by default, refused with OutOfRange::refuse; bad input (ranges, strides, shared memory,
// odd enums, sizes that do not match, double without fp64) refused before anything is enqueued,
// the output untouched, the offending values quoted; empty outputs, which are results.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("indices out of range: counted and skipped by default, refused with OutOfRange::refuse before out is touched") {
  auto& rt = test::runtime();
  // Exact counts: past the end, the largest index, and 64-bit indices that are in range if truncated.
  {
    const std::vector<cl_uint> indices = {0, 5, 0xFFFFFFFFu, 6, 7, 1000, 3, 0x80000000u};
    const std::vector<float> values = {1, 2, 100, 3, 100, 100, 4, 100};
    std::vector<float> out(7, 0.0f);
    const auto r = clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::sum);
    CHECK(r.out_of_range == 4);
    CHECK(out == std::vector<float>{1, 0, 0, 4, 0, 2, 3});
  }
  {
    const std::vector<cl_ulong> indices = {(cl_ulong(1) << 32) + 1, cl_ulong(1) << 63, ~cl_ulong(0), 1, 7, (cl_ulong(1) << 32) + 6, 6};
    const std::vector<cl_ulong> values = {100, 100, 100, 5, 100, 100, 3};
    std::vector<cl_ulong> out(7, 1);
    const auto r = clatomics::scatter_reduce(rt, out, indices, values, ScatterOp::max);
    CHECK(r.out_of_range == 5);
    CHECK(out == std::vector<cl_ulong>{1, 5, 1, 1, 1, 1, 3});
  }
  // Rows through buffers.
  Shape shape;
  shape.width = 3, shape.value_pad = 1, shape.out_pad = 1, shape.out_offset = 2, shape.value_offset = 1, shape.index_offset = 4;
  const auto p = make_problem<cl_ulong, cl_ulong>(10007, 50, Dist::uniform, ScatterOp::sum, 8, 8, shape);
  const auto counted = check_scatter(p, ScatterOp::sum, options(true), Api::buffers, true, "rows, 1 in 8 out of range");
  CHECK(counted.result.out_of_range > 1000);
  // refuse: nothing written, whatever the overload.
  ScatterOptions refuse = options(true);
  refuse.out_of_range = OutOfRange::refuse;
  {
    const cl::Buffer out = device(p.out), indices = device(p.indices), values = device(p.values);
    const auto before = bytes_of(out);
    // An IndexOutOfRange (a std::invalid_argument), that bindings raise as their index error.
    const std::string what = test::message_of<clatomics::IndexOutOfRange>([&] {
      scatter_ranges<cl_ulong, cl_ulong>(rt, out, p.out_offset, p.bins, indices, p.index_offset, values, p.value_offset,
                                                    p.count, ScatterOp::sum, refuse, Rows{p.width, p.value_stride, p.out_stride});
    });
    CHECK(!what.empty());
    CHECK(bytes_of(out) == before);
  }
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache}) {
    INFO(name_of(s));
    const auto q = make_problem<cl_int, cl_uint>(300007, 1000, Dist::sorted, ScatterOp::sum, 9, 1);  // the largest indices last
    ScatterOptions o = refuse;
    o.strategy = s;
    std::vector<cl_int> out = q.out;
    CHECK_THROWS_AS(clatomics::scatter_reduce(rt, out, q.indices, q.values, ScatterOp::sum, o), clatomics::IndexOutOfRange);
    CHECK(out == q.out);
    // The same indices, all in range: fine.
    auto in_range = q;
    for (auto& k : in_range.indices) k = std::min<cl_uint>(k, 999);
    const auto ok = check_scatter(in_range, ScatterOp::sum, o, Api::host, true, "refuse, every index in range");
    CHECK(ok.result.out_of_range == 0);
  }
  // argmin with refuse: out and arg untouched.
  {
    const std::vector<cl_uint> indices = {0, 1, 2, 3};
    const std::vector<float> values = {1, 2, 3, 4};
    const cl::Buffer out = device(std::vector<float>(3, 9.0f)), arg = device(std::vector<cl_ulong>(3, 77));
    CHECK_THROWS_AS((arg_ranges<float, cl_uint>(rt, out, 0, 3, arg, 0, device(indices), 0, device(values), 0, 4,
                                                                  ScatterOp::min, refuse)),
                    std::invalid_argument);
    CHECK(test::to_host<float>(rt, out, 3) == std::vector<float>(3, 9.0f));
    CHECK(test::to_host<cl_ulong>(rt, arg, 3) == std::vector<cl_ulong>(3, 77));
  }
}

TEST_CASE("bad input is refused before anything is enqueued, out untouched") {
  auto& rt = test::runtime();
  using IA = std::invalid_argument;
  using F = float;
  using U = cl_uint;
  const std::size_t n = 100, bins = 10, max = std::numeric_limits<std::size_t>::max();
  const cl::Buffer out = device(std::vector<float>(bins, 9.0f)), idx = device(std::vector<cl_uint>(n, 1)),
                   val = device(std::vector<float>(n, 1.0f)), arg = device(std::vector<cl_ulong>(bins, 77));
  std::vector<cl_uint> offsets(bins + 1);
  for (std::size_t s = 0; s <= bins; ++s) offsets[s] = cl_uint(s * 10);
  const cl::Buffer offs = device(offsets), keys = device(std::vector<cl_uint>(n, 3)), ukeys = device(std::vector<cl_uint>(n, 5)),
                   reds = device(std::vector<float>(n, 9.0f));
  const cl::Buffer none_buffer;
  // One buffer holding indices, values and out at disjoint ranges (fine), and sub-buffers of it
  // that overlap (refused).
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / 4;  // in 4-byte elements
  const std::size_t m = 4 * align + 1000;
  std::vector<float> shared_host(2 * m, 1.0f);
  cl::Buffer shared = device(shared_host);
  const auto sub = [&](std::size_t first, std::size_t count) {
    const cl_buffer_region region{first * 4, count * 4};
    return shared.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  };
  const cl::Buffer head = sub(0, m), overlapping = sub(align, m);
  const Rows rows3{3, 0, 0};
  std::vector<float> hout(bins, 9.0f);
  const std::vector<cl_uint> hidx(n, 1);
  const std::vector<float> hval(n, 1.0f);
  const auto before_out = bytes_of(out), before_shared = bytes_of(shared), before_reds = bytes_of(reds);
  const auto before_arg = bytes_of(arg), before_ukeys = bytes_of(ukeys);
  const auto sr = [&](const cl::Buffer& o, std::size_t oo, std::size_t b, const cl::Buffer& i, std::size_t io, const cl::Buffer& v,
                      std::size_t vo, std::size_t c, ScatterOp op = ScatterOp::sum, ScatterOptions opt = {},
                      Rows rows = {}) { scatter_ranges<F, U>(rt, o, oo, b, i, io, v, vo, c, op, opt, rows); };
  clatomics::ProfileScope enqueued;

  // Strides below the width (quoted).
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, 2, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{3, 2, 0}); }),
                       "rows.value_stride (2) is below rows.width (3)"));
  CHECK_THROWS_AS(sr(out, 0, 2, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{3, 0, 2}), IA);
  // Null buffers.
  CHECK_THROWS_AS(sr(none_buffer, 0, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, none_buffer, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, none_buffer, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, none_buffer, 0, none_buffer, 0, 0), IA);
  // Ranges beyond the buffers, or overflowing.
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n + 1); }), "buffer"));
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 1, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, 1, n), IA);
  CHECK_THROWS_AS(sr(out, 1, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins + 1, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, max, bins, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, max, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, max, n), IA);
  CHECK_THROWS_AS(sr(out, 0, bins, idx, 0, val, 0, max), IA);
  CHECK_THROWS_AS(sr(out, 0, max / 2, idx, 0, val, 0, n), IA);
  CHECK_THROWS_AS(sr(out, 0, 2, idx, 0, val, 0, n, ScatterOp::sum, {}, Rows{1, 2, 0}), IA);       // values: 199 needed
  CHECK_THROWS_AS(sr(out, 0, 4, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{2, 0, 3}), IA);      // out: 11 needed
  CHECK_THROWS_AS(sr(out, 0, 4, idx, 0, val, 0, 10, ScatterOp::sum, {}, Rows{1, 0, max / 2}), IA);  // overflowing
  CHECK_THROWS_AS(sr(out, 0, 3, idx, 0, val, 0, 34, ScatterOp::sum, {}, rows3), IA);               // 102 values
  // The output sharing memory with an input: the same buffer, a buffer and its sub-buffer, two sub-buffers.
  CHECK(test::contains(test::message_of<IA>([&] { sr(val, 0, bins, idx, 0, val, 0, n); }), "shares memory"));
  CHECK_THROWS_AS(sr(shared, 5, bins, idx, 0, shared, 0, n), IA);
  CHECK_THROWS_AS(sr(shared, 0, bins, shared, 5, val, 0, n), IA);
  CHECK_THROWS_AS(sr(head, 0, bins, idx, 0, shared, 0, n), IA);
  CHECK_THROWS_AS(sr(shared, 0, bins, idx, 0, head, 0, n), IA);
  CHECK_THROWS_AS(sr(overlapping, 0, bins, idx, 0, head, align, n), IA);
  CHECK_THROWS_AS(sr(head, align + 3, bins, overlapping, 0, val, 0, n), IA);
  // An op, a strategy, an out-of-range or NaN rule outside their enums (their values quoted); a
  // forced strategy that cannot run.
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, static_cast<ScatterOp>(99)); }), "op (99)"));
  ScatterOptions odd_strategy, odd_rule, odd_nan, too_big;
  odd_strategy.strategy = static_cast<ScatterStrategy>(9);
  odd_rule.out_of_range = static_cast<OutOfRange>(7);
  odd_nan.nan = static_cast<NanRule>(5);
  too_big.strategy = ScatterStrategy::local_private;
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::sum, odd_strategy); }), "(9)"));
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::sum, odd_rule); }), "(7)"));
  CHECK(test::contains(test::message_of<IA>([&] { sr(out, 0, bins, idx, 0, val, 0, n, ScatterOp::max, odd_nan); }), "options.nan (5)"));
  // Also on calls with nothing to do.
  CHECK_THROWS_AS(sr(out, 0, 0, idx, 0, val, 0, n, ScatterOp::max, odd_nan), IA);
  CHECK_THROWS_AS((sr(out, 0, bins, idx, 0, val, 0, n, static_cast<ScatterOp>(99), {}, Rows{0, 0, 0})), IA);
  const cl::Buffer big_out = device(std::vector<float>(big_bins<float>(), 0.0f));
  CHECK_THROWS_AS((sr(big_out, 0, big_bins<float>(), idx, 0, val, 0, n, ScatterOp::sum, too_big)), IA);
  // argmin/argmax: only min and max, arg too short, arg sharing memory with an input (a null arg: below).
  const auto sa = [&](const cl::Buffer& a, std::size_t ao, ScatterOp op, const cl::Buffer& v = cl::Buffer()) {
    arg_ranges<F, U>(rt, out, 0, bins, a, ao, idx, 0, v() ? v : val, 0, n, op);
  };
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::sum), IA);
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::mean), IA);
  CHECK_THROWS_AS(sa(arg, 0, ScatterOp::prod), IA);
  CHECK_THROWS_AS((sa(arg, 0, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS(sa(arg, 1, ScatterOp::min), IA);
  CHECK_THROWS_AS(sa(shared, 0, ScatterOp::min, shared), IA);
  // segment_reduce: offsets too short, null, sharing memory with out; an odd op.
  const auto sg = [&](const cl::Buffer& o, std::size_t segments, const cl::Buffer& off, std::size_t oo, ScatterOp op = ScatterOp::sum) {
    segment_ranges<F, U>(rt, o, 0, segments, off, oo, val, 0, n, op);
  };
  CHECK_THROWS_AS(sg(out, bins, offs, 1), IA);
  CHECK_THROWS_AS(sg(out, bins, none_buffer, 0), IA);
  CHECK_THROWS_AS(sg(shared, bins, shared, 0), IA);
  CHECK_THROWS_AS((sg(out, bins, offs, 0, static_cast<ScatterOp>(99))), IA);
  // reduce_by_key: outputs sharing memory with the inputs or each other, null keys, an odd op.
  const auto rk = [&](const cl::Buffer& k, const cl::Buffer& v, const cl::Buffer& u, std::size_t uo, const cl::Buffer& r, std::size_t ro,
                      ScatterOp op = ScatterOp::sum) { by_key_ranges<U, F>(rt, k, 0, v, 0, n, u, uo, r, ro, op); };
  CHECK_THROWS_AS(rk(none_buffer, val, ukeys, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(keys, val, ukeys, 0, val, 0), IA);
  CHECK_THROWS_AS(rk(keys, val, keys, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(shared, val, shared, 0, reds, 0), IA);
  CHECK_THROWS_AS(rk(keys, shared, ukeys, 0, shared, n / 2), IA);
  CHECK_THROWS_AS((rk(keys, val, ukeys, 0, reds, 0, static_cast<ScatterOp>(99))), IA);
  // The std::vector overloads: sizes that do not match.
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, std::vector<float>(n + 1, 1.0f), ScatterOp::sum)), IA);
  std::vector<float> nine(9, 9.0f), eleven(11, 9.0f);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, nine, std::vector<cl_uint>(33, 1), std::vector<float>(98, 1.0f), ScatterOp::sum, {}, 3)),
                  IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, eleven, std::vector<cl_uint>(3, 1), std::vector<float>(9, 1.0f), ScatterOp::sum, {}, 3)),
                  IA);
  CHECK_THROWS_AS(clatomics::scatter_reduce(rt, hout, hidx, hval, ScatterOp::sum, {}, 0), IA);  // rows of width 0 hold no out
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, hout, hidx, hval, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce_arg(rt, hout, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::min)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, hout, std::vector<cl_uint>(bins, 0), hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, hout, std::vector<cl_uint>(bins + 2, 0), hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, hidx, hval, static_cast<ScatterOp>(99))), IA);

  CHECK(enqueued.commands() == 0);
  CHECK(hout == std::vector<float>(bins, 9.0f));
  CHECK(nine == std::vector<float>(9, 9.0f));
  CHECK(eleven == std::vector<float>(11, 9.0f));
  CHECK(bytes_of(out) == before_out);
  CHECK(bytes_of(shared) == before_shared);
  CHECK(bytes_of(reds) == before_reds);
  CHECK(bytes_of(arg) == before_arg);
  CHECK(bytes_of(ukeys) == before_ukeys);

  // The valid calls next to the refused ones: fine. Indices, values and out in disjoint parts of
  // one buffer; the indices there are 1.0f's bits, out of range.
  sr(out, 0, bins, idx, 0, val, 0, n);
  CHECK(test::to_host<float>(rt, out, bins) == std::vector<float>{9, 109, 9, 9, 9, 9, 9, 9, 9, 9});
  const auto r = scatter_ranges<F, U>(rt, shared, m, bins, shared, 0, shared, 100, n, ScatterOp::sum);
  CHECK(r.out_of_range == n);
  CHECK(test::to_host<float>(rt, shared, 2 * m) == shared_host);
  sr(out, 0, bins, idx, 0, val, 0, 0);  // count 0
  CHECK(test::to_host<float>(rt, out, bins) == std::vector<float>{9, 109, 9, 9, 9, 9, 9, 9, 9, 9});
  // A null arg is refused too, not taken for a call without one (on its own output: were it
  // taken, the checks above would not be about what they say).
  const cl::Buffer own_out = device(std::vector<float>(bins, 9.0f));
  clatomics::ProfileScope arg_enqueued;
  CHECK_THROWS_AS((arg_ranges<F, U>(rt, own_out, 0, bins, none_buffer, 0, idx, 0, val, 0, n, ScatterOp::min)), IA);
  CHECK(arg_enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, own_out, bins) == std::vector<float>(bins, 9.0f));
}

TEST_CASE("double values, and deterministic sums, on a device without fp64 are refused") {
  clatomics::Options hidden = clatomics::Options::from_env();
  hidden.hide_fp64 = true;
  clatomics::Runtime rt(hidden);
  const std::vector<cl_uint> indices = {0, 1, 1};
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, 64);
  const cl::Buffer idx(rt.context(), cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR), std::size_t(12),
                       const_cast<cl_uint*>(indices.data()));
  const cl::Buffer values(rt.context(), CL_MEM_READ_WRITE, 64);
  std::vector<double> dout(2, 1.0);
  std::vector<float> fout(2, 1.0f);
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS((scatter_ranges<double, cl_uint>(rt, out, 0, 2, idx, 0, values, 0, 3, ScatterOp::sum)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, dout, indices, std::vector<double>{1, 2, 3}, ScatterOp::max)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, dout, std::vector<cl_uint>{0, 1, 3}, std::vector<double>{1, 2, 3}, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK_THROWS_AS((clatomics::reduce_by_key(rt, indices, std::vector<double>{1, 2, 3}, ScatterOp::sum)), std::invalid_argument);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, fout, indices, std::vector<float>{1, 2, 3}, ScatterOp::sum,
                                             options(true, ScatterStrategy::automatic, true))),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(dout == std::vector<double>(2, 1.0));
  CHECK(fout == std::vector<float>(2, 1.0f));
}

// ---- Empty outputs: results, not refusals ------------------------------------------------------

TEST_CASE("empty outputs (no bins, no segments, rows of width 0) return at once, enqueue nothing, touch nothing") {
  auto& rt = test::runtime();
  using IA = std::invalid_argument;
  const std::size_t n = 5;
  const std::vector<cl_uint> hidx = {0, 1, 2, 3, 4};
  const std::vector<float> hval(n, 1.0f);
  const cl::Buffer out = device(std::vector<float>(4, 9.0f)), idx = device(hidx), val = device(hval), arg = device(std::vector<cl_ulong>(4, 77));
  const cl::Buffer offs = device(std::vector<cl_uint>{0});
  const auto before_out = bytes_of(out), before_arg = bytes_of(arg);
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  clatomics::ProfileScope enqueued;
  // Buffer ranges, bins 0: every index out of range, counted; refused with OutOfRange::refuse; count 0: nothing.
  auto r = scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, n, ScatterOp::sum);
  CHECK(r.out_of_range == n);
  CHECK(r.strategy == ScatterStrategy::global_atomics);
  CHECK(test::contains(test::message_of<clatomics::IndexOutOfRange>([&] {
                         scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, n, ScatterOp::sum, refuse);
                       }),
                       "bins is 0"));
  CHECK(scatter_ranges<float, cl_uint>(rt, out, 0, 0, idx, 0, val, 0, 0, ScatterOp::max, refuse).out_of_range == 0);
  // Width 0: no values at all, nothing counted or refused (torch: an index tensor of no elements).
  r = scatter_ranges<float, cl_uint>(rt, out, 0, 4, idx, 0, val, 0, n, ScatterOp::sum, refuse, Rows{0, 0, 0});
  CHECK(r.out_of_range == 0);
  // argmin into no bins; segments: none.
  CHECK(arg_ranges<float, cl_uint>(rt, out, 0, 0, arg, 0, idx, 0, val, 0, n, ScatterOp::min).out_of_range == n);
  for (const bool self : {true, false})
    CHECK(segment_ranges<float, cl_uint>(rt, out, 0, 0, offs, 0, val, 0, n, ScatterOp::mean, options(self)).out_of_range == 0);
  // Views.
  using clatomics::view;
  CHECK(clatomics::scatter_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(idx, 0, n), view<float>(val, 0, n), ScatterOp::sum).out_of_range ==
        n);
  CHECK(clatomics::scatter_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(idx, 0, 3), view<float>(val, 0, 0), ScatterOp::sum, {}, 0)
            .out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(offs, 0, 1), view<float>(val, 0, n), ScatterOp::sum)
            .out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, view<float>(out, 0, 0), view<cl_uint>(offs, 0, 0), view<float>(val, 0, n), ScatterOp::sum, options(false))
            .out_of_range == 0);
  // Host vectors.
  std::vector<float> none;
  CHECK(clatomics::scatter_reduce(rt, none, hidx, hval, ScatterOp::max).out_of_range == n);
  CHECK_THROWS_AS(clatomics::scatter_reduce(rt, none, hidx, hval, ScatterOp::max, refuse), IA);
  CHECK(clatomics::scatter_reduce(rt, none, std::vector<cl_uint>{}, std::vector<float>{}, ScatterOp::max, refuse).out_of_range == 0);
  CHECK(clatomics::scatter_reduce(rt, none, hidx, std::vector<float>{}, ScatterOp::sum, refuse, 0).out_of_range == 0);
  CHECK(clatomics::scatter_reduce_arg(rt, none, hidx, hval, ScatterOp::min).empty());
  CHECK(clatomics::segment_reduce(rt, none, std::vector<cl_uint>{}, hval, ScatterOp::sum, options(false)).out_of_range == 0);
  CHECK(clatomics::segment_reduce(rt, none, std::vector<cl_ulong>{0}, hval, ScatterOp::sum).out_of_range == 0);
  CHECK(none.empty());
  CHECK(enqueued.commands() == 0);
  CHECK(bytes_of(out) == before_out);
  CHECK(bytes_of(arg) == before_arg);
  // Still refused: null buffers, odd ops, and sizes that do not match.
  const cl::Buffer null_buffer;
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, null_buffer, 0, 0, idx, 0, val, 0, n, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, out, 0, 0, null_buffer, 0, val, 0, n, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((segment_ranges<float, cl_uint>(rt, out, 0, 0, offs, 0, val, 0, n, static_cast<ScatterOp>(99))), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, none, hidx, std::vector<float>(n - 1, 1.0f), ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, none, std::vector<cl_uint>{0, 0}, hval, ScatterOp::sum)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce(rt, none, hidx, std::vector<float>(n, 1.0f), ScatterOp::sum, {}, 0)), IA);
  CHECK_THROWS_AS((clatomics::scatter_reduce_arg(rt, none, hidx, hval, ScatterOp::sum)), IA);
  CHECK(enqueued.commands() == 0);
}

TEST_CASE("refusals quote the offending values: an index out of range, an offset") {
  auto& rt = test::runtime();
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  std::vector<float> out(10, 0.0f);
  const std::string index = test::message_of<std::invalid_argument>(
      [&] { clatomics::scatter_reduce(rt, out, std::vector<cl_ulong>{1, 2, 12, 3, 40}, std::vector<float>(5, 1.0f), ScatterOp::sum, refuse); });
  INFO(index);
  CHECK(test::contains(index, "indices[2] = 12 is >= bins (10)"));
  CHECK(test::contains(index, "1 more"));
  std::vector<float> seg(3, 0.0f);
  const std::string down = test::message_of<std::invalid_argument>(
      [&] { clatomics::segment_reduce(rt, seg, std::vector<cl_uint>{0, 5, 3, 6}, std::vector<float>(6, 1.0f), ScatterOp::sum); });
  INFO(down);
  CHECK(test::contains(down, "offsets[1] = 5 is above offsets[2] = 3"));
  const std::string past = test::message_of<std::invalid_argument>(
      [&] { clatomics::segment_reduce(rt, seg, std::vector<cl_uint>{0, 2, 3, 9}, std::vector<float>(6, 1.0f), ScatterOp::sum); });
  INFO(past);
  CHECK(test::contains(past, "offsets[3] = 9 passes count (6)"));
  CHECK(out == std::vector<float>(10, 0.0f));
}
