// Host data over a device group (groups/device_group.cpp, groups/group_scatter.cpp): chunks
// fixed by the data, taken by whichever device stream is free, each chunk's arrays copied into the stream's
// staging buffer, the chunks' results handed over in chunk order.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clatomics/device_group.hpp"
#include "core/launch.hpp"
#include "core/testing.hpp"
#include "groups/copy_pool.hpp"

namespace clatomics::detail {

// One host array of a spread: element i's bytes at data + i * element_bytes, width values of
// element_bytes / width bytes each (scatter's rows; 1 for every other array).
struct HostArray {
  const void* data;
  std::size_t element_bytes;
  std::size_t width = 1;
};

// A stream's staging memory, kept by the group: a device buffer, and pinned host memory of the
// same size where the stream copies through it (stage_pinned).
struct Staging {
  Mem device;
  std::unique_ptr<PinnedHost> pinned;
  std::size_t bytes = 0;
  // At least `wanted` bytes, with or without pinned memory (what was there is dropped).
  void reserve(const Runtime& rt, std::size_t wanted, bool with_pinned);
};

// Where array k starts in a staging buffer that holds `capacity` elements of every array: the
// arrays one after another, each at a multiple of 64 bytes (so of every element's size).
std::size_t staging_offset(const std::vector<HostArray>& arrays, std::size_t k, std::size_t capacity);

// The chunk for n elements of arrays: 64 MiB of the largest array's elements, a multiple of
// `multiple` (a power of two, at least 64), less where a device cannot hold two streams' staging
// buffers and device_bytes per element of each stream's other buffers. Fixed by the data, never
// by the number of devices.
std::size_t group_chunk(DeviceGroup& group, std::size_t n, const std::vector<HostArray>& arrays, std::size_t multiple,
                        std::size_t device_bytes = 0);

std::string device_name(Runtime& rt);

// Whether a stream copies host data through pinned memory (PinnedHost) first: on GPUs (where the
// copy from pinned memory runs several times faster than the driver's from pageable memory), or
// as testing::pinned_staging() forces.
bool stage_pinned(const Runtime& rt);

// Throws failure again with where (the device, and the chunk if any) in its message, keeping its
// type: Error (its code kept), std::invalid_argument, else std::runtime_error.
[[noreturn]] void rethrow_at(const std::exception_ptr& failure, const std::string& where);

// Chunks of n elements every `chunk` elements from 0: chunk c holds elements bounds[c] ..
// bounds[c + 1] - 1 (no chunks for no elements).
std::vector<std::size_t> fixed_chunks(std::size_t n, std::size_t chunk);
// The most elements a chunk of bounds holds: what a staging buffer takes of every array.
std::size_t largest_chunk(const std::vector<std::size_t>& bounds);

// The arrays' elements in the chunks of bounds (chunk c: elements bounds[c] .. bounds[c + 1] - 1):
// part(stream, staging buffer, first, count) gives a chunk's result from the staging buffer
// (array k at staging_offset(arrays, k, largest_chunk(bounds))), and consume(c, result) takes
// chunk c's result, in chunk order, one call at a time. A stream stays at most two chunks per
// stream ahead of the oldest unconsumed one, so results held waiting for their turn stay few.
// After a failure every stream stops at its next chunk; the call then throws (rethrow_at) naming
// the device and the chunk.
template <class P>
void spread(DeviceGroup& group, const std::vector<HostArray>& arrays, const std::vector<std::size_t>& bounds,
            const std::function<P(Runtime&, cl_mem, std::size_t, std::size_t)>& part,
            const std::function<void(std::size_t, P&&)>& consume) {
  const std::size_t nchunks = bounds.empty() ? 0 : bounds.size() - 1, capacity = largest_chunk(bounds);
  std::vector<Runtime*> streams;
  std::vector<std::size_t> device_of;
  for (std::size_t d = 0; d < group.size(); ++d) {
    streams.push_back(&group.runtime(d)), device_of.push_back(d);
    if (nchunks > 1) streams.push_back(&group.second_stream(d)), device_of.push_back(d);
  }
  const std::size_t window = 2 * streams.size(), staging_bytes = staging_offset(arrays, arrays.size(), capacity);
  std::mutex order;
  std::condition_variable consumed;
  std::size_t next = 0, done = 0;  // the next chunk to hand out, the next to consume
  std::map<std::size_t, P> waiting;
  bool stop = false;
  std::exception_ptr failure;
  std::string where;
  const std::size_t failing = testing::failing_group_chunk();
  const auto run = [&](std::size_t s) {
    Runtime& rt = *streams[s];
    std::size_t c = 0;
    try {
      Staging& staging = staging_of(group, rt);
      staging.reserve(rt, staging_bytes, stage_pinned(rt));
      const Mem& buffer = staging.device;
      PinnedHost* pinned = staging.pinned.get();
      for (;;) {
        {
          std::unique_lock<std::mutex> lock(order);
          if (stop || next == nchunks) return;
          c = next++;
          consumed.wait(lock, [&] { return stop || c < done + window; });
          if (stop) return;
        }
        const std::size_t first = bounds[c], count = bounds[c + 1] - first;
        if (c == failing) throw Error(CL_OUT_OF_RESOURCES, "testing: a chunk made to fail");
        for (std::size_t k = 0; k < arrays.size(); ++k) {
          const std::size_t at = staging_offset(arrays, k, capacity), bytes = count * arrays[k].element_bytes;
          const unsigned char* from = static_cast<const unsigned char*>(arrays[k].data) + first * arrays[k].element_bytes;
          if (pinned) {
            copy_pool_of(group).copy(pinned->data() + at, from, bytes);
            from = pinned->data() + at;
          }
          Commands(rt).write(buffer.get(), at, bytes, from);
        }
        P result = part(rt, buffer.get(), first, count);
        std::lock_guard<std::mutex> lock(order);
        waiting.emplace(c, std::move(result));
        for (auto it = waiting.begin(); it != waiting.end() && it->first == done; it = waiting.erase(it), ++done)
          consume(done, std::move(it->second));
        consumed.notify_all();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(order);
      if (!failure) {
        failure = std::current_exception();
        where = "device " + std::to_string(device_of[s]) + " (" + device_name(rt) + "), chunk " + std::to_string(c) + " (elements " +
                std::to_string(bounds[c]) + " .. " + std::to_string(bounds[c + 1] - 1) + ")";
      }
      stop = true;
      consumed.notify_all();
    }
  };
  std::vector<std::function<void()>> jobs;
  for (std::size_t s = 0; s < streams.size(); ++s) jobs.emplace_back([&run, s] { run(s); });
  run_on_streams(group, streams, jobs);
  if (failure) rethrow_at(failure, where);
}

// The same, every chunk's result returned in chunk order.
template <class P>
std::vector<P> spread_all(DeviceGroup& group, std::size_t n, const std::vector<HostArray>& arrays, std::size_t chunk,
                          const std::function<P(Runtime&, cl_mem, std::size_t, std::size_t)>& part) {
  const std::vector<std::size_t> bounds = fixed_chunks(n, chunk);
  std::vector<P> results(bounds.empty() ? 0 : bounds.size() - 1);
  spread<P>(group, arrays, bounds, part, [&](std::size_t c, P&& result) { results[c] = std::move(result); });
  return results;
}

}  // namespace clatomics::detail
