// clatomics/device_group.hpp — several devices of one host at once: host data spread over them in
// chunks taken dynamically, and data kept resident on them (DistributedBuffer). Each algorithm's
// header declares its forms over a group (their shared contract: group_forms.hpp); this header
// includes them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/compact.hpp"
#include "clatomics/device.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/group_forms.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/options.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/reduce_by_key.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/scatter.hpp"
#include "clatomics/segment_reduce.hpp"

namespace clatomics {

class DeviceGroup;
namespace detail {
class Worker;
class CopyPool;
struct Staging;
void run_on_streams(DeviceGroup& group, const std::vector<Runtime*>& streams, const std::vector<std::function<void()>>& jobs);
std::unique_lock<std::mutex> take_turn(DeviceGroup& group);  // the group's streams, for this thread's call
Staging& staging_of(DeviceGroup& group, const Runtime& stream);
CopyPool& copy_pool_of(DeviceGroup& group);  // the host threads that share the group's staging copies
}

// Safe to call from several threads: their calls take the group's streams one after another.
// Host data goes through staging buffers each stream keeps for the group's life (on GPUs, pinned
// host memory too, filled by host threads the group keeps: Options::staging_threads): at most two
// chunks of 64 MiB per array and stream.
class DeviceGroup {
 public:
  // The devices of selector (empty: CLATOMICS_DEVICE, which may itself be a group selector such
  // as "gpu:all"), one Runtime each, made with options (its device field is ignored). Without
  // options, the environment's (Options::from_env(), as Runtime() takes them): a group made for a
  // forced-CAS run must not run the native paths.
  explicit DeviceGroup(const std::string& selector = {}, Options options = Options::from_env());
  // Adopts the caller's queues, one per device, each with its context and device; options as above.
  explicit DeviceGroup(const std::vector<cl::CommandQueue>& queues, Options options = Options::from_env());
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  std::size_t size() const;
  Runtime& runtime(std::size_t device);
  // A second runtime on the same device, context and a queue of its own: host data is streamed
  // by both, so one's copy overlaps the other's kernels. Made on first use.
  Runtime& second_stream(std::size_t device);

 private:
  struct Member;
  detail::Worker* worker_of(const Runtime& rt);  // the thread kept for that runtime's calls
  friend void detail::run_on_streams(DeviceGroup&, const std::vector<Runtime*>&, const std::vector<std::function<void()>>&);
  friend std::unique_lock<std::mutex> detail::take_turn(DeviceGroup&);
  friend detail::Staging& detail::staging_of(DeviceGroup&, const Runtime&);
  friend detail::CopyPool& detail::copy_pool_of(DeviceGroup&);
  std::vector<std::unique_ptr<Member>> members_;
  std::unique_ptr<detail::CopyPool> copiers_;  // made on the first copy into pinned staging memory
  std::mutex copiers_made_;
  std::mutex one_call_;  // calls from several threads take the group's streams in turn
};

// Copies data onto the group's devices. With width > 1, data is rows of width elements (the
// values of scatter_reduce's rows), split between rows as distribute() splits one element each:
// part d holds the rows of the elements part d of distribute(group, indices) holds, first[d] and
// count[d] counted in elements (width times the rows'). Refused (std::invalid_argument) when
// data is not whole rows (width 0: data must be empty).
template <class T>
DistributedBuffer<T> distribute(DeviceGroup& group, const std::vector<T>& data, std::size_t width = 1);

extern template DistributedBuffer<float> distribute<float>(DeviceGroup&, const std::vector<float>&, std::size_t);
extern template DistributedBuffer<double> distribute<double>(DeviceGroup&, const std::vector<double>&, std::size_t);
extern template DistributedBuffer<cl_int> distribute<cl_int>(DeviceGroup&, const std::vector<cl_int>&, std::size_t);
extern template DistributedBuffer<cl_uint> distribute<cl_uint>(DeviceGroup&, const std::vector<cl_uint>&, std::size_t);
extern template DistributedBuffer<cl_long> distribute<cl_long>(DeviceGroup&, const std::vector<cl_long>&, std::size_t);
extern template DistributedBuffer<cl_ulong> distribute<cl_ulong>(DeviceGroup&, const std::vector<cl_ulong>&, std::size_t);
extern template DistributedBuffer<std::uint8_t> distribute<std::uint8_t>(DeviceGroup&, const std::vector<std::uint8_t>&, std::size_t);
extern template DistributedBuffer<half_t> distribute<half_t>(DeviceGroup&, const std::vector<half_t>&, std::size_t);
extern template DistributedBuffer<bfloat16_t> distribute<bfloat16_t>(DeviceGroup&, const std::vector<bfloat16_t>&, std::size_t);

}  // namespace clatomics
