// Built programs' binaries kept on disk, shared by every process that uses the same directory
// (CLATOMICS_CACHE_DIR, by default the user's cache directory; set empty: no disk cache). The next
// process to build a program loads its binary instead of compiling the source again: Intel's CPU
// runtime keeps no cache of its own (PoCL keeps its own, and is never asked: below). PyOpenCL's
// cache does the same by default, Boost.Compute's offline cache and VexCL's VEXCL_CACHE_KERNELS
// when asked.
//
// An entry holds its whole key (platform, device and driver, the build options and the source)
// and is used only when that key is equal, so an entry never stands for another program; one
// that is short, unreadable or does not build is ignored and the source is built. Entries are
// written to a temporary file and renamed into place, so processes that build the same program
// at once never read a half-written one. A directory keeps at most 1 GiB of entries: past it,
// the least recently used go.
#pragma once

#include <string>

#include "core/cl_handles.hpp"

namespace clatomics::detail {

// CLATOMICS_CACHE_DIR; where it is unset, $XDG_CACHE_HOME/clatomics or ~/.cache/clatomics (on
// Intel's CPU runtime a process's Runtime() takes 5.4 s without it, 0.06 s with it); empty when
// it is set empty (no disk cache).
std::string binary_cache_dir();

// PoCL makes a program's binaries only when they are asked for, so that asking costs a build:
// its answer compiles every kernel of the program once more, for any work-group size (measured
// on PoCL 3.1: test_reduce with a cold PoCL cache 20 s without asking, 77 s asking once per
// program), while its own disk cache (POCL_CACHE_DIR, on by
// default) brings a program back faster than a binary does (2.6 s against 14 s). And before 7.0,
// asking aborts the process (pocl_release_dlhandle_cache: "found->ref_count > 0") if a kernel of
// an equal program, compiled for a fixed work-group size, is running on another thread: the
// answer enters that kernel anew with no user, and the running launch, finishing, takes the entry
// for its own. So the library never asks PoCL (on_pocl): no binary goes to CLATOMICS_CACHE_DIR,
// and the program cache weighs PoCL's programs by their source.

// An entry's key: everything that decides what a build makes (the implementation and its
// version, the device, the options and the source).
std::string binary_key(cl_device_id device, const std::string& source, const std::string& options);

// The program of key on device built from its binary in dir with options, or a null Program when
// dir holds none for that key or it does not build.
Program load_binary(const std::string& dir, const std::string& key, cl_context context, cl_device_id device, const std::string& options);

// Keeps program's binary (built for one device) in dir under key (dir created when missing).
// Failures to write are ignored: the cache only saves time.
void store_binary(const std::string& dir, const std::string& key, cl_program program);

}  // namespace clatomics::detail
