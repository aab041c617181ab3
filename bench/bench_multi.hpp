// The "multi" suite of `clatomics bench`: the algorithms on a device group (device_group.hpp)
// against one device of the group, in the same run. Wall-clock time of each call (transfers,
// kernels, merging), medians after a warm-up.
//   resident: reduce sum (fast and deterministic) and the 256-bin histogram over a
//     DistributedBuffer of --size bytes, the group vs its first device alone, and the first
//     device's deterministic sum vs its fast one (as a group of one, and as one reduce() call on
//     its buffer);
//   host data: the same calls over a std::vector of CLATOMICS_BENCH_HOST_BYTES (default 8 GiB;
//     --quick: 16 MiB), the group vs its first device, and the group vs the sum of its devices'
//     host-to-device copy rates measured from the same (pageable) memory; and those copy rates
//     from pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped) against the pageable ones.
//   scatter_reduce sum of float values with uint indices into 65,536 bins over host data of as
//     many bytes, the group vs its first device.
// The group: CLATOMICS_BENCH_GROUP (a group selector), else "gpu:all", else "cpu:all".
#pragma once

#include "suites.hpp"

namespace clatomics::bench {

Suite multi_suite();

}  // namespace clatomics::bench
