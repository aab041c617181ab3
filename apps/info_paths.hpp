// The second half of `clatomics info`: the path each op takes on one device, as the library
// reports it (DeviceInfo), with a fixed line saying what each path is.
#pragma once

#include <ostream>

#include "clatomics/clatomics.hpp"

namespace clatomics::cli {

// Per family of ops (the float/double ops, then aggregated, 16-bit, no-return, saturating,
// float2): an op x (type, space) table of path names; what each path in it is; the library's
// notes verbatim, naming the ops they are about and whether their path flushes subnormals. Then
// every native check and the build options.
void print_paths(std::ostream& out, const DeviceInfo& info);

// What a path is, in one line, for ops of that family (DeviceInfo's OpPath::family).
const char* path_description(const std::string& family, Path path);

}  // namespace clatomics::cli
