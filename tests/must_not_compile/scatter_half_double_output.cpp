// MUST NOT COMPILE: "out's elements must be of the values' type (or float for half_t and bfloat16_t values)"
// A double output for half_t values: a 16-bit value's output is half_t (rounded once) or float.
#include <clatomics/clatomics.hpp>
void f(clatomics::Runtime& rt, const cl::Buffer& b) {
  clatomics::scatter_reduce(rt, clatomics::view<double>(b), clatomics::view<cl_uint>(b), clatomics::view<clatomics::half_t>(b),
                            clatomics::ScatterOp::sum);
}
