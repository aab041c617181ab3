// Several devices of one host: two streams per device take fixed chunks of host data as they come
// free, and resident parts are worked on by every device at once; results merge in chunk order
// through the partial results (partial.hpp).
#include "clatomics/device_group.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "clatomics/error.hpp"
#include "core/launch.hpp"
#include "core/testing.hpp"
#include "groups/group_spread.hpp"
#include "groups/started.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics {

namespace detail {

// A host thread kept for the group's life, running one job at a time: on NVIDIA's OpenCL a new
// thread's first calls on a device cost about 0.3 ms more (measured on the H200: a 1 GiB reduction
// took 1.02 ms from a fresh thread, 0.49 ms from a warm one), as much as the kernel itself.
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
    changed_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !job_ && !running_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return quit_ || job_; });
      if (quit_) return;
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      running_ = true;
      lock.unlock();
      job();
      lock.lock();
      running_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;
  bool running_ = false, quit_ = false;
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

// Runs jobs[i] on the thread that serves streams[i] (a group runtime), all at once; returns when
// every job has ended.
void run_on_streams(DeviceGroup& group, const std::vector<Runtime*>& streams, const std::vector<std::function<void()>>& jobs) {
  const auto turn = take_turn(group);
  std::vector<Worker*> workers;
  for (Runtime* rt : streams) workers.push_back(group.worker_of(*rt));
  for (std::size_t i = 0; i < jobs.size(); ++i) workers[i]->post(jobs[i]);
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

// A DistributedBuffer laid out as distribute() lays it: a part per device of this group, device
// d's elements [first[d], first[d] + count[d]) right after device d - 1's, size elements in all.
// (Whether each part is a large enough buffer of its device's context, the calls check.)
template <class T>
void check_layout(DeviceGroup& group, const DistributedBuffer<T>& data) {
  const std::size_t parts = data.parts.size();
  if (parts == 0) refuse("an empty DistributedBuffer (make one with distribute())");
  if (parts != group.size()) refuse("a DistributedBuffer of another group (its parts are not one per device)");
  if (data.first.size() != parts || data.count.size() != parts)
    refuse("a DistributedBuffer of " + std::to_string(parts) + " parts with " + std::to_string(data.first.size()) + " first and " +
           std::to_string(data.count.size()) + " count entries");
  std::size_t at = 0;
  for (std::size_t d = 0; d < parts; ++d) {
    if (data.first[d] != at)
      refuse("DistributedBuffer part " + std::to_string(d) + " starts at element " + std::to_string(data.first[d]) + ", not " +
             std::to_string(at) + " (each part follows the one before it, from 0)");
    if (data.count[d] > std::numeric_limits<std::size_t>::max() - at) refuse("DistributedBuffer counts overflow");
    at += data.count[d];
  }
  if (at != data.size)
    refuse("a DistributedBuffer whose parts hold " + std::to_string(at) + " elements but whose size is " + std::to_string(data.size));
}

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

template <class E>
detail::HostArray host_array(const std::vector<E>& v) {
  return {v.data(), sizeof(E)};
}

// Whole deterministic tiles per chunk: every tile's value lands where one pass puts it.
std::size_t chunk_for(DeviceGroup& group, std::size_t n, const std::vector<detail::HostArray>& arrays) {
  return detail::group_chunk(group, n, arrays, reduce_tile);
}

// Every device's resident part at once: this thread starts each device's call (no device waits
// for another's commands to be enqueued or finished), then collects the results in device order
// (the parts are in element order). A failure is thrown, naming its device, once every started
// call has ended.
template <class P>
std::vector<P> each_device(DeviceGroup& group, const std::function<detail::Pending<P>(Runtime&, std::size_t)>& start) {
  const auto turn = detail::take_turn(group);
  std::vector<detail::Pending<P>> started;
  std::exception_ptr failure;
  std::size_t failed = 0;
  try {
    for (std::size_t d = 0; d < group.size(); ++d) started.push_back(start(group.runtime(d), d));
  } catch (...) {
    failure = std::current_exception(), failed = started.size();
  }
  std::vector<P> results;
  for (std::size_t d = 0; d < started.size(); ++d) try {
      results.push_back(started[d].get());
    } catch (...) {
      if (!failure) failure = std::current_exception(), failed = d;
    }
  if (failure) detail::rethrow_at(failure, "device " + std::to_string(failed) + " (" + detail::device_name(group.runtime(failed)) + ")");
  return results;
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

template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  (void)reduce<T>(group.runtime(0), std::vector<T>{}, op, options);  // refuses a bad op or type before anything runs
  if (data.empty()) return detail::reduce_identity<T>(op);
  const std::vector<detail::HostArray> arrays{host_array(data)};
  const auto parts = detail::spread_all<ReducePartial<T>>(
      group, data.size(), arrays, chunk_for(group, data.size(), arrays), [&](Runtime& rt, cl_mem buffer, std::size_t first, std::size_t count) {
        return detail::reduce_partial_later<T>(rt, buffer, 0, count, op, first, options).get();
      });
  return merge_reduce<T>(parts);
}

std::vector<std::uint64_t> histogram(DeviceGroup& group, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  std::vector<std::uint64_t> total = histogram(group.runtime(0), std::vector<std::uint8_t>{}, options);  // checks options
  const std::vector<detail::HostArray> arrays{host_array(bytes)};
  detail::spread<std::vector<std::uint64_t>>(
      group, bytes.size(), arrays, chunk_for(group, bytes.size(), arrays),
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) { return detail::histogram_buffer(rt, buffer, 0, count, options); },
      [&](std::size_t, std::vector<std::uint64_t>&& part) { merge_into(total, part); });
  return total;
}

template <class T>
EvenHistogram detail::group_histogram_even(DeviceGroup& group, const std::vector<T>& values, const EvenBins<T>& bins,
                                           const std::vector<HostFloats>& weights, HistogramOptions options) {
  // The same call without values checks the bins, the channels and the options before anything
  // runs, and starts the totals (with as many weight channels).
  const std::vector<float> none;
  EvenHistogram total = histogram_even(group.runtime(0), std::vector<T>{}, bins, std::vector<HostFloats>(weights.size(), none), options);
  for (std::size_t c = 0; c < weights.size(); ++c)
    if (weights[c].size() != values.size())
      throw std::invalid_argument("clatomics: histogram_even: weights[" + std::to_string(c) + "] has " + std::to_string(weights[c].size()) +
                                  " elements, values has " + std::to_string(values.size()) + "; they must be of the same length");
  std::vector<detail::HostArray> arrays{host_array(values)};
  for (const HostFloats& w : weights) arrays.push_back({w.data(), sizeof(float)});
  const std::size_t chunk = chunk_for(group, values.size(), arrays);
  std::vector<detail::WeightRange> channels;  // each channel's place in a stream's staging buffer (its buffer set per chunk)
  for (std::size_t c = 0; c < weights.size(); ++c)
    channels.push_back({nullptr, detail::staging_offset(arrays, 1 + c, std::min(chunk, values.size())) / sizeof(float)});
  const T range[2] = {bins.lo, bins.hi};
  detail::spread<EvenHistogram>(
      group, values.size(), arrays, chunk,
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
        std::vector<detail::WeightRange> in = channels;
        for (auto& w : in) w.buffer = buffer;
        return detail::even_histogram_buffer<T>(rt, {buffer, 0}, count, bins.nbins, range, in, options);
      },
      [&](std::size_t, EvenHistogram&& part) { merge_into(total, part); });
  return total;
}
template EvenHistogram detail::group_histogram_even<float>(DeviceGroup&, const std::vector<float>&, const EvenBins<float>&,
                                                           const std::vector<HostFloats>&, HistogramOptions);
template EvenHistogram detail::group_histogram_even<double>(DeviceGroup&, const std::vector<double>&, const EvenBins<double>&,
                                                            const std::vector<HostFloats>&, HistogramOptions);

KeyHistogram histogram_keys(DeviceGroup& group, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  KeyHistogram total = histogram_keys(group.runtime(0), std::vector<cl_uint>{}, nbins, options);  // checks nbins
  const std::vector<detail::HostArray> arrays{host_array(keys)};
  detail::spread<KeyHistogram>(
      group, keys.size(), arrays, chunk_for(group, keys.size(), arrays),
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) { return detail::histogram_keys_buffer(rt, buffer, 0, count, nbins, options); },
      [&](std::size_t, KeyHistogram&& part) { merge_into(total, part); });
  return total;
}

template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b) {
  (void)dot<T>(group.runtime(0), std::vector<T>{}, std::vector<T>{});  // checks the type
  if (a.size() != b.size())
    throw std::invalid_argument("clatomics: dot: a has " + std::to_string(a.size()) + " elements, b has " + std::to_string(b.size()));
  const std::vector<detail::HostArray> arrays{host_array(a), host_array(b)};
  const std::size_t chunk = chunk_for(group, a.size(), arrays);
  const std::size_t b_at = detail::staging_offset(arrays, 1, std::min(chunk, a.size())) / sizeof(T);
  T sum = T(0);  // the chunks' dot products in chunk order
  detail::spread<T>(
      group, a.size(), arrays, chunk,
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) { return detail::dot_buffers<T>(rt, buffer, 0, buffer, b_at, count); },
      [&](std::size_t, T&& part) { sum += part; });
  return sum;
}

template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options) {
  (void)compact<T>(group.runtime(0), std::vector<T>{}, predicate, options);  // checks the type and the predicate
  const std::vector<detail::HostArray> arrays{host_array(in)};
  std::vector<T> result;  // chunk order: with options.stable, the input's order
  detail::spread<std::vector<T>>(
      group, in.size(), arrays, detail::group_chunk(group, in.size(), arrays, reduce_tile, sizeof(T)),
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
        const detail::Mem out = detail::make_buffer(rt, count * sizeof(T));
        const std::size_t kept = detail::compact_buffers<T>(rt, buffer, 0, count, out.get(), 0, predicate, options);
        std::vector<T> host(kept);
        detail::Commands(rt).read(out.get(), 0, kept * sizeof(T), host.data());
        return host;
      },
      [&](std::size_t, std::vector<T>&& part) { result.insert(result.end(), part.begin(), part.end()); });
  return result;
}

template <class T>
DistributedBuffer<T> distribute(DeviceGroup& group, const std::vector<T>& data) {
  DistributedBuffer<T> out;
  out.size = data.size();
  const std::size_t tiles = (data.size() + reduce_tile - 1) / reduce_tile;
  for (std::size_t d = 0; d < group.size(); ++d) {
    const std::size_t first = std::min(data.size(), tiles * d / group.size() * reduce_tile);
    const std::size_t end = std::min(data.size(), tiles * (d + 1) / group.size() * reduce_tile);
    Runtime& rt = group.runtime(d);
    cl::Buffer part(rt.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(1, end - first) * sizeof(T));
    detail::Commands(rt).write(part(), 0, (end - first) * sizeof(T), data.data() + first);
    out.parts.push_back(part), out.first.push_back(first), out.count.push_back(end - first);
  }
  return out;
}

template <class T>
T reduce(DeviceGroup& group, const DistributedBuffer<T>& data, ReduceOp op, ReduceOptions options) {
  check_layout(group, data);
  const auto parts = each_device<ReducePartial<T>>(group, [&](Runtime& rt, std::size_t d) {
    return detail::reduce_partial_later<T>(rt, data.parts[d](), 0, data.count[d], op, data.first[d], options);
  });
  return merge_reduce<T>(parts);
}

std::vector<std::uint64_t> histogram(DeviceGroup& group, const DistributedBuffer<std::uint8_t>& bytes, HistogramOptions options) {
  check_layout(group, bytes);
  const auto parts = each_device<std::vector<std::uint64_t>>(group, [&](Runtime& rt, std::size_t d) {
    return detail::histogram_buffer_later(rt, bytes.parts[d](), 0, bytes.count[d], options);
  });
  std::vector<std::uint64_t> total(256, 0);
  for (const auto& p : parts) merge_into(total, p);
  return total;
}

#define CLATOMICS_GROUP_INSTANTIATE(T)                                                         \
  template T reduce<T>(DeviceGroup&, const std::vector<T>&, ReduceOp, ReduceOptions);         \
  template DistributedBuffer<T> distribute<T>(DeviceGroup&, const std::vector<T>&);           \
  template T reduce<T>(DeviceGroup&, const DistributedBuffer<T>&, ReduceOp, ReduceOptions);
CLATOMICS_GROUP_INSTANTIATE(float)
CLATOMICS_GROUP_INSTANTIATE(double)
CLATOMICS_GROUP_INSTANTIATE(cl_int)
CLATOMICS_GROUP_INSTANTIATE(cl_uint)
CLATOMICS_GROUP_INSTANTIATE(cl_long)
CLATOMICS_GROUP_INSTANTIATE(cl_ulong)
template DistributedBuffer<std::uint8_t> distribute<std::uint8_t>(DeviceGroup&, const std::vector<std::uint8_t>&);
template float dot<float>(DeviceGroup&, const std::vector<float>&, const std::vector<float>&);
template double dot<double>(DeviceGroup&, const std::vector<double>&, const std::vector<double>&);
template std::vector<float> compact<float>(DeviceGroup&, const std::vector<float>&, const Predicate&, CompactOptions);
template std::vector<cl_int> compact<cl_int>(DeviceGroup&, const std::vector<cl_int>&, const Predicate&, CompactOptions);
template std::vector<cl_uint> compact<cl_uint>(DeviceGroup&, const std::vector<cl_uint>&, const Predicate&, CompactOptions);

}  // namespace clatomics
