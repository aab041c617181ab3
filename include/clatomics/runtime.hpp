// clatomics/runtime.hpp — a device, its context and queue, and a cache of built programs.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <CL/opencl.hpp>

#include "clatomics/capabilities.hpp"
#include "clatomics/options.hpp"

namespace clatomics {

class Runtime;
namespace detail {
struct RuntimeState;
const RuntimeState& state_of(const Runtime& rt);
std::unique_ptr<Runtime> runtime_from_state(std::unique_ptr<RuntimeState> state);
}  // namespace detail

class Runtime {
 public:
  // Selects a device (Options::device, else CLATOMICS_DEVICE, else GPU, else CPU) and makes a
  // context and an in-order queue with profiling enabled.
  Runtime();
  explicit Runtime(Options options);
  // Adopts the caller's context, device and queue (each retained for the Runtime's life). The
  // queue may be out of order and need not profile; it must belong to that context and device,
  // and the device to the context, else std::invalid_argument. Without options, the
  // environment's, as Runtime() takes them (their device field is not used).
  Runtime(const cl::Context& context, const cl::Device& device, const cl::CommandQueue& queue, Options options = Options::from_env())
      : Runtime(context(), device(), queue(), std::move(options)) {}
  Runtime(cl_context context, cl_device_id device, cl_command_queue queue, Options options = Options::from_env());
  ~Runtime();

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // New OpenCL-CLHPP handles to the runtime's objects (each holds a reference of its own).
  cl::Context context() const { return cl::Context(context_handle(), true); }
  cl::Device device() const { return cl::Device(device_handle(), true); }
  cl::CommandQueue queue() const { return cl::CommandQueue(queue_handle(), true); }
  cl_context context_handle() const;
  cl_device_id device_handle() const;
  cl_command_queue queue_handle() const;

  const Options& options() const;
  const DeviceInfo& device_info() const;
  // The options every program of this runtime is built with: the device's (device_info()) and,
  // on PoCL before 7.0 beside another live Runtime, -DCLAT_POCL_INSTANCE=k (README, Threads).
  const std::string& build_options() const;
  bool supports_double() const;

  // Builds user_source with the snippet library prepended, with build_options() plus
  // extra_options. `#include "clatomics/..."` directives in user_source are already satisfied by
  // the prepended library (it has include guards), so they are blanked in place: the user's line
  // numbers stay their own in build logs (except on NVIDIA, whose compiler ignores #line).
  // Cached: the same source and options build once, also when several threads ask at the same
  // time. A failed build throws Error with the whole log.
  cl::Program build(const std::string& user_source, const std::string& extra_options = {}) const {
    return cl::Program(build_handle(user_source, extra_options), false);
  }
  // The same, returning a new reference to the cl_program (the caller releases it).
  cl_program build_handle(const std::string& user_source, const std::string& extra_options = {}) const;

  // A kernel of a built program, by name: clatomics::Error (CL_INVALID_KERNEL_NAME, listing the
  // program's kernels) when it has none of that name, whatever your CLHPP exception setting; a
  // cl::Kernel made directly from a wrong name is an invalid handle that fails later, or crashes.
  static cl::Kernel kernel(const cl::Program& program, const std::string& name) {
    return cl::Kernel(kernel_handle(program(), name), false);
  }
  // The same, returning a new cl_kernel (the caller releases it).
  static cl_kernel kernel_handle(cl_program program, const std::string& name);

  // How many programs this runtime has compiled (cache misses), how many it holds and their
  // bytes (see Options::program_cache_entries / _bytes); clear_cache() drops them all.
  std::size_t build_count() const;
  std::size_t cache_entries() const;
  std::size_t cache_bytes() const;
  void clear_cache();

  // Device scratch kept at zero for the next call (Options::scratch_cache_bytes): its bytes now;
  // release_scratch() gives it all back to the driver (calls already running keep theirs).
  std::size_t kept_scratch_bytes() const;
  void release_scratch();

 private:
  friend const detail::RuntimeState& detail::state_of(const Runtime& rt);
  friend std::unique_ptr<Runtime> detail::runtime_from_state(std::unique_ptr<detail::RuntimeState> state);
  explicit Runtime(std::unique_ptr<detail::RuntimeState> state);
  std::unique_ptr<detail::RuntimeState> state_;
};

// Builds a program from source for one device with the given options; a failure throws Error
// carrying the whole build log and the options.
cl_program build_program_handle(cl_context context, cl_device_id device, const std::string& source,
                                const std::string& options);
inline cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                                 const std::string& options) {
  return cl::Program(build_program_handle(context(), device(), source, options), false);
}

}  // namespace clatomics
