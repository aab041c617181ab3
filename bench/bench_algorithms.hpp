// The "algorithms" suite of `clatomics bench`: reduce, dot, histograms and compaction in
// GB/s over Config::bytes of data, each beside two yardsticks measured in the same run: a
// read-only pass over the same bytes on the device, and a plain multi-threaded C++ loop doing the
// same work on the host.
#pragma once

#include "suites.hpp"

namespace clatomics::bench {

// Rows: suite "algorithms", op the library call ("reduce sum", "dot", "histogram" (256 bins of
// bytes), "histogram_even" (100 bins), "compact" (form "stable" for the order-keeping one)), type
// the element type, bytes of input, distribution of the data ("uniform", "one bin", "half kept"),
// value in GB/s of input read (device time of every command the call enqueues), two rows per
// benchmark: yardstick "read-only pass" and "C++ <n> threads".
// Each device result is checked against the host's (exact for integers and counts); a mismatch
// throws. Quick: 1 MiB of data. CLATOMICS_BENCH_ALGOS (a comma list of reduce, dot, histogram,
// even, compact) narrows a run.

// The ratios with targets: reduce and histogram against the yardstick of the device class (a
// GPU: the read-only pass; a CPU: plain multi-threaded C++).
Suite algorithms_suite();

}  // namespace clatomics::bench
