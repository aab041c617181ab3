// A user's program built without CMake, from an installed clatomics, by nothing
// but
//   c++ -std=c++17 main.cpp $(pkg-config --cflags --libs clatomics) -o consumer
// and run as ./consumer "$(pkg-config --variable=clincludedir clatomics)" (the
// -I directory of the OpenCL C snippets). Its CLHPP settings are set here, as
// plain-Makefile projects do (with exceptions on: clatomics throws its own
// clatomics::Error either way). Exits 0 when every result is exact, 1 on a
// mismatch, 2 on an error.
#define CL_HPP_TARGET_OPENCL_VERSION 300
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#define CL_HPP_ENABLE_EXCEPTIONS
#include <clatomics/clatomics.hpp>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer <clincludedir>\n";
    return 2;
  }
  const std::string include_dir = argv[1];
  try {
    clatomics::Runtime rt;
    bool ok = true;

    // The snippets from the installed .cl files: -I <clincludedir>, #include,
    // build_options.
    const cl::Program program =
        clatomics::build_program(rt.context(), rt.device(), R"CLC(
      #include "clatomics/atomics.cl"
      kernel void top(global float *best, global float *sum) {
        const float v = (float)((get_global_id(0) * 37u) % 4096u) - 2048.0f;
        clat_atomic_max_float(best, v);
        clat_atomic_add_float(sum, 0.25f);
      }
    )CLC",
                                 rt.build_options() + " -I " + include_dir);
    const std::vector<float> start{-1e30f, 0.0f}; // max, sum
    cl::Kernel kernel(program, "top");
    cl::Buffer b0(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                  sizeof(float), const_cast<float *>(&start[0]));
    cl::Buffer b1(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                  sizeof(float), const_cast<float *>(&start[1]));
    kernel.setArg(0, b0);
    kernel.setArg(1, b1);
    const std::size_t n =
        8192; // 37 is odd, so i * 37 % 4096 takes every value: max 2047
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
    float max = 0, sum = 0;
    rt.queue().enqueueReadBuffer(b0, CL_TRUE, 0, sizeof(float), &max);
    rt.queue().enqueueReadBuffer(b1, CL_TRUE, 0, sizeof(float), &sum);
    std::cout << "-I " << include_dir << ": max " << max
              << " (expected 2047), sum " << sum << " (expected " << n / 4
              << ")\n";
    ok &= max == 2047.0f && sum == float(n / 4);

    // The library's own kernels, from the static library.
    std::vector<float> x(100000);
    for (std::size_t i = 0; i < x.size(); ++i)
      x[i] = float(i % 8) * 0.5f; // sum: 12500 * 14 = 175000
    const float total = clatomics::reduce(rt, x, clatomics::ReduceOp::sum);
    std::cout << "reduce: " << total << " (expected 175000)\n";
    ok &= total == 175000.0f;

    std::cout << (ok ? "consumer_pkgconfig: PASS\n"
                     : "consumer_pkgconfig: FAIL\n");
    return ok ? 0 : 1;
  } catch (const std::exception &e) {
    std::cerr << "consumer_pkgconfig: error: " << e.what() << "\n";
    return 2;
  }
}
