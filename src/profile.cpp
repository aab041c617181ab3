// ProfileScope: a per-thread stack of event collectors.
#include "clatomics/profile.hpp"

#include "clatomics/error.hpp"

namespace clatomics {
namespace {
thread_local ProfileScope* current_scope = nullptr;
}  // namespace

ProfileScope::ProfileScope() : outer_(current_scope) { current_scope = this; }

ProfileScope::~ProfileScope() { current_scope = outer_; }

double ProfileScope::device_ms() const {
  return checked("reading profiling info", [&] {
    double ms = 0;
    for (const auto& event : events_) {
      event.wait();
      ms += double(event.getProfilingInfo<CL_PROFILING_COMMAND_END>() - event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-6;
    }
    return ms;
  });
}

void ProfileScope::record(const cl::Event& event) {
  if (current_scope) current_scope->events_.push_back(event);
}

bool ProfileScope::active() { return current_scope != nullptr; }

}  // namespace clatomics
