// The ops by name (names.hpp).
#include "core/names.hpp"

#include <cstddef>
#include <stdexcept>
#include <utility>

namespace clatomics::detail {
namespace {

template <class Op, std::size_t N>
Op op_named(const std::string& what, const std::string& name, const std::pair<const char*, Op> (&ops)[N]) {
  std::string takes;
  for (const auto& [word, op] : ops) {
    if (name == word) return op;
    takes += (takes.empty() ? "" : ", ") + std::string(word);
  }
  refuse_named(what, "ops", takes, name);
}

}  // namespace

void refuse_named(const std::string& what, const std::string& kinds, const std::string& takes, const std::string& name) {
  throw std::invalid_argument("clatomics: " + what + " takes the " + kinds + " " + takes + ", not '" + name + "'");
}

ReduceOp reduce_op_named(const std::string& what, const std::string& name) {
  static const std::pair<const char*, ReduceOp> ops[] = {
      {"sum", ReduceOp::sum}, {"prod", ReduceOp::prod}, {"min", ReduceOp::min}, {"max", ReduceOp::max}};
  return op_named(what, name, ops);
}

ScatterOp scatter_op_named(const std::string& what, const std::string& name) {
  static const std::pair<const char*, ScatterOp> ops[] = {{"sum", ScatterOp::sum},
                                                          {"prod", ScatterOp::prod},
                                                          {"min", ScatterOp::min},
                                                          {"max", ScatterOp::max},
                                                          {"mean", ScatterOp::mean}};
  return op_named(what, name, ops);
}

}  // namespace clatomics::detail
