// The host side of the native checks: run a slot's check kernels and compare every result with
// the exact expected one.
#pragma once

#include <cstddef>
#include <string>

#include "core/cl_handles.hpp"
#include "device/native_table.hpp"

namespace clatomics::detail {

// Where a check runs: the check program built for a device, a queue on it, a work-group size.
struct CheckTarget {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  std::size_t group;
  bool doubles;  // double kernels were built
};

struct CheckResult {
  std::string why;                  // "" when every result was exactly the expected one
  bool flushes_subnormals = false;  // exact on normal numbers, zero where subnormals were due
};

// Runs the check of slot on whatever path the program gives it. OpenCL failures are reported in
// why, not thrown: a path that faults is a path that fails.
CheckResult run_check(const CheckTarget& target, const Slot& slot);

}  // namespace clatomics::detail
