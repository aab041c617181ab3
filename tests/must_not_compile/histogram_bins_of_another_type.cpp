// MUST NOT COMPILE: "EvenBins<T> must be of the positions' type"
// Double values with float bins: one message, not a list of overloads that did not match.
#include <clatomics/clatomics.hpp>
clatomics::EvenHistogram f(clatomics::Runtime& rt, const std::vector<double>& x) {
  return clatomics::histogram_even(rt, x, clatomics::EvenBins<float>{10, 0, 1});
}
