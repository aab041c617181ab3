// The registry of benchmark suites. To add one: include its header and add one line to the list.
#include "suites.hpp"

#include "bench_algorithms.hpp"
#include "bench_atomics.hpp"
#include "bench_multi.hpp"
#include "bench_scatter.hpp"
#include "bench_variants.hpp"

namespace clatomics::bench {

const std::vector<Suite>& suites() {
  static const std::vector<Suite> all = {
      {"atomics", "each float/double op at 1..65536 addresses, native path vs CAS loop vs CAS with backoff",
       run_atomics_benchmarks, atomics_steps, print_atomics_summary},
      {"variants", "aggregated vs plain vs hardware atomics, no-return add, half/bf16 add at 1..65536 addresses", run_variant_benchmarks, variant_steps, {}},
      {"algorithms", "reduce, dot, histograms, compact: GB/s vs a read-only pass and plain C++", run_algorithm_benchmarks, algorithm_steps, print_algorithm_summary},
      {"scatter", "scatter_reduce sum (fast, deterministic) over 1..16M bins and rows: GB/s vs a read-only pass, C++, torch",
       run_scatter_benchmarks, scatter_steps, print_scatter_summary},
      {"multi", "reduce and histogram on a device group (resident and host data) vs one of its devices", run_multi_benchmarks,
       multi_steps, print_multi_summary},
  };
  return all;
}

const Suite* find_suite(const std::string& name) {
  for (const auto& suite : suites())
    if (suite.name == name) return &suite;
  return nullptr;
}

}  // namespace clatomics::bench
