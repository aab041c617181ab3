// exceptional_count: counting rare events with an atomic increment (the C++ AMP atomics
// tutorial's example). When few work-items hit the case, one atomic_inc per hit is simpler and as
// fast as a reduction. The value atomic_inc returns is the count before this hit: a slot of its
// own, so the hits can also be listed without any other coordination.
// Caveats (as the C++ AMP documentation warns): the atomics imply no memory fence, and a plain read of
// the counter in the same kernel may miss atomic updates; read it on the host after the kernel.
// A uint counts up to 2^32 - 1 hits; more work-items than that need a 64-bit counter.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

const char* const kernels = R"CLC(
/* A cheap hash of the index stands in for "something rare happened in this work-item". */
uint mix(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
kernel void count_exceptional(uint threshold, global uint *count, global uint *where, uint capacity) {
  const uint i = (uint)get_global_id(0);
  if (mix(i) < threshold) {
    const uint slot = atomic_inc(count);  /* the old count: this hit's own slot */
    if (slot < capacity) where[slot] = i;
  }
}
)CLC";

// The same hash on the host, for the reference.
std::uint32_t mix(std::uint32_t x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}

}  // namespace

int main() {
  return run_example("exceptional_count", [&]() -> Verdict {
    clatomics::Runtime rt;
    const cl::Program program = rt.build(kernels);
    const std::size_t n = std::size_t(1) << 22;
    const cl_uint threshold = 4294967u;  // about 1 in 1000
    const cl_uint capacity = 8192;

    std::vector<cl_uint> expected;  // the hits, in index order
    for (std::size_t i = 0; i < n; ++i)
      if (mix(std::uint32_t(i)) < threshold) expected.push_back(cl_uint(i));

    cl::Buffer count(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_uint));
    cl::Buffer where(rt.context(), CL_MEM_READ_WRITE, capacity * sizeof(cl_uint));
    rt.queue().enqueueFillBuffer(count, cl_uint(0), 0, sizeof(cl_uint));
    cl::Kernel kernel(program, "count_exceptional");
    kernel.setArg(0, threshold);
    kernel.setArg(1, count);
    kernel.setArg(2, where);
    kernel.setArg(3, capacity);
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
    cl_uint counted = 0;
    rt.queue().enqueueReadBuffer(count, CL_TRUE, 0, sizeof(cl_uint), &counted);
    std::vector<cl_uint> listed(std::min<cl_uint>(counted, capacity));
    if (!listed.empty()) rt.queue().enqueueReadBuffer(where, CL_TRUE, 0, listed.size() * sizeof(cl_uint), listed.data());
    std::sort(listed.begin(), listed.end());  // the slots come in whatever order the hits ran

    std::cout << "device:    " << rt.device_info().caps.device_name << "\n"
              << "work-items: " << n << "\n"
              << "counted:   " << counted << " exceptional work-items\n"
              << "expected:  " << expected.size() << "\n"
              << "listed:    " << listed.size() << " (first " << (listed.empty() ? 0 : listed.front()) << ")\n";
    const bool pass = !(counted != expected.size() || listed != expected);
    return Verdict{pass, pass ? "count and the list of hits match the host" : ""};
  });
}
