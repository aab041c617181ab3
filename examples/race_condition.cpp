// race_condition: a million work-items add 1 to one counter, first with a plain `*x += 1`, then
// with an atomic. The plain increment is three steps (read x, add 1, write x back); when two
// work-items both read 7, both write 8 and one update is lost, so its count can be anything up
// to the right one. atomic_inc does the three steps as one indivisible operation: every update
// counts, at the price of running them one after another on that address.
// (The classic CUDA teaching pair race_condition.cu / race_condition_fixed.cu, in OpenCL.)
#include <iostream>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

// OpenCL C has integer atomics built in; clatomics adds the ones it lacks (float, double, ...).
const char* const kernels = R"CLC(
kernel void plain_increment(global int *x) { *x += 1; }        /* racy: updates get lost */
kernel void atomic_increment(global int *x) { atomic_inc(x); } /* every update counts */
)CLC";

// Runs one kernel over n work-items on a counter that starts at 0; returns the count and the time.
int count(const clatomics::Runtime& rt, const cl::Program& program, const char* name, std::size_t n, double& ms) {
  cl::Buffer x(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
  rt.queue().enqueueFillBuffer(x, cl_int(0), 0, sizeof(cl_int));
  cl::Kernel kernel(program, name);
  kernel.setArg(0, x);
  cl::Event done;
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NullRange, nullptr, &done);
  cl_int result = 0;
  rt.queue().enqueueReadBuffer(x, CL_TRUE, 0, sizeof(cl_int), &result);
  ms = double(done.getProfilingInfo<CL_PROFILING_COMMAND_END>() - done.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
  return result;
}

}  // namespace

int main() {
  return run_example("race_condition", [&]() -> Verdict {
    clatomics::Runtime rt;  // CLATOMICS_DEVICE picks the device; default: first GPU, else CPU
    const cl::Program program = rt.build(kernels);
    const std::size_t n = std::size_t(1) << 20;
    double plain_ms = 0, atomic_ms = 0;
    const int plain = count(rt, program, "plain_increment", n, plain_ms);
    const int atomic = count(rt, program, "atomic_increment", n, atomic_ms);

    std::cout << "device:          " << rt.device_info().caps.device_name << "\n"
              << "work-items:      " << n << " (the count we want)\n"
              << "plain *x += 1:   " << plain << " (" << plain_ms << " ms; may be anything up to " << n << ")\n"
              << "atomic_inc(x):   " << atomic << " of " << n << " (" << atomic_ms << " ms)\n";
    if (std::size_t(plain) == n)
      std::cout << "(no update was lost this time: the race is still there; few cores, or a compiler that merged\n"
                   " the increments, can hide it. On a GPU the plain count usually comes out far too low.)\n";
    const bool pass = !(std::size_t(atomic) != n);
    return Verdict{pass, pass ? "" : "the atomic count is wrong"};
  });
}
