// The table of embedded cl/ files, generated at build time by cmake/EmbedOpenCL.cmake.
#pragma once

#include <cstddef>

namespace clatomics::detail {

struct EmbeddedFile {
  const char* path;  // relative to cl/, e.g. "clatomics/float.cl"
  const char* text;
  std::size_t size;
};

extern const EmbeddedFile embedded_files[];
extern const std::size_t embedded_file_count;

}  // namespace clatomics::detail
