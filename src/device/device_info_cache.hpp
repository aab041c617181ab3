// device_info() with the test-only failing checks: one DeviceInfo per device and options.
#pragma once

#include <string>
#include <vector>

#include "clatomics/capabilities.hpp"

namespace clatomics::detail {

// The DeviceInfo for device and options, probed once per process; the checks named in
// failing_checks (slot names, or "all") fail on purpose.
const DeviceInfo& cached_device_info(cl_device_id device, const Options& options,
                                     const std::vector<std::string>& failing_checks = {});

}  // namespace clatomics::detail
