// Trust, then verify: which native paths a device gets, and the build options that follow.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

#include "clatomics/capabilities.hpp"
#include "clatomics/error.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/source.hpp"

namespace clatomics {
namespace {

// The slots whose path config.cl chooses, in the order clat_probe_paths reports them.
struct Slot {
  const char* name;    // also the check kernel's name after "check_"
  const char* macro;   // CLAT_NO_<PATH>_<macro> disables its native path
  const char* op;      // "add" (add and sub) or "minmax" (min and max)
  const char* type;
  const char* space;
};
constexpr Slot slots[] = {
    {"add_float_global", "ADD_FLOAT_GLOBAL", "add", "float", "global"},
    {"add_float_local", "ADD_FLOAT_LOCAL", "add", "float", "local"},
    {"add_double_global", "ADD_DOUBLE_GLOBAL", "add", "double", "global"},
    {"add_double_local", "ADD_DOUBLE_LOCAL", "add", "double", "local"},
    {"minmax_float_global", "MINMAX_FLOAT_GLOBAL", "minmax", "float", "global"},
    {"minmax_float_local", "MINMAX_FLOAT_LOCAL", "minmax", "float", "local"},
    {"minmax_double_global", "MINMAX_DOUBLE_GLOBAL", "minmax", "double", "global"},
    {"minmax_double_local", "MINMAX_DOUBLE_LOCAL", "minmax", "double", "local"},
};
constexpr std::size_t slot_count = sizeof(slots) / sizeof(slots[0]);

std::string upper(std::string text) {
  for (auto& c : text) c = char(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

template <class T>
T negative_nan() {
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t bits = 0xffc00000u;
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  } else {
    const std::uint64_t bits = 0xfff8000000000000ull;
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Runs check_add_<type>_<space>: n adds of 1 to one cell; olds must be exactly 0..n-1.
template <class T>
std::string check_add(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                      const Slot& slot, std::size_t group) {
  const bool local = std::strcmp(slot.space, "local") == 0;
  const std::size_t n = local ? group : 4 * group;
  std::vector<T> cell(n / group, T(0)), olds(n, T(-1));
  cl::Buffer cell_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cell.size() * sizeof(T), cell.data());
  cl::Buffer olds_buf(context, CL_MEM_READ_WRITE, n * sizeof(T));
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, cell_buf);
  kernel.setArg(1, olds_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
  queue.enqueueReadBuffer(cell_buf, CL_TRUE, 0, cell.size() * sizeof(T), cell.data());
  queue.enqueueReadBuffer(olds_buf, CL_TRUE, 0, n * sizeof(T), olds.data());
  if (cell[0] != T(local ? group : n))
    return "sum " + std::to_string(double(cell[0])) + ", expected " + std::to_string(local ? group : n);
  std::sort(olds.begin(), olds.end());
  for (std::size_t i = 0; i < n; ++i)
    if (olds[i] != T(i)) return "returned old values are not exactly 0..n-1";
  return {};
}

// Runs check_minmax_<type>_<space>: min/max from NaN starts of a known set, and of +-0.
template <class T>
std::string check_minmax(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                         const Slot& slot, std::size_t group) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> vals = {T(3), T(-0.0), T(0), nan, T(-2.5), T(7.25), T(1.5), T(-1), T(0.5), T(-7), T(2), negative_nan<T>()};
  std::vector<T> cells = {negative_nan<T>(), nan, nan, negative_nan<T>(), T(0), T(-0.0)};
  const std::vector<T> expected = {T(-7), T(7.25), T(-7), T(7.25), T(-0.0), T(0)};
  cl::Buffer cells_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells.size() * sizeof(T), cells.data());
  cl::Buffer vals_buf(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, vals.size() * sizeof(T),
                      const_cast<T*>(vals.data()));
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, cells_buf);
  kernel.setArg(1, vals_buf);
  kernel.setArg(2, cl_uint(vals.size()));
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(group), cl::NDRange(group));
  queue.enqueueReadBuffer(cells_buf, CL_TRUE, 0, cells.size() * sizeof(T), cells.data());
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (!same_bits(cells[i], expected[i]))
      return "cell " + std::to_string(i) + " holds " + std::to_string(double(cells[i])) + ", expected " +
             std::to_string(double(expected[i]));
  return {};
}

std::string run_check(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                      const Slot& slot, std::size_t group) {
  const bool is_double = std::strcmp(slot.type, "double") == 0;
  const bool is_add = std::strcmp(slot.op, "add") == 0;
  try {
    if (is_add)
      return is_double ? check_add<double>(context, queue, program, slot, group)
                       : check_add<float>(context, queue, program, slot, group);
    return is_double ? check_minmax<double>(context, queue, program, slot, group)
                     : check_minmax<float>(context, queue, program, slot, group);
  } catch (const cl::Error& e) {
    return std::string(e.what()) + " failed: " + error_name(e.err());
  }
}

bool forced_to_fail(const Options& options, const Slot& slot) {
  for (const auto& name : options.fail_checks)
    if (name == "all" || name == slot.name) return true;
  return false;
}

std::string first_lines(const std::string& text, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < count && end != std::string::npos; ++i) end = text.find('\n', end + (i ? 1 : 0));
  return end == std::string::npos ? text : text.substr(0, end);
}

std::vector<OpPath> op_paths(const std::vector<int>& codes, const std::vector<NativeCheck>& checks, bool doubles) {
  static const char* ops[] = {"add", "sub", "mul", "div", "mad", "min", "max", "xchg", "cmpxchg"};
  std::vector<OpPath> paths;
  for (const char* type : {"float", "double"}) {
    if (!doubles && std::strcmp(type, "double") == 0) continue;
    for (const char* space : {"global", "local"}) {
      for (const char* op : ops) {
        OpPath p{op, type, space, Path::cas, {}};
        const std::string family = (p.op == "add" || p.op == "sub") ? "add" : (p.op == "min" || p.op == "max") ? "minmax" : "";
        if (p.op == "xchg" || p.op == "cmpxchg") p.path = Path::hardware;
        for (std::size_t s = 0; s < slot_count && !family.empty(); ++s) {
          if (family != slots[s].op || p.type != slots[s].type || p.space != slots[s].space) continue;
          p.path = Path(std::max(codes[s], 0));
          for (const auto& c : checks)
            if (c.slot == slots[s].name && !c.passed) p.note = std::string(path_name(c.path)) + " check failed: " + c.why;
        }
        paths.push_back(p);
      }
    }
  }
  return paths;
}

DeviceInfo compute_device_info(const cl::Device& device, const Options& options) {
  DeviceInfo info;
  info.caps = detect_capabilities(device);
  const auto& caps = info.caps;
  info.doubles = caps.fp64 && caps.int64_base_atomics && !options.hide_fp64;
  std::string base;
  if (caps.ext_float_atomics && caps.opencl_c_max >= 300) base += " -cl-std=CL3.0";
  if (caps.nvidia) base += " -DCLAT_NVIDIA_PTX";
  if (!info.doubles) base += " -DCLAT_NO_FP64";
  if (options.force_cas) base += " -DCLAT_FORCE_CAS";

  const cl::Context context = checked("clCreateContext", [&] { return cl::Context(device); });
  const cl::CommandQueue queue = checked("clCreateCommandQueue", [&] { return cl::CommandQueue(context, device); });
  const std::string check_source = embedded_source("kernels/native_checks.cl");
  const std::size_t group = std::min<std::size_t>(64, caps.max_work_group_size);
  std::string disabled;
  std::vector<int> codes(slot_count, 0);
  // Each round probes the chosen paths and checks the native ones not yet checked; a failure
  // disables that path, which may expose the next one (ptx -> ext -> cas), hence the rounds.
  for (int round = 0; round < 4; ++round) {
    const std::string opts = base + disabled;
    cl::Program program;
    try {
      program = build_program(context, device, check_source, opts);
    } catch (const Error& e) {
      if (options.force_cas) throw;
      for (const auto& slot : slots)
        info.checks.push_back({slot.name, Path::cas, false, "check program did not build: " + first_lines(e.build_log(), 3)});
      base += " -DCLAT_FORCE_CAS";
      disabled.clear();
      continue;
    }
    cl::Buffer out(context, CL_MEM_WRITE_ONLY, slot_count * sizeof(cl_int));
    checked("running clat_probe_paths", [&] {
      cl::Kernel probe(program, "clat_probe_paths");
      probe.setArg(0, out);
      queue.enqueueNDRangeKernel(probe, cl::NullRange, cl::NDRange(1), cl::NullRange);
      queue.enqueueReadBuffer(out, CL_TRUE, 0, slot_count * sizeof(cl_int), codes.data());
    });
    bool failed = false;
    for (std::size_t s = 0; s < slot_count; ++s) {
      const Path path = Path(std::max(codes[s], 0));
      if (codes[s] <= 0) continue;  // cas, or double absent
      const bool done = std::any_of(info.checks.begin(), info.checks.end(),
                                    [&](const NativeCheck& c) { return c.slot == slots[s].name && c.path == path; });
      if (done) continue;
      NativeCheck check{slots[s].name, path, false, {}};
      check.why = forced_to_fail(options, slots[s]) ? "failed on purpose (Options::fail_checks)"
                                                   : run_check(context, queue, program, slots[s], group);
      check.passed = check.why.empty();
      if (!check.passed) {
        disabled += " -DCLAT_NO_" + upper(path_name(path)) + "_" + slots[s].macro;
        failed = true;
      }
      info.checks.push_back(check);
    }
    if (!failed) break;
  }
  for (const auto& c : info.checks)  // a path that failed in the last round is off all the same
    for (std::size_t s = 0; s < slot_count; ++s)
      if (!c.passed && c.slot == slots[s].name && codes[s] == int(c.path)) codes[s] = 0;
  info.build_options = (base + disabled).empty() ? "" : (base + disabled).substr(1);
  info.paths = op_paths(codes, info.checks, info.doubles);
  return info;
}

}  // namespace

const DeviceInfo& device_info(const cl::Device& device, const Options& options) {
  static std::mutex mutex;
  static std::map<std::pair<cl_device_id, std::string>, std::unique_ptr<DeviceInfo>> cache;
  std::string key = std::to_string(options.force_cas) + std::to_string(options.hide_fp64);
  for (const auto& name : options.fail_checks) key += "," + name;
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[{device(), key}];
  if (!entry) entry = std::make_unique<DeviceInfo>(compute_device_info(device, options));
  return *entry;
}

std::string build_options(const cl::Device& device, const Options& options) {
  return device_info(device, options).build_options;
}

}  // namespace clatomics
