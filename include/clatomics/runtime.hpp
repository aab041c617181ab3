// clatomics/runtime.hpp — a device, its context and queue, and a cache of built programs.
#pragma once

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <string>

#include "clatomics/capabilities.hpp"
#include "clatomics/opencl.hpp"
#include "clatomics/options.hpp"

namespace clatomics {

class Runtime {
 public:
  // Selects a device (Options::device, else CLATOMICS_DEVICE, else GPU, else CPU) and makes a
  // context and an in-order queue with profiling enabled.
  Runtime();
  explicit Runtime(Options options);
  // Adopts the caller's context, device and queue.
  Runtime(cl::Context context, cl::Device device, cl::CommandQueue queue, Options options = {});

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return device_; }
  const cl::CommandQueue& queue() const { return queue_; }
  const Options& options() const { return options_; }
  const DeviceInfo& device_info() const { return *info_; }
  const std::string& build_options() const { return info_->build_options; }
  bool supports_double() const { return info_->doubles; }

  // Builds user_source with the snippet library prepended (and #include "clatomics/..." lines
  // expanded), with build_options() plus extra_options. Cached: the same source and options
  // build once, also when several threads ask at the same time. A failed build throws Error
  // with the whole log; user line numbers in it are the user's own (except on NVIDIA, whose
  // compiler does not honour #line: its numbers are its own count).
  cl::Program build(const std::string& user_source, const std::string& extra_options = {}) const;

  // Builds an embedded library kernel file ("kernels/reduce.cl"), cached like build().
  cl::Program build_embedded(const std::string& path, const std::string& extra_options = {}) const;

  // How many programs this runtime has compiled (cache misses).
  std::size_t build_count() const { return builds_.load(); }
  void clear_cache();

  // Throws std::invalid_argument when double ops are not available on this device.
  void require_double(const char* what) const;

 private:
  cl::Program build_cached(const std::string& full_source, const std::string& options) const;

  Options options_;
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  const DeviceInfo* info_ = nullptr;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_future<cl::Program>> cache_;
  mutable std::atomic<std::size_t> builds_{0};
};

// Builds a program from source for one device with the given options; a failure throws Error
// carrying the whole build log and the options.
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::string& source, const std::string& options);

}  // namespace clatomics
