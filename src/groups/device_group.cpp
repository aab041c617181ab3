// Several devices of one host: two streams per device take fixed chunks of host data as they come
// free, and resident parts are worked on by every device at once; results merge in chunk order
// through the partial results (each algorithm's header).
#include "clatomics/device_group.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "clatomics/error.hpp"
#include "core/cl_handles.hpp"
#include "core/launch.hpp"
#include "core/testing.hpp"
#include "groups/copy_pool.hpp"
#include "groups/engine.hpp"
#include "groups/group_spread.hpp"

namespace clatomics {

namespace detail {

// A host thread kept for the group's life, running one job at a time: on NVIDIA's OpenCL a new
// thread's first calls on a device cost about 0.3 ms more (measured on the H200: a 1 GiB reduction
// took 1.02 ms from a fresh thread, 0.49 ms from a warm one), as much as the kernel itself.
// Each side checks for the other a short while (yielding) before it sleeps on the condition:
// waking a sleeping thread took tens of microseconds per call on the H200s' host.
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs job on this thread; job must not throw (the callers catch inside it).
  void post(std::function<void()> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(job);
    busy_ = true;
    changed_.notify_all();
  }
  void wait() {
    briefly_until([&] { return !busy_; });
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !busy_; });
  }

 private:
  template <class Done>
  static void briefly_until(const Done& done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    while (!done() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  }
  void loop() {
    for (;;) {
      briefly_until([&] { return busy_ || quit_; });
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return quit_ || job_; });
      if (quit_) return;
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      lock.lock();
      busy_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;
  std::atomic<bool> busy_{false}, quit_{false};  // busy: a job posted and not yet ended
  std::thread thread_;  // last: starts once the rest is made
};

}  // namespace detail

struct DeviceGroup::Member {
  std::unique_ptr<Runtime> runtime, second;
  std::unique_ptr<detail::Worker> worker = std::make_unique<detail::Worker>(), second_worker;
  detail::Staging staging, second_staging;
  std::mutex second_made;
};

namespace detail {
std::unique_lock<std::mutex> take_turn(DeviceGroup& group) { return std::unique_lock<std::mutex>(group.one_call_); }

// Runs jobs[i] for streams[i] (a group runtime), all at once: the first on the calling thread,
// each other on the thread kept for its stream; returns when every job has ended. No job may
// throw (the callers catch inside them): the kept threads' jobs refer to the caller's frame.
// (Handing the first job to a kept thread too cost a group of one about 30 us a call on an H200.)
void run_on_streams(DeviceGroup& group, const std::vector<Runtime*>& streams, const std::vector<std::function<void()>>& jobs) {
  const auto turn = take_turn(group);
  std::vector<Worker*> workers;
  for (std::size_t i = 1; i < jobs.size(); ++i) {
    workers.push_back(group.worker_of(*streams[i]));
    workers.back()->post(jobs[i]);
  }
  if (!jobs.empty()) jobs[0]();
  for (Worker* w : workers) w->wait();
}

Staging& staging_of(DeviceGroup& group, const Runtime& stream) {
  for (auto& m : group.members_) {
    if (m->runtime.get() == &stream) return m->staging;
    const std::lock_guard<std::mutex> lock(m->second_made);  // another call may be making it
    if (m->second.get() == &stream) return m->second_staging;
  }
  throw std::logic_error("clatomics: DeviceGroup: a runtime of another group");
}

CopyPool& copy_pool_of(DeviceGroup& group) {
  const std::lock_guard<std::mutex> lock(group.copiers_made_);
  if (!group.copiers_) {
    int wanted = group.runtime(0).options().staging_threads;
    if (wanted < 0) wanted = Options::staging_threads_from_env();
    group.copiers_ = std::make_unique<CopyPool>(wanted >= 0 ? std::size_t(wanted) : CopyPool::default_threads(std::thread::hardware_concurrency()));
  }
  return *group.copiers_;
}

void Staging::reserve(const Runtime& rt, std::size_t wanted, bool with_pinned) {
  if (wanted > bytes) {
    pinned.reset();  // the old memory goes before the new is taken; none is held if that fails
    device = Mem();
    bytes = 0;
    device = make_buffer(rt, wanted, CL_MEM_READ_ONLY);
    bytes = wanted;
  }
  if (!with_pinned) pinned.reset();
  else if (!pinned) pinned = std::make_unique<PinnedHost>(rt, bytes);
}

std::size_t staging_offset(const std::vector<HostArray>& arrays, std::size_t k, std::size_t capacity) {
  std::size_t at = 0;
  for (std::size_t j = 0; j < k; ++j) at += (capacity * arrays[j].element_bytes + 63) / 64 * 64;
  return at;
}

std::vector<std::size_t> fixed_chunks(std::size_t n, std::size_t chunk) {
  std::vector<std::size_t> bounds;
  for (std::size_t at = 0; at < n; at += std::min(chunk, n - at)) bounds.push_back(at);
  if (n) bounds.push_back(n);
  return bounds;
}

std::size_t largest_chunk(const std::vector<std::size_t>& bounds) {
  std::size_t largest = 0;
  for (std::size_t c = 0; c + 1 < bounds.size(); ++c) largest = std::max(largest, bounds[c + 1] - bounds[c]);
  return largest;
}

std::size_t group_chunk(DeviceGroup& group, std::size_t n, const std::vector<HostArray>& arrays, std::size_t multiple,
                        std::size_t device_bytes) {
  std::size_t largest = 1, staged = 0;
  for (const HostArray& a : arrays) largest = std::max(largest, a.element_bytes), staged += a.element_bytes;
  const std::size_t all = staged + device_bytes;
  std::size_t chunk = std::max(multiple, (std::size_t(64) << 20) / largest / multiple * multiple);
  for (std::size_t d = 0; d < group.size(); ++d)
    chunk = std::min(chunk, chunk_elements(group.runtime(d), std::max<std::size_t>(n, 1), std::max<std::size_t>(all, 1), 2, multiple));
  // Large elements (scatter's rows) may allow fewer than `multiple`: at most 64 MiB of the
  // largest array, and the staging buffer (every array, each 64-byte aligned) within one
  // allocation of every device.
  std::size_t fits = (std::size_t(64) << 20) / largest;
  for (std::size_t d = 0; d < group.size(); ++d) {
    const std::size_t cap = std::size_t(group.runtime(d).device_info().caps.max_mem_alloc_size), slack = 64 * arrays.size();
    fits = std::min(fits, cap > slack ? (cap - slack) / std::max<std::size_t>(staged, 1) : 0);
  }
  if (fits < chunk) chunk = fits >= multiple ? fits / multiple * multiple : fits;
  return std::max<std::size_t>(chunk, 1);
}

std::string device_name(Runtime& rt) { return rt.device_info().caps.device_name; }

bool stage_pinned(const Runtime& rt) {
  switch (testing::pinned_staging()) {
    case testing::PinnedStaging::always: return true;
    case testing::PinnedStaging::never: return false;
    default: return rt.device_info().caps.is_gpu();
  }
}

[[noreturn]] void rethrow_at(const std::exception_ptr& failure, const std::string& where) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    throw Error(e.code(), "DeviceGroup: " + where + ": " + e.call(), e.build_log(), e.build_options());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("clatomics: DeviceGroup: ") + where + ": " + e.what());
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("clatomics: DeviceGroup: ") + where + ": " + e.what());
  }
}

}  // namespace detail

namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("clatomics: DeviceGroup: " + why); }

cl_platform_id platform_of(cl_device_id device) {
  cl_platform_id platform = nullptr;
  detail::check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr), "clGetDeviceInfo");
  return platform;
}

void check_one_platform(const std::vector<cl_device_id>& devices) {
  if (devices.empty()) refuse("no devices (an empty group)");
  for (const cl_device_id d : devices)
    if (platform_of(d) != platform_of(devices.front()))
      refuse("devices of different OpenCL platforms in one group (each platform's devices form a group of their own)");
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (std::find(devices.begin(), devices.begin() + i, devices[i]) != devices.begin() + i) refuse("a device is in the group twice");
}

}  // namespace

DeviceGroup::DeviceGroup(const std::string& selector, Options options) {
  std::string wanted = selector.empty() ? device_selector_from_env() : selector;
  std::vector<cl_device_id> devices = wanted.empty() ? std::vector<cl_device_id>{select_device_id()} : select_device_ids(wanted);
  check_one_platform(devices);
  const std::vector<cl_device_id> all = all_device_ids();
  for (const cl_device_id d : devices) {
    Options o = options;
    o.device = std::to_string(std::find(all.begin(), all.end(), d) - all.begin());
    members_.push_back(std::make_unique<Member>());
    members_.back()->runtime = std::make_unique<Runtime>(o);
  }
}

DeviceGroup::DeviceGroup(const std::vector<cl::CommandQueue>& queues, Options options) {
  std::vector<cl_device_id> devices;
  for (const auto& q : queues) {
    if (!q()) refuse("a null queue");
    devices.push_back(q.getInfo<CL_QUEUE_DEVICE>()());
  }
  check_one_platform(devices);
  for (const auto& q : queues) {
    members_.push_back(std::make_unique<Member>());
    members_.back()->runtime = std::make_unique<Runtime>(q.getInfo<CL_QUEUE_CONTEXT>(), q.getInfo<CL_QUEUE_DEVICE>(), q, options);
  }
}

DeviceGroup::~DeviceGroup() = default;

std::size_t DeviceGroup::size() const { return members_.size(); }

Runtime& DeviceGroup::runtime(std::size_t device) { return *members_.at(device)->runtime; }

Runtime& DeviceGroup::second_stream(std::size_t device) {
  Member& m = *members_.at(device);
  std::lock_guard<std::mutex> lock(m.second_made);
  if (!m.second) {
    const Runtime& rt = *m.runtime;
    const cl::CommandQueue queue(rt.context(), rt.device(), CL_QUEUE_PROFILING_ENABLE);
    m.second = std::make_unique<Runtime>(rt.context(), rt.device(), queue, rt.options());
    m.second_worker = std::make_unique<detail::Worker>();
  }
  return *m.second;
}

detail::Worker* DeviceGroup::worker_of(const Runtime& rt) {
  for (auto& m : members_) {
    if (m->runtime.get() == &rt) return m->worker.get();
    const std::lock_guard<std::mutex> lock(m->second_made);  // another call may be making it
    if (m->second.get() == &rt) return m->second_worker.get();
  }
  throw std::logic_error("clatomics: DeviceGroup: a runtime of another group");
}

// A DistributedBuffer laid out as distribute() lays it: a part per device of this group, device
// d's elements [first[d], first[d] + count[d]) right after device d - 1's, size elements in all.
// (Whether each part is a large enough buffer of its device's context, the calls check.)
void detail::check_layout(DeviceGroup& group, const std::vector<cl::Buffer>& buffers, const std::vector<std::size_t>& first,
                          const std::vector<std::size_t>& count, std::size_t size) {
  const std::size_t parts = buffers.size();
  if (parts == 0) refuse("an empty DistributedBuffer (make one with distribute())");
  if (parts != group.size()) refuse("a DistributedBuffer of another group (its parts are not one per device)");
  if (first.size() != parts || count.size() != parts)
    refuse("a DistributedBuffer of " + std::to_string(parts) + " parts with " + std::to_string(first.size()) + " first and " +
           std::to_string(count.size()) + " count entries");
  std::size_t at = 0;
  for (std::size_t d = 0; d < parts; ++d) {
    if (first[d] != at)
      refuse("DistributedBuffer part " + std::to_string(d) + " starts at element " + std::to_string(first[d]) + ", not " +
             std::to_string(at) + " (each part follows the one before it, from 0)");
    if (count[d] > std::numeric_limits<std::size_t>::max() - at) refuse("DistributedBuffer counts overflow");
    at += count[d];
  }
  if (at != size)
    refuse("a DistributedBuffer whose parts hold " + std::to_string(at) + " elements but whose size is " + std::to_string(size));
}

void detail::check_parts(DeviceGroup& group, const std::vector<std::vector<At>>& arrays, const std::vector<std::size_t>& count) {
  for (std::size_t d = 0; d < arrays.size(); ++d)
    for (const At& at : arrays[d]) {
      const std::string what = "DistributedBuffer part " + std::to_string(d);
      check_range(group.runtime(d), {what.c_str(), at.buffer, at.offset, count[d] * at.width, at.element_bytes, Access::read});
    }
}

std::vector<detail::ResidentChunk> detail::resident_chunks(DeviceGroup& group, const std::vector<std::vector<At>>& arrays,
                                                           const std::vector<std::size_t>& first, const std::vector<std::size_t>& count,
                                                           const std::vector<std::size_t>& bounds) {
  std::vector<ResidentChunk> chunks(bounds.empty() ? 0 : bounds.size() - 1);
  std::size_t d = 0;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const std::size_t begin = bounds[c], end = bounds[c + 1];
    while (first[d] + count[d] <= begin) ++d;  // parts follow one another (check_layout): some part holds begin
    chunks[c].device = d;
    if (end <= first[d] + count[d]) continue;
    for (const At& at : arrays[d]) chunks[c].copied.emplace_back((end - begin) * at.width * at.element_bytes);
  }
  // Each device copies its pieces of the chunks that span parts into their host bytes (each
  // piece its own range of them). A part the host may not read (CL_MEM_HOST_NO_ACCESS or
  // CL_MEM_HOST_WRITE_ONLY, a sub-buffer's inherited too) is copied on its device into a buffer
  // of the library's first.
  on_every_device(group, [&](std::size_t e) {
    const std::size_t part_end = first[e] + count[e];
    Runtime& rt = group.runtime(e);
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      if (chunks[c].copied.empty()) continue;
      const std::size_t begin = bounds[c], from = std::max(begin, first[e]), to = std::min(bounds[c + 1], part_end);
      if (from >= to) continue;
      Commands commands(rt);
      for (std::size_t k = 0; k < arrays[e].size(); ++k) {
        const At& at = arrays[e][k];
        const std::size_t value_bytes = at.element_bytes, row = at.width * value_bytes, bytes = (to - from) * row;
        const std::size_t offset = at.offset * value_bytes + (from - first[e]) * row;
        unsigned char* host = chunks[c].copied[k].data() + (from - begin) * row;
        if (mem_value<cl_mem_flags>(at.buffer, CL_MEM_FLAGS) & (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY)) {
          const Mem readable = make_buffer(rt, bytes);
          commands.copy(at.buffer, offset, readable.get(), 0, bytes);
          commands.read(readable.get(), 0, bytes, host);
        } else {
          commands.read(at.buffer, offset, bytes, host);
        }
      }
    }
  });
  return chunks;
}

void detail::on_every_device(DeviceGroup& group, const std::function<void(std::size_t)>& job,
                             const std::function<std::string(std::size_t)>& elements) {
  std::vector<Runtime*> streams;
  std::vector<std::exception_ptr> failures(group.size());
  std::vector<std::function<void()>> jobs;
  for (std::size_t d = 0; d < group.size(); ++d) {
    streams.push_back(&group.runtime(d));
    jobs.emplace_back([&, d] {
      try {
        job(d);
      } catch (...) {
        failures[d] = std::current_exception();
      }
    });
  }
  run_on_streams(group, streams, jobs);
  for (std::size_t d = 0; d < failures.size(); ++d)
    if (failures[d])
      rethrow_at(failures[d], "device " + std::to_string(d) + " (" + device_name(group.runtime(d)) + ")" + (elements ? ", " + elements(d) : ""));
}

std::string detail::elements_of(std::size_t first, std::size_t count) {
  return count ? "elements " + std::to_string(first) + " .. " + std::to_string(first + count - 1) : "no elements";
}

template <class T>
DistributedBuffer<T> distribute(DeviceGroup& group, const std::vector<T>& data, std::size_t width) {
  if (width == 0 ? !data.empty() : data.size() % width != 0)
    refuse("distribute: " + std::to_string(data.size()) + " elements are not whole rows of width " + std::to_string(width));
  // Rows are laid out as distribute() lays out one element each (the indices of scatter_reduce),
  // each part's first and count in elements.
  const std::size_t rows = width ? data.size() / width : 0, tiles = (rows + reduce_tile - 1) / reduce_tile;
  DistributedBuffer<T> out;
  out.size = data.size();
  for (std::size_t d = 0; d < group.size(); ++d) {
    const std::size_t first = std::min(rows, tiles * d / group.size() * reduce_tile) * width;
    const std::size_t end = std::min(rows, tiles * (d + 1) / group.size() * reduce_tile) * width;
    Runtime& rt = group.runtime(d);
    cl::Buffer part(rt.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(1, end - first) * sizeof(T));
    detail::Commands(rt).write(part(), 0, (end - first) * sizeof(T), data.data() + first);
    out.parts.push_back(part), out.first.push_back(first), out.count.push_back(end - first);
  }
  return out;
}

#define CLATOMICS_DISTRIBUTE(T) template DistributedBuffer<T> distribute<T>(DeviceGroup&, const std::vector<T>&, std::size_t);
CLATOMICS_DISTRIBUTE(float)
CLATOMICS_DISTRIBUTE(double)
CLATOMICS_DISTRIBUTE(cl_int)
CLATOMICS_DISTRIBUTE(cl_uint)
CLATOMICS_DISTRIBUTE(cl_long)
CLATOMICS_DISTRIBUTE(cl_ulong)
CLATOMICS_DISTRIBUTE(std::uint8_t)
CLATOMICS_DISTRIBUTE(half_t)
CLATOMICS_DISTRIBUTE(bfloat16_t)
#undef CLATOMICS_DISTRIBUTE

}  // namespace clatomics
