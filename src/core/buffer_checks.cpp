// Buffer checks: flags, context, size and where a range sits in memory.
#include "core/buffer_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cl_handles.hpp"
#include "core/runtime_state.hpp"

namespace clatomics::detail {

// Intel's CPU runtime (2026.2) misreports it: it answered host_ptr + the region's size, then
// values left from an earlier sub-buffer (measured). Asked once per platform with a buffer over
// host memory of our own and a sub-buffer of it, made and released here (nothing is enqueued);
// any failure counts as not reported.
bool reports_sub_buffer_host_ptr(cl_context context) {
  const auto devices = info_array<cl_device_id>(clGetContextInfo, context, CL_CONTEXT_DEVICES, "clGetContextInfo");
  if (devices.empty()) return false;
  const auto platform = info<cl_platform_id>(clGetDeviceInfo, devices[0], CL_DEVICE_PLATFORM, "clGetDeviceInfo");
  static std::mutex mutex;
  static std::map<cl_platform_id, bool> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = known.find(platform); found != known.end()) return found->second;
  std::size_t origin = 128;  // a sub-buffer's origin is a multiple of every device's base alignment
  for (const cl_device_id device : devices)
    origin = std::max<std::size_t>(origin, device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  const std::size_t size = origin + 64;  // unlike the origin, so a host_ptr + size answer shows
  std::vector<unsigned char> memory(2 * origin + size);
  cl_int status = CL_SUCCESS;
  const Mem parent = Mem::adopt(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, memory.size(), memory.data(), &status));
  bool reported = false;
  if (status == CL_SUCCESS) {
    const cl_buffer_region region{origin, size};
    const Mem sub = Mem::adopt(clCreateSubBuffer(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
    void* host = nullptr;
    reported = status == CL_SUCCESS &&
               clGetMemObjectInfo(sub.get(), CL_MEM_HOST_PTR, sizeof host, &host, nullptr) == CL_SUCCESS &&
               host == memory.data() + origin;
  }
  return known[platform] = reported;
}

namespace {

std::string hex_address(std::uintptr_t address) {
  char text[2 + 2 * sizeof address + 1];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

[[noreturn]] void refuse(const char* what, const std::string& why) {
  throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why);
}

// Where a range's bytes lie: in the memory of a root buffer (sub-buffers are views of their
// parent), and, for memory the user handed over with CL_MEM_USE_HOST_PTR, at a host address.
struct Place {
  cl_mem root = nullptr;
  std::size_t begin = 0, end = 0;    // bytes within root
  std::uintptr_t host = 0;           // the root's host memory, 0 when the runtime owns it
};

// The host memory of a sub-buffer of CL_MEM_USE_HOST_PTR memory, at its origin: its own answer
// where the implementation reports it; else its parent's host_ptr + origin, where the parent
// still answers (an implementation that misreports validates handles: Intel's answers
// CL_INVALID_MEM_OBJECT for a parent whose handle the user released); else 0, unknown.
std::uintptr_t sub_buffer_host(cl_mem buffer, cl_mem parent, std::size_t origin) {
  void* host = nullptr;
  if (reports_sub_buffer_host_ptr(mem_value<cl_context>(buffer, CL_MEM_CONTEXT))) {
    host = mem_value<void*>(buffer, CL_MEM_HOST_PTR);
    return reinterpret_cast<std::uintptr_t>(host);
  }
  if (clGetMemObjectInfo(parent, CL_MEM_HOST_PTR, sizeof host, &host, nullptr) != CL_SUCCESS || !host) return 0;
  return reinterpret_cast<std::uintptr_t>(host) + origin;
}

// Everything is asked of the buffer itself, not of its parent (but for the host memory of a
// sub-buffer where the implementation misreports it, above): the user may have released the
// parent's handle (its sub-buffers keep the memory alive), and then some implementations (Intel's
// CPU runtime) answer CL_INVALID_MEM_OBJECT for it. The parent's handle serves only as a name.
Place place_of(const BufferRange& r) {
  Place place;
  const cl_mem parent = mem_value<cl_mem>(r.buffer, CL_MEM_ASSOCIATED_MEMOBJECT);
  place.root = parent ? parent : r.buffer;
  const std::size_t origin = parent ? mem_value<std::size_t>(r.buffer, CL_MEM_OFFSET) : 0;
  place.begin = origin + r.offset * r.element_size;
  place.end = place.begin + r.count * r.element_size;
  // A sub-buffer of CL_MEM_USE_HOST_PTR memory inherits the flag.
  if (mem_value<cl_mem_flags>(r.buffer, CL_MEM_FLAGS) & CL_MEM_USE_HOST_PTR) {
    const auto host = parent ? sub_buffer_host(r.buffer, parent, origin) : reinterpret_cast<std::uintptr_t>(mem_value<void*>(r.buffer, CL_MEM_HOST_PTR));
    place.host = host ? host - origin : 0;
  }
  return place;
}

}  // namespace

void require_range_in_buffer(const char* what, cl_mem buffer, std::size_t offset, std::size_t count, std::size_t element_size) {
  if (!buffer) return;
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (count > max - offset) refuse(what, "offset + count overflows size_t");
  const std::size_t end = offset + count;
  if (end > max / element_size) refuse(what, "(offset + count) * element size overflows size_t");
  const std::size_t size = mem_value<std::size_t>(buffer, CL_MEM_SIZE);
  if (end * element_size > size)
    refuse(what, "offset + count = " + std::to_string(end) + " elements of " + std::to_string(element_size) +
                     " bytes lie beyond the buffer's " + std::to_string(size) + " bytes");
}

void check_range(const Runtime& rt, const BufferRange& r) {
  if (!r.buffer) refuse(r.what, "null buffer");
  const auto type = mem_value<cl_mem_object_type>(r.buffer, CL_MEM_TYPE);
  if (type != CL_MEM_OBJECT_BUFFER) refuse(r.what, "not a buffer (an image or pipe wrapped as one?)");
  // Some drivers run a kernel on a foreign buffer, others fail only after commands were enqueued.
  if (mem_value<cl_context>(r.buffer, CL_MEM_CONTEXT) != state_of(rt).context.get())
    refuse(r.what, "the buffer belongs to another OpenCL context than the runtime's");
  const auto flags = mem_value<cl_mem_flags>(r.buffer, CL_MEM_FLAGS);
  if (r.access == Access::read && (flags & CL_MEM_WRITE_ONLY))
    refuse(r.what, "the buffer is CL_MEM_WRITE_ONLY, and this is an input the device reads");
  if (r.access == Access::write && (flags & CL_MEM_READ_ONLY))
    refuse(r.what, "the buffer is CL_MEM_READ_ONLY, and this is an output the device writes");
  require_range_in_buffer(r.what, r.buffer, r.offset, r.count, r.element_size);
  // The device reads host memory it was given as it is (PoCL does): elements must sit at
  // addresses that are multiples of their size, or loads fault or tear.
  const Place place = place_of(r);
  if (place.host && (place.host + place.begin) % r.element_size != 0)
    refuse(r.what, "the range starts at host address " + hex_address(place.host + place.begin) +
                       ", which is not a multiple of its " + std::to_string(r.element_size) + "-byte elements");
}

void check_disjoint(const BufferRange& out, const BufferRange& in) {
  if (!out.count || !in.count) return;
  const Place a = place_of(out), b = place_of(in);
  // Host memory, where both are known, decides alone: a released parent's handle may name a new
  // buffer by then, so equal roots over different host memory are different memory.
  const bool same_memory = !(a.host && b.host) && a.root == b.root && a.begin < b.end && b.begin < a.end;
  const bool same_host = a.host && b.host && a.host + a.begin < b.host + b.end && b.host + b.begin < a.host + a.end;
  if (same_memory || same_host)
    refuse(out.what, std::string("the output shares memory with ") + in.what +
                         " (the same buffer, a sub-buffer of it, or the same host memory); use separate memory");
}

}  // namespace clatomics::detail
