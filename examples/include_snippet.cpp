// include_snippet: for those who only want the .cl files. The kernel says
// #include "clatomics/atomics.cl" and is built with plain OpenCL-CLHPP (no clatomics::Runtime),
// with -I <dir holding clatomics/> plus clatomics::build_options(device), which turns on the
// native paths that passed a check run on this device (without it the portable CAS loops run).
// The directory is the installed <prefix>/include (CMake: CLATOMICS_CL_INCLUDE_DIR from
// find_package(clatomics)) or the source tree's cl/; this program takes it as its argument.
// The kernel: count, min and max of some integer-valued floats (exact), per group in local
// memory, then one global atomic each per group.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

#ifndef EXAMPLE_CL_INCLUDE_DIR
#define EXAMPLE_CL_INCLUDE_DIR "cl"
#endif

namespace {

const char* const kernel_source = R"CLC(
#include "clatomics/atomics.cl"

kernel void stats(global const float *x, global float *out /* count, min, max */) {
  local float count, lo, hi;
  if (get_local_id(0) == 0) count = 0.0f, lo = INFINITY, hi = -INFINITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  const float v = x[get_global_id(0)];
  clat_atomic_add_float_local(&count, 1.0f);
  clat_atomic_min_float_local(&lo, v);
  clat_atomic_max_float_local(&hi, v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    clat_atomic_add_float(&out[0], count);
    clat_atomic_min_float(&out[1], lo);
    clat_atomic_max_float(&out[2], hi);
  }
}
)CLC";

}  // namespace

int main(int argc, char** argv) {
  const std::string include_dir = argc > 1 ? argv[1] : EXAMPLE_CL_INCLUDE_DIR;
  return run_example("include_snippet", [&]() -> Verdict {
    // Plain CLHPP from here on; clatomics only picks the device and says which options to use.
    const cl::Device device = clatomics::select_device(clatomics::device_selector_from_env());
    const cl::Context context(device);
    const cl::CommandQueue queue(context, device);
    cl::Program program(context, kernel_source);
    const std::string options = clatomics::build_options(device) + " -I " + include_dir;
    try {
      program.build({device}, options.c_str());
    } catch (const cl::BuildError& e) {
      for (const auto& log : e.getBuildLog()) std::cerr << log.second << "\n";
      throw;
    }

    const std::size_t n = 65536, local = std::min<std::size_t>(256, device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = float(int((i * 7919) % 10007) - 5003);
    std::vector<float> out{0.0f, INFINITY, -INFINITY};
    cl::Buffer dx(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
    cl::Buffer dout(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out.size() * sizeof(float), out.data());
    cl::Kernel kernel(program, "stats");
    kernel.setArg(0, dx);
    kernel.setArg(1, dout);
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(local));
    queue.enqueueReadBuffer(dout, CL_TRUE, 0, out.size() * sizeof(float), out.data());

    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    std::cout << "device:  " << device.getInfo<CL_DEVICE_NAME>() << "\n"
              << "options: " << options << "\n"
              << "count " << out[0] << ", min " << out[1] << ", max " << out[2] << " (expected " << n << ", " << *lo
              << ", " << *hi << ")\n";
    const bool pass = !(out[0] != float(n) || out[1] != *lo || out[2] != *hi);
    return Verdict{pass, pass ? "built from #include \"clatomics/atomics.cl\" with -I" : ""};
  });
}
