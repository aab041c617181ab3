// Huge sizes: the byte histogram over 2^32 + 17 bytes with exact 64-bit counts, and reduce over
// more than 2^32 elements. The data is zeros plus a few marks placed so that 32-bit indices or
// counts would give wrong answers (marks at and past 2^32; the zero bin holds 2^32 + 1).
// CTest label `huge` (ctest -LE huge skips it). Needs about 4.5 GiB of host memory; the
// single-buffer parts need a device that allows such a buffer and say so when skipped.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "support.hpp"

namespace {

constexpr std::uint64_t two32 = std::uint64_t(1) << 32;
constexpr std::size_t n_bytes = std::size_t(two32 + 17);

// The non-zero bytes: around 2^31 and 2^32, the first and last bytes; 16 distinct values.
struct Mark {
  std::uint64_t pos;
  std::uint8_t value;
};
std::vector<Mark> marks() {
  const std::uint64_t at[] = {0, 1, 4095, 4096, (two32 >> 1) - 1, two32 >> 1, (two32 >> 1) + 1, 3 * (two32 >> 2) + 5,
                              two32 - 2, two32 - 1, two32, two32 + 1, two32 + 2, two32 + 9, two32 + 15, two32 + 16};
  std::vector<Mark> m;
  for (std::size_t k = 0; k < std::size(at); ++k) m.push_back({at[k], std::uint8_t(16 * k + 15)});
  return m;
}

// The exact histogram of bytes [first, first + count).
std::vector<std::uint64_t> expected(std::uint64_t first, std::uint64_t count) {
  std::vector<std::uint64_t> h(256, 0);
  h[0] = count;
  for (const Mark& m : marks())
    if (m.pos >= first && m.pos < first + count) ++h[m.value], --h[0];
  return h;
}

// MemAvailable from /proc/meminfo in bytes; 0 where unknown.
std::uint64_t host_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string key; in >> key;) {
    std::uint64_t kb = 0;
    in >> kb;
    if (key == "MemAvailable:") return kb * 1024;
    in.ignore(256, '\n');
  }
  return 0;
}

// Whether one device buffer of `bytes` fits; `why` says otherwise.
bool device_holds(std::uint64_t bytes, std::string& why) {
  const auto& caps = test::runtime().device_info().caps;
  if (caps.max_mem_alloc_size >= bytes && caps.global_mem_size >= bytes + (std::uint64_t(256) << 20)) return true;
  why = "the device allows " + std::to_string(caps.max_mem_alloc_size) + " bytes in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) and " +
        std::to_string(caps.global_mem_size) + " in all; this needs " + std::to_string(bytes) + " in one buffer";
  return false;
}

const cl::Program& program() {
  static const cl::Program p = test::runtime().build(test::test_source("huge.cl"));
  return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("byte histogram of 2^32 + 17 bytes in one device buffer, filled on the device") {
  std::string why;
  if (!device_holds(n_bytes, why)) {
    MESSAGE("skipped (the host-data case below still covers 2^32 + 17 bytes): " << why);
    return;
  }
  auto& rt = test::runtime();
  const auto t0 = std::chrono::steady_clock::now();
  cl::Buffer bytes(rt.context(), CL_MEM_READ_WRITE, n_bytes);
  rt.queue().enqueueFillBuffer(bytes, cl_uchar(0), 0, n_bytes);
  std::vector<cl_ulong> pos;
  std::vector<cl_uchar> val;
  for (const Mark& m : marks()) pos.push_back(m.pos), val.push_back(m.value);
  cl::Buffer pos_buf = test::to_device(rt, pos), val_buf = test::to_device(rt, val);
  cl::Kernel fill(program(), "huge_marks");
  fill.setArg(0, bytes);
  fill.setArg(1, pos_buf);
  fill.setArg(2, val_buf);
  fill.setArg(3, cl_uint(pos.size()));
  rt.queue().enqueueNDRangeKernel(fill, cl::NullRange, cl::NDRange(pos.size()));
  rt.queue().finish();

  const auto whole = clatomics::histogram(rt, clatomics::view<cl_uchar>(bytes, 0, n_bytes));
  CHECK(whole[0] == two32 + 1);  // does not fit in 32 bits
  CHECK(whole == expected(0, n_bytes));
  // Ranges whose offsets lie past 2^32, and one across it.
  for (const std::uint64_t first : {two32 - 1, two32 + 1, two32 + 16}) {
    CAPTURE(first);
    const std::uint64_t count = n_bytes - first;
    CHECK(clatomics::histogram(rt, clatomics::view<cl_uchar>(bytes, std::size_t(first), std::size_t(count))) == expected(first, count));
  }
  MESSAGE("one device buffer of 2^32 + 17 bytes: " << seconds_since(t0) << " s");
}

TEST_CASE("byte histogram of 2^32 + 17 bytes of host data, streamed through the device") {
  const std::uint64_t need = n_bytes + (std::uint64_t(512) << 20);
  const std::uint64_t available = host_available();
  if (available && available < need) {
    MESSAGE("skipped: " << available << " bytes of host memory available, this needs " << need);
    return;
  }
  auto& rt = test::runtime();
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::uint8_t> bytes(n_bytes, 0);
  for (const Mark& m : marks()) bytes[std::size_t(m.pos)] = m.value;
  const auto h = clatomics::histogram(rt, bytes);
  CHECK(h[0] == two32 + 1);
  CHECK(h == expected(0, n_bytes));
  MESSAGE("2^32 + 17 bytes of host data: " << seconds_since(t0) << " s");
}

TEST_CASE("reduce over 2^32 + 17 uints in one device buffer, filled on the device") {
  const std::uint64_t n = two32 + 17;
  std::string why;
  if (!device_holds(n * sizeof(cl_uint), why)) {
    MESSAGE("skipped: " << why);
    return;
  }
  auto& rt = test::runtime();
  const auto t0 = std::chrono::steady_clock::now();
  cl::Buffer values(rt.context(), CL_MEM_READ_WRITE, std::size_t(n * sizeof(cl_uint)));
  cl::Kernel fill(program(), "huge_uints");
  fill.setArg(0, values);
  fill.setArg(1, cl_ulong(n));
  rt.queue().enqueueNDRangeKernel(fill, cl::NullRange, cl::NDRange(std::size_t(1) << 20));
  rt.queue().finish();

  // 2^20 ones below 2^32 (every 4096th element), then 2, 3, ..., 18.
  const cl_uint tail = 17 * 2 + 16 * 17 / 2;
  const cl_uint sum = (cl_uint(1) << 20) + tail;
  using clatomics::ReduceOp;
  for (const bool deterministic : {false, true}) {
    CAPTURE(deterministic);
    const clatomics::ReduceOptions options{deterministic};
    CHECK(clatomics::reduce(rt, clatomics::view<cl_uint>(values, 0, std::size_t(n)), ReduceOp::sum, options) == sum);
    CHECK(clatomics::reduce(rt, clatomics::view<cl_uint>(values, 0, std::size_t(n)), ReduceOp::max, options) == 18u);
    CHECK(clatomics::reduce(rt, clatomics::view<cl_uint>(values, 0, std::size_t(n)), ReduceOp::min, options) == 0u);
    CHECK(clatomics::reduce(rt, clatomics::view<cl_uint>(values, std::size_t(two32 - 4096), 4096 + 17), ReduceOp::sum, options) == tail + 1);
    CHECK(clatomics::reduce(rt, clatomics::view<cl_uint>(values, std::size_t(two32), 3), ReduceOp::prod, options) == 2u * 3u * 4u);
  }
  MESSAGE("one device buffer of 2^32 + 17 uints: " << seconds_since(t0) << " s");
}
