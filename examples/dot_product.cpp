// dot_product: the atomic dot product of CUDA teaching material, in float, two ways.
//
//  1. atomic: each work-group sums its share of a[i]*b[i] in local memory (a tree reduction),
//     then ONE work-item adds the group's sum to the result with clat_atomic_add_float: one
//     atomic per group instead of one per element.
//  2. lock: the same, but the group's sum is added with a plain `*c += sum` inside
//     clat_mutex_lock/unlock. The lock is taken by that one work-item per group, never by all.
//     Why: the work-items of a warp (sub-group, SIMD group) run in lockstep and OpenCL promises
//     them no independent progress. If every work-item called lock(), one lane would win and
//     the warp would keep running the spin loop for the lanes that lost; the winner never gets
//     to unlock(), so the kernel hangs forever (blockCounter2 of the same material does exactly that).
//
// Both are checked against a double-precision sum. Float addition in an unknown order is not
// exact; the stated bound is the classic one for a sum whose every term goes through at most d
// roundings: |result - exact| <= d*u/(1 - d*u) * sum(|a[i]*b[i]|), with u = 2^-24 and
// d = 1 (product) + m (a work-item's loop over its m elements) + log2(L) (tree) + G (atomics).
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

const char* const kernels = R"CLC(
/* Each work-item sums its elements (stride: all work-items), then the group adds up those sums
 * in cache[]; returns the group's sum to every work-item. Local size: a power of two. */
float group_dot(global const float *a, global const float *b, uint n, local float *cache) {
  float temp = 0.0f;
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) temp += a[i] * b[i];
  const size_t lid = get_local_id(0);
  cache[lid] = temp;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) cache[lid] += cache[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return cache[0];
}

kernel void dot_atomic(global const float *a, global const float *b, uint n, global float *c,
                       local float *cache) {
  const float sum = group_dot(a, b, n, cache);
  if (get_local_id(0) == 0) clat_atomic_add_float(c, sum);
}

kernel void dot_lock(global const float *a, global const float *b, uint n, global float *c,
                     local float *cache, global int *mutex) {
  const float sum = group_dot(a, b, n, cache);
  if (get_local_id(0) == 0) { /* one work-item per group, never all of them: see above */
    clat_mutex_lock(mutex);
    *c += sum;                /* a plain read-modify-write: safe under the lock */
    clat_mutex_unlock(mutex);
  }
}
)CLC";

}  // namespace

int main() {
  return run_example("dot_product", [&]() -> Verdict {
    clatomics::Runtime rt;
    const cl::Program program = rt.build(kernels);

    // Local size L: a power of two the device and both kernels allow; G groups.
    std::size_t local = 256;
    for (const char* name : {"dot_atomic", "dot_lock"}) {
      const auto most = cl::Kernel(program, name).getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device());
      while (local > most) local /= 2;
    }
    const std::size_t groups = 64, n = std::size_t(1) << 20;
    const std::size_t per_item = (n + groups * local - 1) / (groups * local);

    std::vector<float> a(n), b(n);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (std::size_t i = 0; i < n; ++i) a[i] = uniform(random), b[i] = uniform(random);
    double exact = 0, magnitude = 0;  // double: exact enough to judge a float result
    for (std::size_t i = 0; i < n; ++i) {
      exact += double(a[i]) * double(b[i]);
      magnitude += std::fabs(double(a[i]) * double(b[i]));
    }
    const double d = double(1 + per_item + std::log2(double(local)) + groups), u = std::ldexp(1.0, -24);
    const double bound = d * u / (1 - d * u) * magnitude;

    cl::Buffer da(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data());
    cl::Buffer db(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), b.data());
    const auto run = [&](const char* name) {
      cl::Buffer c(rt.context(), CL_MEM_READ_WRITE, sizeof(float));
      cl::Buffer mutex(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
      rt.queue().enqueueFillBuffer(c, 0.0f, 0, sizeof(float));
      rt.queue().enqueueFillBuffer(mutex, cl_int(0), 0, sizeof(cl_int));  // the lock starts free
      cl::Kernel kernel(program, name);
      kernel.setArg(0, da);
      kernel.setArg(1, db);
      kernel.setArg(2, cl_uint(n));
      kernel.setArg(3, c);
      kernel.setArg(4, cl::Local(local * sizeof(float)));
      if (std::string(name) == "dot_lock") kernel.setArg(5, mutex);
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * local), cl::NDRange(local));
      float result = 0;
      rt.queue().enqueueReadBuffer(c, CL_TRUE, 0, sizeof(float), &result);
      return result;
    };
    const float with_atomic = run("dot_atomic"), with_lock = run("dot_lock");

    std::cout.precision(9);
    std::cout << "device:       " << rt.device_info().caps.device_name << "\n"
              << "n = " << n << ", " << groups << " groups of " << local << " work-items\n"
              << "double:       " << exact << "\n"
              << "atomic add:   " << with_atomic << " (error " << std::fabs(with_atomic - exact) << ")\n"
              << "leader lock:  " << with_lock << " (error " << std::fabs(with_lock - exact) << ")\n"
              << "bound:        " << bound << " (d = " << d << " roundings at most, times u * sum|a*b|)\n";
    const bool pass = !(!(std::fabs(with_atomic - exact) <= bound) || !(std::fabs(with_lock - exact) <= bound));
    return Verdict{pass, pass ? "both within the bound" : "outside the bound"};
  });
}
