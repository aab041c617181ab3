// The "variants" suite of `clatomics bench`: aggregated atomics against the plain (unaggregated)
// op at 1, 32, 1024 and 65536 addresses for float add, mul and div, the no-return add against the
// returning one, and half/bf16 add against float add.
#pragma once

#include <vector>

#include "suites.hpp"

namespace clatomics::bench {

// Rows, on __global memory, value in M ops/s, distribution the layout: "spread" (neighbouring
// work-items on different addresses) or "blocked" (runs of 32 neighbours on one address; at 1
// address only spread). Paths are the device's (DeviceInfo), as the library reports them:
//   form "agg", op add/mul/div float: the aggregated op, yardstick "plain <path>" (the plain op
//     on its own path: for add the hardware atomic where there is one);
//   the same add rows again with yardstick "hardware atomic_add uint": the device's integer
//     atomic_add in the same layout (one hardware atomic per call);
//   form "noret", op add float: path ptx (PTX red) or plain (the returning add), yardstick
//     "returning add";
//   op add, type half / bf16 (ushort cells: neighbours share a 32-bit word), yardstick "add float
//     plain <path>"; on NVIDIA also path "ptx scalar (opt-in)".
// Quick: fewer levels, short launches.
Suite variants_suite();

}  // namespace clatomics::bench
