// Where the algorithms' commands go while a ProfileScope lives.
#pragma once

#include <mutex>
#include <vector>

#include "core/cl_handles.hpp"

namespace clatomics::detail {

// The commands one ProfileScope collected; shared with the thread's list of live scopes, so a
// scope that ends anywhere (in any order, on any thread) leaves nothing dangling.
struct ProfileRecord {
  std::mutex mutex;  // device_ms() may run on another thread than the recording one
  std::vector<Event> events;
};

// Records a command's event in the innermost live ProfileScope of this thread, if any.
void record_command(const Event& event);

// Whether a ProfileScope of this thread is live: its calls' commands need events.
bool profiling();

}  // namespace clatomics::detail
