// What the scatter tests share: the options of a call, and an op's name in messages.
#pragma once

#include <string>

#include "clatomics/scatter.hpp"

namespace test {

inline clatomics::ScatterOptions options(bool include_self,
                                         clatomics::ScatterStrategy strategy = clatomics::ScatterStrategy::automatic,
                                         bool deterministic = false) {
  clatomics::ScatterOptions o;
  o.include_self = include_self;
  o.strategy = strategy;
  o.deterministic = deterministic;
  return o;
}

inline std::string op_name(clatomics::ScatterOp op) {
  const char* names[] = {"sum", "prod", "min", "max", "mean"};
  return names[int(op)];
}

}  // namespace test
