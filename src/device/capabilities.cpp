// Reading a device's capabilities, and describing the paths its ops take.
#include "clatomics/capabilities.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/cl_handles.hpp"

namespace clatomics {
namespace {

using detail::device_text;
using detail::device_value;
using detail::platform_text;

bool contains(const std::string& text, const char* word) { return text.find(word) != std::string::npos; }

// Highest OpenCL C version: CL_DEVICE_OPENCL_C_ALL_VERSIONS on OpenCL 3.0 devices (NVIDIA and
// PoCL report "OpenCL C 1.2" in CL_DEVICE_OPENCL_C_VERSION yet accept 3.0), else that string.
int max_opencl_c(cl_device_id device, const std::string& c_version) {
  try {
    int best = 0;
    for (const cl_name_version& v : detail::info_array<cl_name_version>(clGetDeviceInfo, device, CL_DEVICE_OPENCL_C_ALL_VERSIONS,
                                                                        "clGetDeviceInfo"))
      best = std::max<int>(best, int(CL_VERSION_MAJOR(v.version) * 100 + CL_VERSION_MINOR(v.version) * 10));
    if (best > 0) return best;
  } catch (const Error&) {  // not an OpenCL 3.0 device: fall through
  }
  int major = 1, minor = 2;
  std::sscanf(c_version.c_str(), "OpenCL C %d.%d", &major, &minor);
  return major * 100 + minor * 10;
}

// cl_ext_float_atomics' queries (cl_ext.h of 2020 and later; Debian 12's headers predate them).
constexpr cl_device_info single_fp_atomics = 0x4231, double_fp_atomics = 0x4232;

cl_bitfield fp_atomics(cl_device_id device, cl_device_info query) {
  cl_bitfield bits = 0;
  return clGetDeviceInfo(device, query, sizeof bits, &bits, nullptr) == CL_SUCCESS ? bits : 0;
}

std::vector<std::string> opencl_c_features(cl_device_id device) {
  std::vector<std::string> names;
  try {
    for (const cl_name_version& v :
         detail::info_array<cl_name_version>(clGetDeviceInfo, device, CL_DEVICE_OPENCL_C_FEATURES, "clGetDeviceInfo"))
      names.emplace_back(v.name);
  } catch (const Error&) {  // not an OpenCL 3.0 device
  }
  return names;
}

}  // namespace

bool Capabilities::has_feature(const std::string& name) const {
  return std::find(opencl_c_features.begin(), opencl_c_features.end(), name) != opencl_c_features.end();
}

bool Capabilities::has_extension(const std::string& name) const {
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

Capabilities detect_capabilities(cl_device_id device) {
  Capabilities caps;
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  caps.device_name = device_text(device, CL_DEVICE_NAME);
  caps.device_vendor = device_text(device, CL_DEVICE_VENDOR);
  caps.device_version = device_text(device, CL_DEVICE_VERSION);
  caps.driver_version = device_text(device, CL_DRIVER_VERSION);
  caps.opencl_c_version = device_text(device, CL_DEVICE_OPENCL_C_VERSION);
  caps.platform_name = platform_text(platform, CL_PLATFORM_NAME);
  caps.platform_vendor = platform_text(platform, CL_PLATFORM_VENDOR);
  caps.platform_version = platform_text(platform, CL_PLATFORM_VERSION);
  caps.type = device_value<cl_device_type>(device, CL_DEVICE_TYPE);
  caps.opencl_c_max = max_opencl_c(device, caps.opencl_c_version);
  std::istringstream words(device_text(device, CL_DEVICE_EXTENSIONS));
  for (std::string word; words >> word;) caps.extensions.push_back(word);
  caps.fp64 = caps.has_extension("cl_khr_fp64");
  caps.int64_base_atomics = caps.has_extension("cl_khr_int64_base_atomics");
  caps.int64_extended_atomics = caps.has_extension("cl_khr_int64_extended_atomics");
  caps.ext_float_atomics = caps.has_extension("cl_ext_float_atomics");
  caps.opencl_c_features = opencl_c_features(device);
  if (caps.ext_float_atomics) {
    caps.fp32_atomics = fp_atomics(device, single_fp_atomics);
    caps.fp64_atomics = fp_atomics(device, double_fp_atomics);
  }
  caps.subgroups = caps.has_extension("cl_khr_subgroups") || caps.has_feature("__opencl_c_subgroups");
  caps.correctly_rounded_divide =
      (device_value<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  caps.subgroup_shuffle = caps.has_extension("cl_khr_subgroup_shuffle");
  caps.nvidia = contains(caps.platform_name, "NVIDIA") || contains(caps.platform_vendor, "NVIDIA") ||
                contains(caps.device_vendor, "NVIDIA");
  if (caps.has_extension("cl_nv_device_attribute_query")) {
    constexpr cl_device_info major = 0x4000, minor = 0x4001;  // CL_DEVICE_COMPUTE_CAPABILITY_{MAJOR,MINOR}_NV
    caps.nv_compute_capability = int(device_value<cl_uint>(device, major) * 10 + device_value<cl_uint>(device, minor));
  }
  caps.local_mem_size = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  caps.global_mem_size = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  caps.max_mem_alloc_size = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  caps.max_work_group_size = device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  caps.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  return caps;
}

const char* path_name(Path path) {
  switch (path) {
    case Path::cas: return "cas";
    case Path::ext: return "ext";
    case Path::ptx: return "ptx";
    case Path::bits: return "bits";
    case Path::hardware: return "hardware";
    case Path::warp: return "warp";
    case Path::subgroup: return "subgroup";
    case Path::plain: return "plain";
  }
  return "?";
}

Path DeviceInfo::path_of(const std::string& op, const std::string& type, const std::string& space) const {
  for (const auto& p : paths)
    if (p.op == op && p.type == type && p.space == space) return p.path;
  throw std::invalid_argument("clatomics: no op '" + op + "' for " + type + " on " + space + " memory here");
}

Path DeviceInfo::variant_path_of(const std::string& family, const std::string& op, const std::string& type,
                                 const std::string& space) const {
  for (const auto& p : variant_paths)
    if (p.family == family && p.op == op && p.type == type && p.space == space) return p.path;
  throw std::invalid_argument("clatomics: no " + family + " op '" + op + "' for " + type + " on " + space + " memory here");
}

std::string DeviceInfo::describe() const {
  std::ostringstream out;
  out << caps.device_name << " (" << caps.platform_name << ")\n";
  out << "build options: " << (build_options.empty() ? "(none)" : build_options) << "\n";
  std::string row;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto& p = paths[i];
    if (i == 0 || p.type != paths[i - 1].type || p.space != paths[i - 1].space)
      out << (i ? "\n" : "") << "  " << p.type << " " << p.space << ":";
    out << " " << p.op << "=" << path_name(p.path);
  }
  for (std::size_t i = 0; i < variant_paths.size(); ++i) {  // one line per family, type and space
    const auto& p = variant_paths[i];
    const auto& q = variant_paths[i ? i - 1 : 0];
    if (i == 0 || p.family != q.family || p.type != q.type || p.space != q.space)
      out << "\n  " << p.family << " " << p.type << " " << p.space << ":";
    out << " " << p.op << "=" << path_name(p.path);
  }
  out << "\n";
  for (const auto& c : checks)
    out << "  check " << c.slot << " (" << path_name(c.path) << "): " << (c.passed ? "passed" : "FAILED: " + c.why)
        << "\n";
  return out.str();
}

}  // namespace clatomics
