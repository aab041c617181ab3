// PoCL before 7.0 keeps one table of loaded kernels for the whole process, and a launch that
// finishes gives back the first entry of its kernel (program build hash, kernel name) and
// work-group size, not the entry it took: entries of one kernel differ in the widest grid they
// serve, so when contexts launch one kernel at different grid widths at once, a launch gives back
// another's entry and PoCL aborts ("pocl_release_dlhandle_cache: found->ref_count > 0"). Measured
// on PoCL 5.0 (the host of the GPU machine): four contexts launching one kernel of the same
// source at varying widths aborted 3 runs of 3, and so did test_device_group_segments (a device
// group's Runtimes running the library's kernels side by side). PoCL 3.1 counts each launch
// twice, which needs more launches in flight to get there: the four contexts of test_threads
// aborted it under ThreadSanitizer (slower host threads) in 2 runs of 3. 7.0 gives back the entry
// taken (pocl c9ac4c0c3).
//
// The build hash covers the build options, so on those versions every Runtime alive at the same
// time builds with an option of its own, -DCLAT_POCL_INSTANCE=k (k > 0): the lowest number no
// live Runtime holds, so that a process's first Runtime adds nothing and later ones reuse the
// same numbers (and PoCL's disk cache of their programs). The cost: a second Runtime alive at
// once compiles its programs again (from cold PoCL caches on 2 cores, the device-group, threads
// and runtime suites 113 s -> 170 s; nothing once PoCL's cache has them). One Runtime's own
// launches run one at a time: its queue is in order, or the library orders its commands with
// events.
#pragma once

#include <string>

#include "core/cl_handles.hpp"

namespace clatomics::detail {

// The major version in a PoCL platform version text ("OpenCL 3.0 PoCL 5.0+debian  Linux, ..."),
// or 0 where the text names none.
int pocl_major(const std::string& platform_version);

// Whether PoCL's device pocl_device is of a version whose table mixes up launches (before 7.0).
bool pocl_mixes_launches(cl_device_id pocl_device);

// A number held while it lives, for a Runtime on such a device; none (and no option) otherwise.
class PoclInstance {
 public:
  explicit PoclInstance(bool needed);
  ~PoclInstance();
  PoclInstance(const PoclInstance&) = delete;
  PoclInstance& operator=(const PoclInstance&) = delete;

  bool held() const { return number_ >= 0; }
  int number() const { return number_; }
  // " -DCLAT_POCL_INSTANCE=k" for k > 0, else nothing.
  std::string build_option() const;

 private:
  int number_ = -1;
};

}  // namespace clatomics::detail
