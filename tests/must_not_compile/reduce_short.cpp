// MUST NOT COMPILE: "reduce: the element type must be float, double, cl_int, cl_uint, cl_long or cl_ulong"
#include <clatomics/clatomics.hpp>
cl_short f(clatomics::Runtime& rt, const cl::Buffer& b) {
  return clatomics::reduce(rt, clatomics::view<cl_short>(b), clatomics::ReduceOp::sum);
}
