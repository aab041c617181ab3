// clatomics/options.hpp — what a Runtime (and build_options) may be told.
#pragma once

#include <cstddef>
#include <string>

namespace clatomics {

struct Options {
  // Which device; see select_device(). Environment: CLATOMICS_DEVICE.
  std::string device;
  // Every op on the portable CAS loop, no native path. Environment: CLATOMICS_FORCE_CAS.
  bool force_cas = false;
  // Behave as a device without fp64: double ops are refused. Environment: CLATOMICS_HIDE_FP64.
  bool hide_fp64 = false;
  // Sub-group aggregation (the _agg ops) on devices with sub-groups and shuffles, where its
  // check passes (Intel's CPU runtime). Implementations known to hang in it are not tried (PoCL
  // before 6; device_info() says so). NVIDIA's warp path does not need it. false: the plain ops.
  // Environment: CLATOMICS_SUBGROUP_AGG.
  bool subgroup_aggregation = true;
  // Float and double adds keep subnormal operands and results exactly (IEEE), on every path:
  // a native add whose check shows it flushes subnormals to zero (NVIDIA's global float atom and
  // red, like CUDA's atomicAdd) is not used, and those adds take the next exact path (the CAS
  // loop there). Environment: CLATOMICS_EXACT_SUBNORMALS.
  bool exact_subnormals = false;
  // Run the native checks (small kernels, once per device and Options) before trusting a native
  // path. Off: no check kernel runs, which a simulator such as Oclgrind needs to start in seconds
  // rather than minutes; the native paths the build options would choose are reported as not
  // checked and turned off (nothing unproven is used), so every op takes its portable path (the
  // CAS loop, or the plain op). Environment: CLATOMICS_NATIVE_CHECKS.
  bool native_checks = true;
  // Where OpenCL C has no atomic load (1.2), make the first read of the CAS loops and the bits
  // min/max an atomic (a compare-exchange that changes nothing) instead of a plain volatile read,
  // so race checkers (Oclgrind) see no race. It costs one more atomic per call; the plain read is
  // safe on the devices (cl/clatomics/cas.cl, CLAT_FIRST_READ, says why). OpenCL C 2.0+ compilers
  // use a relaxed atomic load either way. Environment: CLATOMICS_ATOMIC_FIRST_READ.
  bool atomic_first_read = false;
  // The Runtime's cache of built programs keeps at most this many programs and this many bytes
  // (their source and binaries; on PoCL their source only: it makes binaries only when asked, by
  // compiling every kernel again); the least recently used go first. 0: no limit.
  std::size_t program_cache_entries = 64;
  std::size_t program_cache_bytes = std::size_t(256) << 20;
  // Device scratch that calls leave at zero is kept for the next call (as CUB's caching
  // allocator and PyTorch's keep device memory): at most this many bytes, and at most a quarter
  // of the device's global memory; Runtime::kept_scratch_bytes() and release_scratch() (the
  // deterministic scatter's sums and flags). 0: nothing kept, every call fills its own.
  std::size_t scratch_cache_bytes = std::size_t(1) << 30;
  // A DeviceGroup's host threads that share the copies of host data into pinned staging memory
  // (on GPUs), besides each stream's own: 0 each stream copies alone; -1 (the default)
  // CLATOMICS_STAGING_THREADS where it is set (a count from 0 to 256; read by from_env(), and
  // again when the group first copies where its Options still say -1), else one fewer than the
  // host's hardware threads, at most 15. The group takes its first device's.
  int staging_threads = -1;

  // The defaults, overridden by the environment variables above. Booleans are 1/0, true/false,
  // yes/no, on/off in any case (empty: as if unset); anything else, a count out of its range, and
  // a blank CLATOMICS_DEVICE, throw std::invalid_argument naming the variable.
  static Options from_env();
  // CLATOMICS_STAGING_THREADS alone, read as from_env() reads it (-1 where unset): a group reads
  // it when it first copies, and another variable's typo must not fail that copy.
  static int staging_threads_from_env();
};

}  // namespace clatomics
