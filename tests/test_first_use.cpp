// Threads that make the process's first OpenCL calls at once, each through a Runtime of its own:
// every one gets its device. This suite must make no OpenCL call before (its one test case runs
// first, in a process of its own): the device enumeration is what is under test.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "support.hpp"

TEST_CASE("8 threads make the process's first Runtimes at once: each gets its device and runs") {
  constexpr int threads = 8;
  std::vector<std::string> errors(threads);
  std::vector<float> sums(threads, 0.0f);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        clatomics::Runtime rt;
        sums[std::size_t(t)] = clatomics::reduce(rt, std::vector<float>(1000, 1.0f), clatomics::ReduceOp::sum);
      } catch (const std::exception& e) {
        errors[std::size_t(t)] = e.what();
      }
    });
  for (auto& thread : pool) thread.join();
  for (int t = 0; t < threads; ++t) {
    CAPTURE(t);
    CHECK(errors[std::size_t(t)] == "");
    CHECK(sums[std::size_t(t)] == 1000.0f);
  }
}
