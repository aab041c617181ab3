// Device enumeration and selection.
#include "clatomics/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "core/cl_handles.hpp"
#include "core/process.hpp"

namespace clatomics {
namespace {

using detail::device_text;
using detail::device_value;
using detail::platform_text;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

cl_platform_id platform_of(cl_device_id device) { return device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM); }

bool is_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The platform part matches the platform's name or vendor ("pocl" is only in PoCL's vendor).
bool matches(cl_device_id device, const std::string& wanted_platform, const std::string& wanted_device) {
  const cl_platform_id p = platform_of(device);
  const std::string platform = lower(platform_text(p, CL_PLATFORM_NAME) + " " + platform_text(p, CL_PLATFORM_VENDOR));
  const std::string name = lower(device_text(device, CL_DEVICE_NAME));
  return platform.find(wanted_platform) != std::string::npos && name.find(wanted_device) != std::string::npos;
}

[[noreturn]] void no_match(const std::string& selector, const std::string& why) {
  throw std::invalid_argument("clatomics: no OpenCL device matches CLATOMICS_DEVICE / selector '" + selector + "': " + why +
                              "; devices present:\n" + describe_devices());
}

}  // namespace

std::vector<cl_device_id> all_device_ids() {
  // One thread at a time: threads that make the process's first OpenCL calls at once find no
  // device on PoCL 3.1 (CL_DEVICE_NOT_FOUND for all but one of 4 threads, every run) or crash
  // in it; the first enumeration, made alone, sets the implementations up for the rest.
  static std::mutex one_at_a_time;
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  detail::note_opencl_set_up();
  cl_uint count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || count == 0) return {};
  detail::check(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  detail::check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  std::vector<cl_device_id> devices;
  for (const cl_platform_id platform : platforms) {
    cl_uint n = 0;
    const cl_int found = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (found == CL_DEVICE_NOT_FOUND || n == 0) continue;
    detail::check(found, "clGetDeviceIDs");
    std::vector<cl_device_id> some(n);
    detail::check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, some.data(), nullptr), "clGetDeviceIDs");
    devices.insert(devices.end(), some.begin(), some.end());
  }
  return devices;
}

std::string describe_devices() {
  std::string text;
  const auto devices = all_device_ids();
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += "  " + std::to_string(i) + ": " + platform_text(platform_of(devices[i]), CL_PLATFORM_NAME) + " / " +
            device_text(devices[i], CL_DEVICE_NAME) + " (" + type_name(device_value<cl_device_type>(devices[i], CL_DEVICE_TYPE)) +
            ")\n";
  return text.empty() ? "  (no OpenCL device found: is an ICD such as pocl-opencl-icd installed?)\n" : text;
}

std::string device_selector_from_env() {
  const char* value = std::getenv("CLATOMICS_DEVICE");
  return value ? value : "";
}

cl_device_id select_device_id(const std::string& selector) {
  const auto devices = all_device_ids();
  if (devices.empty())
    throw Error(CL_DEVICE_NOT_FOUND, "select_device: no OpenCL platform or device (install an ICD, e.g. pocl-opencl-icd)");
  const auto first_of = [&](cl_device_type type) -> cl_device_id {
    for (const cl_device_id d : devices)
      if (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & type) return d;
    return nullptr;
  };
  if (selector.empty()) {
    if (const cl_device_id gpu = first_of(CL_DEVICE_TYPE_GPU)) return gpu;
    if (const cl_device_id cpu = first_of(CL_DEVICE_TYPE_CPU)) return cpu;
    return devices.front();
  }
  const std::string wanted = lower(trim(selector));
  if (wanted.empty()) no_match(selector, "the selector is blank (leave it empty for the default device)");
  cl_device_id found = nullptr;
  if (is_number(wanted)) {
    const auto index = std::strtoull(wanted.c_str(), nullptr, 10);
    if (wanted.size() > 9 || index >= devices.size()) no_match(selector, "no device has that index");
    return devices[index];
  }
  if (wanted == "gpu" || wanted == "cpu" || wanted == "accelerator") {
    found = first_of(wanted == "gpu" ? CL_DEVICE_TYPE_GPU : wanted == "cpu" ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_ACCELERATOR);
    if (!found) no_match(selector, "no device of that type");
    return found;
  }
  std::string wanted_platform, wanted_device = wanted;
  if (const auto slash = wanted.find('/'); slash != std::string::npos) {
    wanted_platform = trim(wanted.substr(0, slash));
    wanted_device = trim(wanted.substr(slash + 1));
    if (wanted_platform.empty() || wanted_device.empty())
      no_match(selector, "'platform/device' needs both parts");
    for (const cl_device_id d : devices)
      if (matches(d, wanted_platform, wanted_device)) return d;
    no_match(selector, "no device matches");
  }
  for (const cl_device_id d : devices)
    if (matches(d, wanted, "") || matches(d, "", wanted)) return d;
  no_match(selector, "no platform, vendor or device name contains it");
}

std::vector<cl_device_id> select_device_ids(const std::string& selector) {
  const std::string wanted = lower(trim(selector));
  if (wanted.empty()) no_match(selector, "the group selector is blank");
  const auto devices = all_device_ids();
  std::vector<cl_device_id> chosen;
  const auto add = [&](cl_device_id d) {
    if (std::find(chosen.begin(), chosen.end(), d) != chosen.end()) no_match(selector, "a device is named twice");
    chosen.push_back(d);
  };
  const std::string suffix = ":all";
  if (wanted == "all" || (wanted.size() > suffix.size() && wanted.compare(wanted.size() - suffix.size(), suffix.size(), suffix) == 0)) {
    const std::string what = wanted == "all" ? "" : trim(wanted.substr(0, wanted.size() - suffix.size()));
    const cl_device_type type = what == "gpu" ? CL_DEVICE_TYPE_GPU : what == "cpu" ? CL_DEVICE_TYPE_CPU
                                : what == "accelerator" ? CL_DEVICE_TYPE_ACCELERATOR : 0;
    for (const cl_device_id d : devices)
      if (what.empty() || (type ? (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & type) != 0 : (matches(d, what, "") || matches(d, "", what))))
        add(d);
    if (chosen.empty()) no_match(selector, "no device matches");
    return chosen;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = wanted.find(',', start);
    add(select_device_id(wanted.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return chosen;
}

}  // namespace clatomics
