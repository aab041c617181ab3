// ProgramCache: futures shared by the threads that ask for one key, an LRU list of keys.
#include "core/program_cache.hpp"

#include <numeric>
#include <vector>

namespace clatomics::detail {
namespace {

// What a program holds in memory beyond its key: its binaries, one per device.
std::size_t binary_bytes(const Program& program) {
  try {
    const auto sizes = info_array<std::size_t>(clGetProgramInfo, program.get(), CL_PROGRAM_BINARY_SIZES, "clGetProgramInfo");
    return std::accumulate(sizes.begin(), sizes.end(), std::size_t(0));
  } catch (const Error&) {
    return 0;  // a driver that cannot say: count the key only
  }
}

}  // namespace

Program ProgramCache::get(const std::string& key, const std::function<Program()>& build) {
  std::promise<Program> promise;
  std::shared_future<Program> future;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      uses_.splice(uses_.begin(), uses_, it->second.use);
      future = it->second.program;
    } else {
      it = entries_.emplace(key, Entry{}).first;
      it->second.program = promise.get_future().share();
      it->second.bytes = key.size();
      uses_.push_front(&it->first);
      it->second.use = uses_.begin();
      bytes_ += key.size();
      ++builds_;
    }
  }
  if (future.valid()) return future.get();  // built, or being built by another thread
  try {
    Program program = build();
    const std::size_t extra = weigh_binaries_ ? binary_bytes(program) : 0;
    promise.set_value(program);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {  // clear() may have dropped it meanwhile
      it->second.ready = true;
      it->second.bytes += extra;
      bytes_ += extra;
      evict_locked();
    }
    return program;
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end() && !it->second.ready) {
      bytes_ -= it->second.bytes;
      uses_.erase(it->second.use);
      entries_.erase(it);
    }
    throw;
  }
}

void ProgramCache::evict_locked() {
  const auto over = [&] {
    return (max_entries_ && entries_.size() > max_entries_) || (max_bytes_ && bytes_ > max_bytes_);
  };
  // Least recently used first; programs still being built stay (their builders hold them).
  for (auto use = uses_.end(); over() && use != uses_.begin();) {
    --use;
    auto it = entries_.find(**use);
    if (!it->second.ready) continue;
    bytes_ -= it->second.bytes;
    use = uses_.erase(use);
    entries_.erase(it);
  }
}

std::size_t ProgramCache::builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builds_;
}

std::size_t ProgramCache::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

std::size_t ProgramCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

void ProgramCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  uses_.clear();
  bytes_ = 0;
}

}  // namespace clatomics::detail
