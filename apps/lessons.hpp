// The lessons `clatomics demo` runs: each prints a short table and says whether its checks held.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

namespace clatomics::cli {

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

// Helpers for the lessons' tables.
std::string ok_mark(bool ok);  // "ok" or "FAILED"
std::string mops(double ops, double ms);  // "123.4" M ops/s
std::string table(const std::vector<std::vector<std::string>>& rows);  // aligned, indented by 2

}  // namespace clatomics::cli
