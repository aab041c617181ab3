// A bounded cache of built programs: each (source, options) builds once, also when several
// threads ask together; the least recently used programs go first when it holds too many
// programs or bytes (the key's text, and the binaries' size where asking for it costs nothing:
// not on PoCL, binary_cache.hpp says why).
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/cl_handles.hpp"

namespace clatomics::detail {

class ProgramCache {
 public:
  // 0: no limit. weigh_binaries: count each program's binaries too.
  ProgramCache(std::size_t max_entries, std::size_t max_bytes, bool weigh_binaries)
      : max_entries_(max_entries), max_bytes_(max_bytes), weigh_binaries_(weigh_binaries) {}

  // The program for key; on a miss, build() makes it (outside the lock: other keys stay served).
  // A failed build is not kept: the next call tries again.
  Program get(const std::string& key, const std::function<Program()>& build);

  std::size_t builds() const;
  std::size_t entries() const;
  std::size_t bytes() const;
  void clear();

 private:
  struct Entry {
    std::shared_future<Program> program;
    std::size_t bytes = 0;
    bool ready = false;
    std::list<const std::string*>::iterator use;  // place in uses_
  };
  void evict_locked();

  const std::size_t max_entries_, max_bytes_;
  const bool weigh_binaries_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<const std::string*> uses_;  // keys, most recently used first
  std::size_t bytes_ = 0, builds_ = 0;
};

}  // namespace clatomics::detail
