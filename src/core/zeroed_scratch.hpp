// Device scratch kept at zero between calls, as CUB's caching allocator and PyTorch's keep device
// memory: a call whose last kernel clears every byte it touched gives its buffers back, so the
// next call neither fills them nor touches fresh memory. On PoCL (2 cores) the deterministic
// scatter's fills of 16M slots took 90 ms of a 220 ms call, most of it the first touch of
// freshly allocated pages (bench/BENCHMARKS.md).
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "core/cl_handles.hpp"

namespace clatomics {
class Runtime;
}

namespace clatomics::detail {

class ZeroedScratch;

// A buffer of at least the bytes asked for. fresh(): just allocated, its contents undefined (the
// caller fills it); otherwise every byte is zero. Given back when destroyed only after
// mark_zeroed() (its user has cleared it again and its commands are done); otherwise released.
class ScratchLease {
 public:
  ScratchLease() = default;
  ScratchLease(ScratchLease&& from) noexcept;
  ScratchLease& operator=(ScratchLease&& from) noexcept;
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  ~ScratchLease();

  cl_mem get() const { return buffer_.get(); }
  explicit operator bool() const { return bool(buffer_); }
  bool fresh() const { return fresh_; }
  void mark_zeroed() { zeroed_ = true; }

 private:
  friend class ZeroedScratch;
  ScratchLease(ZeroedScratch* owner, Mem buffer, std::size_t bytes, bool fresh)
      : owner_(owner), buffer_(std::move(buffer)), bytes_(bytes), fresh_(fresh) {}
  void give_back();
  ZeroedScratch* owner_ = nullptr;
  Mem buffer_;
  std::size_t bytes_ = 0;
  bool fresh_ = false, zeroed_ = false;
};

// The zeroed buffers one Runtime keeps, at most set_limit()'s bytes of them (none until it is
// set). Several threads may take and give back at once; a buffer is lent to one call at a time.
class ZeroedScratch {
 public:
  void set_limit(std::size_t bytes);
  // The smallest kept buffer of at least `bytes`, else a new one (fresh).
  ScratchLease take(const Runtime& rt, std::size_t bytes);
  std::size_t kept_bytes() const;
  void release();

 private:
  friend class ScratchLease;
  void keep(Mem buffer, std::size_t bytes) noexcept;
  std::size_t kept_bytes_locked() const;  // with mutex_ held
  struct Kept {
    std::size_t bytes;
    Mem buffer;
  };
  mutable std::mutex mutex_;
  std::size_t limit_ = 0;
  std::vector<Kept> kept_;
};

}  // namespace clatomics::detail
