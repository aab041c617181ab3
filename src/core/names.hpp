// The ops that tools and bindings take as words (`clatomics plan --op max`, the Python package's
// reduce="sum"), one table each, refused naming every word they take.
#pragma once

#include <string>

#include "clatomics/reduce.hpp"
#include "clatomics/scatter_options.hpp"

namespace clatomics::detail {

// std::invalid_argument: "clatomics: <what> takes the <kinds> <takes>, not '<name>'".
[[noreturn]] void refuse_named(const std::string& what, const std::string& kinds, const std::string& takes, const std::string& name);

// sum, prod, min, max; else std::invalid_argument: "clatomics: <what> takes the ops sum, prod,
// min, max, not '<name>'".
ReduceOp reduce_op_named(const std::string& what, const std::string& name);
// The same and mean.
ScatterOp scatter_op_named(const std::string& what, const std::string& name);

}  // namespace clatomics::detail
