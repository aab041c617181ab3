// NumPy's even bins, as np.histogram and np.histogram2d compute them: the edges of [lo, hi]
// (np.linspace in the type each rule uses) and the range taken from the data when none is given.
// Kept apart from histogram.cpp's strategies and runs: these are the rules a result must match
// bin for bin, and this file is built with -ffp-contract=off so the host rounds every operation
// as NumPy does.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace clatomics::detail {

[[noreturn]] inline void refuse(const std::string& what, const std::string& why) {
  throw std::invalid_argument("clatomics: " + what + ": " + why);
}

// Which of NumPy's edge computations an axis follows (the header says where each applies).
enum class EdgeRule {
  given_range,  // np.histogram, range given (Python floats): linspace in double, then the data's type
  data_range,   // np.histogram, no range: linspace in the data's type
  two_d,        // np.histogram2d: linspace in double; float data compared with them exactly
  two_d_data,   // np.histogram2d, no range (NumPy 2): linspace in the data's type; bins of no width left empty
  given_double, // np.histogram, a range of np.float64 scalars: linspace in double, float data compared with them exactly
};

// One axis of even bins: the range used (NumPy's, in double: a given range is Python floats,
// whatever the positions' type), the positions in it, scale = nbins / (hi - lo) for the first
// guess (0: none), the rule and the edges as the device compares them (values of the positions'
// type, held in double).
struct Axis {
  std::size_t nbins = 0;
  double lo = 0, hi = 0;
  // The least and the greatest value of the positions' type that NumPy keeps: x is in a bin
  // exactly when first <= x <= last. For float positions and a given range these are lo and hi
  // rounded to float as NumPy rounds them (its keep test compares float32 data with the range
  // cast to float32); np.histogram2d compares the float data with the double range exactly.
  double first = 0, last = 0;
  double scale = 0;
  EdgeRule rule = EdgeRule::given_range;
  std::vector<double> edges;
};

// A range found in the data, and the rule its edges follow.
template <class T>
struct FoundRange {
  T lo, hi;
  EdgeRule rule;
};

// One axis of even bins over [lo, hi] (nbins already checked) for positions of type T (float,
// double), refused where NumPy refuses it or where the first guess cannot be computed in T. lo
// and hi are the range as given (a double range for float positions too: NumPy makes the edges
// from it before rounding them), or, for EdgeRule::data_range, values of T.
template <class T>
Axis even_axis(const std::string& what, std::size_t nbins, double lo, double hi, EdgeRule rule);

// NumPy's range from the data (_get_outer_edges): the minimum and maximum, refused when either
// is not finite (a NaN makes both NaN), widened by 0.5 each way in T when equal; [0, 1] for no
// data.
template <class T>
FoundRange<T> data_range(const std::string& what, std::size_t count, T least, T most, bool nan_seen);

// data_range of host values.
template <class T>
FoundRange<T> host_range(const std::string& what, const std::vector<T>& values);

}  // namespace clatomics::detail
