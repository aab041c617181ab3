// clatomics info: every platform and device, what they report about atomics, and which path
// each op takes on the selected device (after the native paths' check runs).
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "info_paths.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

bool atomic_related(const std::string& name) {
  for (const char* word : {"atomic", "fp64", "subgroup", "int64"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

// Words wrapped at width, continuation lines indented.
std::string wrap(const std::vector<std::string>& words, std::size_t indent, std::size_t width = 100) {
  if (words.empty()) return "(none)";
  std::string out, line;
  for (const auto& w : words) {
    if (!line.empty() && indent + line.size() + 1 + w.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

// OpenCL C feature macros (OpenCL 3.0 devices; empty elsewhere).
std::vector<std::string> opencl_c_features(const cl::Device& device) {
  std::vector<std::string> names;
  try {
    for (const auto& f : device.getInfo<CL_DEVICE_OPENCL_C_FEATURES>()) names.push_back(f.name);
  } catch (const cl::Error&) {  // not an OpenCL 3.0 device
  }
  return names;
}

void print_device(std::ostream& out, std::size_t index, const cl::Device& device) {
  const Capabilities caps = detect_capabilities(device);
  std::vector<std::string> extensions, features;
  for (const auto& e : caps.extensions)
    if (atomic_related(e)) extensions.push_back(e);
  for (const auto& f : opencl_c_features(device))
    if (atomic_related(f)) features.push_back(f);
  const std::string pad(22, ' ');
  out << "  [" << index << "] " << caps.device_name << " (" << type_name(caps.type) << ", " << caps.device_vendor << ")\n"
      << "      OpenCL          " << caps.device_version << "\n"
      << "      OpenCL C        " << caps.opencl_c_version << " (highest accepted: " << opencl_c_name(caps.opencl_c_max)
      << ")\n"
      << "      driver          " << caps.driver_version
      << (caps.nv_compute_capability ? ", sm_" + std::to_string(caps.nv_compute_capability) : std::string()) << "\n"
      << "      compute units   " << caps.compute_units << ", max work-group " << caps.max_work_group_size
      << ", local memory " << bytes_name(caps.local_mem_size) << ", global " << bytes_name(caps.global_mem_size)
      << " (largest buffer " << bytes_name(caps.max_mem_alloc_size) << ")\n"
      << "      extensions      " << wrap(extensions, pad.size()) << "\n";
  if (!features.empty()) out << "      OpenCL C feat.  " << wrap(features, pad.size()) << "\n";
}

int run_info(const DeviceChoice& choice) {
  const Options opts = choice.options();
  auto rt = make_runtime("info", opts);  // an unknown device fails here, before any output

  std::cout << "OpenCL platforms and devices ([index] is what --device and CLATOMICS_DEVICE take)\n";
  std::vector<cl::Platform> platforms;
  checked("clGetPlatformIDs", [&] { cl::Platform::get(&platforms); });
  std::size_t index = 0, selected = 0;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const auto& platform = platforms[p];
    std::cout << "\nPlatform " << p << ": " << platform.getInfo<CL_PLATFORM_NAME>() << " ("
              << platform.getInfo<CL_PLATFORM_VENDOR>() << "), " << platform.getInfo<CL_PLATFORM_VERSION>() << "\n";
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error& e) {
      if (e.err() != CL_DEVICE_NOT_FOUND) throw Error(e.err(), "clGetDeviceIDs");
    }
    if (devices.empty()) std::cout << "  (no devices)\n";
    for (const auto& d : devices) {
      if (d() == rt->device()()) selected = index;
      print_device(std::cout, index++, d);
    }
  }
  const auto& info = rt->device_info();
  std::cout << "\nAtomic paths on [" << selected << "] " << info.caps.device_name << " (" << info.caps.platform_name
            << ")" << (opts.force_cas ? ", CAS forced" : "") << ":\n";
  print_paths(std::cout, info);
  std::cout << "\nscatter_reduce on [" << selected << "] (ScatterStrategy::automatic; a sample of the indices decides between\n"
            << "the last two):\n";
  for (const bool deterministic : {false, true}) {
    const ScatterCapacity c = scatter_capacity(*rt, 4, deterministic);
    std::cout << "  float " << (deterministic ? "deterministic" : "fast         ") << "  local_private up to " << c.private_slots
              << " bins * width";
    if (c.copies > 1) std::cout << " (" << c.copies << " copies up to " << c.spread_slots << ")";
    std::cout << ", else local_cache of " << c.cache_slots << " hot slots, else global_atomics\n";
  }
  return exit_ok;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto choice = std::make_shared<DeviceChoice>();
  CLI::App* sub = add_command(
      app, "info",
      "OpenCL platforms and devices, their atomic extensions, and the path each op takes.\n\n"
      "Lists every OpenCL platform and device: OpenCL and OpenCL C versions (with the highest OpenCL C\n"
      "the compiler accepts), the atomic-related extensions and OpenCL C features it reports. Then,\n"
      "for the selected device, the path each atomic op takes, what that path is, the library's note\n"
      "on it, and the check run of each native path.");
  add_device_options(*sub, *choice, "show the paths with every op forced onto the CAS loop");
  return {sub, [choice] { return run_info(*choice); }};
}

}  // namespace clatomics::cli
