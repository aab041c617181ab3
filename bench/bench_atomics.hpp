// The "atomics" suite of `clatomics bench`: throughput of every float/double op at
// 1, 32, 1024 and 65536 addresses, on the device's native paths and on the forced CAS loop, and
// the CAS loop with backoff (cl/clatomics/backoff.cl) against the plain loop.
#pragma once

#include "suites.hpp"

namespace clatomics::bench {

// Rows: op, type, space, addresses, path (the native runtime's: cas, ext, ptx, bits, hardware),
// value in M ops/s, yardstick "cas loop" (the same kernel built with CLAT_FORCE_CAS on the same
// device and queue); min/max also against "naive cas loop" (re-reads, no early exit); the backoff
// rows have path "cas+backoff". Quick: float only, fewer ops and levels, short launches.
// The figures with targets: float add M ops/s per level; min/max and backoff ratios.
Suite atomics_suite();

}  // namespace clatomics::bench
