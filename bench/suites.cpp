// The registry of benchmark suites. To add one: include its header and add one line to the list.
#include "suites.hpp"

#include "bench_atomics.hpp"

namespace clatomics::bench {

const std::vector<Suite>& suites() {
  static const std::vector<Suite> all = {
      {"atomics", "each float/double op at 1..65536 addresses, native path vs CAS loop vs CAS with backoff",
       run_atomics_benchmarks, print_atomics_summary},
      // {"algorithms", "reduce, dot, histogram: GB/s vs a read-only pass and plain C++", run_algorithm_benchmarks, {}},
  };
  return all;
}

const Suite* find_suite(const std::string& name) {
  for (const auto& suite : suites())
    if (suite.name == name) return &suite;
  return nullptr;
}

}  // namespace clatomics::bench
