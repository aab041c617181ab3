// Predicates on the way to the device: a structured Predicate lowered to an OpenCL C expression
// of x and a parameter array.
#pragma once

#include <CL/cl_platform.h>

#include <string>
#include <vector>

#include "clatomics/predicate.hpp"

namespace clatomics::detail {

// The predicate as an OpenCL C expression of `x` (the element, of type element_type_name) and of
// clat_p[0], clat_p[1], ... (a `__global const T *clat_p` holding predicate_values<T>), fully
// parenthesised, e.g. "((x > clat_p[0]) && (x < clat_p[1]))". It holds no values: predicates of
// one structure give one text, so the program is compiled once per structure, never per value.
// element_type_name: "float", "int" or "uint" (else std::invalid_argument); for int and uint,
// isnan and isinf lower to (false) and isfinite to (true). Parameters are numbered in the order of
// the text (in_range: lo, then hi).
std::string predicate_shape(const Predicate& predicate, const char* element_type_name);

// The values of the parameters of predicate_shape, in its order, converted to T by the rules of
// clatomics/predicate.hpp; a value that does not convert throws std::invalid_argument naming the
// value and the element type ("0.5 is not an integer, and the elements are int"). May be empty
// (isnan(x) alone). T: float, cl_int or cl_uint.
template <class T>
std::vector<T> predicate_values(const Predicate& predicate);

extern template std::vector<float> predicate_values<float>(const Predicate&);
extern template std::vector<cl_int> predicate_values<cl_int>(const Predicate&);
extern template std::vector<cl_uint> predicate_values<cl_uint>(const Predicate&);

}  // namespace clatomics::detail
