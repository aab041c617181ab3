// What the algorithms share on the host: launch shapes, their commands ordered by events,
// device buffers, and streaming host data larger than one device buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/cl_handles.hpp"
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

// The work-groups a grid-stride launch keeps in flight on a device: eight per compute unit on
// GPUs (enough to hide memory latency), four on CPUs (a few work-items per core).
std::size_t resident_groups(const Capabilities& caps);

// The most work-items a work-group of this kernel may have on rt's device.
std::size_t kernel_group_limit(const Runtime& rt, const Kernel& kernel);

class Commands;

// What a call's submitted commands leave to do: the reads of its results, enqueued when the call
// is collected rather than at once. NVIDIA's OpenCL carries out a "non-blocking" read into
// ordinary (pageable) host memory before it returns, so the read waits there for the call's
// kernels: one thread starting a call on each device of a group ran them one after another.
class Submitted {
 public:
  Submitted() = default;
  Submitted(Submitted&& from) noexcept
      : queue_(std::move(from.queue_)), last_(std::move(from.last_)), untracked_(std::exchange(from.untracked_, false)),
        reads_(std::move(from.reads_)) {}
  Submitted& operator=(Submitted&&) = delete;
  // Not finished (a failure elsewhere): waits for the commands, which may still read the
  // caller's buffers; the reads are dropped, so no host memory is written.
  ~Submitted();
  // Enqueues the reads after the call's commands and waits for all of them; Error if one failed.
  void finish();

 private:
  friend class Commands;
  struct Read {
    Mem buffer;
    std::size_t offset_bytes, bytes;
    void* host;
  };
  Queue queue_;
  Event last_;
  bool untracked_ = false;  // commands enqueued without an event (then last_ is empty): waited for with clFinish
  std::vector<Read> reads_;
};

// The commands of one library call on the runtime's queue. Each waits for the one before it,
// and the first for every command enqueued on the queue before the call: the call is correct on
// out-of-order queues and sees the caller's earlier commands done. Each is recorded by an
// active ProfileScope. Reads and writes block until done. On an in-order queue with no
// ProfileScope the queue keeps the order, and the commands are enqueued without events (NVIDIA's
// OpenCL took 6-11 us more for a kernel and a read with their events, on a 45 us call).
class Commands {
 public:
  explicit Commands(const Runtime& rt);
  void launch(const Kernel& kernel, const Grid& grid);
  void write(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, const void* host);
  void read(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host);
  // bytes of from (at from_offset) into to (at to_offset), on the device: buffers the host may
  // not read or write (CL_MEM_HOST_NO_ACCESS) are copied so.
  void copy(cl_mem from, std::size_t from_offset, cl_mem to, std::size_t to_offset, std::size_t bytes);
  // A read done when the submitted call is finished (Submitted::finish): host is written then.
  void read_later(cl_mem buffer, std::size_t offset_bytes, std::size_t bytes, void* host);
  void fill_zero(cl_mem buffer, std::size_t bytes);
  // bytes (a multiple of pattern_bytes: 1, 2, 4, 8, ... 128) of buffer set to copies of pattern.
  void fill(cl_mem buffer, const void* pattern, std::size_t pattern_bytes, std::size_t bytes);
  // Submits the queue's commands to the device, nothing waited for; the reads asked for so far
  // go with the result. Later commands still follow the submitted ones.
  Submitted submit();

 private:
  // Enqueues one command: enqueue(wait count, wait list, &event), waiting for the previous one.
  template <class Enqueue>
  void enqueue(const char* call, Enqueue&& enqueue);

  cl_command_queue queue_;
  bool events_;  // each command with its event (out-of-order queue, or profiling)
  bool untracked_ = false;
  Event last_;
  std::vector<Submitted::Read> reads_;
};

// A call whose commands are submitted but not waited for: calls started on several devices one
// after another run at once, and get() collects each result. Buffers and kernels the call
// released stay alive in OpenCL until the commands using them have finished.
template <class R>
class Pending {
 public:
  // result: the call's result, valid once its submitted commands have finished.
  Pending(Commands& commands, std::function<R()> result) : submitted_(commands.submit()), result_(std::move(result)) {}
  // Does the call's reads, waits for its commands (an Error if one failed), then returns the
  // result. Once.
  R get() {
    Submitted submitted = std::move(submitted_);
    submitted.finish();
    return result_();
  }
  // The same call, its result passed through f (this one is left empty).
  template <class F>
  auto then(F f) && {
    using U = decltype(f(std::declval<R>()));
    return Pending<U>(std::move(submitted_), [result = std::move(result_), f] { return f(result()); });
  }

 private:
  template <class>
  friend class Pending;
  Pending(Submitted submitted, std::function<R()> result) : submitted_(std::move(submitted)), result_(std::move(result)) {}
  Submitted submitted_;
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

// A -D build option: a number, or a token such as a type name.
std::string define(const char* name, long long value);
std::string define(const char* name, const std::string& token);

}  // namespace clatomics::detail
