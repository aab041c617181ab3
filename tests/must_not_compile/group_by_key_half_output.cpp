// MUST NOT COMPILE: "over a DeviceGroup: out's elements must be of the values' type, and float for half_t"
// A DeviceGroup joins its chunks' runs on the host in float: 16-bit reductions are one device's call only.
#include <clatomics/clatomics.hpp>
#include <clatomics/device_group.hpp>
void f(clatomics::DeviceGroup& group, const std::vector<cl_uint>& keys, const std::vector<clatomics::half_t>& values) {
  (void)clatomics::reduce_by_key<cl_uint, clatomics::half_t, clatomics::half_t>(group, keys, values, clatomics::ScatterOp::sum);
}
