// The lessons `clatomics demo` runs: each prints a short table and says whether its checks held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "clatomics/clatomics.hpp"

namespace clatomics::cli {

using bench::checked;

// Builds one of apps/cl's kernel files (embedded in this program) with the snippet library.
cl::Program build_demo_kernel(const Runtime& rt, const std::string& file);

struct Lesson {
  std::string name;   // what --lesson takes
  std::string title;  // one line for --list and the heading
  // Runs on the runtime's device, prints to out, returns false if any check failed.
  std::function<bool(Runtime&, std::ostream&)> run;
};

// Every lesson, in the order the demo runs them (lessons.cpp: one line each).
const std::vector<Lesson>& lessons();

bool lesson_lost_update(Runtime& rt, std::ostream& out);    // lesson_race.cpp
bool lesson_float_atomics(Runtime& rt, std::ostream& out);  // lesson_float.cpp
bool lesson_reduce(Runtime& rt, std::ostream& out);         // lesson_reduce.cpp
bool lesson_dot(Runtime& rt, std::ostream& out);            // lesson_dot.cpp
bool lesson_histogram(Runtime& rt, std::ostream& out);      // lesson_histogram.cpp

// For testing the checks themselves: true when CLATOMICS_DEMO_BREAK (a comma list of lesson
// names, or "all") names this lesson. Such a lesson shifts its host reference by one unit, so
// its checks must report FAILED and the demo must exit 1.
bool broken(const std::string& lesson);

// Elements the algorithm lessons work on: enough to measure on a GPU, quick on a CPU.
std::size_t lesson_elements(const Runtime& rt);

// A fixed pseudo-random 32-bit number for index i (the same data on every run and device).
std::uint32_t mix(std::uint64_t i);

// Runs f (a call of the library's algorithms) once to warm up, then once inside a ProfileScope;
// returns both results and the device time of the second in ms (every command it enqueued).
template <class F>
auto warm_and_time(F&& f) {
  auto first = f();
  ProfileScope scope;
  auto second = f();
  const double ms = scope.device_ms();
  struct Timed {
    decltype(first) warm, timed;
    double ms;
  };
  return Timed{std::move(first), std::move(second), ms};
}

// Helpers for the lessons' tables.
std::string ok_mark(bool ok);  // "ok" or "FAILED"
std::string mops(double ops, double ms);  // "123.4" M ops/s
std::string gbps(double bytes, double ms);  // "12.3" GB/s (10^9 bytes)
// Integers in full ("12582912"), else the fewest digits that read back as the same value.
std::string exact(double value);
std::string exact(float value);

}  // namespace clatomics::cli
