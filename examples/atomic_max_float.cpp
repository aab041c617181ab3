// atomic_max_float: the largest value of a float array, with clat_atomic_max_float — the
// classic CUDA atomicMaxFloat (a compare-and-swap loop over the float's bits), done so it
// cannot spin forever on NaN or confuse -0.0 with +0.0. NaN counts as missing data: max(x, NaN)
// is x, so the NaNs planted in the data are ignored, as the host reference ignores them.
// Two kernels: every work-item on the one result (the classic way), and the faster two-level way
// (a max per work-group in local memory, then one global atomic per group).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

const char* const kernels = R"CLC(
kernel void max_direct(global const float *x, uint n, global float *result) {
  const size_t i = get_global_id(0);
  if (i < n) clat_atomic_max_float(result, x[i]);
}

kernel void max_grouped(global const float *x, uint n, global float *result, local float *group_max) {
  const size_t i = get_global_id(0);
  if (get_local_id(0) == 0) *group_max = -INFINITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) clat_atomic_max_float_local(group_max, x[i]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) clat_atomic_max_float(result, *group_max);
}
)CLC";

float run(const clatomics::Runtime& rt, const cl::Program& program, const char* name, const cl::Buffer& x, cl_uint n,
          std::size_t group) {
  const float lowest = -std::numeric_limits<float>::infinity();
  cl::Buffer result(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float), const_cast<float*>(&lowest));
  cl::Kernel kernel(program, name);
  kernel.setArg(0, x);
  kernel.setArg(1, n);
  kernel.setArg(2, result);
  if (std::strcmp(name, "max_grouped") == 0) kernel.setArg(3, cl::Local(sizeof(float)));
  const std::size_t global = (n + group - 1) / group * group;
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(group));
  float value = 0;
  rt.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof(float), &value);
  return value;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

int main() {
  return run_example("atomic_max_float", [&]() -> Verdict {
    clatomics::Runtime rt;
    const cl::Program program = rt.build(kernels);
    const std::size_t group = std::min<std::size_t>(256, rt.device_info().caps.max_work_group_size);

    const cl_uint n = 1000000;
    std::vector<float> x(n);
    std::mt19937 random(2024);
    std::normal_distribution<float> normal(0.0f, 100.0f);
    for (auto& v : x) v = normal(random);
    for (std::size_t i : {17u, 4242u, 999999u}) x[i] = std::numeric_limits<float>::quiet_NaN();  // missing data

    // The reference: std::max_element with NaN ordered below every number.
    const auto less = [](float a, float b) { return std::isnan(a) ? !std::isnan(b) : (!std::isnan(b) && a < b); };
    const float expected = *std::max_element(x.begin(), x.end(), less);

    cl::Buffer data(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
    const float direct = run(rt, program, "max_direct", data, n, group);
    const float grouped = run(rt, program, "max_grouped", data, n, group);

    std::cout.precision(9);
    std::cout << "device:              " << rt.device_info().caps.device_name << "\n"
              << "values:              " << n << " (3 of them NaN)\n"
              << "std::max_element:    " << expected << "\n"
              << "every work-item:     " << direct << " (path: "
              << clatomics::path_name(rt.device_info().path_of("max", "float", "global")) << ")\n"
              << "one atomic per group: " << grouped << "\n";
    const bool pass = !(!same_bits(direct, expected) || !same_bits(grouped, expected));
    return Verdict{pass, pass ? "both equal std::max_element bit for bit" : ""};
  });
}
