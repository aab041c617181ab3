// The "scatter" suite of `clatomics bench`: scatter_reduce sum of float values at uint32
// indices (out[idx[i]] += values[i], np.add.at, torch index_add_), fast and deterministic, in
// GB/s of index + value bytes, each beside yardsticks measured in the same run: a read-only pass
// over the same bytes on the device, the fast mode (for the deterministic one), on CPU devices a
// plain multi-threaded C++ loop, and on request PyTorch / CuPy figures from bench/scatter_torch.py.
#pragma once

#include "suites.hpp"

namespace clatomics::bench {

// Cases. E = --size / 4 float values (--size is the values' bytes: 256M, the default, gives
// 64M values; pass a smaller --size on CPU devices, e.g. 16M), E rounded down to a multiple of
// 1024, indices uint32:
//   bins M = 1, 256, 65,536, 16,777,216, each with the indices "uniform", "zipf 1.1" (ranks of a
//   Zipf law with s = 1.1 over 2^24 ranks, taken mod M), "sorted uniform" (the uniform ones
//   sorted, passed with indices_are_sorted = true) and "one bin" (all at bin M / 2); at M = 1
//   every distribution is "one bin", which runs once;
//   rows: E / 16 elements (4M at the default size) of width D = 32 and 128, M = 100,000,
//   uniform.
// Values: k / 256 for k uniform in [-256, 256), so that the float sums are exact, or nearly:
// every case is checked against a host sum before it is timed (a mismatch throws).
// Rows: suite "scatter", op "scatter_reduce sum", type "float", bins M, width D (0 for one
// value), bytes E * 4 * (1 + D), distribution, path the ScatterStrategy that ran (from
// ScatterResult::strategy), value GB/s of those bytes (device time of every command the call
// enqueues). Form "" (fast) or "deterministic", each with yardstick "read-only pass"; the
// deterministic one also with yardstick "fast mode" (its ratio: fast time / deterministic time);
// on CPU devices, for M <= 65,536, the fast one with "C++ <n> threads" (private copies of the
// output merged at the end). Quick: 1 MiB of values and 7 of the cases.
// Environment: CLATOMICS_BENCH_SCATTER, a comma list of uniform, zipf, sorted, onebin, rows
// and bin counts (1, 256, 65536, 16777216), narrows a run (a case runs when its distribution and
// its bins are listed, or no distribution / no bins are); CLATOMICS_BENCH_SCATTER_TORCH names the
// JSON lines of bench/scatter_torch.py for the same --size: the fast rows then also get the
// yardsticks "torch index_add_" and "cupyx scatter_add", the deterministic ones "torch index_add_
// deterministic" (bench/scatter_compare.sh runs both on one device).

// One line per case: both modes' GB/s, their ratios to the read-only pass, the strategies, the
// deterministic/fast time ratio, and the ratios to C++ and torch where measured.
Suite scatter_suite();

}  // namespace clatomics::bench
