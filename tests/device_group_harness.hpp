// What the device group suites share: the group under test, floats whose sums round differently
// by order, and small chunks.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "clatomics/device_group.hpp"
#include "support.hpp"

namespace group_test {

using clatomics::DeviceGroup;
using clatomics::ReduceOp;
using clatomics::ReduceOptions;
using test::bits;

inline std::vector<float> mixed_floats(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i));
    x[i] = float(h % 100000) * (h % 7 == 0 ? 1e3f : 1e-3f) * (h % 3 == 0 ? -1.0f : 1.0f);  // sums that round differently by order
  }
  return x;
}

// Small chunks, so that a few hundred thousand elements make many chunks for the devices to share.
struct SmallChunks {
  explicit SmallChunks(std::size_t bytes) { clatomics::testing::set_stream_limits({bytes, 0, false}); }
  ~SmallChunks() { clatomics::testing::set_stream_limits({}); }
};

// The group under test: CLATOMICS_TEST_GROUP (a group selector, e.g. "gpu:all" on a machine with
// two GPUs), else the CLATOMICS_DEVICE of a run per device (scripts/device-matrix.sh), else every
// device.
inline std::string group_selector() {
  const char* group = std::getenv("CLATOMICS_TEST_GROUP");
  const char* device = std::getenv("CLATOMICS_DEVICE");
  return group ? group : device && *device ? device : "all";
}

inline DeviceGroup& group_of_all() {
  static DeviceGroup group(group_selector());
  return group;
}

}  // namespace group_test
