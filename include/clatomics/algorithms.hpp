// clatomics/algorithms.hpp — the ready-made algorithms built on the atomics: reduce, dot,
// histograms and stream compaction. Each entry point takes cl::Buffers (with offsets) and runs
// on the runtime's queue, choosing its strategy from the device; each has an overload on
// std::vector that streams data larger than one device buffer through the device in chunks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "clatomics/compact.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/profile.hpp"
#include "clatomics/reduce.hpp"

namespace clatomics::detail {

// For tests: shrink the chunks that the std::vector overloads stream through the device and the
// elements one launch may count, to exercise the merging paths on small data. 0 restores the
// default (chunks up to 256 MiB below CL_DEVICE_MAX_MEM_ALLOC_SIZE; launches below 2^32 elements).
// merge_32bit: histograms count each launch in 32-bit counters merged into the 64-bit totals
// afterwards, as on a device without 64-bit atomics, instead of adding into the totals directly.
struct StreamLimits {
  std::size_t chunk_bytes = 0;
  std::uint64_t launch_elements = 0;
  bool merge_32bit = false;
};
StreamLimits stream_limits();
void set_stream_limits(const StreamLimits& limits);

}  // namespace clatomics::detail
