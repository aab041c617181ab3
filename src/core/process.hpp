// fork(): PoCL's CPU device runs commands on worker threads that a fork()ed child does not have,
// so there the child's first command waits forever (measured on PoCL 3.1: a fresh Runtime's
// first call hung). Intel's runtime works in such a child. The library refuses PoCL there.
#pragma once

namespace clatomics::detail {

// The first call records the calling process as the one that set the OpenCL implementations up.
void note_opencl_set_up();

// Whether this process is a fork() of the one that set OpenCL up.
bool forked_after_opencl_set_up();

// Throws std::logic_error when `pocl` and this process is a fork() of the one that set OpenCL
// up (a child inherits the record, not the worker threads).
void refuse_pocl_after_fork(bool pocl);

}  // namespace clatomics::detail
