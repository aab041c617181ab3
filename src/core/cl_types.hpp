// The OpenCL C name of each element type the library's kernels take: kernels get their types as
// -D macros with these names (never as numeric codes to decode on both sides).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <CL/cl.h>

#include "core/launch.hpp"

namespace clatomics {
struct half_t;
struct bfloat16_t;
}  // namespace clatomics

namespace clatomics::detail {

template <class T>
constexpr const char* cl_type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, cl_int>) return "int";
  else if constexpr (std::is_same_v<T, cl_uint>) return "uint";
  else if constexpr (std::is_same_v<T, cl_long>) return "long";
  else if constexpr (std::is_same_v<T, cl_ulong>) return "ulong";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uchar";
  // 16-bit floats travel as their bits; the kernels convert them.
  else if constexpr (std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>) return "ushort";
  else static_assert(!sizeof(T), "clatomics: no OpenCL C type for this element type");
}

// -D<macro>=<T's OpenCL C name> and -D<macro>_IS_<name>: the kernel uses the first as the type
// and tests the second with #ifdef where the type changes more than its name (its unsigned
// twin, its limits).
template <class T>
std::string type_define(const char* macro) {
  return define(macro, cl_type_name<T>()) + " -D" + macro + "_IS_" + cl_type_name<T>();
}

}  // namespace clatomics::detail
