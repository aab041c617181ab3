// block_counter: counting work-groups three ways, after CUDA teaching material's blockCounter.cu.
// One work-item per group (the leader) adds 1 to a counter:
//   plain   `*n = *n + 1`            leaders race: some updates get lost
//   atomic  atomic_inc(n)            right, and the cheap way
//   locked  `*n = *n + 1` inside clat_mutex_lock/unlock: right, slower (the lock serializes
//           whole critical sections); worth it only when the update is more than one word.
// Its blockCounter2 takes the lock in EVERY work-item and hangs forever: the lanes of a
// warp run in lockstep, the lanes that lost the lock keep the warp spinning, and the lane that
// won never reaches its unlock. It is not run here. The rule: one work-item per group locks.
#include <iostream>
#include <string>

#include "clatomics/clatomics.hpp"

#include "example_main.hpp"

namespace {

const char* const kernels = R"CLC(
kernel void count_plain(global int *n) {
  if (get_local_id(0) == 0) *n = *n + 1;
}
kernel void count_atomic(global int *n) {
  if (get_local_id(0) == 0) atomic_inc(n);
}
kernel void count_locked(global int *n, global int *mutex) {
  if (get_local_id(0) == 0) { /* the leader only: see the comment above */
    clat_mutex_lock(mutex);
    *n = *n + 1;
    clat_mutex_unlock(mutex);
  }
}
)CLC";

}  // namespace

int main() {
  return run_example("block_counter", [&]() -> Verdict {
    clatomics::Runtime rt;
    const cl::Program program = rt.build(kernels);
    const std::size_t groups = 512, local = std::min<std::size_t>(256, rt.device_info().caps.max_work_group_size);

    const auto count = [&](const char* name, double& ms) {
      cl::Buffer n(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_int)), mutex(rt.context(), CL_MEM_READ_WRITE, sizeof(cl_int));
      rt.queue().enqueueFillBuffer(n, cl_int(0), 0, sizeof(cl_int));
      rt.queue().enqueueFillBuffer(mutex, cl_int(0), 0, sizeof(cl_int));
      cl::Kernel kernel(program, name);
      kernel.setArg(0, n);
      if (std::string(name) == "count_locked") kernel.setArg(1, mutex);
      cl::Event done;
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * local), cl::NDRange(local), nullptr, &done);
      cl_int result = 0;
      rt.queue().enqueueReadBuffer(n, CL_TRUE, 0, sizeof(cl_int), &result);
      ms = double(done.getProfilingInfo<CL_PROFILING_COMMAND_END>() - done.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
      return std::size_t(result);
    };
    double plain_ms = 0, atomic_ms = 0, locked_ms = 0;
    const std::size_t plain = count("count_plain", plain_ms);
    const std::size_t atomic = count("count_atomic", atomic_ms);
    const std::size_t locked = count("count_locked", locked_ms);

    std::cout << "device: " << rt.device_info().caps.device_name << "\n"
              << groups << " groups of " << local << " work-items\n"
              << "plain:  counted " << plain << " groups in " << plain_ms << " ms (may be fewer than " << groups << ")\n"
              << "atomic: counted " << atomic << " groups in " << atomic_ms << " ms\n"
              << "locked: counted " << locked << " groups in " << locked_ms << " ms\n";
    const bool pass = !(atomic != groups || locked != groups);
    return Verdict{pass, pass ? "atomic and locked both counted " + std::to_string(groups) + " of " + std::to_string(groups) : ""};
  });
}
