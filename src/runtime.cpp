// Runtime: context, queue, and the program cache.
#include "clatomics/runtime.hpp"

#include <stdexcept>

#include "clatomics/device.hpp"
#include "clatomics/error.hpp"
#include "clatomics/source.hpp"

namespace clatomics {

cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                          const std::string& options) {
  cl::Program program = checked("clCreateProgramWithSource", [&] { return cl::Program(context, source); });
  // Built explicitly: CLHPP's auto-building constructor would force -cl-std=CL2.0.
  const cl_int status = clBuildProgram(program(), 1, &device(), options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
      log = "(no build log available)";
    }
    throw Error(status, "clBuildProgram", log.empty() ? "(empty build log)" : log, options.empty() ? "(none)" : options);
  }
  return program;
}

Runtime::Runtime() : Runtime(Options::from_env()) {}

Runtime::Runtime(Options options) : options_(std::move(options)) {
  if (options_.device.empty()) options_.device = device_selector_from_env();
  device_ = select_device(options_.device);
  context_ = checked("clCreateContext", [&] { return cl::Context(device_); });
  queue_ = checked("clCreateCommandQueue", [&] { return cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE); });
  info_ = &clatomics::device_info(device_, options_);
}

Runtime::Runtime(cl::Context context, cl::Device device, cl::CommandQueue queue, Options options)
    : options_(std::move(options)), device_(std::move(device)), context_(std::move(context)), queue_(std::move(queue)) {
  if (!context_() || !device_() || !queue_()) throw std::invalid_argument("clatomics::Runtime: null context, device or queue");
  info_ = &clatomics::device_info(device_, options_);
}

cl::Program Runtime::build(const std::string& user_source, const std::string& extra_options) const {
  // #line makes the compiler count the user's lines from 1, so its log points into user code.
  return build_cached(source() + "#line 1\n" + expand_includes(user_source), extra_options);
}

cl::Program Runtime::build_embedded(const std::string& path, const std::string& extra_options) const {
  return build_cached(embedded_source(path), extra_options);
}

cl::Program Runtime::build_cached(const std::string& full_source, const std::string& extra_options) const {
  const std::string options = extra_options.empty() ? build_options() : build_options() + " " + extra_options;
  const std::string key = options + '\0' + full_source;
  std::promise<cl::Program> promise;
  std::shared_future<cl::Program> future;
  bool builder = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(key);
    builder = it == cache_.end();
    future = builder ? cache_.emplace(key, promise.get_future().share()).first->second : it->second;
  }
  if (!builder) return future.get();  // built, or being built by another thread: wait, unlocked
  try {
    ++builds_;
    promise.set_value(build_program(context_, device_, full_source, options));
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cache_.erase(key);  // a failed build is not cached: the next call tries again
    }
    promise.set_exception(std::current_exception());
  }
  return future.get();
}

void Runtime::clear_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  cache_.clear();
}

void Runtime::require_double(const char* what) const {
  if (!supports_double())
    throw std::invalid_argument(std::string("clatomics: ") + what + ": double needs cl_khr_fp64 and cl_khr_int64_base_atomics, which " +
                                device_info().caps.device_name + (options_.hide_fp64 ? " hides (Options::hide_fp64)" : " lacks"));
}

}  // namespace clatomics
