// Library kernels made from their host-side signatures, arguments bound by name, and the check
// of a signature against the compiler's own account of the kernel.
#include "core/kernel_args.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <sstream>

#include "core/testing.hpp"

namespace clatomics::detail {
namespace {

std::atomic<bool> checking{false};
std::mutex coverage_lock;
testing::KernelCoverage coverage;

const char* space_name(ArgSpace space) {
  switch (space) {
    case ArgSpace::global: return "__global";
    case ArgSpace::constant: return "__constant";
    case ArgSpace::local: return "__local";
    case ArgSpace::value: return "a value";
  }
  return "?";
}

ArgSpace space_of(cl_kernel_arg_address_qualifier qualifier) {
  switch (qualifier) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL: return ArgSpace::global;
    case CL_KERNEL_ARG_ADDRESS_CONSTANT: return ArgSpace::constant;
    case CL_KERNEL_ARG_ADDRESS_LOCAL: return ArgSpace::local;
    default: return ArgSpace::value;
  }
}

[[noreturn]] void mismatch(const Signature& signature, const std::string& what) {
  throw std::logic_error("clatomics: kernel " + signature.kernel + ": the host's parameter list differs from the kernel's: " + what);
}

// The compiler's names and address spaces (the program was built with -cl-kernel-arg-info).
void compare_with_compiler(const Kernel& kernel, const Signature& signature) {
  const auto count = info<cl_uint>(clGetKernelInfo, kernel.get(), CL_KERNEL_NUM_ARGS, "clGetKernelInfo");
  if (count != signature.params.size())
    mismatch(signature, "the kernel has " + std::to_string(count) + " parameters, the host lists " + std::to_string(signature.params.size()));
  for (cl_uint i = 0; i < count; ++i) {
    const auto arg_info = [&](cl_kernel_arg_info param, std::size_t size, void* value, std::size_t* size_ret) {
      return clGetKernelArgInfo(kernel.get(), i, param, size, value, size_ret);
    };
    const std::string name = info_text([&](cl_kernel, cl_kernel_arg_info param, std::size_t size, void* value,
                                           std::size_t* size_ret) { return arg_info(param, size, value, size_ret); },
                                       kernel.get(), CL_KERNEL_ARG_NAME, "clGetKernelArgInfo");
    cl_kernel_arg_address_qualifier qualifier = 0;
    check(arg_info(CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof qualifier, &qualifier, nullptr), "clGetKernelArgInfo");
    const Param& host = signature.params[i];
    if (name != host.name || space_of(qualifier) != host.space)
      mismatch(signature, "parameter " + std::to_string(i) + " is " + space_name(space_of(qualifier)) + " " + name + ", the host lists " +
                              space_name(host.space) + " " + host.name);
  }
}

}  // namespace

Signature::Signature(std::string kernel_name, const char* parameters) : kernel(std::move(kernel_name)) {
  std::istringstream list(parameters);
  for (std::string item; std::getline(list, item, ',');) {
    std::istringstream words(item);
    std::string first, second, extra;
    words >> first >> second >> extra;
    if (first.empty() || !extra.empty()) throw std::logic_error("clatomics: kernel " + kernel + ": a parameter written as '" + item + "'");
    if (second.empty()) {
      params.push_back({first, ArgSpace::value});
      continue;
    }
    const ArgSpace space = first == "global" ? ArgSpace::global : first == "local" ? ArgSpace::local : first == "constant" ? ArgSpace::constant
                                                                                                                       : ArgSpace::value;
    if (space == ArgSpace::value) throw std::logic_error("clatomics: kernel " + kernel + ": no address space '" + first + "'");
    params.push_back({second, space});
  }
}

LibraryKernel make_kernel(const Program& program, const Signature& signature) { return make_kernel(program.get(), signature); }

LibraryKernel make_kernel(cl_program program, const Signature& signature) {
  LibraryKernel kernel;
  cl_int status = CL_SUCCESS;
  static_cast<Kernel&>(kernel) = Kernel::adopt(clCreateKernel(program, signature.kernel.c_str(), &status));
  check(status, "clCreateKernel");
  kernel.signature = &signature;
  if (testing::check_kernel_args()) {
    compare_with_compiler(kernel, signature);
    const std::lock_guard<std::mutex> lock(coverage_lock);
    coverage.checked.insert(signature.kernel);
  }
  return kernel;
}

cl_uint param_index(const Signature& signature, const char* name) {
  for (std::size_t i = 0; i < signature.params.size(); ++i)
    if (signature.params[i].name == name) return static_cast<cl_uint>(i);
  throw std::logic_error("clatomics: kernel " + signature.kernel + " has no parameter " + name);
}

void require_all_bound(const Signature& signature, const std::vector<bool>& bound) {
  for (std::size_t i = 0; i < bound.size(); ++i)
    if (!bound[i]) throw std::logic_error("clatomics: kernel " + signature.kernel + ": parameter " + signature.params[i].name + " not bound");
}

void bound_twice(const Signature& signature, const char* name) {
  throw std::logic_error("clatomics: kernel " + signature.kernel + ": parameter " + name + " bound twice");
}

void note_built_kernels(const Program& program) {
  if (!checking) return;
  std::istringstream names(info_text(clGetProgramInfo, program.get(), CL_PROGRAM_KERNEL_NAMES, "clGetProgramInfo"));
  const std::lock_guard<std::mutex> lock(coverage_lock);
  for (std::string name; std::getline(names, name, ';');)
    if (!name.empty()) coverage.built.insert(name);
}

}  // namespace clatomics::detail

namespace clatomics::testing {

void set_check_kernel_args(bool on) {
  const std::lock_guard<std::mutex> lock(detail::coverage_lock);
  if (on && !detail::checking) detail::coverage = {};
  detail::checking = on;
}
bool check_kernel_args() { return detail::checking; }

KernelCoverage kernel_coverage() {
  const std::lock_guard<std::mutex> lock(detail::coverage_lock);
  return detail::coverage;
}

}  // namespace clatomics::testing
