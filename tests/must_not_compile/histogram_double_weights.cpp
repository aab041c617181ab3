// MUST NOT COMPILE: "no matching function for call to"
// Weights are floats: a view of doubles is no weight channel (it would be read as floats).
#include <clatomics/clatomics.hpp>
clatomics::EvenHistogram f(clatomics::Runtime& rt, const cl::Buffer& x, const cl::Buffer& w) {
  return clatomics::histogram_even(rt, clatomics::view<float>(x), clatomics::EvenBins<float>{10, 0, 1}, {clatomics::view<double>(w)});
}
