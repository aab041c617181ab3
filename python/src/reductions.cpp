// reduce and dot over device arrays.
#include <string>

#include "common.hpp"
#include "core/names.hpp"

namespace clatomics_py {

namespace {

py::object reduce(std::intptr_t queue, const std::string& dtype, const py::handle& in, const std::string& op, bool deterministic) {
  const Array a = array_of(in);
  const clatomics::ReduceOp rop = clatomics::detail::reduce_op_named("reduce", op);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_double, cl_int, cl_uint, cl_long, cl_ulong>(dtype, "reduce", [&](auto t) -> py::object {
    using T = decltype(t);
    const clatomics::View<T> view = a.view<T>();
    T value{};
    {
      py::gil_scoped_release unlocked;
      value = clatomics::reduce(*rt, view, rop, clatomics::ReduceOptions{deterministic});
    }
    return py::cast(value);
  });
}

py::object dot(std::intptr_t queue, const std::string& dtype, const py::handle& a, const py::handle& b) {
  const Array x = array_of(a), y = array_of(b);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_double>(dtype, "dot", [&](auto t) -> py::object {
    using T = decltype(t);
    const auto vx = x.view<T>(), vy = y.view<T>();
    T value{};
    {
      py::gil_scoped_release unlocked;
      value = clatomics::dot(*rt, vx, vy);
    }
    return py::cast(value);
  });
}

}  // namespace

void register_reductions(py::module_& m) {
  m.def("reduce", &reduce);
  m.def("dot", &dot);
}

}  // namespace clatomics_py
