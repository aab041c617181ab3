// The registry of benchmark suites. To add one: include its header and name its suite in the list.
#include "suites.hpp"

#include "bench_algorithms.hpp"
#include "bench_atomics.hpp"
#include "bench_multi.hpp"
#include "bench_scatter.hpp"
#include "bench_variants.hpp"

namespace clatomics::bench {

const std::vector<Suite>& suites() {
  static const std::vector<Suite> all = {atomics_suite(), variants_suite(), algorithms_suite(), scatter_suite(), multi_suite()};
  return all;
}

const Suite* find_suite(const std::string& name) {
  for (const auto& suite : suites())
    if (suite.name == name) return &suite;
  return nullptr;
}

}  // namespace clatomics::bench
