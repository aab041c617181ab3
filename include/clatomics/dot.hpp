// clatomics/dot.hpp — the dot product of two buffer ranges, on the device.
#pragma once

#include <cstddef>
#include <vector>

#include "clatomics/opencl.hpp"
#include "clatomics/runtime.hpp"

namespace clatomics {

// Sum of a[a_offset + i] * b[b_offset + i] for i < count (T: float or double): each work-group
// sums its products in __local memory and adds them to the result with one atomic add, so the
// last bits of the result may vary from run to run. count == 0 gives 0.
// Throws std::invalid_argument (before anything is enqueued) for a null buffer, a range beyond
// its buffer or overflowing size_t, double on a device without fp64.
template <class T>
T dot(Runtime& rt, const cl::Buffer& a, std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, std::size_t count);

// The same over host data (a.size() == b.size(), else std::invalid_argument), streamed through
// the device in chunks when larger than one device buffer may be.
template <class T>
T dot(Runtime& rt, const std::vector<T>& a, const std::vector<T>& b);

extern template float dot<float>(Runtime&, const cl::Buffer&, std::size_t, const cl::Buffer&, std::size_t, std::size_t);
extern template double dot<double>(Runtime&, const cl::Buffer&, std::size_t, const cl::Buffer&, std::size_t, std::size_t);
extern template float dot<float>(Runtime&, const std::vector<float>&, const std::vector<float>&);
extern template double dot<double>(Runtime&, const std::vector<double>&, const std::vector<double>&);

}  // namespace clatomics
