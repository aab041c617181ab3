// MUST NOT COMPILE: "positions must be float or double"
// Even bins over a view of cl_uint: the positions' type is checked, in one message.
#include <clatomics/clatomics.hpp>
clatomics::EvenHistogram f(clatomics::Runtime& rt, const cl::Buffer& b) {
  return clatomics::histogram_even(rt, clatomics::view<cl_uint>(b), clatomics::EvenBins<float>{10, 0, 1});
}
