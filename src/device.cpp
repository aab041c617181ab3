// Device enumeration and selection.
#include "clatomics/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "clatomics/error.hpp"

namespace clatomics {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

std::string platform_of(const cl::Device& device) {
  return cl::Platform(device.getInfo<CL_DEVICE_PLATFORM>()).getInfo<CL_PLATFORM_NAME>();
}

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The platform part matches the platform's name or vendor ("pocl" is only in PoCL's vendor).
bool matches(const cl::Device& device, const std::string& selector) {
  const cl::Platform p(device.getInfo<CL_DEVICE_PLATFORM>());
  const std::string platform = lower(p.getInfo<CL_PLATFORM_NAME>() + " " + p.getInfo<CL_PLATFORM_VENDOR>());
  const std::string name = lower(device.getInfo<CL_DEVICE_NAME>());
  const std::string wanted = lower(selector);
  const auto slash = wanted.find('/');
  if (slash != std::string::npos) {
    const auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(' '));
      s.erase(s.find_last_not_of(' ') + 1);
      return s;
    };
    return platform.find(trim(wanted.substr(0, slash))) != std::string::npos &&
           name.find(trim(wanted.substr(slash + 1))) != std::string::npos;
  }
  return platform.find(wanted) != std::string::npos || name.find(wanted) != std::string::npos;
}

}  // namespace

std::vector<cl::Device> all_devices() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (e.err() == CL_PLATFORM_NOT_FOUND_KHR) return {};
    throw Error(e.err(), "clGetPlatformIDs");
  }
  std::vector<cl::Device> devices;
  for (const auto& platform : platforms) {
    std::vector<cl::Device> some;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &some);
    } catch (const cl::Error& e) {
      if (e.err() != CL_DEVICE_NOT_FOUND) throw Error(e.err(), "clGetDeviceIDs");
    }
    devices.insert(devices.end(), some.begin(), some.end());
  }
  return devices;
}

std::string describe_devices() {
  std::string text;
  const auto devices = all_devices();
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += "  " + std::to_string(i) + ": " + platform_of(devices[i]) + " / " + devices[i].getInfo<CL_DEVICE_NAME>() +
            " (" + type_name(devices[i].getInfo<CL_DEVICE_TYPE>()) + ")\n";
  return text.empty() ? "  (no OpenCL device found: is an ICD such as pocl-opencl-icd installed?)\n" : text;
}

std::string device_selector_from_env() {
  const char* value = std::getenv("CLATOMICS_DEVICE");
  return value ? value : "";
}

cl::Device select_device(const std::string& selector) {
  const auto devices = all_devices();
  if (devices.empty())
    throw Error(CL_DEVICE_NOT_FOUND, "select_device: no OpenCL platform or device (install an ICD, e.g. pocl-opencl-icd)");
  const auto first_of = [&](cl_device_type type) -> const cl::Device* {
    for (const auto& d : devices)
      if (d.getInfo<CL_DEVICE_TYPE>() & type) return &d;
    return nullptr;
  };
  const cl::Device* found = nullptr;
  const std::string wanted = lower(selector);
  if (wanted.empty()) {
    found = first_of(CL_DEVICE_TYPE_GPU);
    if (!found) found = first_of(CL_DEVICE_TYPE_CPU);
    if (!found) found = &devices.front();
  } else if (is_number(wanted)) {
    const auto index = std::strtoull(wanted.c_str(), nullptr, 10);
    if (index < devices.size()) found = &devices[index];
  } else if (wanted == "gpu" || wanted == "cpu" || wanted == "accelerator") {
    found = first_of(wanted == "gpu" ? CL_DEVICE_TYPE_GPU
                     : wanted == "cpu" ? CL_DEVICE_TYPE_CPU
                                       : CL_DEVICE_TYPE_ACCELERATOR);
  } else {
    for (const auto& d : devices)
      if (matches(d, selector)) {
        found = &d;
        break;
      }
  }
  if (!found)
    throw std::invalid_argument("clatomics: no OpenCL device matches CLATOMICS_DEVICE / selector '" + selector +
                                "'; devices present:\n" + describe_devices());
  return *found;
}

}  // namespace clatomics
