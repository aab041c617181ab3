// The algorithms' shared host plumbing: checks, launch shapes, copies, streaming limits.
#include "launch.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <stdexcept>

#include "clatomics/algorithms.hpp"
#include "clatomics/error.hpp"
#include "clatomics/profile.hpp"

namespace clatomics::detail {
namespace {

std::atomic<std::size_t> chunk_bytes_override{0};
std::atomic<std::uint64_t> launch_elements_override{0};
std::atomic<bool> merge_32bit_override{false};

cl::Event* event_if_profiling(cl::Event& event) { return ProfileScope::active() ? &event : nullptr; }

}  // namespace

void set_stream_limits(const StreamLimits& limits) {
  // The kernels count a launch in 32 bits (histogram.cl's uint load loop, __local counts).
  if (limits.launch_elements > (std::uint64_t(1) << 31))
    throw std::invalid_argument("clatomics: StreamLimits::launch_elements must be at most 2^31");
  chunk_bytes_override = limits.chunk_bytes;
  launch_elements_override = limits.launch_elements;
  merge_32bit_override = limits.merge_32bit;
}

StreamLimits stream_limits() {
  return {chunk_bytes_override.load(), launch_elements_override.load(), merge_32bit_override.load()};
}

std::size_t buffer_bytes(const cl::Buffer& buffer) {
  return checked("clGetMemObjectInfo(CL_MEM_SIZE)", [&] { return buffer.getInfo<CL_MEM_SIZE>(); });
}

void check_range(const Runtime& rt, const char* what, const cl::Buffer& buffer, std::size_t offset, std::size_t count,
                 std::size_t element_size) {
  const std::string name(what);
  if (!buffer()) throw std::invalid_argument("clatomics: " + name + ": null buffer");
  // Some drivers run a kernel on a foreign buffer, others fail only after commands were enqueued.
  const cl_context owner = checked("clGetMemObjectInfo(CL_MEM_CONTEXT)", [&] { return buffer.getInfo<CL_MEM_CONTEXT>()(); });
  if (owner != rt.context()())
    throw std::invalid_argument("clatomics: " + name + ": the buffer belongs to another OpenCL context than the runtime's");
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (count > max - offset) throw std::invalid_argument("clatomics: " + name + ": offset + count overflows size_t");
  const std::size_t end = offset + count;
  if (end > max / element_size) throw std::invalid_argument("clatomics: " + name + ": (offset + count) * element size overflows size_t");
  const std::size_t size = buffer_bytes(buffer);
  if (end * element_size > size)
    throw std::invalid_argument("clatomics: " + name + ": offset + count = " + std::to_string(end) + " elements of " +
                                std::to_string(element_size) + " bytes lie beyond the buffer's " + std::to_string(size) + " bytes");
}

std::size_t floor_pow2(std::size_t n) {
  std::size_t p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

Grid make_grid(const Runtime& rt, const cl::Kernel& kernel, std::uint64_t units, std::size_t group, std::size_t max_groups) {
  const std::size_t kernel_max = checked("clGetKernelWorkGroupInfo", [&] {
    return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device());
  });
  // A kernel compiled for one size (reqd_work_group_size) runs at exactly that size.
  const std::size_t compiled = checked("clGetKernelWorkGroupInfo", [&] {
    return kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(rt.device())[0];
  });
  Grid grid;
  grid.group = compiled ? compiled
                        : floor_pow2(std::max<std::size_t>(1, std::min({group, kernel_max, rt.device_info().caps.max_work_group_size})));
  const std::uint64_t wanted = (units + grid.group - 1) / grid.group;
  grid.groups = std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>(wanted, std::max<std::size_t>(1, max_groups))));
  return grid;
}

cl::Kernel make_kernel(const cl::Program& program, const std::string& name) {
  return checked("clCreateKernel", [&] { return cl::Kernel(program, name.c_str()); });
}

void launch(const Runtime& rt, const cl::Kernel& kernel, const Grid& grid) {
  cl::Event event;
  checked("clEnqueueNDRangeKernel", [&] {
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(grid.items()), cl::NDRange(grid.group), nullptr,
                                    event_if_profiling(event));
  });
  if (event()) ProfileScope::record(event);
}

cl::Buffer make_buffer(const Runtime& rt, std::size_t bytes, cl_mem_flags flags, const void* copy_from) {
  if (copy_from) flags |= CL_MEM_COPY_HOST_PTR;
  return checked("clCreateBuffer", [&] {
    return cl::Buffer(rt.context(), flags, std::max<std::size_t>(1, bytes), const_cast<void*>(copy_from));
  });
}

void write(const Runtime& rt, const cl::Buffer& buffer, std::size_t offset_bytes, std::size_t bytes, const void* host) {
  if (!bytes) return;
  cl::Event event;
  checked("clEnqueueWriteBuffer", [&] {
    rt.queue().enqueueWriteBuffer(buffer, CL_TRUE, offset_bytes, bytes, host, nullptr, event_if_profiling(event));
  });
  if (event()) ProfileScope::record(event);
}

void read(const Runtime& rt, const cl::Buffer& buffer, std::size_t offset_bytes, std::size_t bytes, void* host) {
  if (!bytes) return;
  cl::Event event;
  checked("clEnqueueReadBuffer", [&] {
    rt.queue().enqueueReadBuffer(buffer, CL_TRUE, offset_bytes, bytes, host, nullptr, event_if_profiling(event));
  });
  if (event()) ProfileScope::record(event);
}

void fill_zero(const Runtime& rt, const cl::Buffer& buffer, std::size_t bytes) {
  if (!bytes) return;
  cl::Event event;
  const cl_uchar zero = 0;
  checked("clEnqueueFillBuffer", [&] {
    rt.queue().enqueueFillBuffer(buffer, zero, 0, bytes, nullptr, event_if_profiling(event));
  });
  if (event()) ProfileScope::record(event);
}

std::size_t chunk_elements(const Runtime& rt, std::size_t n, std::size_t element_size, std::size_t buffers) {
  const auto& caps = rt.device_info().caps;
  std::size_t limit = std::size_t(caps.max_mem_alloc_size);
  // Streaming: leave room for the other buffers and the results in global memory.
  if (n * element_size > limit || std::size_t(caps.global_mem_size) / 2 < n * element_size * buffers)
    limit = std::min<std::size_t>({limit, std::size_t(caps.global_mem_size) / (2 * buffers), std::size_t(256) << 20});
  if (const std::size_t forced = chunk_bytes_override.load()) limit = forced;
  const std::size_t elements = std::max<std::size_t>(64, limit / element_size / 64 * 64);
  return std::min(std::max<std::size_t>(n, 1), elements);
}

std::uint64_t launch_elements() {
  if (const std::uint64_t forced = launch_elements_override.load()) return forced;
  return std::uint64_t(1) << 31;
}

std::string define(const char* name, long long value) { return std::string(" -D") + name + "=" + std::to_string(value); }

}  // namespace clatomics::detail
