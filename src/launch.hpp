// What the algorithms share on the host: launch shapes, their commands ordered by events,
// device buffers, and streaming host data larger than one device buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "cl_handles.hpp"
#include "clatomics/runtime.hpp"

namespace clatomics::detail {

// Largest power of two <= n (n >= 1).
std::size_t floor_pow2(std::size_t n);

// A 1-D launch: groups work-groups of group work-items (a power of two).
struct Grid {
  std::size_t group = 1, groups = 1;
  std::size_t items() const { return group * groups; }
};

// group: the wanted work-group size, capped by the device and the kernel, rounded down to a
// power of two (or the size the kernel was compiled for). groups: enough to cover `units` with
// one unit per work-item, at most max_groups.
Grid make_grid(const Runtime& rt, const Kernel& kernel, std::uint64_t units, std::size_t group, std::size_t max_groups);

// The most work-items a work-group of this kernel may have on rt's device.
std::size_t kernel_group_limit(const Runtime& rt, const Kernel& kernel);

// The commands of one library call on the runtime's queue. Each waits for the one before it,
// and the first for every command enqueued on the queue before the call: the call is correct on
// out-of-order queues and sees the caller's earlier commands done. Each is recorded by an
// active ProfileScope. Reads and writes block until done.
class Commands {
 public:
  explicit Commands(const Runtime& rt);
  void launch(const Kernel& kernel, const Grid& grid);
  void write(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, const void* host);
  void read(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host);
  // A read that does not block: host must stay valid until the call's commands have finished.
  void read_later(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host);
  void fill_zero(cl_mem buffer, std::size_t bytes);
  // bytes (a multiple of pattern_bytes: 1, 2, 4, 8, ... 128) of buffer set to copies of pattern.
  void fill(cl_mem buffer, const void* pattern, std::size_t pattern_bytes, std::size_t bytes);
  // Submits the queue's commands to the device and returns the call's last command (null when
  // it enqueued none), to wait for later.
  Event submit();

 private:
  // Enqueues one command: enqueue(wait count, wait list, &event), waiting for the previous one.
  template <class Enqueue>
  void enqueue(const char* call, Enqueue&& enqueue);

  cl_command_queue queue_;
  Event last_;
};

// Blocks until event (null: none) has finished; Error if its command failed.
void wait_for_event(const Event& event);

// A call whose commands are enqueued and submitted but not waited for: calls started on several
// devices one after another run at once, and get() collects each result. Buffers and kernels the
// call released stay alive in OpenCL until the commands using them have finished.
template <class R>
class Pending {
 public:
  // result: the call's result, valid once its commands have finished.
  Pending(Commands& commands, std::function<R()> result) : result_(std::move(result)) { last_ = commands.submit(); }
  Pending(Pending&&) noexcept = default;
  Pending& operator=(Pending&&) = delete;
  // Never collected (a failure elsewhere): the commands may still write into the result's memory.
  ~Pending() {
    if (const cl_event e = last_.get()) (void)clWaitForEvents(1, &e);
  }
  // Waits for the call's commands (an Error if one failed), then returns the result. Once.
  R get() {
    const Event last = std::move(last_);
    wait_for_event(last);
    return result_();
  }
  // The same call, its result passed through f (this one is left empty).
  template <class F>
  auto then(F f) && {
    using U = decltype(f(std::declval<R>()));
    return Pending<U>(std::move(last_), [result = std::move(result_), f] { return f(result()); });
  }

 private:
  template <class>
  friend class Pending;
  Pending(Event last, std::function<R()> result) : last_(std::move(last)), result_(std::move(result)) {}
  Event last_;
  std::function<R()> result_;
};

// A device buffer of `bytes` (at least 1); copy_from, when given, is copied in at creation.
Mem make_buffer(const Runtime& rt, std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, const void* copy_from = nullptr);

// Host memory a device reads by DMA: a mapped CL_MEM_ALLOC_HOST_PTR buffer of the runtime's
// context. Copies from it run at the link's rate; copies from ordinary (pageable) memory go
// through the driver's own staging (an H200 took 8 GB/s from pageable memory, 55 GB/s from this).
class PinnedHost {
 public:
  PinnedHost(const Runtime& rt, std::size_t bytes);
  ~PinnedHost();
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;
  unsigned char* data() const { return host_; }

 private:
  cl_command_queue queue_;
  Mem buffer_;
  unsigned char* host_ = nullptr;
};

// How many elements of element_size one device buffer may hold when streaming host data:
// everything when the device allows it in one buffer, else chunks below
// CL_DEVICE_MAX_MEM_ALLOC_SIZE (at most 256 MiB each). `buffers`: how many such buffers the
// caller holds at once. A multiple of `multiple` elements (a power of two, at least 64).
std::size_t chunk_elements(const Runtime& rt, std::size_t n, std::size_t element_size, std::size_t buffers = 1,
                           std::size_t multiple = 64);

// Most elements one launch may count into 32-bit counters (below 2^32).
std::uint64_t launch_elements();

// Whether histograms must count each launch in 32-bit counters merged afterwards (as on a
// device without 64-bit atomics) even where 64-bit atomics exist.
bool merge_32bit();

// A -D build option.
std::string define(const char* name, long long value);

}  // namespace clatomics::detail
