// clatomics/error.hpp — the library's exception: OpenCL error code, failing call, build log.
#pragma once

#include <stdexcept>
#include <string>

#include <CL/opencl.hpp>

namespace clatomics {

// The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL error <n>" if unknown.
std::string error_name(cl_int code);

// Thrown for every OpenCL failure, whatever OpenCL-CLHPP's exception setting in your code.
// what() says the call, the code's name and, for a failed program build, the options used and
// the whole build log.
class Error : public std::runtime_error {
 public:
  Error(cl_int code, std::string call, std::string build_log = {}, std::string options = {});

  cl_int code() const noexcept { return code_; }
  const std::string& call() const noexcept { return call_; }
  const std::string& build_log() const noexcept { return build_log_; }  // empty unless a build failed
  const std::string& build_options() const noexcept { return options_; }

 private:
  cl_int code_;
  std::string call_, build_log_, options_;
};

// Thrown where an index is refused for being beyond the output (ScatterOptions' OutOfRange::refuse):
// a std::invalid_argument like every refusal, of its own type so that a binding can raise what its
// language raises for it (Python: IndexError, as numpy.add.at does).
class IndexOutOfRange : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace clatomics
