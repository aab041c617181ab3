// MUST NOT COMPILE: "out's elements must be of the values' type"
// A double output for float values: a view carries its type, so the mismatch is caught here.
#include <clatomics/clatomics.hpp>
void f(clatomics::Runtime& rt, const cl::Buffer& b) {
  clatomics::scatter_reduce(rt, clatomics::view<double>(b), clatomics::view<cl_uint>(b), clatomics::view<float>(b),
                            clatomics::ScatterOp::sum);
}
