// The launch of a kernel that reads count elements of T in vectors, one grid-stride share per
// work-item (reduce's and dot's): 64-byte vectors over one contiguous chunk per work-item on CPUs
// (a few work-items per core), 16-byte vectors in a grid stride on GPUs (enough work-groups to
// fill every compute unit). The kernel file takes CLAT_T, CLAT_VEC and CLAT_CONTIGUOUS.
#pragma once

#include <cstddef>
#include <string>

#include "clatomics/plan.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"

namespace clatomics::detail {

template <class T>
struct VectorLaunch {
  int vec = 1;            // elements per load
  std::size_t local = 1;  // the work-group size wanted
  std::string options;    // the call's build options
  LibraryKernel kernel;
  Grid grid;

  VectorLaunch(Runtime& rt, const char* file, const Signature& signature, std::size_t count) {
    const auto& caps = rt.device_info().caps;
    const bool cpu = !caps.is_gpu();
    vec = int((cpu ? 64 : 16) / sizeof(T));
    local = cpu ? 1 : 256;
    options = type_define<T>("CLAT_T") + define("CLAT_VEC", vec) + define("CLAT_CONTIGUOUS", cpu ? 1 : 0);
    kernel = make_kernel(build_library_file(rt, file, options), signature);
    grid = make_grid(rt, kernel, count / std::size_t(vec) + 1, local, resident_groups(caps));
  }

  // The launch as a plan's kernel, options, shape and tuning.
  void describe(const Runtime& rt, Plan& plan) const {
    plan.kernel = kernel.signature->kernel;
    plan.build_options = rt.build_options() + options;
    plan.global_size = grid.items(), plan.local_size = grid.group;
    plan.tuning = {{"elements per load", std::to_string(vec)},
                   {"work-group wanted", std::to_string(local)},
                   {"most work-groups", std::to_string(resident_groups(rt.device_info().caps))}};
  }
};

}  // namespace clatomics::detail
