// One engine for every algorithm over a device group: host data spread in chunks over the
// group's streams (group_spread.hpp), or data resident on the devices worked on by all of them at
// once; either way the parts' results merge in element order.
//
// An algorithm comes as a descriptor D: a small struct holding one call (its data, its options)
// with
//   using Part = ...;   the result of one chunk or one device's part
//   using Total = ...;  the parts merged so far
//   Total start(Runtime& rt) const;  checks the call on the group's first device (refusing with
//                                    std::invalid_argument before anything runs) and gives the
//                                    total of no data
//   Part part(Runtime& rt, const std::vector<At>& arrays, std::uint64_t first, std::size_t count) const;
//                                    the result of elements first .. first + count - 1, each of
//                                    the call's arrays at arrays[k] in rt's context
//   void merge(Total& total, Part&& part) const;  parts arrive in element order
// and, for host data,
//   std::vector<HostArray> host() const;   the call's arrays, each of size() elements
//   std::size_t size() const;
//   std::size_t device_bytes() const;      per element, the device buffers part() makes
// and, optionally, static constexpr std::size_t multiple: chunks hold a multiple of it elements
// (else reduce_tile, whole deterministic tiles); and, optionally,
//   std::vector<std::size_t> chunk_bounds(std::size_t chunk) const;
//                                    where its chunks start and end (chunk c: elements bounds[c]
//                                    .. bounds[c + 1] - 1, in order, each of at most chunk
//                                    elements, fixed by the data alone), where the call's
//                                    results are better for chunks cut there than every chunk
//                                    elements (else fixed_chunks(size(), chunk)).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clatomics/device_group.hpp"
#include "clatomics/error.hpp"
#include "clatomics/algorithms.hpp"
#include "core/buffer_checks.hpp"
#include "core/testing.hpp"
#include "groups/group_spread.hpp"

namespace clatomics::detail {

// One array of a part: its buffer, the value its part starts at, the size of its values
// (resident data: for the checks made before anything runs) and how many values make one
// element of the call (scatter's rows of width values; 1 for every other array).
struct At {
  cl_mem buffer;
  std::size_t offset;
  std::size_t element_bytes = 0;
  std::size_t width = 1;
};

template <class E>
HostArray host_array(const std::vector<E>& v) {
  return {v.data(), sizeof(E)};
}

template <class D, class = void>
struct chunk_multiple {
  static constexpr std::size_t value = reduce_tile;
};
template <class D>
struct chunk_multiple<D, std::void_t<decltype(D::multiple)>> {
  static constexpr std::size_t value = D::multiple;
};

template <class D, class = void>
struct has_chunk_bounds : std::false_type {};
template <class D>
struct has_chunk_bounds<D, std::void_t<decltype(std::declval<const D&>().chunk_bounds(std::size_t(1)))>> : std::true_type {};

// The chunks run_spread cuts the descriptor's data into, as bounds (host() is asked only for its
// arrays' element sizes, so resident data's descriptors may give null data).
template <class D>
std::vector<std::size_t> spread_chunks(DeviceGroup& group, const D& call) {
  const std::size_t chunk = group_chunk(group, call.size(), call.host(), chunk_multiple<D>::value, call.device_bytes());
  if constexpr (has_chunk_bounds<D>::value) {
    return call.chunk_bounds(chunk);
  } else {
    return fixed_chunks(call.size(), chunk);
  }
}

// The descriptor's host data over the group, chunks of whole deterministic tiles (every tile's
// value lands where one pass puts it).
template <class D>
typename D::Total run_spread(DeviceGroup& group, const D& call) {
  typename D::Total total = call.start(group.runtime(0));
  if (call.size() == 0) return total;
  const std::vector<HostArray> arrays = call.host();
  const std::vector<std::size_t> bounds = spread_chunks(group, call);
  std::vector<At> at;  // each array's first value in a stream's staging buffer (64-byte aligned: a whole value)
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const std::size_t value_bytes = arrays[k].element_bytes / arrays[k].width;
    at.push_back({nullptr, staging_offset(arrays, k, largest_chunk(bounds)) / value_bytes, value_bytes, arrays[k].width});
  }
  spread<typename D::Part>(
      group, arrays, bounds,
      [&](Runtime& rt, cl_mem staged, std::size_t first, std::size_t count) {
        std::vector<At> staged_at = at;
        for (At& a : staged_at) a.buffer = staged;
        return call.part(rt, staged_at, first, count);
      },
      [&](std::size_t, typename D::Part&& part) { call.merge(total, std::move(part)); });
  return total;
}

// Refuses (std::invalid_argument) a DistributedBuffer that is not laid out as distribute() lays
// it out over this group.
void check_layout(DeviceGroup& group, const std::vector<cl::Buffer>& parts, const std::vector<std::size_t>& first,
                  const std::vector<std::size_t>& count, std::size_t size);
template <class T>
void check_layout(DeviceGroup& group, const DistributedBuffer<T>& data) {
  check_layout(group, data.parts, data.first, data.count, data.size);
}
// Refuses arrays of one call that are not laid out alike (the same elements on the same devices).
template <class A, class B>
void check_same_layout(const char* what, const DistributedBuffer<A>& a, const DistributedBuffer<B>& b) {
  if (a.first != b.first || a.count != b.count)
    throw std::invalid_argument(std::string("clatomics: ") + what + ": the DistributedBuffers are not laid out alike (distribute() both over one group)");
}

// Runs job(d) for every device d at once, each on its device's own thread; the first failure is
// thrown, naming its device and what elements(d) says it was working on (when given), once every
// job has ended.
void on_every_device(DeviceGroup& group, const std::function<void(std::size_t)>& job,
                     const std::function<std::string(std::size_t)>& elements = {});
// "elements a .. b" (a one-device call's positions count from a).
std::string elements_of(std::size_t first, std::size_t count);

// Every part's buffer (its device's context, its size, its flags, where its host memory lies):
// a part of another group or context is refused before any device runs anything.
void check_parts(DeviceGroup& group, const std::vector<std::vector<At>>& arrays, const std::vector<std::size_t>& count);

// The descriptor over data resident on the group: arrays[d] holds device d's part of each of the
// call's arrays, its elements first[d] .. first[d] + count[d] - 1 (checked by the caller).
template <class D>
typename D::Total run_resident(DeviceGroup& group, const D& call, const std::vector<std::vector<At>>& arrays,
                               const std::vector<std::size_t>& first, const std::vector<std::size_t>& count) {
  check_parts(group, arrays, count);
  typename D::Total total = call.start(group.runtime(0));
  std::vector<typename D::Part> parts(group.size());
  on_every_device(
      group, [&](std::size_t d) { parts[d] = call.part(group.runtime(d), arrays[d], first[d], count[d]); },
      [&](std::size_t d) { return elements_of(first[d], count[d]); });
  for (auto& part : parts) call.merge(total, std::move(part));
  return total;
}

// The chunks run_spread would cut resident data into: each run by the device that holds its
// first element, and one that spans parts copied out of them (through the host) first, one
// byte vector per array. Chunk c holds elements bounds[c] .. bounds[c + 1] - 1.
struct ResidentChunk {
  std::size_t device = 0;
  std::vector<std::vector<unsigned char>> copied;  // empty: the chunk lies in its device's part
};
std::vector<ResidentChunk> resident_chunks(DeviceGroup& group, const std::vector<std::vector<At>>& arrays,
                                           const std::vector<std::size_t>& first, const std::vector<std::size_t>& count,
                                           const std::vector<std::size_t>& bounds);

// The descriptor over resident data in run_spread's chunks, merged in chunk order: every
// result that depends on how the data is chunked (a deterministic float sum rounded once per
// chunk) has the bits the same data gives over host data. The devices run their chunks at once;
// a chunk that spans two parts is first copied through the host onto the device that runs it.
template <class D>
typename D::Total run_resident_chunks(DeviceGroup& group, const D& call, const std::vector<std::vector<At>>& arrays,
                                      const std::vector<std::size_t>& first, const std::vector<std::size_t>& count) {
  check_parts(group, arrays, count);
  typename D::Total total = call.start(group.runtime(0));
  if (call.size() == 0) return total;
  const std::vector<std::size_t> bounds = spread_chunks(group, call);
  const std::vector<ResidentChunk> chunks = resident_chunks(group, arrays, first, count, bounds);
  // A chunk's result joins the total once every earlier chunk's has: a later device's results
  // are held until the earlier devices' chunks are done.
  std::mutex order;
  std::size_t next = 0;
  std::map<std::size_t, typename D::Part> waiting;
  std::vector<std::size_t> running(group.size());  // each device's chunk
  std::atomic<bool> failed{false};                 // after a failure the other devices stop at their next chunk
  const auto job = [&](std::size_t d) {
    Runtime& rt = group.runtime(d);
    for (std::size_t c = 0; c < chunks.size() && !failed; ++c) {
      if (chunks[c].device != d) continue;
      running[d] = c;
      const std::size_t at_element = bounds[c], m = bounds[c + 1] - at_element;
      std::vector<At> at = arrays[d];
      std::vector<Mem> copies;
      for (std::size_t k = 0; k < at.size(); ++k) {
        if (chunks[c].copied.empty()) {
          at[k].offset += (at_element - first[d]) * at[k].width;
        } else {
          const std::vector<unsigned char>& bytes = chunks[c].copied[k];
          copies.push_back(make_buffer(rt, bytes.size(), CL_MEM_READ_ONLY, bytes.empty() ? nullptr : bytes.data()));
          at[k].buffer = copies.back().get(), at[k].offset = 0;
        }
      }
      typename D::Part part;
      try {
        if (c == testing::failing_group_chunk()) throw Error(CL_OUT_OF_RESOURCES, "testing: a chunk made to fail");
        part = call.part(rt, at, at_element, m);
      } catch (...) {
        failed = true;
        throw;
      }
      std::lock_guard<std::mutex> lock(order);
      waiting.emplace(c, std::move(part));
      for (auto it = waiting.begin(); it != waiting.end() && it->first == next; it = waiting.erase(it), ++next)
        call.merge(total, std::move(it->second));
    }
  };
  on_every_device(group, job, [&](std::size_t d) {
    const std::size_t c = running[d];
    return "chunk " + std::to_string(c) + " (" + elements_of(bounds[c], bounds[c + 1] - bounds[c]) + ")";
  });
  return total;
}

// The parts of DistributedBuffers laid out alike, device by device.
template <class T, class... More>
std::vector<std::vector<At>> resident_arrays(const DistributedBuffer<T>& data, const DistributedBuffer<More>&... more) {
  std::vector<std::vector<At>> arrays(data.parts.size());
  for (std::size_t d = 0; d < arrays.size(); ++d) arrays[d] = {At{data.parts[d](), 0, sizeof(T)}, At{more.parts[d](), 0, sizeof(More)}...};
  return arrays;
}

}  // namespace clatomics::detail
