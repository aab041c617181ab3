// clatomics/algorithms.hpp — the ready-made algorithms built on the atomics: reduce, dot, scatter-reduce,
// histograms and stream compaction. Each entry point takes cl::Buffers (with offsets) and runs
// on the runtime's queue, choosing its strategy from the device; each has an overload on
// std::vector that streams data larger than one device buffer through the device in chunks.
#pragma once

#include "clatomics/compact.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/profile.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/scatter.hpp"
