// Runtime: context, queue, the device's checked paths, and the program cache.
#include "clatomics/runtime.hpp"

#include <algorithm>
#include <stdexcept>

#include "clatomics/device.hpp"
#include "clatomics/source.hpp"
#include "core/binary_cache.hpp"
#include "core/kernel_args.hpp"
#include "core/process.hpp"
#include "core/runtime_state.hpp"
#include "core/testing.hpp"
#include "core/source_text.hpp"
#include "device/device_info_cache.hpp"

namespace clatomics {

cl_program build_program_handle(cl_context context, cl_device_id device, const std::string& source, const std::string& options) {
  // Programs built for their arguments' names stay out of the disk cache: an implementation may
  // keep no argument info in a binary. So do PoCL's, which makes binaries only when asked
  // (binary_cache.hpp says why).
  std::string cache_dir = options.find("-cl-kernel-arg-info") == std::string::npos ? detail::binary_cache_dir() : "";
  if (!cache_dir.empty() && detail::on_pocl(device)) cache_dir.clear();
  const std::string cache_key = cache_dir.empty() ? "" : detail::binary_key(device, source, options);
  if (!cache_dir.empty())
    if (detail::Program cached = detail::load_binary(cache_dir, cache_key, context, device, options)) return cached.release();
  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  detail::Program program = detail::Program::adopt(clCreateProgramWithSource(context, 1, &text, &length, &status));
  detail::check(status, "clCreateProgramWithSource");
  status = clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    std::string log;
    try {
      log = detail::info_text(
          [device](cl_program p, cl_program_build_info param, std::size_t size, void* value, std::size_t* size_ret) {
            return clGetProgramBuildInfo(p, device, param, size, value, size_ret);
          },
          program.get(), CL_PROGRAM_BUILD_LOG, "clGetProgramBuildInfo");
    } catch (const Error&) {
      log = "(no build log available)";
    }
    throw Error(status, "clBuildProgram", log.empty() ? "(empty build log)" : log, options.empty() ? "(none)" : options);
  }
  if (!cache_dir.empty()) detail::store_binary(cache_dir, cache_key, program.get());
  return program.release();
}

namespace detail {

RuntimeState::RuntimeState(Options options_in, cl_device_id device_in, Context context_in, Queue queue_in,
                           const std::vector<std::string>& failing_checks)
    : options(std::move(options_in)),
      device(Device::share(device_in)),
      context(std::move(context_in)),
      queue(std::move(queue_in)),
      pocl(on_pocl(device_in)),
      pocl_instance(pocl && pocl_mixes_launches(device_in)),
      cache(options.program_cache_entries, options.program_cache_bytes, /*weigh_binaries=*/!pocl) {
  const auto properties = detail::info<cl_command_queue_properties>(clGetCommandQueueInfo, queue.get(), CL_QUEUE_PROPERTIES,
                                                            "clGetCommandQueueInfo");
  out_of_order = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  note_opencl_set_up();
  refuse_pocl_after_fork(pocl);
  info = &cached_device_info(device.get(), options, failing_checks);
  build_options = info->build_options + pocl_instance.build_option();
  scratch.set_limit(std::size_t(std::min<cl_ulong>(options.scratch_cache_bytes, info->caps.global_mem_size / 4)));
}

RuntimeState::~RuntimeState() {
  // The next Runtime given this number must not launch a kernel of these programs while commands
  // of this one still run. (A fork()ed child has no PoCL worker threads to finish them.)
  if (pocl_instance.held() && !forked_after_opencl_set_up()) clFinish(queue.get());
}

const RuntimeState& state_of(const Runtime& rt) { return *rt.state_; }

namespace {

// key: what identifies the program besides its options (the source itself, or a shorter name
// that stands for it).
Program build_keyed(const RuntimeState& state, const std::string& key, const std::string& full_source, const std::string& extra_options) {
  std::string options = state.build_options;
  if (!extra_options.empty()) options += " " + extra_options;
  if (testing::check_kernel_args()) options += " -cl-kernel-arg-info";
  Program program = state.cache.get(options + '\0' + key, [&] {
    return Program::adopt(build_program_handle(state.context.get(), state.device.get(), full_source, options));
  });
  note_built_kernels(program);
  return program;
}

}  // namespace

Program build_cached(const RuntimeState& state, const std::string& full_source, const std::string& extra_options) {
  return build_keyed(state, full_source, full_source, extra_options);
}

Program build_library_file(const Runtime& rt, const std::string& path, const std::string& extra_options) {
  // The library's own files are fixed when it is built: their path names them, so the key is
  // not the whole expanded source (copied and hashed on every call otherwise). The leading \1
  // keeps these keys apart from any source text.
  return build_keyed(state_of(rt), "\1" + path, embedded_source(path), extra_options);
}

void require_double(const Runtime& rt, const char* what) {
  if (!rt.supports_double())
    throw std::invalid_argument(std::string("clatomics: ") + what + ": double needs cl_khr_fp64 and cl_khr_int64_base_atomics, which " +
                                rt.device_info().caps.device_name +
                                (rt.options().hide_fp64 ? " hides (Options::hide_fp64)" : " lacks"));
}

namespace {

Context context_for(cl_device_id device) {
  cl_int status = CL_SUCCESS;
  Context context = Context::adopt(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  return context;
}

Queue profiling_queue(const Context& context, cl_device_id device) {
  cl_int status = CL_SUCCESS;
  Queue queue = Queue::adopt(clCreateCommandQueue(context.get(), device, CL_QUEUE_PROFILING_ENABLE, &status));
  check(status, "clCreateCommandQueue");
  return queue;
}

// The adopted objects must belong together: commands on a queue of another context or device
// would fail only later, inside an algorithm, or run on the wrong device. The queue's own context
// and device decide (the implementation made the queue for a device of that context): a context
// need not list a sub-device it was made from (PoCL 3.1 lists another device handle, measured).
void check_adopted(cl_context context, cl_device_id device, cl_command_queue queue) {
  if (!context || !device || !queue) throw std::invalid_argument("clatomics::Runtime: null context, device or queue");
  if (info<cl_context>(clGetCommandQueueInfo, queue, CL_QUEUE_CONTEXT, "clGetCommandQueueInfo") != context)
    throw std::invalid_argument("clatomics::Runtime: the queue belongs to another OpenCL context than the one given");
  if (info<cl_device_id>(clGetCommandQueueInfo, queue, CL_QUEUE_DEVICE, "clGetCommandQueueInfo") != device)
    throw std::invalid_argument("clatomics::Runtime: the queue belongs to another device than the one given");
}

}  // namespace

std::unique_ptr<RuntimeState> make_state(Options options, const std::vector<std::string>& failing_checks) {
  if (options.device.empty()) options.device = device_selector_from_env();
  const cl_device_id device = select_device_id(options.device);
  Context context = context_for(device);
  Queue queue = profiling_queue(context, device);
  return std::make_unique<RuntimeState>(std::move(options), device, std::move(context), std::move(queue), failing_checks);
}

}  // namespace detail

Runtime::Runtime() : Runtime(Options::from_env()) {}

Runtime::Runtime(Options options) : state_(detail::make_state(std::move(options), {})) {}

Runtime::Runtime(cl_context context, cl_device_id device, cl_command_queue queue, Options options) {
  detail::check_adopted(context, device, queue);
  state_ = std::make_unique<detail::RuntimeState>(std::move(options), device, detail::Context::share(context),
                                                  detail::Queue::share(queue));
}

Runtime::Runtime(std::unique_ptr<detail::RuntimeState> state) : state_(std::move(state)) {}

std::unique_ptr<Runtime> detail::runtime_from_state(std::unique_ptr<RuntimeState> state) {
  return std::unique_ptr<Runtime>(new Runtime(std::move(state)));
}

Runtime::~Runtime() = default;

cl_context Runtime::context_handle() const { return state_->context.get(); }
cl_device_id Runtime::device_handle() const { return state_->device.get(); }
cl_command_queue Runtime::queue_handle() const { return state_->queue.get(); }
const Options& Runtime::options() const { return state_->options; }
const DeviceInfo& Runtime::device_info() const { return *state_->info; }
const std::string& Runtime::build_options() const { return state_->build_options; }
bool Runtime::supports_double() const { return state_->info->doubles; }

cl_program Runtime::build_handle(const std::string& user_source, const std::string& extra_options) const {
  // #line makes the compiler count the user's lines from 1 in a file it names "<user source>", so
  // its log points into user code.
  return detail::build_cached(*state_, source() + "#line 1 \"<user source>\"\n" + detail::blank_library_includes(user_source),
                              extra_options)
      .release();
}

cl_kernel Runtime::kernel_handle(cl_program program, const std::string& name) {
  if (!program) throw std::invalid_argument("clatomics: Runtime::kernel(\"" + name + "\"): a null program");
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name.c_str(), &status);
  if (status == CL_SUCCESS) return kernel;
  std::string names;  // "a;b;c", or nothing where the program cannot say
  std::size_t bytes = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &bytes) == CL_SUCCESS && bytes > 1) {
    std::string text(bytes, '\0');
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, bytes, text.data(), nullptr) == CL_SUCCESS) names = text.c_str();
  }
  std::string listed;
  for (const char c : names) listed += c == ';' ? std::string(", ") : std::string(1, c);
  throw Error(status, "clCreateKernel(\"" + name + "\") [the program's kernels: " + (listed.empty() ? "unknown" : listed) + "]");
}

std::size_t Runtime::build_count() const { return state_->cache.builds(); }
std::size_t Runtime::cache_entries() const { return state_->cache.entries(); }
std::size_t Runtime::cache_bytes() const { return state_->cache.bytes(); }
void Runtime::clear_cache() { state_->cache.clear(); }
std::size_t Runtime::kept_scratch_bytes() const { return state_->scratch.kept_bytes(); }
void Runtime::release_scratch() { state_->scratch.release(); }

}  // namespace clatomics
