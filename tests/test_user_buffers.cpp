// Every algorithm meets the user's buffers and queues: host memory handed over with
// CL_MEM_USE_HOST_PTR at every 4-byte alignment (PoCL reads it where it is), sub-buffers and
// element offsets, out-of-order queues without profiling (with the caller's own commands
// before), buffers whose flags forbid their role, images, and outputs that share memory with
// another operand; partial results and device groups (over the caller's out-of-order queue) meet
// them too. Each call either gives the host's exact result or is refused before anything runs.
// The algorithms and their operands come from the registry (algorithm_cases.hpp): each of its
// calls runs with every operand, outputs included, laid out the way a test case says. The
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

#include "algorithm_cases.hpp"
#include "core/buffer_checks.hpp"
#include "support.hpp"

namespace {

namespace alg = test::algorithms;
using clatomics::ReduceOp;
using clatomics::where::x;

constexpr std::size_t n = 20011;   // words of data: a prime: vector loads, a head and a tail, several groups
constexpr std::size_t bins = 300;  // the rows of the scatter and segment outputs
const float lo = -8.0f, hi = 8.0f;
constexpr std::size_t nbins = 37;

// A buffer over host memory at base + align holding values (copied there first).
template <class T>
cl::Buffer host_buffer(const clatomics::Runtime& rt, test::HostMemory& memory, std::size_t align, const std::vector<T>& values,
                       cl_mem_flags flags = CL_MEM_READ_WRITE) {
  std::memcpy(memory.base + align, values.data(), values.size() * sizeof(T));
  return cl::Buffer(rt.context(), flags | CL_MEM_USE_HOST_PTR, values.size() * sizeof(T), memory.base + align);
}

// What a layout made that must outlive the call (host memory).
using Keep = std::vector<std::shared_ptr<void>>;
// Where a test case puts operand k, holding bytes: its range.
using Place = std::function<alg::Range(std::size_t k, const alg::Operand&, const alg::Bytes&, Keep&)>;
using Only = std::function<bool(const alg::Algorithm&)>;

// Every call of every algorithm (of only those, where given) over about n words of data and
// `bins` output rows, its operands where place puts them, each checked exactly against the host.
void check_all(clatomics::Runtime& rt, const Place& place, unsigned seed, const Only& only = nullptr) {
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt) || (only && !only(a))) continue;
    const alg::Shape shape{alg::length_for(a, n), bins};
    for (const alg::Call& call : a.calls) {
      INFO(a.name << ": " << call.what);
      const alg::Contents contents = a.contents(shape, seed);
      Keep keep;
      alg::Ranges ranges;
      for (std::size_t k = 0; k < a.operands.size(); ++k) ranges.push_back(place(k, a.operands[k], contents[k], keep));
      call.run(rt, ranges, &contents);
      rt.queue().finish();  // the caller's own writes of contents are done before contents go
    }
  }
}

// The sub-buffer of parent's bytes [origin, origin + bytes).
cl::Buffer sub_buffer(cl::Buffer parent, std::size_t origin, std::size_t bytes) {
  const cl_buffer_region region{origin, bytes};
  return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
}
// bytes after lead bytes of filler (which a wrong offset would read).
alg::Bytes after(std::size_t lead, const alg::Bytes& bytes) {
  alg::Bytes padded(lead, 0x63);
  padded.insert(padded.end(), bytes.begin(), bytes.end());
  return padded;
}

// The host's answers for the host data forms below (streamed, device groups).
struct Expected {
  float sum = 0, dot = 0;
  std::vector<std::uint64_t> even;
  std::vector<float> kept;
};
Expected expected(const std::vector<float>& a, const std::vector<float>& b) {
  Expected e{};
  e.even.assign(nbins, 0);
  const auto edges = test::numpy_edges(nbins, lo, hi);
  for (std::size_t i = 0; i < a.size(); ++i) {
    e.sum += a[i], e.dot += a[i] * b[i];
    ++e.even[test::even_slot(a[i], edges)];  // the data lie in [lo, hi]
    if (a[i] > 2.5f) e.kept.push_back(a[i]);
  }
  return e;
}

}  // namespace

TEST_CASE("every algorithm is exact on host memory at every 4-byte alignment (CL_MEM_USE_HOST_PTR)") {
  auto& rt = test::runtime();
  // Operands alternate between align and 60 - align (8-byte ones at the multiple of 8 below).
  const auto at = [&](std::size_t align) {
    return [&rt, align](std::size_t k, const alg::Operand& o, const alg::Bytes& bytes, Keep& keep) {
      auto memory = std::make_shared<test::HostMemory>(bytes.size() + 64);
      keep.push_back(memory);
      const std::size_t where = k % 2 && align % 4 == 0 ? 60 - align : align;
      return alg::Range{host_buffer(rt, *memory, where - where % o.element_bytes, bytes), 0, bytes.size() / o.element_bytes};
    };
  };
  for (std::size_t align = 0; align <= 60; align += 4) {
    CAPTURE(align);
    check_all(rt, at(align), unsigned(align));
  }
  // Bytes may start anywhere.
  for (std::size_t align = 1; align < 4; ++align) {
    CAPTURE(align);
    check_all(rt, at(align), unsigned(align), [](const alg::Algorithm& a) {
      return std::all_of(a.operands.begin(), a.operands.end(), [](const alg::Operand& o) { return o.element_bytes == 1; });
    });
  }
}

TEST_CASE("a range whose host memory is not aligned to its elements is refused, directly and through a sub-buffer") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bytes
  test::HostMemory memory(8 * n + 64);
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    const alg::Contents contents = a.contents({64, 16}, 3);
    for (std::size_t k = 0; k < a.operands.size(); ++k)
      for (const bool sub : {false, true}) {
        const alg::Operand& o = a.operands[k];
        if (o.element_bytes == 1) continue;  // bytes: any address (the alignment test runs them at 1, 2 and 3)
        // Half an element past a boundary of the element's size.
        alg::Ranges ranges = alg::on_device(rt, a, contents);
        // The parent's handle is kept: where the implementation misreports a sub-buffer's host
        // memory (Intel's), the library asks the parent (the test below releases it).
        const cl::Buffer parent = host_buffer(rt, memory, o.element_bytes / 2, sub ? after(align, contents[k]) : contents[k]);
        ranges[k].buffer = sub ? sub_buffer(parent, align, contents[k].size()) : parent;
        for (const alg::Call& call : a.calls) {
          if (!call.passes(k)) continue;
          INFO(a.name << ": " << call.what << ", " << o.name << " misaligned" << std::string(sub ? " through a sub-buffer" : ""));
          clatomics::ProfileScope enqueued;
          const auto what = test::message_of<std::invalid_argument>([&] { call.run(rt, ranges, nullptr); });
          CHECK(test::contains(what, o.name));
          CHECK(test::contains(what, "not a multiple of its " + std::to_string(o.element_bytes) + "-byte elements"));
          CHECK(enqueued.commands() == 0);
        }
      }
  }
}

TEST_CASE("every algorithm is exact on sub-buffers and at element offsets") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bits -> bytes
  for (const std::size_t offset : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
    CAPTURE(offset);
    // The data start 3 + offset elements into a sub-buffer that starts at align bytes.
    check_all(rt, [&](std::size_t, const alg::Operand& o, const alg::Bytes& bytes, Keep&) {
      const std::size_t at = 3 + offset;
      const alg::Bytes padded = after(align + at * o.element_bytes, bytes);
      return alg::Range{sub_buffer(test::to_device(rt, padded), align, padded.size() - align), at, bytes.size() / o.element_bytes};
    }, unsigned(4 + offset));
  }
}

TEST_CASE("sub-buffers whose parent's handle the user released: every algorithm, and the host alignment rule") {
  // The sub-buffer keeps its parent's memory alive; the parent's handle is gone (Intel's CPU
  // runtime answers CL_INVALID_MEM_OBJECT when it is asked about).
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bytes
  SUBCASE("device memory") {
    check_all(rt, [&](std::size_t, const alg::Operand& o, const alg::Bytes& bytes, Keep&) {
      return alg::Range{sub_buffer(test::to_device(rt, after(align, bytes)), align, bytes.size()), 0, bytes.size() / o.element_bytes};
    }, 6);
  }
  SUBCASE("the user's host memory (CL_MEM_USE_HOST_PTR)") {
    check_all(rt, [&](std::size_t, const alg::Operand& o, const alg::Bytes& bytes, Keep& keep) {
      auto memory = std::make_shared<test::HostMemory>(align + bytes.size());
      keep.push_back(memory);
      return alg::Range{sub_buffer(host_buffer(rt, *memory, 0, after(align, bytes)), align, bytes.size()), 0, bytes.size() / o.element_bytes};
    }, 7);
    // Host memory 4 bytes past an 8-byte boundary: doubles there are refused through the
    // sub-buffer too, before anything is enqueued, where the implementation reports a
    // sub-buffer's host memory; where it misreports it (Intel's), a released parent leaves it
    // unknown, and the call runs with the exact sum.
    test::HostMemory md(align + 64 + 4);
    std::vector<double> d(align / 8 + 8, 1.0);
    const cl::Buffer sd = sub_buffer(host_buffer(rt, md, 4, d), align, 64);
    if (!rt.supports_double()) return;
    if (clatomics::detail::reports_sub_buffer_host_ptr(rt.context()())) {
      clatomics::ProfileScope enqueued;
      CHECK(test::contains(test::message_of<std::invalid_argument>([&] { clatomics::reduce(rt, clatomics::view<double>(sd, 0, 8), ReduceOp::sum); }),
                           "not a multiple of its 8-byte elements"));
      CHECK(enqueued.commands() == 0);
    } else {
      CHECK(clatomics::reduce(rt, clatomics::view<double>(sd, 0, 8), ReduceOp::sum) == 8.0);
    }
  }
}

TEST_CASE("every algorithm is exact on an out-of-order queue without profiling, after the caller's own writes") {
  auto& rt = test::runtime();
  const auto out_of_order = test::out_of_order_queue(rt);
  if (!out_of_order) return;
  const cl::CommandQueue& queue = *out_of_order;
  clatomics::Runtime ooo(rt.context(), rt.device(), queue);
  for (unsigned round = 0; round < 6; ++round) {
    CAPTURE(round);
    // The caller's own non-blocking writes come first: the library's commands must wait for them.
    check_all(ooo, [&](std::size_t, const alg::Operand& o, const alg::Bytes& bytes, Keep&) {
      const cl::Buffer buffer(rt.context(), CL_MEM_READ_WRITE, bytes.size());
      queue.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes.size(), bytes.data());
      return alg::Range{buffer, 0, bytes.size() / o.element_bytes};
    }, 10 + round);
    // Host data streams in several chunks on that queue too.
    const auto a = test::small_floats(n, 10 + round, 8), b = test::small_floats(n, 20 + round, 8);
    const Expected e = expected(a, b);
    clatomics::testing::set_stream_limits({std::size_t(16) << 10, 0});
    CHECK(clatomics::reduce(ooo, a, ReduceOp::sum, {true}) == e.sum);
    CHECK(clatomics::histogram_even(ooo, a, {nbins, lo, hi}, {b}).counts == e.even);
    CHECK(clatomics::compact(ooo, a, x > 2.5f, {true}) == e.kept);
    clatomics::testing::set_stream_limits({});
    // A device group over the caller's queue: host data (several chunks) and resident parts.
    clatomics::DeviceGroup group(std::vector<cl::CommandQueue>{queue});
    clatomics::testing::set_stream_limits({std::size_t(16) << 10, 0});
    CHECK(clatomics::reduce(group, a, ReduceOp::sum, {true}) == e.sum);
    CHECK(clatomics::histogram_even(group, a, {nbins, lo, hi}, {b}).counts == e.even);
    CHECK(clatomics::dot(group, a, b) == e.dot);
    std::vector<float> scattered(bins, 0.0f);
    std::vector<cl_uint> indices(n);
    for (std::size_t i = 0; i < n; ++i) indices[i] = cl_uint(int(a[i]) + 8);
    clatomics::scatter_reduce<float, cl_uint>(group, scattered, indices, b, clatomics::ScatterOp::sum);
    std::vector<float> scattered_expected(bins, 0.0f);
    for (std::size_t i = 0; i < n; ++i) scattered_expected[indices[i]] += b[i];
    CHECK(scattered == scattered_expected);
    clatomics::testing::set_stream_limits({});
    const auto resident = clatomics::distribute(group, a);
    CHECK(clatomics::reduce(group, resident, ReduceOp::sum) == e.sum);
    CHECK(clatomics::reduce(group, resident, ReduceOp::sum, {true}) == e.sum);
  }
  const cl::Buffer da(rt.context(), CL_MEM_READ_WRITE, n * 4);
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
  using IA = std::invalid_argument;
  std::optional<cl::Buffer> wrapped;  // an image wrapped as a cl::Buffer
  std::optional<cl::Image2D> image;
  if (rt.device().getInfo<CL_DEVICE_IMAGE_SUPPORT>()) {
    image.emplace(rt.context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_R, CL_FLOAT), 64, 64);
    wrapped.emplace((*image)(), true);
  }
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    const alg::Contents contents = a.contents({1000, 16}, 6);
    for (std::size_t k = 0; k < a.operands.size(); ++k) {
      const alg::Operand& o = a.operands[k];
      // Buffers operand k must not be, with what the refusal says.
      std::vector<std::pair<cl::Buffer, std::string>> forbidden;
      const std::size_t bytes = std::max<std::size_t>(contents[k].size(), 1);
      if (o.read()) forbidden.emplace_back(cl::Buffer(rt.context(), CL_MEM_WRITE_ONLY, bytes), "CL_MEM_WRITE_ONLY");
      if (o.written()) forbidden.emplace_back(cl::Buffer(rt.context(), CL_MEM_READ_ONLY, bytes), "CL_MEM_READ_ONLY");
      if (wrapped) forbidden.emplace_back(*wrapped, "not a buffer");
      for (const auto& [buffer, why] : forbidden)
        for (const alg::Call& call : a.calls) {
          if (!call.passes(k)) continue;
          INFO(a.name << ": " << call.what << ", " << o.name << ": " << why);
          alg::Ranges ranges = alg::on_device(rt, a, contents);
          ranges[k].buffer = buffer;
          clatomics::ProfileScope enqueued;
          const auto what = test::message_of<IA>([&] { call.run(rt, ranges, nullptr); });
          CHECK(test::contains(what, o.name));
          CHECK(test::contains(what, why));
          CHECK(enqueued.commands() == 0);
        }
    }
  }
  // Read-only inputs and write-only outputs are what the roles ask for: fine.
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    for (const alg::Call& call : a.calls) {
      INFO(a.name << ": " << call.what << ", read-only inputs, write-only outputs");
      const alg::Contents contents = a.contents({1000, 16}, 7);
      alg::Ranges ranges;
      for (std::size_t k = 0; k < a.operands.size(); ++k) {
        const alg::Operand& o = a.operands[k];
        const cl_mem_flags flags = o.role == alg::Role::input ? CL_MEM_READ_ONLY : o.role == alg::Role::output ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
        auto bytes = contents[k];
        ranges.push_back({cl::Buffer(rt.context(), flags | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data()), 0, bytes.size() / o.element_bytes});
      }
      call.run(rt, ranges, &contents);
    }
  }
}

TEST_CASE("a sub-buffer of host memory lies at its parent's memory + origin, whatever the implementation reports for it") {
  // Intel's CPU runtime reports the second sub-buffer's CL_MEM_HOST_PTR as the first one's: taken
  // as it is, compact's output looked like its input's memory and was refused.
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;  // bytes
  const std::vector<float> values = test::small_floats(1024, 5, 8);
  std::vector<float> kept;
  for (const float v : values)
    if (v > 2.5f) kept.push_back(v);
  test::HostMemory in_memory(align + values.size() * 4 + 4), out_memory(align + values.size() * 4 + 4);
  std::vector<float> padded(align / 4 + values.size() + 1, 0.0f);
  std::copy(values.begin(), values.end(), padded.begin() + std::ptrdiff_t(align / 4));
  const cl::Buffer in_parent = host_buffer(rt, in_memory, 0, padded);
  const cl::Buffer out_parent = host_buffer(rt, out_memory, 0, std::vector<float>(padded.size(), -1.0f));
  const cl::Buffer in = sub_buffer(in_parent, align, values.size() * 4), out = sub_buffer(out_parent, align, values.size() * 4);
  const std::size_t count = clatomics::compact(rt, clatomics::view<float>(in), clatomics::view<float>(out), x > 2.5f, {true});
  CHECK(count == kept.size());
  CHECK(test::to_host<float>(rt, out, kept.size()) == kept);
  // A sub-buffer whose size is not a multiple of 4 over aligned host memory: Intel's answer
  // (host_ptr + the size) looked misaligned.
  float sum = 0.0f;
  for (const float v : values) sum += v;
  for (const std::size_t extra : {1, 2, 3}) {
    CAPTURE(extra);
    const cl::Buffer odd = sub_buffer(in_parent, align, values.size() * 4 + extra);
    CHECK(clatomics::reduce(rt, clatomics::view<float>(odd, 0, values.size()), ReduceOp::sum) == sum);
  }
}

TEST_CASE("an output sharing memory with another operand is refused; disjoint parts of one buffer are fine") {
  auto& rt = test::runtime();
  const std::size_t align = rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / 4;  // floats
  const std::size_t m = 4 * align + 1000;
  std::vector<float> data(2 * m);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = float(i % 7);
  cl::Buffer parent = test::to_device(rt, data);
  const auto sub = [&](std::size_t first, std::size_t count) { return sub_buffer(parent, first * 4, count * 4); };
  const cl::Buffer head = sub(0, m), overlapping = sub(align, m);
  const std::vector<float> before = test::to_host<float>(rt, parent, data.size());
  test::HostMemory memory(m * 4 + 64);
  const cl::Buffer user_a = host_buffer(rt, memory, 0, std::vector<float>(m, 1.0f));
  const cl::Buffer user_b(rt.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (m - 8) * 4, memory.base + 32);
  // Memory two operands share, each at element 0 of its buffer.
  struct Shared {
    const char* what;
    cl::Buffer first, second;
  };
  const Shared shared[] = {{"one buffer", parent, parent},
                           {"a buffer and its sub-buffer", parent, head},
                           {"a sub-buffer and its buffer", head, parent},
                           {"two sub-buffers", head, overlapping},
                           {"one host memory", user_a, user_b}};
  const alg::Shape fits{(m - align) / 2 - 1, (m - align) / 2 - 1};  // every operand in any of them (8-byte ones too)
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    const alg::Contents contents = a.contents(fits, 8);
    for (std::size_t o = 0; o < a.operands.size(); ++o)
      for (std::size_t j = 0; j < a.operands.size(); ++j) {
        if (!a.operands[o].written() || j == o) continue;
        for (const Shared& s : shared)
          for (const alg::Call& call : a.calls) {
            if (!call.passes(o) || !call.passes(j)) continue;
            INFO(a.name << ": " << call.what << ", " << a.operands[o].name << " and " << a.operands[j].name << " in " << std::string(s.what));
            alg::Ranges ranges = alg::on_device(rt, a, contents);
            ranges[o].buffer = s.first, ranges[j].buffer = s.second;
            clatomics::ProfileScope enqueued;
            const auto what = test::message_of<std::invalid_argument>([&] { call.run(rt, ranges, nullptr); });
            CHECK(test::contains(what, "shares memory"));
            CHECK(test::contains(what, a.operands[o].name));
            CHECK(test::contains(what, a.operands[j].name));
            CHECK(enqueued.commands() == 0);
          }
      }
  }
  CHECK(test::to_host<float>(rt, parent, data.size()) == before);
  // Disjoint: every operand in a part of one buffer of its own, as a sub-buffer and as a range of it.
  for (const alg::Algorithm& a : alg::registry()) {
    if (!a.runs_on(rt)) continue;
    const alg::Contents contents = a.contents({1000, 100}, 9);
    std::vector<std::size_t> at;  // each part's first byte: a multiple of the base alignment
    alg::Bytes whole;
    for (const alg::Bytes& part : contents) {
      whole.resize((whole.size() + 4 * align - 1) / (4 * align) * (4 * align), 0x63);
      at.push_back(whole.size());
      whole.insert(whole.end(), part.begin(), part.end());
    }
    cl::Buffer one = test::to_device(rt, whole);
    for (const bool subs : {true, false})
      for (const alg::Call& call : a.calls) {
        INFO(a.name << ": " << call.what << std::string(subs ? ", sub-buffers" : ", ranges") << " of one buffer");
        rt.queue().enqueueWriteBuffer(one, CL_TRUE, 0, whole.size(), whole.data());
        alg::Ranges ranges;
        for (std::size_t k = 0; k < contents.size(); ++k) {
          const std::size_t e = a.operands[k].element_bytes, count = contents[k].size() / e;
          ranges.push_back(subs ? alg::Range{sub_buffer(one, at[k], std::max<std::size_t>(contents[k].size(), 1)), 0, count}
                                : alg::Range{one, at[k] / e, count});
        }
        call.run(rt, ranges, &contents);
      }
  }
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
  test::HostMemory memory(count * 4 + 64);
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
  const auto a = test::small_floats(partial_n, 30, 8);
  test::HostMemory memory(partial_n * 4 + 64);
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
  const auto a = test::small_floats(partial_n, 31, 8);
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
      const auto head_data = test::small_floats(partial_n, 40 + 4 * round + 2 * deterministic, 8);
      const auto tail_data = test::small_floats(partial_n, 41 + 4 * round + 2 * deterministic, 8);
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
