// ProfileScope: each thread keeps weak references to its scopes' records, innermost last; a
// scope's record dies with the scope, so an ended scope is an expired reference, never a dangling one.
#include "clatomics/profile.hpp"

#include <algorithm>

#include "core/profile_record.hpp"

namespace clatomics {
namespace detail {
namespace {

thread_local std::vector<std::weak_ptr<ProfileRecord>> scopes;

}  // namespace

void record_command(const Event& event) {
  while (!scopes.empty()) {
    if (const auto record = scopes.back().lock()) {
      std::lock_guard<std::mutex> lock(record->mutex);
      record->events.push_back(event);
      return;
    }
    scopes.pop_back();  // that scope has ended
  }
}

bool profiling() {
  auto& live = scopes;
  while (!live.empty() && live.back().expired()) live.pop_back();
  return !live.empty();
}

}  // namespace detail

ProfileScope::ProfileScope() : record_(std::make_shared<detail::ProfileRecord>()) {
  auto& scopes = detail::scopes;
  scopes.erase(std::remove_if(scopes.begin(), scopes.end(), [](const auto& s) { return s.expired(); }), scopes.end());
  scopes.push_back(record_);
}

ProfileScope::~ProfileScope() = default;

double ProfileScope::device_ms() const {
  std::vector<detail::Event> events;
  {
    std::lock_guard<std::mutex> lock(record_->mutex);
    events = record_->events;
  }
  double ms = 0;
  for (const auto& event : events) {
    const cl_event e = event.get();
    detail::check(clWaitForEvents(1, &e), "clWaitForEvents");
    const auto start = detail::info<cl_ulong>(clGetEventProfilingInfo, e, CL_PROFILING_COMMAND_START, "clGetEventProfilingInfo");
    const auto end = detail::info<cl_ulong>(clGetEventProfilingInfo, e, CL_PROFILING_COMMAND_END, "clGetEventProfilingInfo");
    ms += double(end - start) * 1e-6;
  }
  return ms;
}

std::size_t ProfileScope::commands() const {
  std::lock_guard<std::mutex> lock(record_->mutex);
  return record_->events.size();
}

}  // namespace clatomics
