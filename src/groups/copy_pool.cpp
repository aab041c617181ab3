// Host threads that share one large memcpy (copy_pool.hpp).
#include "groups/copy_pool.hpp"

#include <algorithm>
#include <cstring>

namespace clatomics::detail {

struct CopyPool::Batch {
  std::size_t left = 0;  // slices not yet copied, under the pool's mutex
};

CopyPool::CopyPool(std::size_t threads) {
  try {
    threads_.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) threads_.emplace_back([this] { loop(); });
  } catch (...) {
    stop();  // the threads already started end before the exception leaves
    throw;
  }
}

CopyPool::~CopyPool() { stop(); }

void CopyPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

std::size_t CopyPool::default_threads(std::size_t hardware_threads) {
  return std::clamp<std::size_t>(hardware_threads > 1 ? hardware_threads - 1 : 1, 1, 15);
}

void CopyPool::run(const Slice& slice) {
  std::memcpy(slice.to, slice.from, slice.bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  if (--slice.batch->left == 0) done_.notify_all();
}

void CopyPool::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [&] { return quit_ || !slices_.empty(); });
    if (slices_.empty()) return;  // quit, and nothing left to copy
    const Slice slice = slices_.front();
    slices_.pop_front();
    lock.unlock();
    run(slice);
    lock.lock();
  }
}

void CopyPool::copy(void* to, const void* from, std::size_t bytes) {
  if (bytes == 0) return;
  // As many slices as threads can take (the caller's included), none below min_slice, each a
  // multiple of 64 bytes so that no two slices share a cache line of the destination.
  const std::size_t count = std::min(threads_.size() + 1, std::max<std::size_t>(1, bytes / min_slice));
  const std::size_t slice_bytes = (bytes / count + 63) / 64 * 64;
  auto* dst = static_cast<unsigned char*>(to);
  const auto* src = static_cast<const unsigned char*>(from);
  Batch batch;
  std::vector<Slice> slices;
  for (std::size_t at = 0; at < bytes; at += slice_bytes) slices.push_back({dst + at, src + at, std::min(slice_bytes, bytes - at), &batch});
  batch.left = slices.size();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    slices_.insert(slices_.end(), slices.begin() + 1, slices.end());
  }
  work_.notify_all();
  run(slices.front());
  // Until the batch is done, the caller copies whatever slices wait (its own or another
  // stream's): no thread sits idle while the pool is behind.
  std::unique_lock<std::mutex> lock(mutex_);
  while (batch.left != 0) {
    if (slices_.empty()) {
      done_.wait(lock);
      continue;
    }
    const Slice slice = slices_.front();
    slices_.pop_front();
    lock.unlock();
    run(slice);
    lock.lock();
  }
}

}  // namespace clatomics::detail
