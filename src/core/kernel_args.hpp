// A library kernel's parameters, listed once on the host beside the launch that binds them: the
// launch binds every argument by name (each parameter exactly once, in any order), and the
// kernel-argument test compares each list with what the device's compiler reports for the kernel
// (built with -cl-kernel-arg-info under testing::set_check_kernel_args).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/cl_handles.hpp"

namespace clatomics::detail {

// Where a parameter lives, as CL_KERNEL_ARG_ADDRESS_QUALIFIER says (value: a plain value, which
// the compiler reports as private).
enum class ArgSpace { global, constant, local, value };

struct Param {
  std::string name;
  ArgSpace space;
};

// One kernel: its name and its parameters in the order of its OpenCL C signature, written as
// that signature lists them without types: "global in, offset, count, local scratch" (a bare
// name is a value parameter; global, constant and local name the address space).
struct Signature {
  std::string kernel;
  std::vector<Param> params;

  Signature(std::string kernel_name, std::vector<Param> parameters) : kernel(std::move(kernel_name)), params(std::move(parameters)) {}
  Signature(std::string kernel_name, const char* parameters);
};

// A kernel of the library's programs with the signature it was made from.
struct LibraryKernel : Kernel {
  const Signature* signature = nullptr;
};

// Under testing::set_check_kernel_args(true): notes the kernels of a program the library built
// (testing::kernel_coverage).
void note_built_kernels(const Program& program);

// Creates signature.kernel from program. Under testing::set_check_kernel_args(true) the kernel's
// parameters (names, address spaces, count) are compared with the signature first: a difference is
// a std::logic_error naming the kernel and the first parameter that differs.
LibraryKernel make_kernel(const Program& program, const Signature& signature);
LibraryKernel make_kernel(cl_program program, const Signature& signature);

template <class T>
struct Named {
  const char* name;
  const T& value;
};
// One argument of a bind(): the parameter's name and its value (a cl_mem, a detail::Mem,
// LocalBytes, or a number of the parameter's exact type).
template <class T>
Named<T> arg(const char* name, const T& value) {
  return {name, value};
}

// The position of name among the signature's parameters; a std::logic_error when it has none.
cl_uint param_index(const Signature& signature, const char* name);
// A std::logic_error naming the first parameter not bound (a library bug: a kernel would run with
// an argument left from an earlier launch).
void require_all_bound(const Signature& signature, const std::vector<bool>& bound);
[[noreturn]] void bound_twice(const Signature& signature, const char* name);

// Sets every argument of kernel by name.
template <class... A>
void bind(const LibraryKernel& kernel, const Named<A>&... args) {
  const Signature& signature = *kernel.signature;
  std::vector<bool> bound(signature.params.size(), false);
  const auto one = [&](const char* name, const auto& value) {
    const cl_uint index = param_index(signature, name);
    if (bound[index]) bound_twice(signature, name);
    bound[index] = true;
    set_arg(kernel.get(), index, value);
  };
  (one(args.name, args.value), ...);
  require_all_bound(signature, bound);
}

}  // namespace clatomics::detail
