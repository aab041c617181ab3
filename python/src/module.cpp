// clatomics._clatomics: the module, its exception, and the Runtimes that serve PyOpenCL queues.
#include <list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "common.hpp"

namespace clatomics_py {

namespace {
// A handful of queues at once is what a program uses; each entry keeps its queue, context and
// programs alive, so the cache stays small.
constexpr std::size_t max_runtimes = 8;

// The Runtimes of the queues used lately, most recent first.
struct RuntimeCache {
  std::mutex mutex;
  std::list<std::pair<std::intptr_t, std::shared_ptr<clatomics::Runtime>>> entries;
};
RuntimeCache& runtime_cache() {
  static RuntimeCache cache;
  return cache;
}

template <class T>
T queue_info(cl_command_queue queue, cl_command_queue_info what) {
  T value{};
  const cl_int status = clGetCommandQueueInfo(queue, what, sizeof value, &value, nullptr);
  if (status != CL_SUCCESS) throw clatomics::Error(status, "clGetCommandQueueInfo");
  return value;
}
}  // namespace

const clatomics::Options& module_options() {
  static const clatomics::Options options = clatomics::Options::from_env();
  return options;
}

std::shared_ptr<clatomics::Runtime> runtime_for(std::intptr_t handle) {
  auto& [mutex, cache] = runtime_cache();
  if (!handle) throw py::type_error("clatomics: a null command queue");
  const std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end(); ++it)
    if (it->first == handle) {
      cache.splice(cache.begin(), cache, it);
      return cache.front().second;
    }
  const auto queue = reinterpret_cast<cl_command_queue>(handle);
  auto rt = std::make_shared<clatomics::Runtime>(queue_info<cl_context>(queue, CL_QUEUE_CONTEXT),
                                                 queue_info<cl_device_id>(queue, CL_QUEUE_DEVICE), queue, module_options());
  cache.emplace_front(handle, rt);
  if (cache.size() > max_runtimes) cache.pop_back();  // a call still running keeps its own reference
  return rt;
}

Array array_of(const py::handle& tuple) {
  const auto t = tuple.cast<py::tuple>();
  if (t.size() != 3) throw py::type_error("clatomics: an array is described as (handle, offset, count)");
  Array a;
  a.mem = t[0].cast<std::intptr_t>();
  a.offset = t[1].cast<std::size_t>();
  a.count = t[2].cast<std::size_t>();
  return a;
}

}  // namespace clatomics_py

PYBIND11_MODULE(_clatomics, m) {
  namespace py = pybind11;
  m.doc() = "clatomics' C++ library for PyOpenCL objects (use the clatomics package)";
#if PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR < 12
  // pybind11 before 2.12 reads NumPy 2's arrays wrongly (all-zero edges, wrong counts): refused
  // at import, never silently wrong.
  const std::string numpy_version = py::str(py::module_::import("numpy").attr("__version__"));
  if (numpy_version.compare(0, 2, "1.") != 0)
    throw py::import_error("clatomics: this module was built with pybind11 " + std::to_string(PYBIND11_VERSION_MAJOR) + "." +
                           std::to_string(PYBIND11_VERSION_MINOR) + ", which cannot exchange arrays with NumPy " + numpy_version +
                           "; build it with pybind11 2.12 or later");
#endif
  // clatomics.Error: an OpenCL failure, with its code, the failing call and a failed build's log.
  static py::exception<clatomics::Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const clatomics::IndexOutOfRange& e) {
      PyErr_SetString(PyExc_IndexError, e.what());  // as numpy.add.at raises it (otherwise a ValueError)
    } catch (const clatomics::Error& e) {
      py::object instance = py::handle(error.ptr())(e.what());  // an instance, to carry the attributes
      instance.attr("code") = e.code();
      instance.attr("call") = e.call();
      instance.attr("build_log") = e.build_log();
      instance.attr("build_options") = e.build_options();
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
  m.def("error_name", &clatomics::error_name, "The name of an OpenCL error code");
  // The device scratch the library keeps for the next call (Runtime::kept_scratch_bytes), over
  // the Runtimes of the queues used lately, and its release.
  m.def("kept_scratch_bytes", [] {
    auto& cache = clatomics_py::runtime_cache();
    const std::lock_guard<std::mutex> lock(cache.mutex);
    std::size_t bytes = 0;
    for (const auto& entry : cache.entries) bytes += entry.second->kept_scratch_bytes();
    return bytes;
  }, "Bytes of device scratch kept at zero for the next call (the deterministic scatter's), over the queues used lately");
  m.def("release_scratch", [] {
    auto& cache = clatomics_py::runtime_cache();
    const std::lock_guard<std::mutex> lock(cache.mutex);
    for (const auto& entry : cache.entries) entry.second->release_scratch();
  }, "Gives the kept device scratch back to the driver (as torch.cuda.empty_cache)");
  clatomics_py::register_kernels(m);
  clatomics_py::register_reductions(m);
  clatomics_py::register_histograms(m);
  clatomics_py::register_scatter(m);
  clatomics_py::register_compact(m);
  clatomics_py::register_bench(m);
}
