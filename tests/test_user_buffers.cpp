// Every algorithm meets the user's buffers and queues: host memory handed over with
// CL_MEM_USE_HOST_PTR at every 4-byte alignment (PoCL reads it where it is), sub-buffers and
// element offsets, out-of-order queues without profiling (with the caller's own commands
// before), buffers whose flags forbid their role, images, and outputs that share memory with an
// input; partial results and device groups (over the caller's out-of-order queue) meet them too.
// Each call either gives the host's exact result or is refused before anything runs. The
// deterministic reduce gives the same bits wherever the data sits and however it is chunked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <thread>
#include <utility>

#include "support.hpp"

namespace {

using clatomics::ReduceOp;
using clatomics::where::x;

constexpr std::size_t n = 20011;  // a prime: vector loads, a head and a tail, several groups
const float lo = -8.0f, hi = 8.0f;
constexpr std::size_t nbins = 37, key_bins = 300;

// Small integers as floats: sums, dots and weighted bins are exact in any order.
std::vector<float> exact_floats(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<float> v(count);
  for (auto& e : v) e = float(int(gen() % 17) - 8);
  return v;
}

// Memory the test hands to OpenCL with CL_MEM_USE_HOST_PTR: 64-byte aligned, so base + a has
// exactly the alignment a asks for.
struct HostMemory {
  explicit HostMemory(std::size_t bytes) : bytes_(new unsigned char[bytes + 128]) {
    base = bytes_.get() + (64 - reinterpret_cast<std::uintptr_t>(bytes_.get()) % 64) % 64;
  }
  unsigned char* base;

 private:
  std::unique_ptr<unsigned char[]> bytes_;
};

// A buffer over host memory at base + align holding values (copied there first).
template <class T>
cl::Buffer host_buffer(const clatomics::Runtime& rt, HostMemory& memory, std::size_t align, const std::vector<T>& values,
                       cl_mem_flags flags = CL_MEM_READ_WRITE) {
  std::memcpy(memory.base + align, values.data(), values.size() * sizeof(T));
  return cl::Buffer(rt.context(), flags | CL_MEM_USE_HOST_PTR, values.size() * sizeof(T), memory.base + align);
}

// The host's answers for the data every algorithm below reads.
struct Expected {
  float sum, min, max;
  cl_int isum;
  float dot;
  std::vector<std::uint64_t> bytes, keys;
  std::uint64_t keys_out;
  std::vector<std::uint64_t> even;
  std::vector<float> weights;
  std::vector<float> kept;
  std::vector<float> scatter;  // sums of b at a's bits taken as indices below key_bins
  std::vector<float> a, b;      // the data: the library's std::vector forms are the reference for some
};

Expected expected(const std::vector<float>& a, const std::vector<float>& b) {
  Expected e{};
  e.a = a, e.b = b;
  e.min = INFINITY, e.max = -INFINITY;
  e.bytes.assign(256, 0), e.keys.assign(key_bins, 0), e.even.assign(nbins, 0), e.weights.assign(nbins, 0.0f);
  e.scatter.assign(key_bins, 0.0f);
  const auto edges = test::numpy_edges(nbins, lo, hi);
  for (std::size_t i = 0; i < a.size(); ++i) {
    e.sum += a[i], e.min = std::min(e.min, a[i]), e.max = std::max(e.max, a[i]);
    e.isum += cl_int(a[i]);
    e.dot += a[i] * b[i];
    unsigned char raw[4];
    std::memcpy(raw, &a[i], 4);
    for (const unsigned char c : raw) ++e.bytes[c];
    cl_uint key;
    std::memcpy(&key, &a[i], 4);
    if (key < key_bins) ++e.keys[key], e.scatter[key] += b[i];
    else ++e.keys_out;
    const std::size_t bin = test::even_slot(a[i], edges);  // the data lie in [lo, hi]
    ++e.even[bin], e.weights[bin] += b[i];
    if (a[i] > 2.5f) e.kept.push_back(a[i]);
  }
  return e;
}

// Runs every algorithm on elements [offset, offset + n) of a (floats) and b, and checks each
// against the host. out: where compact writes (n floats), its own memory.
void check_all(clatomics::Runtime& rt, const cl::Buffer& a, std::size_t offset, const cl::Buffer& b, std::size_t b_offset,
               const cl::Buffer& out, const Expected& e) {
  CHECK(clatomics::reduce(rt, clatomics::view<float>(a, offset, n), ReduceOp::sum) == e.sum);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(a, offset, n), ReduceOp::sum, {true}) == e.sum);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(a, offset, n), ReduceOp::min) == e.min);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(a, offset, n), ReduceOp::max) == e.max);
  CHECK(clatomics::dot(rt, clatomics::view<float>(a, offset, n), clatomics::view<float>(b, b_offset, n)) == e.dot);
  CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(a, offset * 4, n * 4)) == e.bytes);
  const auto keys = clatomics::histogram_keys(rt, clatomics::view<cl_uint>(a, offset, n), key_bins);
  CHECK(keys.counts == e.keys);
  CHECK(keys.out_of_range == e.keys_out);
  const auto va = clatomics::view<float>(a, offset, n), vb = clatomics::view<float>(b, b_offset, n);
  const clatomics::EvenBins<float> bins{nbins, lo, hi};
  const auto even = clatomics::histogram_even(rt, va, bins, {vb});
  CHECK(even.counts == e.even);
  REQUIRE(even.sums.size() == 1);
  CHECK(even.sums[0] == std::vector<double>(e.weights.begin(), e.weights.end()));
  // Two weight channels (b twice) summed as compensated float pairs.
  clatomics::HistogramOptions pairs;
  pairs.accumulation = clatomics::WeightAccumulation::compensated_float2;
  const auto even2 = clatomics::histogram_even(rt, va, bins, {vb, vb}, pairs);
  CHECK(even2.counts == e.even);
  REQUIRE(even2.sums.size() == 2);
  for (const auto& sums : even2.sums) CHECK(sums == std::vector<double>(e.weights.begin(), e.weights.end()));
  // The range found in the data on the device, and 2-D bins over (a, b): as the std::vector
  // forms (staged through the library's own buffers) find them.
  CHECK(clatomics::histogram_even(rt, va, nbins).counts == clatomics::histogram_even(rt, e.a, nbins).counts);
  const clatomics::EvenBins<float> ybins{7, -4.0f, 4.0f};
  const auto grid = clatomics::histogram2d_even(rt, va, vb, bins, ybins);
  const auto host_grid = clatomics::histogram2d_even(rt, e.a, e.b, bins, ybins);
  CHECK(grid.counts == host_grid.counts);
  CHECK(grid.outside == host_grid.outside);
  // scatter_reduce: a's bits as indices (those below key_bins; the rest out of range), b as
  // values; bins that receive nothing keep out's contents, so only the others are compared.
  clatomics::ScatterOptions fresh;
  fresh.include_self = false;
  const auto scattered =
      clatomics::scatter_reduce(rt, clatomics::view<float>(out, 0, key_bins), clatomics::view<cl_uint>(a, offset, n),
                                clatomics::view<float>(b, b_offset, n), clatomics::ScatterOp::sum, fresh);
  CHECK(scattered.out_of_range == e.keys_out);
  const auto sums = test::to_host<float>(rt, out, key_bins);
  for (std::size_t k = 0; k < key_bins; ++k)
    if (e.keys[k]) CHECK(sums[k] == e.scatter[k]);
  CHECK(clatomics::compact(rt, clatomics::view<float>(a, offset, n), clatomics::view<float>(out, 0, n), x > 2.5f, {true}) == e.kept.size());
  CHECK(test::to_host<float>(rt, out, e.kept.size()) == e.kept);
  // Partial results of two parts of the range (cut at a tile, as the deterministic tree wants),
  // merged in either order.
  const std::size_t cut = clatomics::reduce_tile;
  for (const bool deterministic : {false, true}) {
    const auto head = clatomics::reduce_partial(rt, clatomics::view<float>(a, offset, cut), ReduceOp::sum, 0, {deterministic});
    const auto tail = clatomics::reduce_partial(rt, clatomics::view<float>(a, offset + cut, n - cut), ReduceOp::sum, cut, {deterministic});
    CHECK(clatomics::merge_reduce<float>({tail, head}) == e.sum);
  }
}

}  // namespace

TEST_CASE("every algorithm is exact on host memory at every 4-byte alignment (CL_MEM_USE_HOST_PTR)") {
  auto& rt = test::runtime();
  const auto a = exact_floats(n, 1), b = exact_floats(n, 2);
  const Expected e = expected(a, b);
  HostMemory ma(n * 4 + 64), mb(n * 4 + 64);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, n * 4);
  for (std::size_t align = 0; align <= 60; align += 4) {
    CAPTURE(align);
    const cl::Buffer da = host_buffer(rt, ma, align, a), db = host_buffer(rt, mb, 60 - align, b);
    check_all(rt, da, 0, db, 0, out, e);
  }
  // Bytes may start anywhere.
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = std::uint8_t(i * 37 + i / 7);
  std::vector<std::uint64_t> counts(256, 0);
  for (const auto c : bytes) ++counts[c];
  for (std::size_t align = 1; align < 4; ++align) {
    CAPTURE(align);
    CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(host_buffer(rt, ma, align, bytes), 0, n)) == counts);
  }
}

TEST_CASE("a range whose host memory is not aligned to its elements is refused") {
  auto& rt = test::runtime();
  HostMemory memory(n * 4 + 64);
  const cl::Buffer odd = host_buffer(rt, memory, 2, exact_floats(n, 3));
  clatomics::ProfileScope enqueued;
  const auto what = test::message_of<std::invalid_argument>([&] { clatomics::reduce(rt, clatomics::view<float>(odd, 0, n), ReduceOp::sum); });
  CHECK(test::contains(what, "not a multiple of its 4-byte elements"));
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, clatomics::view<cl_uint>(odd, 0, n), 10), std::invalid_argument);
  CHECK(enqueued.commands() == 0);
  CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(odd, 1, n)) == clatomics::histogram(rt, clatomics::view<cl_uchar>(odd, 1, n)));  // bytes: any address
}

TEST_CASE("every algorithm is exact on sub-buffers and at element offsets") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bits
  const std::size_t pad = align / 4 + 3;                                                 // floats
  const auto a = exact_floats(n, 4), b = exact_floats(n, 5);
  const Expected e = expected(a, b);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, n * 4);
  for (const std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
    CAPTURE(offset);
    std::vector<float> pa(pad + offset + n, 99.0f), pb(pad + offset + n, -99.0f);
    std::copy(a.begin(), a.end(), pa.begin() + std::ptrdiff_t(pad + offset));
    std::copy(b.begin(), b.end(), pb.begin() + std::ptrdiff_t(pad + offset));
    cl::Buffer parent_a = test::to_device(rt, pa), parent_b = test::to_device(rt, pb);
    const cl_buffer_region region{align, (pad + offset + n) * 4 - align};
    const cl::Buffer sa = parent_a.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    const cl::Buffer sb = parent_b.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    const std::size_t at = pad + offset - align / 4;  // the data's first element in the sub-buffer
    check_all(rt, sa, at, sb, at, out, e);
  }
}

TEST_CASE("sub-buffers whose parent's handle the user released: every algorithm, and the host alignment rule") {
  // The sub-buffer keeps its parent's memory alive; the parent's handle is gone (Intel's CPU
  // runtime answers CL_INVALID_MEM_OBJECT when it is asked about).
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bytes
  const auto a = exact_floats(n, 6), b = exact_floats(n, 7);
  const Expected e = expected(a, b);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, n * 4);
  std::vector<float> pa(align / 4 + n, 99.0f), pb(align / 4 + n, -99.0f);
  std::copy(a.begin(), a.end(), pa.begin() + std::ptrdiff_t(align / 4));
  std::copy(b.begin(), b.end(), pb.begin() + std::ptrdiff_t(align / 4));
  const cl_buffer_region region{align, n * 4};
  const auto orphan = [&](cl::Buffer parent) {
    return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  };
  SUBCASE("device memory") {
    const cl::Buffer sa = orphan(test::to_device(rt, pa)), sb = orphan(test::to_device(rt, pb));
    check_all(rt, sa, 0, sb, 0, out, e);
  }
  SUBCASE("the user's host memory (CL_MEM_USE_HOST_PTR)") {
    HostMemory ma(pa.size() * 4), mb(pb.size() * 4);
    const cl::Buffer sa = orphan(host_buffer(rt, ma, 0, pa)), sb = orphan(host_buffer(rt, mb, 0, pb));
    check_all(rt, sa, 0, sb, 0, out, e);
    // Host memory 4 bytes past an 8-byte boundary: doubles there are refused through the
    // sub-buffer too, before anything is enqueued.
    HostMemory md(align + 64 + 4);
    std::vector<double> d(align / 8 + 8, 1.0);
    const cl::Buffer sd = [&] {
      cl::Buffer parent = host_buffer(rt, md, 4, d);
      const cl_buffer_region head{align, 64};
      return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &head);
    }();
    clatomics::ProfileScope enqueued;
    CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce(rt, clatomics::view<double>(sd, 0, 8), ReduceOp::sum); }),
                         "not a multiple of its 8-byte elements"));
    CHECK(enqueued.commands() == 0);
  }
}

TEST_CASE("every algorithm is exact on an out-of-order queue without profiling, after the caller's own writes") {
  auto& rt = test::runtime();
  const auto out_of_order = test::out_of_order_queue(rt);
  if (!out_of_order) return;
  const cl::CommandQueue& queue = *out_of_order;
  clatomics::Runtime ooo(rt.context(), rt.device(), queue);
  const cl::Buffer da(rt.context(), CL_MEM_READ_WRITE, n * 4), db(rt.context(), CL_MEM_READ_WRITE, n * 4);
  const cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, n * 4);
  for (unsigned round = 0; round < 6; ++round) {
    CAPTURE(round);
    // The caller's own non-blocking writes come first: the library's commands must wait for them.
    const auto a = exact_floats(n, 10 + round), b = exact_floats(n, 20 + round);
    queue.enqueueWriteBuffer(da, CL_FALSE, 0, n * 4, a.data());
    queue.enqueueWriteBuffer(db, CL_FALSE, 0, n * 4, b.data());
    check_all(ooo, da, 0, db, 0, out, expected(a, b));
    // Host data streams in several chunks on that queue too.
    clatomics::testing::set_stream_limits({std::size_t(16) << 10, 0});
    CHECK(clatomics::reduce(ooo, a, ReduceOp::sum, {true}) == expected(a, b).sum);
    CHECK(clatomics::histogram_even(ooo, a, {nbins, lo, hi}, {b}).counts == expected(a, b).even);
    CHECK(clatomics::compact(ooo, a, x > 2.5f, {true}) == expected(a, b).kept);
    clatomics::testing::set_stream_limits({});
    // A device group over the caller's queue: host data (several chunks) and resident parts.
    clatomics::DeviceGroup group(std::vector<cl::CommandQueue>{queue});
    const Expected e = expected(a, b);
    clatomics::testing::set_stream_limits({std::size_t(16) << 10, 0});
    CHECK(clatomics::reduce(group, a, ReduceOp::sum, {true}) == e.sum);
    CHECK(clatomics::histogram_even(group, a, {nbins, lo, hi}, {b}).counts == e.even);
    CHECK(clatomics::dot(group, a, b) == e.dot);
    std::vector<float> scattered(key_bins, 0.0f);
    std::vector<cl_uint> indices(n);
    for (std::size_t i = 0; i < n; ++i) indices[i] = cl_uint(int(a[i]) + 8);
    clatomics::scatter_reduce<float, cl_uint>(group, scattered, indices, b, clatomics::ScatterOp::sum);
    std::vector<float> scattered_expected(key_bins, 0.0f);
    for (std::size_t i = 0; i < n; ++i) scattered_expected[indices[i]] += b[i];
    CHECK(scattered == scattered_expected);
    clatomics::testing::set_stream_limits({});
    const auto resident = clatomics::distribute(group, a);
    CHECK(clatomics::reduce(group, resident, ReduceOp::sum) == e.sum);
    CHECK(clatomics::reduce(group, resident, ReduceOp::sum, {true}) == e.sum);
  }
  clatomics::ProfileScope scope;
  clatomics::reduce(ooo, clatomics::view<float>(da, 0, n), ReduceOp::sum);
  CHECK(scope.commands() > 0);
  const auto what = test::message_of<clatomics::Error>([&] { (void)scope.device_ms(); });
  CHECK(test::contains(what, "CL_PROFILING_INFO_NOT_AVAILABLE"));
}

TEST_CASE("a queue of another context or device is refused when the Runtime is made") {
  auto& rt = test::runtime();
  const cl::Context other(rt.device());
  const cl::CommandQueue foreign(other, rt.device());
  const auto what = test::message_of<std::invalid_argument>([&] { clatomics::Runtime bad(rt.context(), rt.device(), foreign); });
  CHECK(test::contains(what, "another OpenCL context"));
}

TEST_CASE("buffers whose flags forbid their role, and images, are refused before anything runs") {
  auto& rt = test::runtime();
  const auto a = exact_floats(n, 6);
  const cl::Buffer input = test::to_device(rt, a);
  const cl::Buffer write_only(rt.context(), CL_MEM_WRITE_ONLY, n * 4);
  const cl::Buffer read_only(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, const_cast<float*>(a.data()));
  clatomics::ProfileScope enqueued;
  using IA = std::invalid_argument;
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::reduce(rt, clatomics::view<float>(write_only, 0, n), ReduceOp::sum); }), "CL_MEM_WRITE_ONLY"));
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(input, 0, n), clatomics::view<float>(write_only, 0, n)), IA);
  CHECK_THROWS_AS(clatomics::histogram(rt, clatomics::view<cl_uchar>(write_only, 0, n)), IA);
  CHECK_THROWS_AS(clatomics::histogram_keys(rt, clatomics::view<cl_uint>(write_only, 0, n), 4), IA);
  CHECK_THROWS_AS(clatomics::histogram_even(rt, clatomics::view<float>(input, 0, n), {4, lo, hi}, {clatomics::view<float>(write_only, 0, n)}), IA);
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(write_only, 0, n), clatomics::view<float>(input, 0, n), x > 0.0f), IA);
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::compact(rt, clatomics::view<float>(input, 0, n), clatomics::view<float>(read_only, 0, n), x > 0.0f); }), "CL_MEM_READ_ONLY"));
  if (rt.device().getInfo<CL_DEVICE_IMAGE_SUPPORT>()) {
    const cl::Image2D image(rt.context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_R, CL_FLOAT), 64, 64);
    const cl::Buffer wrapped(image(), true);
    CHECK(test::contains(test::message_of<IA>([&] { clatomics::reduce(rt, clatomics::view<float>(wrapped, 0, 16), ReduceOp::sum); }), "not a buffer"));
  }
  CHECK(enqueued.commands() == 0);
  // Read-only inputs and write-only outputs are what the roles ask for: fine.
  const cl::Buffer out(rt.context(), CL_MEM_WRITE_ONLY, n * 4);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(read_only, 0, n), ReduceOp::sum) == expected(a, a).sum);
  CHECK(clatomics::compact(rt, clatomics::view<float>(read_only, 0, n), clatomics::view<float>(out, 0, n), x > 2.5f) == expected(a, a).kept.size());
}

TEST_CASE("an output sharing memory with an input is refused; disjoint parts of one buffer are fine") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / 4;  // floats
  const std::size_t m = 4 * align + 1000;
  std::vector<float> data(2 * m);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = float(i % 7);
  cl::Buffer parent = test::to_device(rt, data);
  const auto sub = [&](std::size_t first, std::size_t count) {
    const cl_buffer_region region{first * 4, count * 4};
    return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  };
  const cl::Buffer head = sub(0, m), overlapping = sub(align, m), tail = sub(m - m % align + align, m - align);
  const std::vector<float> before = test::to_host<float>(rt, parent, data.size());
  HostMemory memory(m * 4 + 64);
  const cl::Buffer user_a = host_buffer(rt, memory, 0, std::vector<float>(m, 1.0f));
  const cl::Buffer user_b(rt.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (m - 8) * 4, memory.base + 32);
  clatomics::ProfileScope enqueued;
  using IA = std::invalid_argument;
  CHECK(test::contains(test::message_of<IA>([&] { clatomics::compact(rt, clatomics::view<float>(parent, 0, m), clatomics::view<float>(parent, 0, m), x > 1.0f); }), "shares memory"));
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(parent, 0, m), clatomics::view<float>(head, 0, m), x > 1.0f), IA);        // a buffer and its sub-buffer
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(head, 0, m), clatomics::view<float>(parent, 0, m), x > 1.0f), IA);
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(head, 0, m - align), clatomics::view<float>(overlapping, 0, m - align), x > 1.0f), IA);  // two sub-buffers
  CHECK_THROWS_AS(clatomics::compact(rt, clatomics::view<float>(user_a, 0, m - 8), clatomics::view<float>(user_b, 0, m - 8), x > 1.0f), IA);   // one host memory
  CHECK(enqueued.commands() == 0);
  CHECK(test::to_host<float>(rt, parent, data.size()) == before);
  // Disjoint: the first half of a buffer into its second half, and a sub-buffer into another.
  std::vector<float> kept;
  for (std::size_t i = 0; i < m - align; ++i)
    if (data[i] > 1.0f) kept.push_back(data[i]);
  CHECK(clatomics::compact(rt, clatomics::view<float>(head, 0, m - align), clatomics::view<float>(tail, 0, m - align), x > 1.0f, {true}) == kept.size());
  CHECK(test::to_host<float>(rt, tail, kept.size()) == kept);
}

namespace {

// The deterministic tree of reduce.hpp on the host, in IEEE float: tiles of 16384 elements; lane j
// of 256 has four accumulators over elements 4 (j + 256 r) + c; lanes then pair as a binary tree;
// the tiles' values are reduced by the same rule until one is left.
float host_tree_sum(std::vector<float> values) {
  constexpr std::size_t lanes = 256, width = 4, tile = 16384;
  while (true) {
    std::vector<float> next;
    for (std::size_t t = 0; t * tile < values.size(); ++t) {
      const std::size_t base = t * tile, count = std::min(tile, values.size() - base);
      std::vector<float> lane(lanes);
      for (std::size_t j = 0; j < lanes; ++j) {
        float acc[width] = {0, 0, 0, 0};
        for (std::size_t r = 0; r < tile / (lanes * width); ++r)
          for (std::size_t c = 0; c < width; ++c)
            if (const std::size_t k = width * (j + lanes * r) + c; k < count) acc[c] = acc[c] + values[base + k];
        lane[j] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
      }
      for (std::size_t s = lanes / 2; s > 0; s /= 2)
        for (std::size_t j = 0; j < s; ++j) lane[j] = lane[j] + lane[j + s];
      next.push_back(lane[0]);
    }
    if (next.size() == 1) return next[0];
    values = std::move(next);
  }
}

}  // namespace

TEST_CASE("deterministic reduce: the same bits at any offset, alignment and chunking, and the tree's bits") {
  auto& rt = test::runtime();
  const std::size_t count = 3000017;  // several levels of tiles: 184 tiles of 16384
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (auto& v : values) v = dist(gen) * std::exp2(float(int(gen() % 20) - 10));  // rounding in every add
  const float tree = host_tree_sum(values);
  const clatomics::ReduceOptions deterministic{true};
  for (const std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(8)}) {
    CAPTURE(offset);
    std::vector<float> padded(offset, 5.0f);
    padded.insert(padded.end(), values.begin(), values.end());
    CHECK(test::bits(clatomics::reduce(rt, clatomics::view<float>(test::to_device(rt, padded), offset, count), ReduceOp::sum, deterministic)) ==
          test::bits(tree));
  }
  HostMemory memory(count * 4 + 64);
  for (std::size_t align = 4; align <= 60; align += 28) {
    CAPTURE(align);
    CHECK(test::bits(clatomics::reduce(rt, clatomics::view<float>(host_buffer(rt, memory, align, values), 0, count), ReduceOp::sum, deterministic)) ==
          test::bits(tree));
  }
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(64) << 10, (std::size_t(1) << 20) + 4096}) {
    CAPTURE(chunk_bytes);
    clatomics::testing::set_stream_limits({chunk_bytes, 0});
    CHECK(test::bits(clatomics::reduce(rt, values, ReduceOp::sum, deterministic)) == test::bits(tree));
  }
  clatomics::testing::set_stream_limits({});
}

namespace {

// Data for the partial reductions below: two whole tiles and a partial one.
constexpr std::size_t partial_n = 2 * clatomics::reduce_tile + 5003;

// Where two parts of the range are cut: at a tile for the deterministic tree (its parts must
// start at one), inside a tile for the fast sum (its tail then starts at another alignment).
std::size_t cut_of(bool deterministic) { return deterministic ? clatomics::reduce_tile : 12347; }

// The exact sums of whole[first, first + count), one per run of `per` elements.
std::vector<float> run_sums(const std::vector<float>& whole, std::size_t first, std::size_t count, std::size_t per) {
  std::vector<float> sums;
  for (std::size_t at = 0; at < count; at += per) {
    float sum = 0.0f;
    for (std::size_t i = at; i < std::min(count, at + per); ++i) sum += whole[first + i];  // small integers: exact
    sums.push_back(sum);
  }
  return sums;
}

// Reduces whole (small integers as floats) in two parts with reduce_partial: the head [0, cut)
// and the tail [cut, n), each read from the buffer and offset that where(first) gives for the
// part's first element, before(k) run just before part k's call (0: the head, 1: the tail).
// Each part's values are the exact sums of its elements (one per tile when tiled), the parts
// merge in either order to the exact total, and a deterministic merge has the bits of one
// deterministic pass over all of whole.
using Where = std::function<std::pair<cl::Buffer, std::size_t>(std::size_t first)>;
void check_two_parts(clatomics::Runtime& rt, const Where& where, const std::vector<float>& whole, bool deterministic,
                     const std::function<void(int)>& before = nullptr) {
  CAPTURE(deterministic);
  const std::size_t count = whole.size(), cut = cut_of(deterministic), tile = clatomics::reduce_tile;
  const clatomics::ReduceOptions options{deterministic};
  const auto part = [&](int k, std::size_t first, std::size_t elements) {
    const auto [buffer, offset] = where(first);
    if (before) before(k);
    return clatomics::reduce_partial(rt, clatomics::view<float>(buffer, offset, elements), ReduceOp::sum, first, options);
  };
  const auto head = part(0, 0, cut), tail = part(1, cut, count - cut);
  for (const auto* p : {&head, &tail}) {
    CHECK(p->op == ReduceOp::sum);
    CHECK(p->tiled == deterministic);
  }
  CHECK(head.first == 0);
  CHECK(head.count == cut);
  CHECK(tail.first == cut);
  CHECK(tail.count == count - cut);
  CHECK(head.values == run_sums(whole, 0, cut, deterministic ? tile : cut));
  CHECK(tail.values == run_sums(whole, cut, count - cut, deterministic ? tile : count - cut));
  const float total = run_sums(whole, 0, count, count).front();
  const float merged = clatomics::merge_reduce<float>({head, tail});
  CHECK(merged == total);
  CHECK(test::bits(clatomics::merge_reduce<float>({tail, head})) == test::bits(merged));
  if (deterministic)
    CHECK(test::bits(merged) == test::bits(clatomics::reduce<float>(test::runtime(), whole, ReduceOp::sum, options)));
}

}  // namespace

TEST_CASE("reduce_partial and merge_reduce are exact on host memory at every 4-byte misalignment (CL_MEM_USE_HOST_PTR)") {
  auto& rt = test::runtime();
  const auto a = exact_floats(partial_n, 30);
  HostMemory memory(partial_n * 4 + 64);
  for (std::size_t align = 4; align <= 60; align += 4) {
    CAPTURE(align);
    const cl::Buffer buffer = host_buffer(rt, memory, align, a);
    for (const bool deterministic : {false, true})
      check_two_parts(rt, [&](std::size_t first) { return std::make_pair(buffer, first); }, a, deterministic);
  }
}

TEST_CASE("reduce_partial and merge_reduce are exact on sub-buffers of a larger buffer, each part in its own") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bits -> bytes
  const auto a = exact_floats(partial_n, 31);
  for (const std::size_t lead : {std::size_t(0), std::size_t(5)}) {
    CAPTURE(lead);
    // The parent: align bytes and lead elements of 1000 (which a wrong offset would add), the
    // data, then 7 more elements of 1000.
    std::vector<float> padded(align / 4 + lead, 1000.0f);
    padded.insert(padded.end(), a.begin(), a.end());
    padded.insert(padded.end(), 7, 1000.0f);
    cl::Buffer parent = test::to_device(rt, padded);
    // Each part reads the sub-buffer that starts at the last allowed origin before its first
    // element (the head's: at align bytes, lead elements before the data). The sub-buffers live
    // as long as the parent: NVIDIA's OpenCL (driver 580, H200) reads zeros from a sub-buffer
    // made after another sub-buffer of the same parent was released, even with
    // clEnqueueReadBuffer alone (DEVICES.md).
    std::map<std::size_t, cl::Buffer> subs;
    const Where where = [&](std::size_t first) {
      const std::size_t byte = (align / 4 + lead + first) * 4, origin = std::max(align, byte / align * align);
      const cl_buffer_region region{origin, padded.size() * 4 - origin};
      if (!subs.count(origin)) subs[origin] = parent.createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
      return std::make_pair(subs[origin], (byte - origin) / 4);
    };
    where(0), where(cut_of(false)), where(cut_of(true));  // every sub-buffer made before any is used
    for (const bool deterministic : {false, true}) check_two_parts(rt, where, a, deterministic);
  }
}

TEST_CASE("reduce_partial on an out-of-order queue sees the caller's non-blocking write enqueued just before each call") {
  auto& rt = test::runtime();
  const auto out_of_order = test::out_of_order_queue(rt);
  if (!out_of_order) return;
  const cl::CommandQueue& queue = *out_of_order;
  clatomics::Runtime ooo(rt.context(), rt.device(), queue);
  const cl::Buffer data(rt.context(), CL_MEM_READ_WRITE, partial_n * 4);
  const std::vector<float> stale(partial_n, 1000.0f);  // what the buffer holds before the first write
  queue.enqueueWriteBuffer(data, CL_TRUE, 0, partial_n * 4, stale.data());
  for (unsigned round = 0; round < 4; ++round) {
    // Rounds 2 and 3: each write also waits for an event of the caller's that another thread
    // completes 10 ms later, so a call that did not wait for it would surely read the old data.
    const bool gated = round >= 2;
    CAPTURE(round);
    for (const bool deterministic : {false, true}) {
      // The whole buffer is written anew before each part's call: the head must read head_data,
      // the tail tail_data.
      const auto head_data = exact_floats(partial_n, 40 + 4 * round + 2 * deterministic);
      const auto tail_data = exact_floats(partial_n, 41 + 4 * round + 2 * deterministic);
      std::vector<float> whole(head_data.begin(), head_data.begin() + std::ptrdiff_t(cut_of(deterministic)));
      whole.insert(whole.end(), tail_data.begin() + std::ptrdiff_t(cut_of(deterministic)), tail_data.end());
      test::CallerWrites writes(rt.context(), queue);
      const auto write = [&](int k) { writes.write(data, (k ? tail_data : head_data).data(), partial_n * 4, gated); };
      check_two_parts(ooo, [&](std::size_t first) { return std::make_pair(data, first); }, whole, deterministic, write);
      writes.join();
      queue.finish();  // the host data outlives the writes even where a call did not wait for them
    }
  }
}
