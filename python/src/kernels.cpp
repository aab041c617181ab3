// For kernel authors: the snippet library, the build options of a device, a build of the user's
// source with both, and what each op runs on a device.
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "common.hpp"
#include "core/source_text.hpp"

namespace clatomics_py {

namespace {

cl_device_id device_of(std::intptr_t handle) {
  if (!handle) throw py::type_error("clatomics: a null device");
  return reinterpret_cast<cl_device_id>(handle);
}

std::vector<cl_device_id> context_devices(cl_context context) {
  cl_uint n = 0;
  cl_int status = clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr);
  if (status != CL_SUCCESS) throw clatomics::Error(status, "clGetContextInfo(CL_CONTEXT_NUM_DEVICES)");
  std::vector<cl_device_id> devices(n);
  status = clGetContextInfo(context, CL_CONTEXT_DEVICES, n * sizeof(cl_device_id), devices.data(), nullptr);
  if (status != CL_SUCCESS) throw clatomics::Error(status, "clGetContextInfo(CL_CONTEXT_DEVICES)");
  return devices;
}

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// One program of the context holding the snippet library and the user's source, built for each
// of the context's devices with that device's checked options and the user's: one build per
// device (clBuildProgram once for each), since the native paths proven differ between devices.
// The user's `#include "clatomics/..."` lines are blanked (the library is already there) and
// #line makes build logs count the user's lines from 1, as Runtime::build does.
std::intptr_t build(std::intptr_t context_handle, const std::string& user_source, const std::string& user_options) {
  if (!context_handle) throw py::type_error("clatomics.build: a null context");
  const auto context = reinterpret_cast<cl_context>(context_handle);
  const std::string text =
      clatomics::source() + "#line 1 \"<user source>\"\n" + clatomics::detail::blank_library_includes(user_source);
  const char* chars = text.c_str();
  const std::size_t length = text.size();
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &chars, &length, &status);
  if (status != CL_SUCCESS) throw clatomics::Error(status, "clCreateProgramWithSource");
  try {
    for (cl_device_id device : context_devices(context)) {
      std::string options = clatomics::build_options(device, module_options());
      if (!user_options.empty()) options += (options.empty() ? "" : " ") + user_options;
      py::gil_scoped_release unlocked;
      status = clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
      if (status != CL_SUCCESS) {
        const std::string log = build_log(program, device);
        throw clatomics::Error(status, "clBuildProgram", log.empty() ? "(empty build log)" : log, options.empty() ? "(none)" : options);
      }
    }
  } catch (...) {
    clReleaseProgram(program);
    throw;
  }
  return reinterpret_cast<std::intptr_t>(program);
}

py::dict op_path(const clatomics::OpPath& p) {
  py::dict d;
  d["op"] = p.op, d["type"] = p.type, d["space"] = p.space, d["family"] = p.family;
  d["path"] = clatomics::path_name(p.path);
  d["note"] = p.note, d["flushes_subnormals"] = p.flushes_subnormals, d["check"] = p.slot;
  return d;
}

// What `clatomics info` says of one device: its build options and the path of every op.
py::dict device_info(std::intptr_t device) {
  const clatomics::DeviceInfo* info = nullptr;
  {
    py::gil_scoped_release unlocked;  // the first call per device runs the native checks
    info = &clatomics::device_info(device_of(device), module_options());
  }
  py::dict d;
  d["name"] = info->caps.device_name;
  d["platform"] = info->caps.platform_name;
  d["driver_version"] = info->caps.driver_version;
  d["build_options"] = info->build_options;
  d["doubles"] = info->doubles;
  d["int64_atomics"] = info->caps.int64_base_atomics;
  py::list paths, variants, checks;
  for (const auto& p : info->paths) paths.append(op_path(p));
  for (const auto& p : info->variant_paths) variants.append(op_path(p));
  for (const auto& c : info->checks) {
    py::dict check;
    check["check"] = c.slot, check["path"] = clatomics::path_name(c.path), check["passed"] = c.passed, check["why"] = c.why;
    check["flushes_subnormals"] = c.flushes_subnormals;
    checks.append(check);
  }
  d["paths"] = paths, d["variant_paths"] = variants, d["checks"] = checks;
  d["description"] = info->describe();
  return d;
}

}  // namespace

void register_kernels(py::module_& m) {
  m.def("source", [] { return clatomics::source(); }, "The whole snippet library, to prepend to a kernel's source");
  m.def("build_options", [](std::intptr_t device) {
    py::gil_scoped_release unlocked;
    return clatomics::build_options(device_of(device), module_options());
  });
  m.def("build", &build, py::arg("context"), py::arg("source"), py::arg("options"));
  m.def("device_info", &device_info);
  // The C++ library's default device (CLATOMICS_DEVICE, else a GPU, else a CPU) and a queue of its
  // own: (context, device, queue) handles, each a new reference for PyOpenCL to adopt.
  m.def("default_queue", [] {
    clatomics::Runtime rt(module_options());
    cl_context context = rt.context_handle();
    cl_device_id device = rt.device_handle();
    cl_command_queue queue = rt.queue_handle();
    clRetainContext(context);
    clRetainDevice(device);
    clRetainCommandQueue(queue);
    return py::make_tuple(reinterpret_cast<std::intptr_t>(context), reinterpret_cast<std::intptr_t>(device),
                          reinterpret_cast<std::intptr_t>(queue));
  });
  m.def("supports_double", [](std::intptr_t queue) { return runtime_for(queue)->supports_double(); });
}

}  // namespace clatomics_py
