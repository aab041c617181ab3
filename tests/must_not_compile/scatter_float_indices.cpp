// MUST NOT COMPILE: "scatter indices, offsets and keys: cl_uint or cl_ulong"
#include <clatomics/clatomics.hpp>
void f(clatomics::Runtime& rt, const cl::Buffer& b) {
  clatomics::scatter_reduce(rt, clatomics::view<float>(b), clatomics::view<float>(b), clatomics::view<float>(b),
                            clatomics::ScatterOp::sum);
}
