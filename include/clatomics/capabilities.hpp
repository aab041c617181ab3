// clatomics/capabilities.hpp — what a device can do, and which path each atomic op takes there.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/options.hpp"

namespace clatomics {

// Read from the device's info queries; nothing is run.
struct Capabilities {
  std::string device_name, device_vendor, device_version, driver_version, opencl_c_version;
  std::string platform_name, platform_vendor, platform_version;
  cl_device_type type = 0;
  int opencl_c_max = 120;  // highest OpenCL C the compiler accepts: 120, 200, 300
  bool fp64 = false;
  bool int64_base_atomics = false, int64_extended_atomics = false;
  bool ext_float_atomics = false;  // cl_ext_float_atomics
  // What cl_ext_float_atomics offers for float and double (CL_DEVICE_{SINGLE,DOUBLE}_FP_ATOMIC_
  // CAPABILITIES_EXT). Some implementations (Intel's CPU runtime) report them here and not as
  // OpenCL C feature macros. The bits the library reads:
  static constexpr cl_bitfield fp_atomic_global_add = 1 << 1, fp_atomic_local_add = 1 << 17;
  cl_bitfield fp32_atomics = 0, fp64_atomics = 0;
  bool subgroups = false;          // cl_khr_subgroups, or OpenCL C 3.0's __opencl_c_subgroups
  bool subgroup_shuffle = false;   // cl_khr_subgroup_shuffle (sub-group aggregation needs both)
  bool nvidia = false;             // by platform/vendor name: inline PTX may be tried
  int nv_compute_capability = 0;   // NVIDIA's major * 10 + minor (90: sm_90), where the driver says; else 0
  // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG: float division can be
  // asked to round correctly (-cl-fp32-correctly-rounded-divide-sqrt); by default it may be 2.5 ulp off.
  bool correctly_rounded_divide = false;
  std::vector<std::string> opencl_c_features;  // CL_DEVICE_OPENCL_C_FEATURES (OpenCL 3.0 devices)
  cl_ulong local_mem_size = 0, global_mem_size = 0, max_mem_alloc_size = 0;
  std::size_t max_work_group_size = 0;
  cl_uint compute_units = 0;
  std::vector<std::string> extensions;

  bool has_extension(const std::string& name) const;
  bool has_feature(const std::string& name) const;
  bool is_gpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
  bool is_cpu() const { return (type & CL_DEVICE_TYPE_CPU) != 0; }
};

Capabilities detect_capabilities(cl_device_id device);
inline Capabilities detect_capabilities(const cl::Device& device) { return detect_capabilities(device()); }

// How an op runs. cas: the compare-exchange loop; ext: cl_ext_float_atomics; ptx: NVIDIA inline
// PTX (for a no-return add: PTX red; for half/bf16 add: the packed f16x2/bf16x2 atom); bits:
// integer min/max on the bit pattern; hardware: a plain OpenCL atomic (xchg, cmpxchg). For the
// aggregated ops: warp (NVIDIA match/shfl/vote PTX), subgroup (cl_khr_subgroups shuffles), plain
// (no aggregation: each call is the plain op on that op's own path; for a no-return op, the
// returning op on its own path). Same codes as config.cl.
enum class Path { cas = 0, ext = 1, ptx = 2, bits = 3, hardware = 4, warp = 5, subgroup = 6, plain = 7 };
const char* path_name(Path path);

// One native path's check on the device: a tiny kernel with an exact expected result.
struct NativeCheck {
  std::string slot;  // "add_float_global", "minmax_double_local", "agg", "add_half_global", ...
  Path path = Path::cas;
  bool passed = false;
  std::string why;  // what failed, when it did
  // The path gives exact results on normal numbers but flushes subnormal operands or results to
  // zero (measured by the check). Such a path is used unless Options::exact_subnormals.
  bool flushes_subnormals = false;
};

struct OpPath {
  std::string op;     // add, sub, mul, div, mad, min, max, xchg, cmpxchg (variants: see below)
  std::string type;   // float, double (variants: also int, uint, long, ulong, half, bf16, float2)
  std::string space;  // global, local
  Path path = Path::cas;
  std::string note;   // why a native path is not taken, when one was tried; or what it flushes
  // "atomic" (DeviceInfo::paths: clat_atomic_<op>_<type>) or, in DeviceInfo::variant_paths,
  // "aggregated" (clat_atomic_<op>_<type>_agg), "16-bit" (clat_atomic_<op>_half / _bf16),
  // "no-return" (clat_atomic_<op>_<type>_noret), "saturating" (clat_atomic_<op>_<type>, op
  // inc_sat/dec_sat), "float2" (clat_atomic_<op>_float2).
  std::string family = "atomic";
  bool flushes_subnormals = false;  // this op's path flushes subnormals to zero (see NativeCheck)
  std::string slot;  // the native check (NativeCheck::slot) that decides this op's path; "" if none
};

struct DeviceInfo {
  Capabilities caps;
  std::vector<NativeCheck> checks;
  std::vector<OpPath> paths;          // the float/double ops of real.cl
  std::vector<OpPath> variant_paths;  // aggregated, 16-bit, no-return, saturating, float2 ops
  std::string build_options;  // what every program for this device is built with
  bool doubles = false;       // double ops available (fp64 + 64-bit atomics, not hidden)
  // The largest __local allocation one work-group was measured to launch with: at most
  // caps.local_mem_size, less where the driver keeps part of it (NVIDIA's OpenCL refused the
  // last bytes on an H200). The algorithms size their __local tables to this.
  cl_ulong local_mem_usable = 0;

  // The path of one op ("add", "float", "global"); throws std::invalid_argument if unknown.
  Path path_of(const std::string& op, const std::string& type, const std::string& space) const;
  // The same among variant_paths, by family ("aggregated", "16-bit", "no-return", ...).
  Path variant_path_of(const std::string& family, const std::string& op, const std::string& type,
                       const std::string& space) const;
  // A readable table: one line per type and space, the path of each op.
  std::string describe() const;
};

// Probes the device (capabilities, then a check run of each native path in a context of its
// own) and returns the result; cached per device and options, so only the first call costs.
const DeviceInfo& device_info(cl_device_id device, const Options& options = {});
inline const DeviceInfo& device_info(const cl::Device& device, const Options& options = {}) {
  return device_info(device(), options);
}

// The options to build the snippets with on this device: -cl-std where native atomics need it,
// -D macros for the native paths that passed their checks (see cl/clatomics/config.cl).
std::string build_options(cl_device_id device, const Options& options = {});
inline std::string build_options(const cl::Device& device, const Options& options = {}) {
  return build_options(device(), options);
}

}  // namespace clatomics
