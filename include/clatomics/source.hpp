// clatomics/source.hpp — the OpenCL C snippet library, embedded at build time from cl/clatomics.
#pragma once

#include <string>

namespace clatomics {

// The whole snippet library (clatomics/atomics.cl with its includes expanded): prepend it to
// your kernel source, and build with clatomics::build_options(device). The same files are
// installed beside the headers for `-I <prefix>/include` and `#include "clatomics/atomics.cl"`.
const std::string& source();

}  // namespace clatomics
