// compact (copy_if) over device arrays, with a structured predicate (clatomics.where) or the
// library's checked string form.
#include <string>

#include "common.hpp"

namespace clatomics_py {

namespace {

using clatomics::Predicate;

Predicate::Value value_of(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) throw py::type_error("clatomics.where: a comparison with a bool (compare with a number)");
  if (py::isinstance<py::float_>(v)) return Predicate::Value::of(v.cast<double>());
  if (py::isinstance<py::int_>(v)) {
    // An integer as the library keeps it: signed where it fits, else unsigned (2^63 .. 2^64 - 1).
    const auto i = v.cast<py::int_>();
    if (i < py::int_(0) || i <= py::int_(INT64_MAX)) return Predicate::Value::of(i.cast<std::int64_t>());
    return Predicate::Value::of(i.cast<std::uint64_t>());
  }
  throw py::type_error("clatomics.where: a value must be an int or a float, not " + std::string(py::str(v.get_type())));
}

// Deeper than any tree the library takes (at most Predicate::max_leaves leaves; negations fold):
// refused before the recursion below can run out of stack.
constexpr std::size_t max_predicate_depth = 4 * Predicate::max_leaves;

// The Python side's predicate tree: ("cmp", op, value), ("test", name), ("range", lo, hi),
// ("and", a, b), ("or", a, b), ("not", a).
Predicate predicate_of(const py::handle& node, std::size_t depth = 0) {
  if (depth > max_predicate_depth)
    throw py::value_error("clatomics.compact: the predicate is nested deeper than " + std::to_string(max_predicate_depth) +
                          " levels (at most " + std::to_string(Predicate::max_leaves) + " comparisons are taken)");
  const auto t = node.cast<py::tuple>();
  const auto kind = t[0].cast<std::string>();
  if (kind == "cmp") {
    const auto op = t[1].cast<std::string>();
    const Predicate::Value v = value_of(t[2]);
    if (op == "lt") return Predicate::compare(Predicate::Op::less, v);
    if (op == "le") return Predicate::compare(Predicate::Op::less_equal, v);
    if (op == "gt") return Predicate::compare(Predicate::Op::greater, v);
    if (op == "ge") return Predicate::compare(Predicate::Op::greater_equal, v);
    if (op == "eq") return Predicate::compare(Predicate::Op::equal, v);
    if (op == "ne") return Predicate::compare(Predicate::Op::not_equal, v);
  } else if (kind == "test") {
    const auto name = t[1].cast<std::string>();
    if (name == "isnan") return Predicate::test(Predicate::Op::is_nan);
    if (name == "isfinite") return Predicate::test(Predicate::Op::is_finite);
    if (name == "isinf") return Predicate::test(Predicate::Op::is_inf);
  } else if (kind == "range") {
    return Predicate::range(value_of(t[1]), value_of(t[2]));
  } else if (kind == "and") {
    return predicate_of(t[1], depth + 1) && predicate_of(t[2], depth + 1);
  } else if (kind == "or") {
    return predicate_of(t[1], depth + 1) || predicate_of(t[2], depth + 1);
  } else if (kind == "not") {
    return !predicate_of(t[1], depth + 1);
  }
  throw py::type_error("clatomics.compact: a predicate node the module does not know");
}

// Copies the elements of in that the predicate keeps to out's first n; returns n.
std::size_t compact(std::intptr_t queue, const std::string& dtype, const py::handle& in, const py::handle& out,
                    const py::object& predicate, bool stable) {
  const Array a = array_of(in), b = array_of(out);
  const bool text = py::isinstance<py::str>(predicate);
  const std::string expression = text ? predicate.cast<std::string>() : std::string();
  // The string form gets a placeholder tree, never used.
  const Predicate tree = text ? Predicate::test(Predicate::Op::is_nan) : predicate_of(predicate);
  auto rt = runtime_for(queue);
  return dispatch<cl_float, cl_int, cl_uint>(dtype, "compact", [&](auto t) -> py::object {
    using T = decltype(t);
    const auto va = a.view<T>(), vb = b.view<T>();
    std::size_t kept = 0;
    {
      py::gil_scoped_release unlocked;
      kept = text ? clatomics::compact(*rt, va, vb, expression, clatomics::CompactOptions{stable})
                  : clatomics::compact(*rt, va, vb, tree, clatomics::CompactOptions{stable});
    }
    return py::cast(kept);
  }).cast<std::size_t>();
}

}  // namespace

void register_compact(py::module_& m) { m.def("compact", &compact); }

}  // namespace clatomics_py
