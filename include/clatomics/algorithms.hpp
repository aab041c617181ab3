// clatomics/algorithms.hpp — the ready-made algorithms built on the atomics: reduce, dot, scatter-reduce
// (with segment_reduce and reduce_by_key), histograms and stream compaction; each header holds
// an algorithm's every form: one device, its plan, its partial results, a DeviceGroup. Each entry point takes cl::Buffers (with offsets) and runs
// on the runtime's queue, choosing its strategy from the device; each has an overload on
// std::vector that streams data larger than one device buffer through the device in chunks.
#pragma once

#include "clatomics/compact.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/profile.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/reduce_by_key.hpp"
#include "clatomics/scatter.hpp"
#include "clatomics/segment_reduce.hpp"
