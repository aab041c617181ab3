// The suites `clatomics bench` can run, in the order it runs them.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "bench.hpp"

namespace clatomics::bench {

struct Suite {
  std::string name;         // what --suite takes
  std::string description;  // one line for --help and --list
  std::function<std::vector<Row>(Runtime&, const Config&)> run;
  // How many benchmarks run() will start (each a step() of the progress line), for the count and
  // the ETA; it may throw where run() would (a bad CLATOMICS_BENCH_* list).
  std::function<std::size_t(const Runtime&, const Config&)> steps;
  // Optional: a few lines after the table about this suite's rows (targets, headline figures),
  // for a GPU or a CPU device (their yardsticks differ).
  std::function<void(const std::vector<Row>&, bool gpu, std::ostream&)> summary;
};

// Every registered suite (see suites.cpp: adding one is one line there).
const std::vector<Suite>& suites();

// The suite of that name, or nullptr.
const Suite* find_suite(const std::string& name);

}  // namespace clatomics::bench
