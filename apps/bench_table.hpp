// The table `clatomics bench` prints: one line per row of the run.
#pragma once

#include <ostream>
#include <vector>

#include "bench.hpp"

namespace clatomics::cli {

// Columns: suite, benchmark ("add float global agg"), case ("32 addr spread", "1 MiB uniform"),
// path, figure, unit, yardstick, its figure, ratio.
void print_bench_table(std::ostream& out, const std::vector<bench::Row>& rows);

}  // namespace clatomics::cli
