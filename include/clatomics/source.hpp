// clatomics/source.hpp — the OpenCL C snippet library, embedded at build time from cl/.
#pragma once

#include <string>
#include <vector>

namespace clatomics {

// The whole snippet library (clatomics/atomics.cl with its includes expanded): prepend it to
// your kernel source, and build with clatomics::build_options(device).
std::string source();

// One embedded file by its path under cl/ ("clatomics/float.cl", "kernels/reduce.cl"), with
// every #include "..." of another embedded file expanded (each file once). Throws
// std::invalid_argument for a path that is not embedded.
std::string embedded_source(const std::string& path);

// Paths of all embedded files.
std::vector<std::string> embedded_paths();

// Expands #include "..." lines that name embedded files, leaving other lines as they are.
std::string expand_includes(const std::string& text);

}  // namespace clatomics
