// The table `clatomics bench` prints: one line per row of the run.
#pragma once

#include <ostream>
#include <vector>

#include "bench.hpp"

namespace clatomics::cli {

// One table per suite, a line per benchmark: benchmark ("add float global agg"), data ("32 addr
// spread", "1 MiB uniform"), path (where the suite has one), the figure, then its yardsticks as
// columns and the ratio to the one that bounds the device class (`gpu`: the read-only pass; a
// CPU: plain C++); a suite with more than three yardsticks names one per line instead.
void print_bench_table(std::ostream& out, const std::vector<bench::Row>& rows, bool gpu);

}  // namespace clatomics::cli
