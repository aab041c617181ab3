// kahan_atomic: your own atomic operation in one line. CLAT_DEFINE_ATOMIC_OP turns an expression
// of the old value and the operand into a read-modify-write on the library's compare-exchange
// loop; here a Kahan-Neumaier compensated sum in a float2 (the sum and its lost low part, one
// 64-bit word), as pyFAI accumulates its histograms. One million values of very different sizes
// go into 16 bins, with the plain float add (clat_fetch_add, the one-name API) and with the
// compensated pair; both are compared with a double reference on the host.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#include "clatomics/clatomics.hpp"

namespace {

const char* const kernels = R"CLC(
float2 kahan(float2 s, float x) {
  const float t = s.x + x;  /* the part of x that t lost goes to the low part */
  return (float2)(t, s.y + (fabs(s.x) >= fabs(x) ? (s.x - t) + x : (x - t) + s.x));
}
CLAT_DEFINE_ATOMIC_OP(atomic_kahan_add, float2, kahan(old, v.x))

kernel void plain(global const float *x, global const uint *bin, global float *sums) {
  const size_t i = get_global_id(0);
  clat_fetch_add(&sums[bin[i]], x[i]);
}

kernel void compensated(global const float *x, global const uint *bin, global float2 *pairs) {
  const size_t i = get_global_id(0);
  atomic_kahan_add(&pairs[bin[i]], (float2)(x[i], 0.0f));
}
)CLC";

}  // namespace

int main() {
  try {
    clatomics::Runtime rt;
    if (!rt.device_info().caps.int64_base_atomics) {
      std::cout << "kahan_atomic: the device has no 64-bit atomics (cl_khr_int64_base_atomics): PASS (nothing to run)\n";
      return 0;
    }
    const cl::Program program = rt.build(kernels);
    const std::size_t n = 1 << 20, bins = 16;
    std::vector<float> x(n);
    std::vector<cl_uint> bin(n);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = i % 4096 == 0 ? 1.0e6f : unit(random);  // a few large values, many small ones
      bin[i] = cl_uint(random() % bins);
    }
    std::vector<double> exact(bins, 0.0), magnitude(bins, 0.0);
    std::vector<std::size_t> count(bins, 0);
    for (std::size_t i = 0; i < n; ++i) exact[bin[i]] += x[i], magnitude[bin[i]] += std::fabs(x[i]), ++count[bin[i]];

    cl::Buffer xb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), x.data());
    cl::Buffer bb(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), bin.data());
    std::vector<float> sums(bins, 0.0f);
    std::vector<cl_float2> pairs(bins, cl_float2{{0.0f, 0.0f}});
    cl::Buffer sb(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bins * sizeof(float), sums.data());
    cl::Buffer pb(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bins * sizeof(cl_float2), pairs.data());
    cl::Kernel plain(program, "plain"), compensated(program, "compensated");
    plain.setArg(0, xb), plain.setArg(1, bb), plain.setArg(2, sb);
    compensated.setArg(0, xb), compensated.setArg(1, bb), compensated.setArg(2, pb);
    rt.queue().enqueueNDRangeKernel(plain, cl::NullRange, cl::NDRange(n));
    rt.queue().enqueueNDRangeKernel(compensated, cl::NullRange, cl::NDRange(n));
    rt.queue().enqueueReadBuffer(sb, CL_TRUE, 0, bins * sizeof(float), sums.data());
    rt.queue().enqueueReadBuffer(pb, CL_TRUE, 0, bins * sizeof(cl_float2), pairs.data());

    // Neumaier's bound, whatever order the work-items ran in: each step is one serial step of the
    // compensated sum, so |error| <= 2u * sum|x| + n u^2 sum|x| (u = 2^-24), plus the rounding
    // of the low part's own float sum, bounded the same way.
    const double u = std::ldexp(1.0, -24);
    double worst_plain = 0, worst_pair = 0, widest_bound = 0;
    bool ok = true;
    for (std::size_t b = 0; b < bins; ++b) {
      const double pair = double(pairs[b].s[0]) + double(pairs[b].s[1]);
      const double bound = (3 * u + double(count[b]) * u * u) * magnitude[b];
      worst_plain = std::max(worst_plain, std::fabs(double(sums[b]) - exact[b]));
      worst_pair = std::max(worst_pair, std::fabs(pair - exact[b]));
      widest_bound = std::max(widest_bound, bound);
      ok = ok && std::fabs(pair - exact[b]) <= bound;
    }
    std::printf("device:                  %s\n", rt.device_info().caps.device_name.c_str());
    std::printf("values, bins:            %zu, %zu\n", n, bins);
    std::printf("plain float add, worst bin error:      %.3f\n", worst_plain);
    std::printf("Kahan-Neumaier pairs, worst bin error: %.3f (bound %.3f)\n", worst_pair, widest_bound);
    std::cout << (ok ? "kahan_atomic: PASS\n" : "kahan_atomic: FAIL\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "kahan_atomic: " << e.what() << "\n";
    return 1;
  }
}
