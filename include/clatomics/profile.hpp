// clatomics/profile.hpp — the device time of the commands the algorithms enqueue.
#pragma once

#include <cstddef>
#include <vector>

#include "clatomics/opencl.hpp"

namespace clatomics {

// While a ProfileScope lives, every command that reduce, dot, histogram and compact enqueue on
// this thread is recorded, so that device_ms() can sum their durations (from the queue's
// profiling, which Runtime enables): device time without the host's launch and wait overheads.
// Scopes nest; the innermost one records.
class ProfileScope {
 public:
  ProfileScope();
  ~ProfileScope();
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

  // Sum of the recorded commands' durations in milliseconds; waits for them to finish.
  double device_ms() const;
  std::size_t commands() const { return events_.size(); }

  // Called by the algorithms; a no-op when no scope is active on this thread.
  static void record(const cl::Event& event);
  static bool active();

 private:
  std::vector<cl::Event> events_;
  ProfileScope* outer_;
};

}  // namespace clatomics
