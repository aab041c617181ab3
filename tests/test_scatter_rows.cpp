// scatter_reduce on rows: widths 1 to 32 with strides past the width and padding that must stay
// untouched, through buffers at offsets; one column read with a value stride on every strategy;
// the global strategy's vector atomics and sorted runs; rows that end at their buffer's end.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("rows: widths 1, 3 and 32 with strides past the width, through buffers at offsets; padding untouched") {
  for (const std::size_t width : {std::size_t(1), std::size_t(3), std::size_t(32)}) {
    Shape shape;
    shape.width = width, shape.value_pad = width == 1 ? 1 : 5, shape.out_pad = 3;
    shape.out_offset = 5, shape.index_offset = 3, shape.value_offset = 7;
    const std::size_t n = 10007, bins = 61;
    for (const Dist dist : {Dist::uniform, Dist::one_bin})
      for (const bool self : {true, false}) {
        const unsigned seed = unsigned(width * 10 + int(dist) * 2 + self);
        INFO("width ", width);
        const auto fs = make_problem<float, cl_uint>(n, bins, dist, ScatterOp::sum, seed, 1, shape);
        check_scatter(fs, ScatterOp::sum, options(self), Api::buffers, true,
                      describe<float, cl_uint>("rows", ScatterOp::sum, n, bins, dist, self));
        const auto fm = make_problem<float, cl_uint>(n, bins, dist, ScatterOp::mean, seed, 1, shape);
        check_scatter(fm, ScatterOp::mean, options(self), Api::buffers, true,
                      describe<float, cl_uint>("rows", ScatterOp::mean, n, bins, dist, self));
        if (self) {
          const auto im = make_problem<cl_int, cl_uint>(n, bins, dist, ScatterOp::max, seed, 1, shape);
          check_scatter(im, ScatterOp::max, options(self), Api::buffers, true,
                        describe<cl_int, cl_uint>("rows", ScatterOp::max, n, bins, dist, self));
          const auto dm = make_problem<double, cl_ulong>(n, bins, dist, ScatterOp::min, seed, 1, shape);
          check_scatter(dm, ScatterOp::min, options(self), Api::buffers, true,
                        describe<double, cl_ulong>("rows", ScatterOp::min, n, bins, dist, self));
          const auto us = make_problem<cl_ulong, cl_ulong>(n, bins, dist, ScatterOp::sum, seed, 1, shape);
          check_scatter(us, ScatterOp::sum, options(self), Api::buffers, true,
                        describe<cl_ulong, cl_ulong>("rows", ScatterOp::sum, n, bins, dist, self));
        } else {
          // Every strategy on rows (bins * width fits in __local memory).
          for (const ScatterStrategy s : forced_strategies)
            check_scatter(fs, ScatterOp::sum, options(self, s), Api::buffers, true,
                          describe<float, cl_uint>("rows", ScatterOp::sum, n, bins, dist, self, s));
        }
      }
    // Contiguous rows through the std::vector overload.
    Shape contiguous;
    contiguous.width = width;
    const auto host = make_problem<cl_int, cl_uint>(n, 61, Dist::uniform, ScatterOp::sum, unsigned(width), 1, contiguous);
    check_scatter(host, ScatterOp::sum, options(true), Api::host, true, "host int sum rows of " + std::to_string(width));
  }
  // Strides 0 mean the width.
  auto& rt = test::runtime();
  Shape contiguous;
  contiguous.width = 3;
  const auto p = make_problem<float, cl_uint>(10007, 61, Dist::uniform, ScatterOp::sum, 5, 1, contiguous);
  const auto e = reference(p, ScatterOp::sum, true, true);
  const cl::Buffer out = device(p.out);
  const auto r = scatter_ranges<float, cl_uint>(rt, out, 0, p.bins, device(p.indices), 0, device(p.values), 0, p.count,
                                                           ScatterOp::sum, options(true), Rows{3, 0, 0});
  check_out(test::to_host<float>(rt, out, p.out.size()), e, "rows of 3, strides 0");
  CHECK(r.out_of_range == e.out_of_range);
}

TEST_CASE("one column with a value stride, from an aligned start: every strategy reads each element's own value") {
  auto& rt = test::runtime();
  const std::size_t n = 20011, bins = 7;
  for (const std::size_t stride : {std::size_t(2), std::size_t(3)}) {
    std::vector<cl_uint> indices(n);
    std::vector<cl_int> values(n * stride);
    for (std::size_t i = 0; i < n; ++i) indices[i] = cl_uint(test::mix(std::uint32_t(i)) % bins);
    for (std::size_t j = 0; j < values.size(); ++j) values[j] = j % stride == 0 ? cl_int(j / stride % 13) - 6 : 1000000;  // padding
    std::vector<cl_int> sums(bins, 0), mins(bins, std::numeric_limits<cl_int>::max());
    for (std::size_t i = 0; i < n; ++i) sums[indices[i]] += values[i * stride], mins[indices[i]] = std::min(mins[indices[i]], values[i * stride]);
    const cl::Buffer ib(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, indices.data());
    const cl::Buffer vb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * 4, values.data());
    for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                    ScatterStrategy::local_cache}) {
      INFO("stride ", stride, " strategy ", clatomics::strategy_name(s));
      for (const ScatterOp op : {ScatterOp::sum, ScatterOp::min}) {
        std::vector<cl_int> zero(bins, op == ScatterOp::min ? std::numeric_limits<cl_int>::max() : 0);
        const cl::Buffer ob(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bins * 4, zero.data());
        scatter_ranges<cl_int, cl_uint>(rt, ob, 0, bins, ib, 0, vb, 0, n, op, options(true, s), Rows{1, stride, 0});
        std::vector<cl_int> got(bins);
        rt.queue().enqueueReadBuffer(ob, CL_TRUE, 0, bins * 4, got.data());
        CHECK(got == (op == ScatterOp::sum ? sums : mins));
      }
    }
  }
}

// Two GPU paths of the global strategy (NVIDIA; elsewhere these run the common path): rows of
// float sums whose every row starts on 16 bytes take four columns per vector atomic, and sorted
// indices combine runs across a warp's lanes (accumulators of one, two and four 32-bit words:
// int, long/double, the deterministic 128 bits).
TEST_CASE("global atomics: rows of four columns on 16 bytes and beside them; sorted runs combined across lanes") {
  for (const std::size_t width : {std::size_t(4), std::size_t(32)})
    for (const std::size_t pad : {std::size_t(0), std::size_t(4), std::size_t(1)})
      for (const bool self : {true, false}) {
        Shape shape;
        shape.width = width, shape.value_pad = pad, shape.out_pad = pad;
        shape.value_offset = pad == 1 ? 1 : 8, shape.out_offset = pad == 1 ? 3 : 4, shape.index_offset = 1;
        const unsigned seed = unsigned(width + pad * 3 + self);
        INFO("width ", width, ", padding ", pad);
        // Spread rows, and skewed ones (many rows on a few bins: the vector atomics contend).
        for (const Dist dist : {Dist::uniform, Dist::zipf})
          for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
            const auto p = make_problem<float, cl_uint>(20011, 1009, dist, op, seed, 1, shape);
            check_scatter(p, op, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                          describe<float, cl_uint>("rows", op, p.count, p.bins, dist, self, ScatterStrategy::global_atomics));
          }
      }
  for (const Dist dist : {Dist::sorted, Dist::one_bin})
    for (const bool self : {true, false}) {
      const unsigned seed = unsigned(int(dist) * 2 + self);
      const auto is = make_problem<cl_int, cl_uint>(300007, 3001, dist, ScatterOp::sum, seed, 0);
      check_scatter(is, ScatterOp::sum, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<cl_int, cl_uint>("runs", ScatterOp::sum, is.count, is.bins, dist, self, ScatterStrategy::global_atomics));
      const auto lm = make_problem<cl_long, cl_ulong>(300007, 3001, dist, ScatterOp::max, seed, 0);
      check_scatter(lm, ScatterOp::max, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<cl_long, cl_ulong>("runs", ScatterOp::max, lm.count, lm.bins, dist, self, ScatterStrategy::global_atomics));
      if (test::skip_without_double<double>()) continue;
      const auto dm = make_problem<double, cl_ulong>(300007, 3001, dist, ScatterOp::mean, seed, 0);
      check_scatter(dm, ScatterOp::mean, options(self, ScatterStrategy::global_atomics), Api::buffers, true,
                    describe<double, cl_ulong>("runs", ScatterOp::mean, dm.count, dm.bins, dist, self, ScatterStrategy::global_atomics));
    }
}

TEST_CASE("rows need (count - 1) * value_stride + width values and (bins - 1) * out_stride + width outputs, not more") {
  // The last row's padding lies past the buffer: nothing reads or writes it.
  auto& rt = test::runtime();
  Shape shape;
  shape.width = 3, shape.value_pad = 4, shape.out_pad = 2;
  auto p = make_problem<float, cl_uint>(1009, 17, Dist::uniform, ScatterOp::sum, 3, 0, shape);
  p.values.resize(p.values.size() - shape.value_pad);
  p.out.resize(p.out.size() - shape.out_pad);
  check_scatter(p, ScatterOp::sum, options(true), Api::buffers, true, "rows without the last row's padding");
  // One value or output less is a range beyond the buffer.
  const cl::Buffer out = device(p.out), indices = device(p.indices);
  const cl::Buffer short_values = test::to_device(rt, std::vector<float>(p.values.begin(), p.values.end() - 1));
  const cl::Buffer short_out = test::to_device(rt, std::vector<float>(p.out.begin(), p.out.end() - 1));
  const Rows rows{p.width, p.value_stride, p.out_stride};
  clatomics::ProfileScope enqueued;
  CHECK_THROWS_AS(
      (scatter_ranges<float, cl_uint>(rt, out, 0, p.bins, indices, 0, short_values, 0, p.count, ScatterOp::sum, {}, rows)),
      std::invalid_argument);
  CHECK_THROWS_AS((scatter_ranges<float, cl_uint>(rt, short_out, 0, p.bins, indices, 0, device(p.values), 0, p.count,
                                                             ScatterOp::sum, {}, rows)),
                  std::invalid_argument);
  CHECK(enqueued.commands() == 0);
}
