// How every example ends: one line `NAME: PASS (why)` or `NAME: FAIL (why)` (CTest looks for the
// PASS line), the exit code 0 or 1, and an exception reported as `NAME: error: ...` with exit
// code 2. Copying an example out of this folder? Copy this file with it, or write your own ending.
#pragma once

#include <exception>
#include <iostream>
#include <string>

// An example's outcome: whether its result matched its reference, and a few words on it.
struct Verdict {
  bool pass = false;
  std::string why;
};

template <class Body>
int run_example(const char* name, Body body) {
  try {
    const Verdict v = body();
    std::cout << name << (v.pass ? ": PASS" : ": FAIL") << (v.why.empty() ? "" : " (" + v.why + ")") << "\n";
    return v.pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << "\n";
    return 2;
  }
}
