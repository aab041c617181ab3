// What every part of the extension module shares: the Runtime that serves a PyOpenCL queue, the
// device arrays as the Python side describes them, and the dispatch from a NumPy type code to
// the C++ element type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <pybind11/pybind11.h>

#include <clatomics/clatomics.hpp>

namespace clatomics_py {

namespace py = pybind11;

// The Runtime over a PyOpenCL queue's handle (its context and device read from the queue). Kept
// in a small cache keyed by the queue's handle: each Runtime holds a reference to its queue, so
// a cached handle cannot be freed and reused for another queue while its entry lives; the least
// recently used entries go first (each one holds the queue, its context and the built programs).
std::shared_ptr<clatomics::Runtime> runtime_for(std::intptr_t queue);

// A range of a device buffer: the buffer's cl_mem handle, the first element and the count, in
// elements of the array's own type (the Python side checks the byte offset is a whole number of
// them). Passed from Python as a tuple (handle, offset, count).
struct Array {
  std::intptr_t mem = 0;
  std::size_t offset = 0, count = 0;
  template <class T>
  clatomics::View<T> view() const {
    return clatomics::View<T>(cl::Buffer(reinterpret_cast<cl_mem>(mem), true), offset, count);
  }
};
Array array_of(const py::handle& tuple);

// The NumPy type code of an element type: its kind and size ("f4", "u8"; "f2" for half_t).
template <class T>
std::string code_of() {
  if constexpr (std::is_same_v<T, clatomics::half_t>) {
    return "f2";
  } else {
    const char kind = std::is_floating_point_v<T> ? 'f' : std::is_signed_v<T> ? 'i' : 'u';
    return std::string{kind, char('0' + sizeof(T))};
  }
}

// f(T{}) for the T among Ts whose code is `code`: each call names the types it takes, so only
// those are compiled; TypeError naming them for any other code.
template <class... Ts, class F>
py::object dispatch(const std::string& code, const char* what, F&& f) {
  py::object result;
  const bool found = ((code == code_of<Ts>() ? (result = f(Ts{}), true) : false) || ...);
  if (!found) {
    std::string allowed;
    ((allowed += std::string(allowed.empty() ? "" : ", ") + code_of<Ts>()), ...);
    throw py::type_error(std::string("clatomics.") + what + ": elements of dtype '" + code + "' are not taken (dtypes: " + allowed + ")");
  }
  return result;
}

// The options every Runtime and build of the module uses: the environment's (CLATOMICS_FORCE_CAS,
// CLATOMICS_HIDE_FP64, ...), as the C++ library's own default Runtime reads them.
const clatomics::Options& module_options();

void register_kernels(py::module_& m);
void register_reductions(py::module_& m);
void register_histograms(py::module_& m);
void register_scatter(py::module_& m);
void register_compact(py::module_& m);
void register_bench(py::module_& m);

}  // namespace clatomics_py
