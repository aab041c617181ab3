// The library's own thin layer over the OpenCL C API: reference-counted handles, info queries and
// typed kernel arguments. The library never calls OpenCL-CLHPP's inline functions: their meaning
// depends on settings (exceptions, target versions) that belong to the user, and two translation
// units built with different settings must not share them.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clatomics/error.hpp"

namespace clatomics::detail {

// Throws Error(code, call) unless code is CL_SUCCESS.
inline void check(cl_int code, const char* call) {
  if (code != CL_SUCCESS) throw Error(code, call);
}

template <class H>
struct Refcount;
#define CLAT_REFCOUNT(H, RETAIN, RELEASE)           \
  template <>                                       \
  struct Refcount<H> {                              \
    static void retain(H h) { (void)RETAIN(h); }   \
    static void release(H h) { (void)RELEASE(h); } \
  };
CLAT_REFCOUNT(cl_context, clRetainContext, clReleaseContext)
CLAT_REFCOUNT(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
CLAT_REFCOUNT(cl_mem, clRetainMemObject, clReleaseMemObject)
CLAT_REFCOUNT(cl_program, clRetainProgram, clReleaseProgram)
CLAT_REFCOUNT(cl_kernel, clRetainKernel, clReleaseKernel)
CLAT_REFCOUNT(cl_event, clRetainEvent, clReleaseEvent)
CLAT_REFCOUNT(cl_device_id, clRetainDevice, clReleaseDevice)  // counts only for sub-devices
#undef CLAT_REFCOUNT

// One reference to an OpenCL object, released on destruction; copies add references.
template <class H>
class Handle {
 public:
  Handle() = default;
  // Takes over a reference the caller holds (what clCreate* returned).
  static Handle adopt(H h) {
    Handle handle;
    handle.h_ = h;
    return handle;
  }
  // Adds a reference of its own to h.
  static Handle share(H h) {
    if (h) Refcount<H>::retain(h);
    return adopt(h);
  }
  Handle(const Handle& other) : h_(other.h_) {
    if (h_) Refcount<H>::retain(h_);
  }
  Handle(Handle&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  Handle& operator=(Handle other) noexcept {
    std::swap(h_, other.h_);
    return *this;
  }
  ~Handle() {
    if (h_) Refcount<H>::release(h_);
  }

  H get() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }
  // Hands this reference to the caller (who must release it).
  H release() { return std::exchange(h_, nullptr); }

 private:
  H h_ = nullptr;
};

using Context = Handle<cl_context>;
using Queue = Handle<cl_command_queue>;
using Mem = Handle<cl_mem>;
using Program = Handle<cl_program>;
using Kernel = Handle<cl_kernel>;
using Event = Handle<cl_event>;
using Device = Handle<cl_device_id>;

// A fixed-size value from a clGet*Info call: info<T>(clGetDeviceInfo, device, CL_DEVICE_...).
template <class T, class Get, class Object, class Param>
T info(Get get, Object object, Param param, const char* call) {
  T value{};
  check(get(object, param, sizeof value, &value, nullptr), call);
  return value;
}

// An array from a clGet*Info call (sized by a first query).
template <class T, class Get, class Object, class Param>
std::vector<T> info_array(Get get, Object object, Param param, const char* call) {
  std::size_t bytes = 0;
  check(get(object, param, 0, nullptr, &bytes), call);
  std::vector<T> values(bytes / sizeof(T));
  if (!values.empty()) check(get(object, param, values.size() * sizeof(T), values.data(), nullptr), call);
  return values;
}

// A string from a clGet*Info call, without its terminating zero.
template <class Get, class Object, class Param>
std::string info_text(Get get, Object object, Param param, const char* call) {
  std::vector<char> chars = info_array<char>(get, object, param, call);
  std::string text(chars.begin(), chars.end());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

template <class T>
T device_value(cl_device_id device, cl_device_info param) {
  return info<T>(clGetDeviceInfo, device, param, "clGetDeviceInfo");
}
inline std::string device_text(cl_device_id device, cl_device_info param) {
  return info_text(clGetDeviceInfo, device, param, "clGetDeviceInfo");
}
inline std::string platform_text(cl_platform_id platform, cl_platform_info param) {
  return info_text(clGetPlatformInfo, platform, param, "clGetPlatformInfo");
}
// Whether device is PoCL's (by its platform's name).
inline bool on_pocl(cl_device_id device) {
  return platform_text(device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM), CL_PLATFORM_NAME).find("Portable Computing Language") !=
         std::string::npos;
}
template <class T>
T mem_value(cl_mem mem, cl_mem_info param) {
  return info<T>(clGetMemObjectInfo, mem, param, "clGetMemObjectInfo");
}

// __local memory of a kernel argument: its size in bytes.
struct LocalBytes {
  std::size_t bytes;
};

inline void set_arg(cl_kernel kernel, cl_uint index, const Mem& mem) {
  const cl_mem h = mem.get();
  check(clSetKernelArg(kernel, index, sizeof h, &h), "clSetKernelArg");
}
inline void set_arg(cl_kernel kernel, cl_uint index, cl_mem mem) {
  check(clSetKernelArg(kernel, index, sizeof mem, &mem), "clSetKernelArg");
}
inline void set_arg(cl_kernel kernel, cl_uint index, LocalBytes local) {
  check(clSetKernelArg(kernel, index, local.bytes, nullptr), "clSetKernelArg");
}
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
void set_arg(cl_kernel kernel, cl_uint index, T value) {
  check(clSetKernelArg(kernel, index, sizeof value, &value), "clSetKernelArg");
}

}  // namespace clatomics::detail
