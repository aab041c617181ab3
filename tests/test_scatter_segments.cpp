// segment_reduce over CSR offsets against the reference model: empty and huge segments, values
// outside the offsets unused, the empty reduction of a segment with no values (torch_scatter's
// segment_csr); offsets that decrease or pass count refused before out is touched.
#include <doctest/doctest.h>

#include <vector>

#include "scatter_family_checks.hpp"
#include "scatter_harness.hpp"

using namespace scatter_test;

TEST_CASE("segment_reduce over CSR offsets: empty and huge segments, values outside the offsets unused") {
  // 64-bit offsets: the programs reduce_by_key runs on (it passes its runs as 64-bit offsets).
  check_segments<float, cl_ulong>(ScatterOp::sum, {true, false});
  check_segments<cl_int, cl_ulong>(ScatterOp::mean, {true, false});
  check_segments<float, cl_ulong>(ScatterOp::min, {false});
  check_segments<float, cl_uint>(ScatterOp::sum, {true});
}

TEST_CASE("segment_reduce refuses offsets that decrease or pass count, before out is touched") {
  auto& rt = test::runtime();
  const std::vector<float> values(10, 1.0f);
  const std::vector<std::vector<cl_uint>> bad32 = {{0, 5, 3, 10}, {0, 5, 11}, {4, 2, 10}, {0, 10, 10, 12}, {11, 11}};
  for (const auto& offsets : bad32) {
    const std::size_t segments = offsets.size() - 1;
    INFO("offsets ", offsets[0], " .. ", offsets.back(), " (", segments, " segments)");
    std::vector<float> out(segments, 9.0f);
    CHECK_THROWS_AS(clatomics::segment_reduce(rt, out, offsets, values, ScatterOp::sum), std::invalid_argument);
    CHECK(out == std::vector<float>(segments, 9.0f));
    const cl::Buffer dout = device(out);
    const auto before = bytes_of(dout);
    CHECK_THROWS_AS(
        (segment_ranges<float, cl_uint>(rt, dout, 0, segments, device(offsets), 0, device(values), 0, 10, ScatterOp::sum)),
        std::invalid_argument);
    CHECK(bytes_of(dout) == before);
  }
  // 64-bit offsets past count that are in range if truncated to 32 bits.
  const std::vector<cl_ulong> bad64 = {0, (cl_ulong(1) << 32) + 5, (cl_ulong(1) << 32) + 6};
  std::vector<cl_int> out(2, 9);
  CHECK_THROWS_AS((clatomics::segment_reduce(rt, out, bad64, std::vector<cl_int>(10, 1), ScatterOp::mean)), std::invalid_argument);
  CHECK(out == std::vector<cl_int>(2, 9));
  // Offsets into fewer values than count: the count is what the values hold.
  const cl::Buffer dout = device(std::vector<float>(3, 9.0f));
  const std::vector<cl_uint> fine = {0, 4, 4, 10};
  CHECK_THROWS_AS((segment_ranges<float, cl_uint>(rt, dout, 0, 3, device(fine), 0, device(values), 0, 9, ScatterOp::sum)),
                  std::invalid_argument);
  CHECK(test::to_host<float>(rt, dout, 3) == std::vector<float>(3, 9.0f));
  segment_ranges<float, cl_uint>(rt, dout, 0, 3, device(fine), 0, device(values), 0, 10, ScatterOp::sum);
  CHECK(test::to_host<float>(rt, dout, 3) == std::vector<float>{13, 9, 15});
}

// ---- Empty CSR segments ----------------------------------------------------------------------------

TEST_CASE("an empty CSR segment: the empty reduction without include_self (torch_scatter's segment_csr), out's value with it") {
  auto& rt = test::runtime();
  // Segments 1 and 3 are empty.
  const std::vector<cl_ulong> offsets = {0, 3, 3, 7, 7, 10};
  std::vector<float> values(10);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i + 1);
  const std::vector<float> init = {100, -200, 300, 400, 500};
  struct Case {
    ScatterOp op;
    bool deterministic;
    std::vector<float> without_self, with_self;
  };
  const std::vector<Case> cases = {
      {ScatterOp::sum, false, {6, 0, 22, 0, 27}, {106, -200, 322, 400, 527}},
      {ScatterOp::sum, true, {6, 0, 22, 0, 27}, {106, -200, 322, 400, 527}},
      {ScatterOp::max, false, {3, 0, 7, 0, 10}, {100, -200, 300, 400, 500}},
      {ScatterOp::mean, false, {2, 0, 5.5f, 0, 9}, {26.5f, -200, 64.4f, 400, 131.75f}},
      {ScatterOp::prod, false, {6, 1, 840, 1, 720}, {600, -200, 252000, 400, 360000}},
  };
  for (const Case& c : cases) {
    if (c.deterministic && !rt.supports_double()) continue;
    for (const bool self : {false, true}) {
      INFO(op_name(c.op), c.deterministic ? " deterministic" : "", self ? ", include_self" : ", without self");
      std::vector<float> out = init;
      clatomics::segment_reduce(rt, out, offsets, values, c.op, options(self, ScatterStrategy::automatic, c.deterministic));
      CHECK(out == (self ? c.with_self : c.without_self));
      if (!self) CHECK(!std::signbit(out[1]));  // +0
    }
  }
  // No values at all (every segment empty); rows of 2 at an offset, padding untouched.
  const std::vector<cl_uint> flat = {0, 0, 0};
  const cl::Buffer dout = device(std::vector<float>{-1, 7, 7, -1, 7, 7}), doffs = device(flat), dval = device(std::vector<float>{1});
  segment_ranges<float, cl_uint>(rt, dout, 1, 2, doffs, 0, dval, 0, 0, ScatterOp::max, options(true), Rows{2, 3, 3});
  CHECK(test::to_host<float>(rt, dout, 6) == std::vector<float>{-1, 7, 7, -1, 7, 7});
  segment_ranges<float, cl_uint>(rt, dout, 1, 2, doffs, 0, dval, 0, 0, ScatterOp::max, options(false), Rows{2, 3, 3});
  CHECK(test::to_host<float>(rt, dout, 6) == std::vector<float>{-1, 0, 0, -1, 0, 0});
  std::vector<cl_int> iout = {5, 5};
  clatomics::segment_reduce(rt, iout, flat, std::vector<cl_int>{}, ScatterOp::prod, options(false));
  CHECK(iout == std::vector<cl_int>{1, 1});
  iout = {5, 5};
  clatomics::segment_reduce(rt, iout, flat, std::vector<cl_int>{}, ScatterOp::min, options(false));
  CHECK(iout == std::vector<cl_int>{0, 0});
}

