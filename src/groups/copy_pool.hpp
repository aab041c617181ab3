// Host threads that share one large memcpy: a device group stages host data into pinned memory,
// and one thread's memcpy from the user's pageable memory (8-10 GB/s) is slower than a GPU copies
// from pinned memory (25-55 GB/s), so every stream's copy is split among the pool's threads.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace clatomics::detail {

class CopyPool {
 public:
  // threads: the pool's own threads (0: each caller copies alone); a caller of copy() works
  // beside them.
  explicit CopyPool(std::size_t threads);
  ~CopyPool();
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;

  // memcpy(to, from, bytes), in slices of at least min_slice bytes run on the pool's threads and
  // on the caller's; returns when every byte is copied. Several threads may call it at once.
  void copy(void* to, const void* from, std::size_t bytes);

  std::size_t threads() const { return threads_.size(); }

  // The pool a host of `hardware_threads` gets: one thread fewer than it has (the caller copies
  // too), at most 15, at least 1.
  static std::size_t default_threads(std::size_t hardware_threads);

  static constexpr std::size_t min_slice = std::size_t(2) << 20;

 private:
  struct Batch;
  struct Slice {
    unsigned char* to;
    const unsigned char* from;
    std::size_t bytes;
    Batch* batch;
  };
  void loop();
  void stop();  // ends the threads once the slices waiting are copied
  // Copies one slice and counts it done in its batch.
  void run(const Slice& slice);

  std::mutex mutex_;
  std::condition_variable work_;  // a slice waits, or the pool ends
  std::condition_variable done_;  // a batch may have finished
  std::deque<Slice> slices_;
  bool quit_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace clatomics::detail
