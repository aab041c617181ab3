// clatomics/profile.hpp — the device time of the commands the algorithms enqueue.
#pragma once

#include <cstddef>
#include <memory>

namespace clatomics {

namespace detail {
struct ProfileRecord;
}

// While a ProfileScope lives, every command that reduce, dot, histogram and compact enqueue on
// the thread that made it is recorded, so that device_ms() can sum their durations (from the
// queue's profiling: a Runtime's own queue has it; an adopted queue needs
// CL_QUEUE_PROFILING_ENABLE, else device_ms() throws Error with CL_PROFILING_INFO_NOT_AVAILABLE):
// device time without the host's launch and wait overheads. Scopes nest; the innermost live
// one records. Scopes may end in any order and on any thread: a scope that has ended records
// nothing more.
class ProfileScope {
 public:
  ProfileScope();
  ~ProfileScope();
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

  // Sum of the recorded commands' durations in milliseconds; waits for them to finish.
  double device_ms() const;
  // How many commands were recorded.
  std::size_t commands() const;

 private:
  std::shared_ptr<detail::ProfileRecord> record_;
};

}  // namespace clatomics
