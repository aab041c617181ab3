// clatomics/dot.hpp — the dot product of two buffer ranges, on the device.
#pragma once

#include <cstddef>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/runtime.hpp"

namespace clatomics {

namespace detail {
template <class T>
T dot_buffers(Runtime& rt, cl_mem a, std::size_t a_offset, cl_mem b, std::size_t b_offset, std::size_t count);
}

// Sum of a[a_offset + i] * b[b_offset + i] for i < count (T: float or double): each work-group
// sums its products in __local memory and adds them to the result with one atomic add, so the
// last bits of the result may vary from run to run. count == 0 gives 0. a and b may be the same
// buffer (nothing is written).
// Throws std::invalid_argument (before anything is enqueued) for a null buffer or one the device
// cannot read, a range beyond its buffer or overflowing size_t, double on a device without fp64.
template <class T>
T dot(Runtime& rt, const cl::Buffer& a, std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, std::size_t count) {
  return detail::dot_buffers<T>(rt, a(), a_offset, b(), b_offset, count);
}

// The same over host data (a.size() == b.size(), else std::invalid_argument), streamed through
// the device in chunks when larger than one device buffer may be.
template <class T>
T dot(Runtime& rt, const std::vector<T>& a, const std::vector<T>& b);

extern template float detail::dot_buffers<float>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
extern template double detail::dot_buffers<double>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
extern template float dot<float>(Runtime&, const std::vector<float>&, const std::vector<float>&);
extern template double dot<double>(Runtime&, const std::vector<double>&, const std::vector<double>&);

}  // namespace clatomics
