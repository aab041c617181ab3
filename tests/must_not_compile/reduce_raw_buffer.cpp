// MUST NOT COMPILE: "no matching function for call to"
// A cl::Buffer carries no element type: reduce takes a view, reduce(rt, view<float>(b, 0, n), op).
#include <clatomics/clatomics.hpp>
float f(clatomics::Runtime& rt, const cl::Buffer& b) { return clatomics::reduce<float>(rt, b, 0, 10, clatomics::ReduceOp::sum); }
