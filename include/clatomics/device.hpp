// clatomics/device.hpp — choosing an OpenCL device.
#pragma once

#include <string>
#include <vector>

#include <CL/opencl.hpp>

namespace clatomics {

// Every device of every platform, in platform order: the index CLATOMICS_DEVICE refers to.
std::vector<cl_device_id> all_device_ids();
inline std::vector<cl::Device> all_devices() {
  std::vector<cl::Device> devices;
  for (const cl_device_id id : all_device_ids()) devices.emplace_back(id, true);
  return devices;
}

// A line per device: "index: platform / device (type)".
std::string describe_devices();

// Picks a device. selector: empty -> the first GPU, else the first CPU, else the first device;
// a number -> that index of all_devices(); "gpu", "cpu", "accelerator" -> the first of that type;
// otherwise a case-insensitive substring of the platform's name or vendor, or of the device's
// name ("pocl", "NVIDIA", "H200"; "pocl/skylake": a '/' splits platform and device parts, both
// non-empty). Throws std::invalid_argument that lists every device when nothing matches or the
// selector is blank, Error when OpenCL has no platform at all.
cl_device_id select_device_id(const std::string& selector = {});
inline cl::Device select_device(const std::string& selector = {}) { return cl::Device(select_device_id(selector), true); }

// The devices a group selector names, in all_devices() order: "all"; "gpu:all", "cpu:all",
// "accelerator:all" (every device of that type); "<text>:all" (every device whose platform,
// vendor or name contains text, as select_device() matches); a comma-separated list of
// single-device selectors ("0,1", "nvidia,pocl"); or one single-device selector. Throws
// std::invalid_argument listing the devices when nothing matches, a device is named twice, or the
// selector is blank.
std::vector<cl_device_id> select_device_ids(const std::string& selector);

// The selector from the environment variable CLATOMICS_DEVICE (empty if unset).
std::string device_selector_from_env();

}  // namespace clatomics
