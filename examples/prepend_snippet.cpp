// prepend_snippet: your own kernel using the float atomics OpenCL C lacks — here mul and div,
// on local and global memory — with the clatomics snippet library in front of it.
//   Runtime::build(source) prepends clatomics::source() for you, builds with the options that
//   switch on the native paths checked on this device, and caches the program.
//   By hand it is: clatomics::source() + your source, built with clatomics::build_options(device).
// Both are shown and run. The data are powers of two whose exponents can never leave float's
// range in any order, so every product and quotient is exact whatever order the atomics run in.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

// Each group multiplies its factors into a local product and divides them out of a local
// quotient; its leader then multiplies the group's product into one global product and divides
// one global quotient by it.
const char* const user_kernel = R"CLC(
kernel void products(global const float *factor, global float *group_product,
                     global float *group_quotient, global float *product, global float *quotient) {
  local float p, q;
  if (get_local_id(0) == 0) p = 1.0f, q = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  const float f = factor[get_global_id(0)];
  clat_atomic_mul_float_local(&p, f);
  clat_atomic_div_float_local(&q, f);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    group_product[get_group_id(0)] = p;
    group_quotient[get_group_id(0)] = q;
    clat_atomic_mul_float(product, p);
    clat_atomic_div_float(quotient, p);
  }
}
)CLC";

struct Result {
  std::vector<float> group_product, group_quotient;
  float product = 0, quotient = 0;
};

Result run(const clatomics::Runtime& rt, const cl::Program& program, const std::vector<float>& factor, std::size_t local) {
  const std::size_t groups = factor.size() / local;
  const float one = 1.0f;
  cl::Buffer f(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, factor.size() * sizeof(float), const_cast<float*>(factor.data()));
  cl::Buffer gp(rt.context(), CL_MEM_WRITE_ONLY, groups * sizeof(float)), gq(rt.context(), CL_MEM_WRITE_ONLY, groups * sizeof(float));
  cl::Buffer p(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float), const_cast<float*>(&one));
  cl::Buffer q(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float), const_cast<float*>(&one));
  cl::Kernel kernel(program, "products");
  kernel.setArg(0, f);
  kernel.setArg(1, gp);
  kernel.setArg(2, gq);
  kernel.setArg(3, p);
  kernel.setArg(4, q);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(factor.size()), cl::NDRange(local));
  Result r;
  r.group_product.resize(groups);
  r.group_quotient.resize(groups);
  rt.queue().enqueueReadBuffer(gp, CL_TRUE, 0, groups * sizeof(float), r.group_product.data());
  rt.queue().enqueueReadBuffer(gq, CL_TRUE, 0, groups * sizeof(float), r.group_quotient.data());
  rt.queue().enqueueReadBuffer(p, CL_TRUE, 0, sizeof(float), &r.product);
  rt.queue().enqueueReadBuffer(q, CL_TRUE, 0, sizeof(float), &r.quotient);
  return r;
}

}  // namespace

int main() {
  return run_example("prepend_snippet", [&]() -> Verdict {
    clatomics::Runtime rt;
    // 1. The usual way: Runtime::build prepends clatomics::source().
    const cl::Program built = rt.build(user_kernel);
    // 2. The same by hand, e.g. for a program cache of your own.
    const cl::Program by_hand = clatomics::build_program(rt.context(), rt.device(), clatomics::source() + user_kernel,
                                                         clatomics::build_options(rt.device()));

    const std::size_t local = 64, groups = 8;
    std::vector<float> factor(local * groups);
    std::vector<int> exponent(factor.size());
    std::mt19937 random(3);
    for (std::size_t i = 0; i < factor.size(); ++i) {
      exponent[i] = int(random() % 3) - 1;  // factors 1/2, 1, 2
      factor[i] = std::ldexp(1.0f, exponent[i]);
    }
    // The reference: a group's product is 2^(sum of its exponents), exactly, in any order, as
    // long as no partial product can leave float's range (2^-126 .. 2^127): checked here.
    std::vector<int> group_exponent(groups, 0);
    int total = 0, reach = 0, group_reach = 0;
    for (std::size_t i = 0; i < factor.size(); ++i) group_exponent[i / local] += exponent[i];
    for (std::size_t g = 0; g < groups; ++g) {
      int r = 0;
      for (std::size_t i = g * local; i < (g + 1) * local; ++i) r += std::abs(exponent[i]);
      group_reach = std::max(group_reach, r);
      total += group_exponent[g];
      reach += std::abs(group_exponent[g]);
    }
    if (reach > 126 || group_reach > 126) {
      throw std::runtime_error("the data could overflow in some order; pick another seed");
    }

    bool ok = true;
    for (const auto* program : {&built, &by_hand}) {
      const Result r = run(rt, *program, factor, local);
      for (std::size_t g = 0; g < groups; ++g)
        ok = ok && r.group_product[g] == std::ldexp(1.0f, group_exponent[g]) &&
             r.group_quotient[g] == std::ldexp(1.0f, -group_exponent[g]);
      ok = ok && r.product == std::ldexp(1.0f, total) && r.quotient == std::ldexp(1.0f, -total);
      std::cout << (program == &built ? "Runtime::build:  " : "source() by hand: ") << "product " << r.product
                << " (expected 2^" << total << " = " << std::ldexp(1.0f, total) << "), quotient " << r.quotient << "\n";
    }
    std::cout << "device: " << rt.device_info().caps.device_name << ", " << groups << " groups of " << local
              << " factors; mul/div path: " << clatomics::path_name(rt.device_info().path_of("mul", "float", "local")) << "\n";
    const bool pass = !(!ok);
    return Verdict{pass, pass ? "every group's product and quotient, and the totals, exact" : ""};
  });
}
