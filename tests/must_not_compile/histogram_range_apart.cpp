// MUST NOT COMPILE: "the range goes in the bins"
// histogram_even(rt, values, nbins, lo, hi): the range is written as the bins, {nbins, lo, hi}.
#include <clatomics/clatomics.hpp>
clatomics::EvenHistogram f(clatomics::Runtime& rt, const std::vector<double>& x) { return clatomics::histogram_even(rt, x, 10, 0.f, 1.f); }
