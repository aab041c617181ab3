#include "core/zeroed_scratch.hpp"

#include <algorithm>
#include <new>
#include <utility>

#include "core/launch.hpp"

namespace clatomics::detail {

ScratchLease::ScratchLease(ScratchLease&& from) noexcept
    : owner_(std::exchange(from.owner_, nullptr)),
      buffer_(std::move(from.buffer_)),
      bytes_(from.bytes_),
      fresh_(from.fresh_),
      zeroed_(std::exchange(from.zeroed_, false)) {}

ScratchLease& ScratchLease::operator=(ScratchLease&& from) noexcept {
  if (this != &from) {
    give_back();
    owner_ = std::exchange(from.owner_, nullptr);
    buffer_ = std::move(from.buffer_);
    bytes_ = from.bytes_;
    fresh_ = from.fresh_;
    zeroed_ = std::exchange(from.zeroed_, false);
  }
  return *this;
}

ScratchLease::~ScratchLease() { give_back(); }

void ScratchLease::give_back() {
  if (owner_ && buffer_ && zeroed_) owner_->keep(std::move(buffer_), bytes_);
  buffer_ = Mem();
  owner_ = nullptr;
}

void ZeroedScratch::set_limit(std::size_t bytes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  limit_ = bytes;
}

ScratchLease ZeroedScratch::take(const Runtime& rt, std::size_t bytes) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::size_t best = kept_.size();
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i].bytes >= bytes && (best == kept_.size() || kept_[i].bytes < kept_[best].bytes)) best = i;
    if (best < kept_.size()) {
      Kept found = std::move(kept_[best]);
      kept_.erase(kept_.begin() + std::ptrdiff_t(best));
      return ScratchLease(this, std::move(found.buffer), found.bytes, false);
    }
  }
  return ScratchLease(this, make_buffer(rt, bytes), bytes, true);
}

// Over the limit, kept buffers smaller than this one go first, the smallest first: a call that
// needs more than the others keeps its buffers rather than finding the limit full of ones too
// small for it; where only larger ones would have to go, this one goes. Never throws (it runs in
// a lease's destructor): a buffer it cannot note is released.
void ZeroedScratch::keep(Mem buffer, std::size_t bytes) noexcept {
  std::vector<Kept> dropped;  // released outside the lock
  const std::lock_guard<std::mutex> lock(mutex_);
  try {
    if (bytes > limit_) return;
    dropped.reserve(kept_.size());
    while (kept_bytes_locked() + bytes > limit_) {
      auto smallest = std::min_element(kept_.begin(), kept_.end(), [](const Kept& a, const Kept& b) { return a.bytes < b.bytes; });
      if (smallest->bytes >= bytes) return;
      dropped.push_back(std::move(*smallest));
      kept_.erase(smallest);
    }
    kept_.push_back({bytes, std::move(buffer)});
  } catch (const std::bad_alloc&) {
  }
}

std::size_t ZeroedScratch::kept_bytes() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return kept_bytes_locked();
}

std::size_t ZeroedScratch::kept_bytes_locked() const {
  std::size_t bytes = 0;
  for (const Kept& k : kept_) bytes += k.bytes;
  return bytes;
}

void ZeroedScratch::release() {
  std::vector<Kept> dropped;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(kept_);
  }
}

}  // namespace clatomics::detail
