// MUST NOT COMPILE: "compact: the element type must be float, cl_int or cl_uint"
// (it used to compile and fail at link time with an undefined reference)
#include <clatomics/clatomics.hpp>
void f(clatomics::Runtime& rt, const std::vector<double>& v) { (void)clatomics::compact(rt, v, clatomics::where::x > 0.5); }
