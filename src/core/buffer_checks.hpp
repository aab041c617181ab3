// The checks every entry point makes on a user's buffer before anything is enqueued.
#pragma once

#include <cstddef>

#include "clatomics/runtime.hpp"

namespace clatomics::detail {

enum class Access { read, write };  // what the library's kernels do with the buffer

// A range of a user's buffer: elements [offset, offset + count) of element_size bytes.
struct BufferRange {
  const char* what;  // "dot: a", named in every message
  cl_mem buffer;
  std::size_t offset, count, element_size;
  Access access;
};

// Throws std::invalid_argument naming range.what when the buffer is null, is not a buffer (an
// image or pipe), belongs to another context than rt's, has flags that forbid the access
// (CL_MEM_WRITE_ONLY read, CL_MEM_READ_ONLY written), when offset + count overflows or lies
// beyond the buffer, or when the range's first element is not aligned to its size in host
// memory the device uses as it is (CL_MEM_USE_HOST_PTR, sub-buffers of such).
void check_range(const Runtime& rt, const BufferRange& range);

// Whether the implementation of context reports a sub-buffer's CL_MEM_HOST_PTR as the standard
// says (its parent's host_ptr + origin). Where it does not, the host memory of a sub-buffer is
// found through its parent, and is unknown once the user released the parent's handle: such a
// range is then not checked for its host alignment, nor against other host memory.
bool reports_sub_buffer_host_ptr(cl_context context);

// Throws std::invalid_argument when the output range shares memory with the input range: the
// same buffer, a buffer and its sub-buffer, two sub-buffers of one buffer, or two buffers over
// the same host memory (CL_MEM_USE_HOST_PTR). Both ranges already passed check_range.
void check_disjoint(const BufferRange& out, const BufferRange& in);

}  // namespace clatomics::detail
