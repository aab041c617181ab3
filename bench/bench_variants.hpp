// The "variants" suite of `clatomics bench` (issue 9): aggregated atomics against the plain
// (unaggregated) op at 1, 32, 1024 and 65536 addresses for float add, mul and div, and the
// no-return add against the returning one.
#pragma once

#include <vector>

#include "bench.hpp"

namespace clatomics::bench {

// Rows, all float on __global memory, value in M ops/s:
//   name "<op> float agg", variant "<n> addr <layout> <agg path>", yardstick "plain <path>":
//     the aggregated op against the plain op on the device's own path (for add that is the
//     hardware atomic where there is one: PTX atom on NVIDIA, cl_ext_float_atomics on PoCL 5);
//   the same "add float agg" rows again with yardstick "hardware atomic_add uint": the device's
//     own integer atomic_add in the same layout (one hardware atomic per call);
//   name "add float noret", variant "<n> addr <layout> <noret path>", yardstick "returning add";
//   name "add half" / "add bf16", variant "<n> addr <layout> <path>", yardstick "add float plain
//     <path>" (16-bit add on ushort cells: neighbouring cells share a 32-bit word).
// Layouts: "spread" (neighbouring work-items on different addresses) and "blocked" (runs of 32
// neighbours on one address); at 1 address only one. Quick: fewer levels, short launches.
std::vector<Row> run_variant_benchmarks(Runtime& rt, const Config& config);

}  // namespace clatomics::bench
