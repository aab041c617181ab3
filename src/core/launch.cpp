// The algorithms' shared host plumbing: launch shapes, ordered commands, buffers, streaming.
#include "core/launch.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/process.hpp"
#include "core/profile_record.hpp"
#include "core/runtime_state.hpp"
#include "core/testing.hpp"

namespace clatomics::detail {

std::size_t floor_pow2(std::size_t n) {
  std::size_t p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

std::size_t resident_groups(const Capabilities& caps) {
  return std::size_t(caps.is_gpu() ? 8 : 4) * std::max<cl_uint>(1, caps.compute_units);
}

std::size_t kernel_group_limit(const Runtime& rt, const Kernel& kernel) {
  std::size_t limit = 0;
  check(clGetKernelWorkGroupInfo(kernel.get(), state_of(rt).device.get(), CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit, nullptr),
        "clGetKernelWorkGroupInfo");
  return limit;
}

Grid make_grid(const Runtime& rt, const Kernel& kernel, std::uint64_t units, std::size_t group, std::size_t max_groups) {
  const cl_device_id device = state_of(rt).device.get();
  const std::size_t kernel_max = kernel_group_limit(rt, kernel);
  // A kernel compiled for one size (reqd_work_group_size) runs at exactly that size.
  std::size_t compiled[3] = {0, 0, 0};
  check(clGetKernelWorkGroupInfo(kernel.get(), device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled, nullptr),
        "clGetKernelWorkGroupInfo");
  Grid grid;
  grid.group = compiled[0] ? compiled[0]
                           : floor_pow2(std::max<std::size_t>(1, std::min({group, kernel_max, rt.device_info().caps.max_work_group_size})));
  const std::uint64_t wanted = (units + grid.group - 1) / grid.group;
  grid.groups = std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>(wanted, std::max<std::size_t>(1, max_groups))));
  return grid;
}

Commands::Commands(const Runtime& rt) : queue_(state_of(rt).queue.get()), events_(state_of(rt).out_of_order || profiling()) {
  refuse_pocl_after_fork(state_of(rt).pocl);
  if (!state_of(rt).out_of_order) return;  // an in-order queue runs the caller's commands first anyway
  cl_event event = nullptr;
  check(clEnqueueBarrierWithWaitList(queue_, 0, nullptr, &event), "clEnqueueBarrierWithWaitList");
  last_ = Event::adopt(event);
}

namespace {

// Enqueues one command after `before` (null: none) and returns it, recorded for profiling.
template <class Enqueue>
Event enqueue_after(const Event& before, const char* call, Enqueue&& enqueue) {
  const cl_event wait = before.get();
  cl_event event = nullptr;
  check(enqueue(wait ? 1u : 0u, wait ? &wait : nullptr, &event), call);
  Event last = Event::adopt(event);
  record_command(last);
  return last;
}

}  // namespace

template <class Enqueue>
void Commands::enqueue(const char* call, Enqueue&& enqueue) {
  if (events_) {
    last_ = enqueue_after(last_, call, enqueue);
  } else {
    check(enqueue(0u, nullptr, nullptr), call);
    untracked_ = true;
  }
}

void Commands::launch(const Kernel& kernel, const Grid& grid) {
  const std::size_t global = grid.items(), local = grid.group;
  enqueue("clEnqueueNDRangeKernel", [&](cl_uint n, const cl_event* waits, cl_event* event) {
    return clEnqueueNDRangeKernel(queue_, kernel.get(), 1, nullptr, &global, &local, n, waits, event);
  });
}

void Commands::write(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, const void* host) {
  if (!bytes) return;
  enqueue("clEnqueueWriteBuffer", [&](cl_uint n, const cl_event* waits, cl_event* event) {
    return clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, offset_bytes, bytes, host, n, waits, event);
  });
}

void Commands::read(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host) {
  if (!bytes) return;
  enqueue("clEnqueueReadBuffer", [&](cl_uint n, const cl_event* waits, cl_event* event) {
    return clEnqueueReadBuffer(queue_, buffer, CL_TRUE, offset_bytes, bytes, host, n, waits, event);
  });
}

void Commands::copy(cl_mem from, std::size_t from_offset, cl_mem to, std::size_t to_offset, std::size_t bytes) {
  if (!bytes) return;
  enqueue("clEnqueueCopyBuffer", [&](cl_uint n, const cl_event* waits, cl_event* event) {
    return clEnqueueCopyBuffer(queue_, from, to, from_offset, to_offset, bytes, n, waits, event);
  });
}

void Commands::read_later(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host) {
  if (bytes) reads_.push_back({Mem::share(buffer), offset_bytes, bytes, host});
}

Submitted Commands::submit() {
  const cl_int flushed = clFlush(queue_);
  if (flushed != CL_SUCCESS) (void)clFinish(queue_);  // nothing may still read the caller's buffers
  check(flushed, "clFlush");
  Submitted submitted;
  submitted.queue_ = Queue::share(queue_);
  submitted.last_ = last_;
  submitted.untracked_ = untracked_;
  submitted.reads_ = std::move(reads_);
  reads_.clear();
  return submitted;
}

Submitted::~Submitted() {
  if (const cl_event e = last_.get()) (void)clWaitForEvents(1, &e);
  else if (untracked_) (void)clFinish(queue_.get());
}

void Submitted::finish() {
  const bool read = !reads_.empty();
  for (const Read& r : reads_) {
    const auto enqueue = [&](cl_uint n, const cl_event* waits, cl_event* event) {
      return clEnqueueReadBuffer(queue_.get(), r.buffer.get(), CL_TRUE, r.offset_bytes, r.bytes, r.host, n, waits, event);
    };
    if (untracked_) check(enqueue(0u, nullptr, nullptr), "clEnqueueReadBuffer");
    else last_ = enqueue_after(last_, "clEnqueueReadBuffer", enqueue);
  }
  reads_.clear();
  const Event last = std::move(last_);
  const bool untracked = std::exchange(untracked_, false);
  if (read) return;  // a blocking read returns once it and every command before it are done
  if (const cl_event e = last.get()) check(clWaitForEvents(1, &e), "clWaitForEvents");
  else if (untracked) check(clFinish(queue_.get()), "clFinish");
}

void Commands::fill_zero(cl_mem buffer, std::size_t bytes) {
  const cl_uchar zero = 0;
  fill(buffer, &zero, 1, bytes);
}

void Commands::fill(cl_mem buffer, const void* pattern, std::size_t pattern_bytes, std::size_t bytes) {
  if (!bytes) return;
  enqueue("clEnqueueFillBuffer", [&](cl_uint n, const cl_event* waits, cl_event* event) {
    return clEnqueueFillBuffer(queue_, buffer, pattern, pattern_bytes, 0, bytes, n, waits, event);
  });
}

Mem make_buffer(const Runtime& rt, std::size_t bytes, cl_mem_flags flags, const void* copy_from) {
  // Some drivers hand out more than they promise (NVIDIA's did, measured): refuse it here, as
  // the specification says clCreateBuffer must, rather than rely on the driver.
  const cl_ulong largest = rt.device_info().caps.max_mem_alloc_size;
  if (bytes > largest)
    throw Error(CL_INVALID_BUFFER_SIZE, "clCreateBuffer of " + std::to_string(bytes) +
                                            " bytes (more than the device's largest allocation, CL_DEVICE_MAX_MEM_ALLOC_SIZE = " +
                                            std::to_string(largest) + " bytes)");
  if (copy_from) flags |= CL_MEM_COPY_HOST_PTR;
  cl_int status = CL_SUCCESS;
  Mem buffer = Mem::adopt(clCreateBuffer(state_of(rt).context.get(), flags, std::max<std::size_t>(1, bytes),
                                         const_cast<void*>(copy_from), &status));
  check(status, "clCreateBuffer");
  return buffer;
}

PinnedHost::PinnedHost(const Runtime& rt, std::size_t bytes)
    : queue_(state_of(rt).queue.get()), buffer_(make_buffer(rt, bytes, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE)) {
  cl_int status = CL_SUCCESS;
  host_ = static_cast<unsigned char*>(clEnqueueMapBuffer(queue_, buffer_.get(), CL_TRUE, CL_MAP_WRITE, 0, std::max<std::size_t>(bytes, 1), 0,
                                                         nullptr, nullptr, &status));
  check(status, "clEnqueueMapBuffer");
}

PinnedHost::~PinnedHost() {
  cl_event unmapped = nullptr;
  if (clEnqueueUnmapMemObject(queue_, buffer_.get(), host_, 0, nullptr, &unmapped) == CL_SUCCESS) {
    (void)clWaitForEvents(1, &unmapped);
    (void)clReleaseEvent(unmapped);
  }
}

std::size_t chunk_elements(const Runtime& rt, std::size_t n, std::size_t element_size, std::size_t buffers, std::size_t multiple) {
  const auto& caps = rt.device_info().caps;
  std::size_t limit = std::size_t(caps.max_mem_alloc_size);
  // Streaming: leave room for the other buffers and the results in global memory.
  if (n * element_size > limit || std::size_t(caps.global_mem_size) / 2 < n * element_size * buffers)
    limit = std::min<std::size_t>({limit, std::size_t(caps.global_mem_size) / (2 * buffers), std::size_t(256) << 20});
  if (const std::size_t forced = testing::stream_limits().chunk_bytes) limit = forced;
  multiple = std::max<std::size_t>(64, multiple);
  const std::size_t elements = std::max<std::size_t>(multiple, limit / element_size / multiple * multiple);
  return std::min(std::max<std::size_t>(n, 1), elements);
}

std::uint64_t launch_elements() {
  if (const std::uint64_t forced = testing::stream_limits().launch_elements) return forced;
  return std::uint64_t(1) << 31;
}

bool merge_32bit() { return testing::stream_limits().merge_32bit; }

std::string define(const char* name, long long value) { return define(name, std::to_string(value)); }
std::string define(const char* name, const std::string& token) { return std::string(" -D") + name + "=" + token; }

}  // namespace clatomics::detail
