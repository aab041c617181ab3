// MUST NOT COMPILE: "over a DeviceGroup: out's elements must be of the values' type, and float for half_t"
// A DeviceGroup joins its chunks on the host in float: a 16-bit output is one device's call only.
#include <clatomics/clatomics.hpp>
#include <clatomics/device_group.hpp>
void f(clatomics::DeviceGroup& group, std::vector<clatomics::half_t>& out, const std::vector<cl_uint>& indices,
       const std::vector<clatomics::half_t>& values) {
  clatomics::scatter_reduce(group, out, indices, values, clatomics::ScatterOp::sum);
}
