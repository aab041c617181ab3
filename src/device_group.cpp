// Several devices of one host: two streams per device take fixed chunks of host data as they come
// free, and resident parts are worked on by every device at once; results merge in chunk order
// through the partial results (partial.hpp).
#include "clatomics/device_group.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "clatomics/error.hpp"
#include "launch.hpp"
#include "reduce_parts.hpp"
#include "started.hpp"
#include "testing.hpp"

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
  std::mutex second_made;
};

namespace detail {
// Runs jobs[i] on the thread that serves streams[i] (a group runtime), all at once; returns when
// every job has ended.
std::unique_lock<std::mutex> take_turn(DeviceGroup& group) { return std::unique_lock<std::mutex>(group.one_call_); }

void run_on_streams(DeviceGroup& group, const std::vector<Runtime*>& streams, const std::vector<std::function<void()>>& jobs) {
  const auto turn = take_turn(group);
  std::vector<Worker*> workers;
  for (Runtime* rt : streams) workers.push_back(group.worker_of(*rt));
  for (std::size_t i = 0; i < jobs.size(); ++i) workers[i]->post(jobs[i]);
  for (Worker* w : workers) w->wait();
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

std::string device_name(Runtime& rt) { return rt.device_info().caps.device_name; }

// Where array k of a chunk starts in a stream's staging buffer: k * staging_stride elements.
std::size_t staging_stride(std::size_t chunk, std::size_t n) { return std::min(chunk, n); }

// Throws failure again with where (the device, and the chunk if any) in its message, keeping its
// type: Error (its code kept), std::invalid_argument, else std::runtime_error.
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

// Host arrays of n elements each in chunks of `chunk` elements (fixed by the data, never by the
// device count), taken by whichever device stream is free; a stream's staging buffer holds array
// k's share of the chunk from element k * chunk, and part(stream, that buffer, first, count)
// gives the chunk's result. Returns the results in chunk order, or throws after every stream has
// stopped.
template <class P, class E>
std::vector<P> spread(DeviceGroup& group, const std::vector<const std::vector<E>*>& arrays, std::size_t chunk,
                      const std::function<P(Runtime&, cl_mem, std::size_t, std::size_t)>& part) {
  const std::size_t n = arrays.front()->size(), nchunks = (n + chunk - 1) / chunk;
  std::vector<P> results(nchunks);
  std::vector<Runtime*> streams;
  std::vector<std::size_t> device_of;
  for (std::size_t d = 0; d < group.size(); ++d) {
    streams.push_back(&group.runtime(d)), device_of.push_back(d);
    if (nchunks > 1) streams.push_back(&group.second_stream(d)), device_of.push_back(d);
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex failed;
  std::exception_ptr failure;
  std::string where;
  const std::size_t failing = testing::failing_group_chunk();
  const auto run = [&](std::size_t s) {
    Runtime& rt = *streams[s];
    std::size_t c = 0;
    try {
      const detail::Mem buffer = detail::make_buffer(rt, arrays.size() * staging_stride(chunk, n) * sizeof(E), CL_MEM_READ_ONLY);
      while (!stop && (c = next++) < nchunks) {
        const std::size_t first = c * chunk, count = std::min(chunk, n - first);
        if (c == failing) throw Error(CL_OUT_OF_RESOURCES, "testing: a chunk made to fail");
        for (std::size_t k = 0; k < arrays.size(); ++k)
          detail::Commands(rt).write(buffer.get(), k * staging_stride(chunk, n) * sizeof(E), count * sizeof(E), arrays[k]->data() + first);
        results[c] = part(rt, buffer.get(), first, count);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(failed);
      if (!failure) {
        failure = std::current_exception();
        const std::size_t first = c * chunk;
        where = "device " + std::to_string(device_of[s]) + " (" + device_name(rt) + "), chunk " + std::to_string(c) + " (elements " +
                std::to_string(first) + " .. " + std::to_string(std::min(n, first + chunk) - 1) + ")";
      }
      stop = true;
    }
  };
  std::vector<std::function<void()>> jobs;
  for (std::size_t s = 0; s < streams.size(); ++s) jobs.emplace_back([&run, s] { run(s); });
  detail::run_on_streams(group, streams, jobs);
  if (failure) rethrow_at(failure, where);
  return results;
}

// Chunk size: 64 MiB of each array's elements (whole deterministic tiles), less where testing
// shrinks chunks or a device cannot hold two streams' staging buffers.
template <class E>
std::size_t chunk_for(DeviceGroup& group, std::size_t n, std::size_t arrays = 1) {
  std::size_t chunk = std::max<std::size_t>(reduce_tile, (std::size_t(64) << 20) / sizeof(E) / reduce_tile * reduce_tile);
  for (std::size_t d = 0; d < group.size(); ++d)
    chunk = std::min(chunk, detail::chunk_elements(group.runtime(d), std::max<std::size_t>(n, 1), sizeof(E), 2 * arrays, reduce_tile));
  return std::max<std::size_t>(chunk, 1);
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
  if (failure) rethrow_at(failure, "device " + std::to_string(failed) + " (" + device_name(group.runtime(failed)) + ")");
  return results;
}

template <class T>
T merge_chunks(DeviceGroup& group, std::vector<ReducePartial<T>> parts) {
  return merge_reduce<T>(group.runtime(0), std::move(parts));
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
    if (m->second.get() == &rt) return m->second_worker.get();
  }
  throw std::logic_error("clatomics: DeviceGroup: a runtime of another group");
}

template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  (void)reduce<T>(group.runtime(0), std::vector<T>{}, op, options);  // refuses a bad op or type before anything runs
  if (data.empty()) return detail::reduce_identity<T>(op);
  const auto parts = spread<ReducePartial<T>, T>(
      group, {&data}, chunk_for<T>(group, data.size()),
      [&](Runtime& rt, cl_mem buffer, std::size_t first, std::size_t count) {
        return reduce_partial<T>(rt, cl::Buffer(buffer, true), 0, count, op, first, options);
      });
  return merge_chunks<T>(group, parts);
}

std::vector<std::uint64_t> histogram(DeviceGroup& group, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  std::vector<std::uint64_t> total = histogram(group.runtime(0), std::vector<std::uint8_t>{}, options);  // checks options
  const auto parts = spread<std::vector<std::uint64_t>, std::uint8_t>(
      group, {&bytes}, chunk_for<std::uint8_t>(group, bytes.size()),
      [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) { return detail::histogram_buffer(rt, buffer, 0, count, options); });
  for (const auto& p : parts) merge_into(total, p);
  return total;
}

EvenHistogram histogram_even(DeviceGroup& group, const std::vector<float>& values, std::size_t nbins, float lo, float hi,
                             const std::vector<float>& weights, HistogramOptions options) {
  // Checks the bins and the weights' length before anything runs.
  EvenHistogram total = histogram_even(group.runtime(0), std::vector<float>{}, nbins, lo, hi, {}, options);
  if (!weights.empty() && weights.size() != values.size())
    throw std::invalid_argument("clatomics: histogram_even: weights has " + std::to_string(weights.size()) + " elements, values has " +
                                std::to_string(values.size()));
  std::vector<const std::vector<float>*> arrays{&values};
  if (!weights.empty()) arrays.push_back(&weights);
  const std::size_t chunk = chunk_for<float>(group, values.size(), arrays.size());
  const std::size_t stride = staging_stride(chunk, values.size());  // where the weights sit
  const auto parts = spread<EvenHistogram, float>(group, arrays, chunk, [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
    return detail::histogram_even_buffer(rt, buffer, 0, count, nbins, lo, hi, !weights.empty(), weights.empty() ? nullptr : buffer,
                                         stride, options);
  });
  if (!weights.empty() && total.sums.empty()) {  // the empty call had no weights: start the sums
    total.sums.assign(1, std::vector<double>(nbins, 0.0));
    total.weights.assign(nbins, 0.0f);
  }
  for (const auto& p : parts) merge_into(total, p);
  return total;
}

KeyHistogram histogram_keys(DeviceGroup& group, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  KeyHistogram total = histogram_keys(group.runtime(0), std::vector<cl_uint>{}, nbins, options);  // checks nbins
  const auto parts = spread<KeyHistogram, cl_uint>(group, {&keys}, chunk_for<cl_uint>(group, keys.size()),
                                                   [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
                                                     return detail::histogram_keys_buffer(rt, buffer, 0, count, nbins, options);
                                                   });
  for (const auto& p : parts) merge_into(total, p);
  return total;
}

template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b) {
  (void)dot<T>(group.runtime(0), std::vector<T>{}, std::vector<T>{});  // checks the type
  if (a.size() != b.size())
    throw std::invalid_argument("clatomics: dot: a has " + std::to_string(a.size()) + " elements, b has " + std::to_string(b.size()));
  if (a.empty()) return T(0);
  const std::size_t chunk = chunk_for<T>(group, a.size(), 2), stride = staging_stride(chunk, a.size());
  const auto parts = spread<T, T>(group, {&a, &b}, chunk, [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
    return detail::dot_buffers<T>(rt, buffer, 0, buffer, stride, count);
  });
  T sum = T(0);
  for (const T p : parts) sum += p;
  return sum;
}

template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options) {
  (void)compact<T>(group.runtime(0), std::vector<T>{}, predicate, options);  // checks the type and the predicate
  const auto parts = spread<std::vector<T>, T>(group, {&in}, chunk_for<T>(group, in.size(), 2),
                                               [&](Runtime& rt, cl_mem buffer, std::size_t, std::size_t count) {
                                                 const detail::Mem out = detail::make_buffer(rt, count * sizeof(T));
                                                 const std::size_t kept = detail::compact_buffers<T>(rt, buffer, 0, count, out.get(), predicate, options);
                                                 std::vector<T> host(kept);
                                                 detail::Commands(rt).read(out.get(), 0, kept * sizeof(T), host.data());
                                                 return host;
                                               });
  std::vector<T> result;  // chunk order: with options.stable, the input's order
  for (const auto& p : parts) result.insert(result.end(), p.begin(), p.end());
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
  if (data.parts.size() != group.size()) refuse("a DistributedBuffer of another group (its parts are not one per device)");
  const auto parts = each_device<ReducePartial<T>>(group, [&](Runtime& rt, std::size_t d) {
    return detail::reduce_partial_later<T>(rt, data.parts[d](), 0, data.count[d], op, data.first[d], options);
  });
  return merge_chunks<T>(group, parts);
}

std::vector<std::uint64_t> histogram(DeviceGroup& group, const DistributedBuffer<std::uint8_t>& bytes, HistogramOptions options) {
  if (bytes.parts.size() != group.size()) refuse("a DistributedBuffer of another group (its parts are not one per device)");
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
