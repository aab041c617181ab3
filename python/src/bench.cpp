// The C++ side of bench/python_overhead.py: the same library calls the package makes, timed in a
// loop in C++ on the same Runtime, so the Python layer's cost is the difference.
#include <chrono>
#include <string>

#include "common.hpp"

namespace clatomics_py {

namespace {

template <class F>
double seconds_per_call(std::size_t repeats, F&& f) {
  f();  // the programs built and cached, as the Python side's first call does
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < repeats; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / double(repeats ? repeats : 1);
}

// clatomics::reduce(rt, view<float>(...), sum) repeated.
double time_reduce(std::intptr_t queue, const py::handle& in, std::size_t repeats) {
  const auto view = array_of(in).view<float>();
  auto rt = runtime_for(queue);
  py::gil_scoped_release unlocked;
  return seconds_per_call(repeats, [&] { return clatomics::reduce(*rt, view, clatomics::ReduceOp::sum); });
}

// clatomics::histogram_even(rt, view<float>(...), {nbins, lo, hi}) repeated.
double time_histogram(std::intptr_t queue, const py::handle& in, std::size_t nbins, double lo, double hi, std::size_t repeats) {
  const auto view = array_of(in).view<float>();
  auto rt = runtime_for(queue);
  const clatomics::EvenBins<float> bins{nbins, lo, hi};
  py::gil_scoped_release unlocked;
  return seconds_per_call(repeats, [&] { return clatomics::histogram_even(*rt, view, bins); });
}

}  // namespace

void register_bench(py::module_& m) {
  m.def("_time_reduce", &time_reduce);
  m.def("_time_histogram", &time_histogram);
}

}  // namespace clatomics_py
