// scatter_reduce (numpy.add.at, torch's scatter_reduce_, rows), segment_reduce over CSR offsets
// and reduce_by_key over device arrays.
#include <string>

#include "common.hpp"
#include "core/names.hpp"

namespace clatomics_py {

namespace {

// torch's names (amax, amin) for the library's ops.
clatomics::ScatterOp scatter_op(const std::string& what, const std::string& op) {
  return clatomics::detail::scatter_op_named(what, op == "amax" ? "max" : op == "amin" ? "min" : op);
}

clatomics::ScatterOptions scatter_options(bool include_self, bool deterministic, bool refuse_out_of_range, const std::string& nan) {
  clatomics::ScatterOptions options;
  options.include_self = include_self;
  options.deterministic = deterministic;
  options.out_of_range = refuse_out_of_range ? clatomics::OutOfRange::refuse : clatomics::OutOfRange::count;
  if (nan == "propagate") options.nan = clatomics::NanRule::propagate;
  else if (nan == "missing") options.nan = clatomics::NanRule::missing;
  else throw py::value_error("clatomics: nan '" + nan + "' is not one of propagate, missing");
  return options;
}

// out[indices[i], :width] op= values[i, :width] (segments: out[s] op= the rows offsets[s] ..
// offsets[s + 1]). out holds the values' type. Returns (out_of_range, strategy).
py::tuple scatter(std::intptr_t queue, const std::string& vtype, const std::string& itype, const py::handle& out,
                  const py::handle& indices, const py::handle& values, const std::string& op, std::size_t width, bool segments,
                  bool include_self, bool deterministic, bool refuse_out_of_range, const std::string& nan) {
  const Array o = array_of(out), i = array_of(indices), v = array_of(values);
  const char* what = segments ? "segment_reduce" : "scatter_reduce";
  const clatomics::ScatterOp sop = scatter_op(what, op);
  const clatomics::ScatterOptions options = scatter_options(include_self, deterministic, refuse_out_of_range, nan);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_double, cl_int, cl_uint, cl_long, cl_ulong, clatomics::half_t>(vtype, what, [&](auto vt) -> py::object {
    using V = decltype(vt);
    return dispatch<cl_uint, cl_ulong>(itype, what, [&](auto it) -> py::object {
      using I = decltype(it);
      const auto vo = o.view<V>();
      const auto vi = i.view<I>();
      const auto vv = v.view<V>();
      clatomics::ScatterResult r;
      {
        py::gil_scoped_release unlocked;
        r = segments ? clatomics::segment_reduce(*rt, vo, vi, vv, sop, options, clatomics::Rows(width))
                     : clatomics::scatter_reduce(*rt, vo, vi, vv, sop, options, clatomics::Rows(width));
      }
      return py::make_tuple(r.out_of_range, clatomics::strategy_name(r.strategy));
    });
  }).cast<py::tuple>();
}

// Runs of equal consecutive keys: unique_keys and reductions (each as long as keys) receive one
// entry per run; returns the number of runs.
std::size_t reduce_by_key(std::intptr_t queue, const std::string& ktype, const std::string& vtype, const py::handle& keys,
                          const py::handle& values, const py::handle& unique_keys, const py::handle& reductions, const std::string& op,
                          bool deterministic, const std::string& nan) {
  const Array k = array_of(keys), v = array_of(values), u = array_of(unique_keys), r = array_of(reductions);
  const clatomics::ScatterOp sop = scatter_op("reduce_by_key", op);
  const clatomics::ScatterOptions options = scatter_options(false, deterministic, false, nan);
  auto rt = runtime_for(queue);
  return dispatch<cl_uint, cl_ulong>(ktype, "reduce_by_key", [&](auto kt) -> py::object {
    using K = decltype(kt);
    return dispatch<cl_float, cl_double, cl_int, cl_uint, cl_long, cl_ulong, clatomics::half_t>(vtype, "reduce_by_key",
                                                                                              [&](auto vt) -> py::object {
      using V = decltype(vt);
      const auto vk = k.view<K>(), vu = u.view<K>();
      const auto vv = v.view<V>(), vr = r.view<V>();
      std::size_t runs = 0;
      {
        py::gil_scoped_release unlocked;
        runs = clatomics::reduce_by_key(*rt, vk, vv, vu, vr, sop, options);
      }
      return py::cast(runs);
    });
  }).cast<std::size_t>();
}

}  // namespace

void register_scatter(py::module_& m) {
  m.def("scatter", &scatter);
  m.def("reduce_by_key", &reduce_by_key);
}

}  // namespace clatomics_py
