// The embedded cl/ files as source text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clatomics::detail {

// Generated from cl/ by cmake/EmbedOpenCL.cmake: a file by its path under cl/
// ("clatomics/float.cl", "kernels/reduce.cl"), nullptr when not embedded; every path.
const std::string_view* embedded_file(std::string_view path);
std::vector<std::string_view> embedded_paths();

// One embedded file with every #include "..." of another embedded file expanded in place (each
// file once). Throws std::invalid_argument for a path that is not embedded.
const std::string& embedded_source(const std::string& path);

// user_source with each `#include "clatomics/..."` directive naming a snippet file replaced by
// spaces (the library is prepended whole, with include guards): nothing is inserted, so every
// line keeps its number. Text in comments or inactive #if blocks loses at most such a directive.
std::string blank_library_includes(const std::string& user_source);

}  // namespace clatomics::detail
