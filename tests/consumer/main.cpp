// The package tests' consumer: proves that clatomics::clatomics links and runs, and that the
// .cl files under CLATOMICS_CL_INCLUDE_DIR compile through -I and #include "clatomics/atomics.cl".
#include <clatomics/clatomics.hpp>

#include <cmath>
#include <iostream>
#include <vector>

namespace {

// 1. Through Runtime::build (the embedded snippets prepended).
bool run_prepended(const clatomics::Runtime& rt) {
  const cl::Program program = rt.build(R"CLC(
    kernel void add_ones(global float *sum) { clat_atomic_add_float(sum, 1.0f); }
  )CLC");
  cl::Buffer sum(rt.context(), CL_MEM_READ_WRITE, sizeof(float));
  rt.queue().enqueueFillBuffer(sum, 0.0f, 0, sizeof(float));
  cl::Kernel kernel(program, "add_ones");
  kernel.setArg(0, sum);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4096));
  float result = 0;
  rt.queue().enqueueReadBuffer(sum, CL_TRUE, 0, sizeof(float), &result);
  std::cout << "Runtime::build: sum " << result << " (expected 4096)\n";
  return result == 4096.0f;
}

// 2. Plain clBuildProgram with -I: only the files on disk can satisfy the #include.
bool run_included(const clatomics::Runtime& rt) {
  const std::string source = R"CLC(
    #include "clatomics/atomics.cl"
    kernel void halve_and_lock(global float *x, global int *mutex, global int *groups) {
      clat_atomic_div_float(x, 2.0f);
      if (get_local_id(0) == 0) {
        clat_mutex_lock(mutex);
        *groups = *groups + 1;
        clat_mutex_unlock(mutex);
      }
    }
  )CLC";
  const cl::Program program = clatomics::build_program(rt.context(), rt.device(), source,
                                                       rt.build_options() + " -I " + CONSUMER_CL_INCLUDE_DIR);
  const std::size_t n = 64, local = 16;
  const std::vector<float> x0{std::ldexp(1.0f, int(n))};  // 2^64, halved by each of 64 work-items: 1
  const std::vector<cl_int> zero{0};
  cl::Buffer x(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float), const_cast<float*>(x0.data()));
  cl::Buffer mutex(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), const_cast<cl_int*>(zero.data()));
  cl::Buffer groups(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(cl_int), const_cast<cl_int*>(zero.data()));
  cl::Kernel kernel(program, "halve_and_lock");
  kernel.setArg(0, x);
  kernel.setArg(1, mutex);
  kernel.setArg(2, groups);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(local));
  float value = 0;
  cl_int counted = 0;
  rt.queue().enqueueReadBuffer(x, CL_TRUE, 0, sizeof(float), &value);
  rt.queue().enqueueReadBuffer(groups, CL_TRUE, 0, sizeof(cl_int), &counted);
  std::cout << "-I " << CONSUMER_CL_INCLUDE_DIR << ": 2^64 halved 64 times = " << value << ", groups " << counted << " (expected 1, "
            << n / local << ")\n";
  return value == 1.0f && counted == cl_int(n / local);
}

}  // namespace

int main() {
  try {
    clatomics::Runtime rt;
    const bool ok = run_prepended(rt) & run_included(rt);
    std::cout << (ok ? "consumer: PASS\n" : "consumer: FAIL\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "consumer: error: " << e.what() << "\n";
    return 2;
  }
}
