// MUST NOT COMPILE: "no matching function for call to"
// Keys are cl_uint: a view of floats is not read as keys.
#include <clatomics/clatomics.hpp>
clatomics::KeyHistogram f(clatomics::Runtime& rt, const cl::Buffer& b) { return clatomics::histogram_keys(rt, clatomics::view<float>(b), 10); }
