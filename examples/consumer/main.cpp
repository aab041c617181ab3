// A program of your own, linked against the installed clatomics::clatomics: builds a kernel with
// the snippet library prepended and runs it. 4096 work-items each add 0.5f to one float.
#include <clatomics/clatomics.hpp>

#include <iostream>

int main() {
  try {
    clatomics::Runtime rt;
    const cl::Program program = rt.build(R"CLC(
      kernel void add_halves(global float *sum) { clat_atomic_add_float(sum, 0.5f); }
    )CLC");
    cl::Buffer sum(rt.context(), CL_MEM_READ_WRITE, sizeof(float));
    rt.queue().enqueueFillBuffer(sum, 0.0f, 0, sizeof(float));
    cl::Kernel kernel(program, "add_halves");
    kernel.setArg(0, sum);
    const std::size_t n = 4096;
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
    float result = 0;
    rt.queue().enqueueReadBuffer(sum, CL_TRUE, 0, sizeof(float), &result);
    std::cout << rt.device_info().caps.device_name << ": sum " << result << " (expected " << n / 2 << ")\n";
    if (result != float(n / 2)) return 1;
    std::cout << "consumer: PASS\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "consumer: error: " << e.what() << "\n";
    return 2;
  }
}
