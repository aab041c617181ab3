// A user's program with its own OpenCL-CLHPP settings, as SimpleOpenCLSamples
// builds its samples: CL_HPP_TARGET_OPENCL_VERSION=120,
// CL_HPP_MINIMUM_OPENCL_VERSION=120 and no CL_HPP_ENABLE_EXCEPTIONS, so its own
// cl:: calls return error codes. It uses clatomics the way that project's
// float-atomics sample would (a kernel on clat_atomic_add_float, its own
// buffers and kernels), then the ready-made algorithms. Every result is checked
// exactly; any mismatch exits 1, an unexpected exception 2.
#include <clatomics/clatomics.hpp>

// The library must leave this program's CLHPP settings as they were (its CMake
// target sets its own PRIVATE; a PUBLIC definition would reach this file and
// change what our calls do).
#ifdef CL_HPP_ENABLE_EXCEPTIONS
#error "clatomics switched on CL_HPP_ENABLE_EXCEPTIONS for its user"
#endif
#if CL_HPP_TARGET_OPENCL_VERSION != 120 || CL_HPP_MINIMUM_OPENCL_VERSION != 120
#error                                                                         \
    "clatomics changed the user's CL_HPP_TARGET_OPENCL_VERSION / CL_HPP_MINIMUM_OPENCL_VERSION"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
  std::cout << (ok ? "  ok    " : "  FAIL  ") << what << "\n";
  if (!ok)
    ++failures;
}

// With exceptions off, CLHPP hands back error codes: each is checked here, as a
// user would.
void check_cl(cl_int err, const char *call) {
  if (err != CL_SUCCESS)
    throw std::runtime_error(std::string(call) +
                             " failed: " + clatomics::error_name(err));
}

template <class T>
cl::Buffer device_copy(const clatomics::Runtime &rt,
                       const std::vector<T> &host) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buffer(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    host.size() * sizeof(T), const_cast<T *>(host.data()),
                    &err);
  check_cl(err, "cl::Buffer");
  return buffer;
}

template <class T>
std::vector<T> read_back(const clatomics::Runtime &rt, const cl::Buffer &buffer,
                         std::size_t n) {
  std::vector<T> host(n);
  if (n)
    check_cl(rt.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, n * sizeof(T),
                                          host.data()),
             "enqueueReadBuffer");
  return host;
}

// The float-atomics sample: gwx work-items each add 1.0f to one float, several
// iterations, with the snippet library prepended by Runtime::build. Also the
// user's own error codes: a kernel name that does not exist comes back as
// CL_INVALID_KERNEL_NAME, not as an exception.
void float_atomics_sample(const clatomics::Runtime &rt) {
  const cl::Program program = rt.build(R"CLC(
    kernel void FloatAtomicTest(global float *dst) { clat_atomic_add_float(dst, 1.0f); }
  )CLC");
  cl_int err = CL_SUCCESS;
  cl::Kernel kernel(program, "FloatAtomicTest", &err);
  check_cl(err, "cl::Kernel");
  cl::Buffer dst(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_float), nullptr,
                 &err);
  check_cl(err, "cl::Buffer");
  check_cl(kernel.setArg(0, dst), "setArg");
  const cl::CommandQueue queue = rt.queue();
  const std::size_t gwx = 1024;
  bool all = true;
  for (int iteration = 0; iteration < 16; ++iteration) {
    check_cl(queue.enqueueFillBuffer(dst, cl_float(0), 0, sizeof(cl_float)),
             "enqueueFillBuffer");
    check_cl(
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(gwx)),
        "enqueueNDRangeKernel");
    cl_float result = -1;
    check_cl(
        queue.enqueueReadBuffer(dst, CL_TRUE, 0, sizeof(cl_float), &result),
        "enqueueReadBuffer");
    if (result != cl_float(gwx)) {
      std::cout << "  iteration " << iteration << ": " << result
                << ", expected " << gwx << "\n";
      all = false;
    }
  }
  check(all, "float atomic add: 16 iterations of 1024 x 1.0f = 1024");

  cl::Kernel missing(program, "NoSuchKernel", &err);
  check(err == CL_INVALID_KERNEL_NAME,
        "own CLHPP call returns an error code: " + clatomics::error_name(err));
}

// The library throws its own exceptions whatever CLHPP's setting: invalid
// arguments before anything runs, clatomics::Error with the log for a failed
// build.
void library_errors(clatomics::Runtime &rt) {
  const cl::Buffer small = device_copy(rt, std::vector<float>(4, 1.0f));
  bool refused = false;
  try {
    clatomics::reduce(rt, clatomics::view<float>(small, 0, 5), clatomics::ReduceOp::sum);
  } catch (const std::invalid_argument &) {
    refused = true;
  }
  check(refused,
        "reduce past the end of a buffer throws std::invalid_argument");

  bool build_error = false;
  try {
    rt.build(
        "kernel void broken(global float *p) { this_is_not_opencl_c(p); }");
  } catch (const clatomics::Error &e) {
    build_error =
        e.code() == CL_BUILD_PROGRAM_FAILURE && !e.build_log().empty();
  }
  check(build_error, "a failed build throws clatomics::Error with "
                     "CL_BUILD_PROGRAM_FAILURE and the log");
}

void reductions(clatomics::Runtime &rt) {
  // 100003 values i % 64 * 0.25 - 4: every partial sum is a multiple of 0.25
  // below 2^24 * 0.25, so the float sum is exact in any order.
  const std::size_t n = 100003;
  std::vector<float> x(n);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = float(i % 64) * 0.25f - 4.0f;
    sum += x[i];
  }
  const cl::Buffer buffer = device_copy(rt, x);
  using clatomics::ReduceOp;
  check(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, n), ReduceOp::sum) == float(sum),
        "reduce sum = " + std::to_string(sum));
  check(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, n), ReduceOp::min) == -4.0f,
        "reduce min = -4");
  check(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, n), ReduceOp::max) == 11.75f,
        "reduce max = 11.75");
  // From an offset, deterministic: the same exact sum of the tail.
  double tail = 0;
  for (std::size_t i = 7; i < n; ++i)
    tail += x[i];
  check(clatomics::reduce(rt, clatomics::view<float>(buffer, 7, n - 7), ReduceOp::sum,
                                 clatomics::ReduceOptions{true}) == float(tail),
        "deterministic reduce sum from offset 7 = " + std::to_string(tail));

  std::vector<cl_int> k(n);
  std::int64_t isum = 0;
  for (std::size_t i = 0; i < n; ++i)
    isum += k[i] = cl_int(i % 1000) - 500;
  check(clatomics::reduce(rt, clatomics::view<cl_int>(device_copy(rt, k), 0, n),
                                  ReduceOp::sum) == cl_int(isum),
        "reduce int sum = " + std::to_string(isum));
}

void histogram(clatomics::Runtime &rt) {
  // 10 bins over [0, 10): value j + 0.5 lands in bin j, whatever rounding of
  // the edges; plus values below, above, NaN, and hi itself (NumPy puts it in
  // the last bin).
  std::vector<float> values;
  std::vector<std::uint64_t> expected(10, 0);
  for (std::size_t i = 0; i < 50000; ++i) {
    const std::size_t bin = (i * 7) % 10;
    values.push_back(float(bin) + 0.5f);
    ++expected[bin];
  }
  values.push_back(10.0f);
  ++expected[9];
  for (int i = 0; i < 3; ++i)
    values.push_back(-1.0f);
  for (int i = 0; i < 5; ++i)
    values.push_back(11.0f);
  values.push_back(std::numeric_limits<float>::infinity());
  for (int i = 0; i < 2; ++i)
    values.push_back(std::numeric_limits<float>::quiet_NaN());
  const cl::Buffer buffer = device_copy(rt, values);
  const clatomics::EvenHistogram h =
      clatomics::histogram_even(rt, clatomics::view<float>(buffer, 0, values.size()), {10, 0.0f, 10.0f});
  check(h.counts == expected, "histogram_even counts of 10 bins");
  check(h.below == 3 && h.above == 6 && h.nan == 2,
        "histogram_even below 3, above 6, nan 2 (got " +
            std::to_string(h.below) + ", " + std::to_string(h.above) + ", " +
            std::to_string(h.nan) + ")");
}

void compaction(clatomics::Runtime &rt) {
  using clatomics::where::x;
  const std::size_t n = 70001;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i)
    in[i] = float(i % 100) / 100.0f;
  std::vector<float> expected;
  for (const float v : in)
    if (v > 0.5f && v < 0.9f)
      expected.push_back(v);
  const cl::Buffer input = device_copy(rt, in);
  const cl::Buffer output = device_copy(rt, std::vector<float>(n, -1.0f));

  const std::size_t kept =
      clatomics::compact(rt, clatomics::view<float>(input, 0, n), clatomics::view<float>(output, 0, n), x > 0.5f && x < 0.9f);
  std::vector<float> got = read_back<float>(rt, output, kept);
  std::sort(got.begin(), got.end());
  std::vector<float> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  check(kept == expected.size() && got == sorted,
        "compact(x > 0.5f && x < 0.9f) keeps " + std::to_string(kept) + " of " +
            std::to_string(n) + " (expected " +
            std::to_string(expected.size()) + ")");

  const std::size_t stable =
      clatomics::compact(rt, clatomics::view<float>(input, 0, n), clatomics::view<float>(output, 0, n), x > 0.5f && x < 0.9f,
                                clatomics::CompactOptions{true});
  check(stable == expected.size() &&
            read_back<float>(rt, output, stable) == expected,
        "stable compact keeps the input order");
}

} // namespace

int main() {
  try {
    clatomics::Runtime rt;
    std::cout << "device: " << rt.device_info().caps.device_name
              << " (CLHPP target " << CL_HPP_TARGET_OPENCL_VERSION
              << ", exceptions off)\n";
    float_atomics_sample(rt);
    library_errors(rt);
    reductions(rt);
    histogram(rt);
    compaction(rt);
  } catch (const std::exception &e) {
    std::cerr << "consumer_clhpp12: error: " << e.what() << "\n";
    return 2;
  }
  std::cout << (failures ? "consumer_clhpp12: FAIL\n"
                         : "consumer_clhpp12: PASS\n");
  return failures ? 1 : 0;
}
