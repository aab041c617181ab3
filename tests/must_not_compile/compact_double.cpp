// MUST NOT COMPILE: "compact: the element type must be float, cl_int or cl_uint"
// A std::vector<double> has no compact: a clear message at compile time, not an undefined reference at link time.
#include <clatomics/clatomics.hpp>
void f(clatomics::Runtime& rt, const std::vector<double>& v) { (void)clatomics::compact(rt, v, clatomics::where::x > 0.5); }
