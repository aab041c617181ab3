// Predicates on the way to the device: a structured Predicate lowered to an OpenCL C expression
// of x and a parameter array, and the check of a predicate given as OpenCL C text.
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

// Throws std::invalid_argument, naming the offending token or character and its position (bytes
// from 0), unless `text` is an expression of the string form described in clatomics/predicate.hpp
// (tokens from the allowed lists, balanced parentheses at most 64 deep, 1 to 4096 bytes, not
// blank). Passing means it is safe to compile as `return (text);` inside a function body: it
// cannot leave the parentheses, the statement or the function, nor reach the preprocessor. It
// does not mean it compiles.
void validate_predicate_expression(const std::string& text);

// The limits validate_predicate_expression enforces.
inline constexpr std::size_t max_predicate_expression_bytes = 4096;
inline constexpr int max_predicate_expression_depth = 64;

}  // namespace clatomics::detail
