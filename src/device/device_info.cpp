// Trust, then verify: which native paths a device gets, and the build options that follow.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "core/cl_handles.hpp"
#include "core/kernel_args.hpp"
#include "clatomics/capabilities.hpp"
#include "clatomics/runtime.hpp"
#include "core/runtime_state.hpp"
#include "core/source_text.hpp"
#include "core/testing.hpp"
#include "device/device_info_cache.hpp"
#include "device/native_checks.hpp"
#include "device/native_table.hpp"
#include "device/op_paths.hpp"

namespace clatomics {
namespace detail {
namespace {

std::string first_lines(const std::string& text, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < count && end != std::string::npos; ++i) end = text.find('\n', end + (i ? 1 : 0));
  return end == std::string::npos ? text : text.substr(0, end);
}

bool forced_to_fail(const std::vector<std::string>& failing, const Slot& slot) {
  return std::any_of(failing.begin(), failing.end(), [&](const std::string& name) { return name == "all" || name == slot.name; });
}

Program build(const Context& context, cl_device_id device, const std::string& source, const std::string& options) {
  const bool arg_info = testing::check_kernel_args();  // the kernel-argument test compares the probes' kernels too
  Program program = Program::adopt(build_program_handle(context.get(), device, source, arg_info ? options + " -cl-kernel-arg-info" : options));
  note_built_kernels(program);
  return program;
}

// Builds the check program; on a build failure, finds the one native path whose macro, turned
// off, lets it build (e.g. an instruction this GPU's assembler rejects) and records that.
// Throws the first build's error when no single path explains the failure (or bisect is off).
Program build_checks(const Context& context, cl_device_id device, const std::string& source, const std::string& options,
                     std::string& disabled, std::vector<NativeCheck>& checks, bool bisect) {
  try {
    return build(context, device, source, options + disabled);
  } catch (const Error& first) {
    if (!bisect) throw;
    for (const auto& slot : slots())
      for (const Path path : slot.natives) {
        const std::string option = disable_option(slot, path);
        if ((disabled + " ").find(option + " ") != std::string::npos) continue;
        Program program;
        try {
          program = build(context, device, source, options + disabled + option);
        } catch (const Error&) {
          continue;
        }
        checks.push_back({slot.name, path, false, "the check program did not build with it: " + first_lines(first.build_log(), 3)});
        disabled += option;
        return program;
      }
    throw;
  }
}

std::vector<int> probe_paths(const Context& context, cl_command_queue queue, const Program& program) {
  std::vector<int> codes(slots().size(), 0);
  cl_int status = CL_SUCCESS;
  Mem out = Mem::adopt(clCreateBuffer(context.get(), CL_MEM_WRITE_ONLY, codes.size() * sizeof(cl_int), nullptr, &status));
  check(status, "clCreateBuffer");
  static const Signature signature{"clat_probe_paths", "global out"};
  const LibraryKernel probe = make_kernel(program, signature);
  bind(probe, arg("out", out));
  const std::size_t one = 1;
  check(clEnqueueNDRangeKernel(queue, probe.get(), 1, nullptr, &one, nullptr, 0, nullptr, nullptr), "running clat_probe_paths");
  check(clEnqueueReadBuffer(queue, out.get(), CL_TRUE, 0, codes.size() * sizeof(cl_int), codes.data(), 0, nullptr, nullptr),
        "reading clat_probe_paths");
  return codes;
}

// cl_ext_float_atomics as the device's queries report it, for compilers that announce the
// extension without OpenCL C 3.0's feature macros (Intel's CPU runtime). config.cl takes either;
// the native checks then prove each path as usual.
std::string float_atomic_macros(const Capabilities& caps) {
  std::string macros;
  const auto add = [&](cl_bitfield bits, const char* type) {
    if (bits & Capabilities::fp_atomic_global_add) macros += std::string(" -DCLAT_EXT_") + type + "_GLOBAL_ADD";
    if (bits & Capabilities::fp_atomic_local_add) macros += std::string(" -DCLAT_EXT_") + type + "_LOCAL_ADD";
  };
  add(caps.fp32_atomics, "FP32");
  add(caps.fp64_atomics, "FP64");
  return macros;
}

// Implementations known to hang in sub-group aggregation, where a check cannot help (a kernel
// that never returns, measured on PoCL 5.0's CPU device): the reason, or "" where none is known.
std::string known_subgroup_hang(const Capabilities& caps) {
  int major = 0, minor = 0;
  const auto at = caps.platform_version.find("PoCL ");
  if (at == std::string::npos || std::sscanf(caps.platform_version.c_str() + at, "PoCL %d.%d", &major, &minor) != 2) return {};
  if (major >= 6) return {};
  return "not tried: PoCL " + std::to_string(major) + "." + std::to_string(minor) +
         " hangs in sub-group aggregation (measured on PoCL 5.0); the plain ops are used";
}

// The largest __local allocation (a multiple of 4 bytes, at least half the reported size) that
// a one-item work-group launches with and runs: the reported size first (one launch where it
// holds), else a binary search down. A refused launch is CL_OUT_OF_RESOURCES at the enqueue.
cl_ulong usable_local_memory(const Context& context, cl_command_queue queue, const Program& program, cl_ulong reported) {
  cl_int status = CL_SUCCESS;
  Mem out = Mem::adopt(clCreateBuffer(context.get(), CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &status));
  check(status, "clCreateBuffer");
  static const Signature signature{"clat_probe_local", "local room, global out"};
  const LibraryKernel kernel = make_kernel(program, signature);
  const auto launches = [&](cl_ulong bytes) {
    // A size the device refuses fails here or at the launch: no exception, a smaller try.
    if (clSetKernelArg(kernel.get(), param_index(signature, "room"), std::size_t(bytes), nullptr) != CL_SUCCESS) return false;
    set_arg(kernel.get(), param_index(signature, "out"), out);
    const std::size_t one = 1;
    if (clEnqueueNDRangeKernel(queue, kernel.get(), 1, nullptr, &one, &one, 0, nullptr, nullptr) != CL_SUCCESS) return false;
    return clFinish(queue) == CL_SUCCESS;
  };
  cl_ulong good = reported / 8 * 4, bad = reported / 4 * 4 + 4;  // in multiples of 4 bytes
  if (launches(bad - 4)) return bad - 4;
  bad -= 4;
  while (bad - good > 4) {
    const cl_ulong mid = (good + bad) / 8 * 4;
    (launches(mid) ? good : bad) = mid;
  }
  return good;
}

DeviceInfo compute_device_info(cl_device_id device, const Options& options, const std::vector<std::string>& failing) {
  DeviceInfo info;
  info.caps = detect_capabilities(device);
  const auto& caps = info.caps;
  info.doubles = caps.fp64 && caps.int64_base_atomics && !options.hide_fp64;
  // Sub-group aggregation needs the shuffles; they need OpenCL C 2.0 or later.
  const bool offers_subgroups = caps.subgroups && caps.subgroup_shuffle && caps.opencl_c_max >= 200;
  const std::string subgroup_quirk = offers_subgroups ? known_subgroup_hang(caps) : std::string();
  const bool subgroups = options.subgroup_aggregation && offers_subgroups && subgroup_quirk.empty();
  std::string base;
  if (caps.opencl_c_max >= 300 && (caps.ext_float_atomics || subgroups))
    base += " -cl-std=CL3.0";
  else if (subgroups)
    base += " -cl-std=CL2.0";
  if (caps.opencl_c_max >= 300) base += float_atomic_macros(caps);
  if (subgroups) base += " -DCLAT_SUBGROUPS";
  if (caps.nvidia) base += " -DCLAT_NVIDIA_PTX";
  if (!info.doubles) base += " -DCLAT_NO_FP64";
  if (options.force_cas) base += " -DCLAT_FORCE_CAS";

  cl_int status = CL_SUCCESS;
  const Context context = Context::adopt(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  const Queue queue = Queue::adopt(clCreateCommandQueue(context.get(), device, 0, &status));
  check(status, "clCreateCommandQueue");
  const std::string check_source = embedded_source("kernels/native_checks.cl");
  const std::size_t group = std::min<std::size_t>(64, caps.max_work_group_size);
  if (options.atomic_first_read) base += " -DCLAT_ATOMIC_FIRST_READ";
  std::string disabled;
  Probe probe;
  probe.codes.assign(slots().size(), 0);
  probe.forced = options.force_cas;
  if (!subgroup_quirk.empty() && options.subgroup_aggregation && !options.force_cas)
    probe.checks.push_back({"agg", Path::subgroup, false, subgroup_quirk});
  // Each round probes the chosen paths and checks the native ones not yet checked; a failure
  // disables that path, which may expose the next one (ptx -> ext -> cas, warp -> sub-group ->
  // plain, red -> plain), so the rounds go on until one round fails nothing: the codes are then
  // those of the final options. Each failure adds a macro, so this ends.
  for (int round = 0; round < 32; ++round) {
    Program program;
    try {
      program = build_checks(context, device, check_source, base, disabled, probe.checks, !options.force_cas);
    } catch (const Error& e) {
      if (options.force_cas) throw;
      for (const auto& slot : slots())
        probe.checks.push_back({slot.name, Path::cas, false, "check program did not build: " + first_lines(e.build_log(), 3)});
      base += " -DCLAT_FORCE_CAS";
      disabled.clear();
      continue;
    }
    probe.codes = probe_paths(context, queue.get(), program);
    if (!info.local_mem_usable) info.local_mem_usable = usable_local_memory(context, queue.get(), program, caps.local_mem_size);
    const CheckTarget target{context.get(), queue.get(), program.get(), group, info.doubles};
    bool failed = false;
    for (std::size_t s = 0; s < slots().size(); ++s) {
      const Slot& slot = slots()[s];
      if (probe.codes[s] < 0 || !is_native(slot, Path(probe.codes[s]))) continue;  // fallback, or type absent
      const Path path = Path(probe.codes[s]);
      const bool done = std::any_of(probe.checks.begin(), probe.checks.end(),
                                    [&](const NativeCheck& c) { return c.slot == slot.name && c.path == path; });
      if (done) continue;
      NativeCheck check{slot.name, path, false, {}};
      if (forced_to_fail(failing, slot)) {
        check.why = "failed on purpose (a test's failing check)";
      } else if (!options.native_checks) {
        check.why = "not checked (Options::native_checks is off), so not used";
      } else {
        const CheckResult result = run_check(target, slot);
        check.why = result.why;
        check.flushes_subnormals = result.flushes_subnormals;
        if (check.why.empty() && result.flushes_subnormals && options.exact_subnormals)
          check.why = "flushes subnormals to zero, and Options::exact_subnormals asks for IEEE results";
      }
      check.passed = check.why.empty();
      if (!check.passed) {
        disabled += disable_option(slot, path);
        failed = true;
      }
      probe.checks.push_back(check);
    }
    if (!failed) break;
  }
  info.checks = probe.checks;
  for (const auto& c : probe.checks)  // only if the rounds ran out: a failed path is off all the same
    for (std::size_t s = 0; s < slots().size(); ++s)
      if (!c.passed && c.slot == slots()[s].name && probe.codes[s] == int(c.path)) probe.codes[s] = int(slots()[s].fallback);
  info.build_options = (base + disabled).empty() ? "" : (base + disabled).substr(1);
  info.paths = op_paths(probe, info.doubles);
  info.variant_paths = variant_paths(probe, info.paths, caps, info.doubles);
  return info;
}

}  // namespace

const DeviceInfo& cached_device_info(cl_device_id device, const Options& options, const std::vector<std::string>& failing) {
  static std::mutex mutex;
  static std::map<std::pair<cl_device_id, std::string>, std::unique_ptr<DeviceInfo>> cache;
  std::string key = std::to_string(options.force_cas) + std::to_string(options.hide_fp64) +
                    std::to_string(options.subgroup_aggregation) + std::to_string(options.exact_subnormals) +
                    std::to_string(options.native_checks) + std::to_string(options.atomic_first_read);
  for (const auto& name : failing) key += "," + name;
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[{device, key}];
  if (!entry) entry = std::make_unique<DeviceInfo>(compute_device_info(device, options, failing));
  return *entry;
}

}  // namespace detail

const DeviceInfo& device_info(cl_device_id device, const Options& options) { return detail::cached_device_info(device, options); }

std::string build_options(cl_device_id device, const Options& options) { return device_info(device, options).build_options; }

std::vector<testing::NativeSlot> testing::native_slots() {
  std::vector<NativeSlot> all;
  for (const auto& s : detail::slots()) all.push_back({s.name, s.macro, s.check, s.type, s.space, s.fallback, s.natives});
  return all;
}

testing::CheckOutcome testing::run_native_check(const Runtime& rt, const std::string& slot_name, const std::string& extra_options) {
  const detail::Slot& slot = detail::slot_named(slot_name);
  if (std::string(slot.type) == "double" && !rt.supports_double())
    throw std::invalid_argument("clatomics: run_native_check: slot '" + slot_name + "' needs double, which this device lacks");
  const detail::Program program = detail::build_library_file(rt, "kernels/native_checks.cl", extra_options);
  const auto& state = detail::state_of(rt);
  const std::size_t group = std::min<std::size_t>(64, rt.device_info().caps.max_work_group_size);
  const auto result = detail::run_check({state.context.get(), state.queue.get(), program.get(), group, rt.supports_double()}, slot);
  return {result.why.empty(), result.why, result.flushes_subnormals};
}

}  // namespace clatomics
