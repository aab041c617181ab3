// MUST NOT COMPILE: "no matching function for call to"
// Views of two element types: no dot of a float with a double view.
#include <clatomics/clatomics.hpp>
float f(clatomics::Runtime& rt, const cl::Buffer& b) { return clatomics::dot(rt, clatomics::view<float>(b), clatomics::view<double>(b)); }
