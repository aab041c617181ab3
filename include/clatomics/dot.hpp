// clatomics/dot.hpp — the dot product of two buffer ranges, on the device.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"
#include "clatomics/group_forms.hpp"

namespace clatomics {

namespace detail {
template <class T>
constexpr void require_dot_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "clatomics::dot: the element type must be float or double");
}
template <class T>
T dot_buffers(Runtime& rt, cl_mem a, std::size_t a_offset, cl_mem b, std::size_t b_offset, std::size_t count);
}

// Sum of a[i] * b[i] over two views of the same length (T: float or double; clatomics/view.hpp:
// dot(rt, view<float>(a, offset, n), view<float>(b))): each work-group sums its products in
// __local memory and adds them to the result with one atomic add, so the last bits of the result
// may vary from run to run. Empty views give 0. a and b may be the same buffer (nothing is
// written).
// Throws std::invalid_argument (before anything is enqueued) for views of different lengths, a
// null buffer or one the device cannot read, a range beyond its buffer or overflowing size_t,
// double on a device without fp64.
template <class T>
T dot(Runtime& rt, const View<T>& a, const View<T>& b) {
  detail::require_dot_type<T>();
  detail::require_same_count("dot: a and b", a, b);
  return detail::dot_buffers<T>(rt, a.handle(), a.offset(), b.handle(), b.offset(), a.count());
}

// The same over host data (a.size() == b.size(), else std::invalid_argument), streamed through
// the device in chunks when larger than one device buffer may be.
template <class T>
T dot(Runtime& rt, const std::vector<T>& a, const std::vector<T>& b);

// What dot() over count elements would run on rt's device (clatomics/plan.hpp), without running it.
template <class T>
Plan plan_dot(Runtime& rt, std::size_t count);

extern template Plan plan_dot<float>(Runtime&, std::size_t);
extern template Plan plan_dot<double>(Runtime&, std::size_t);
extern template float detail::dot_buffers<float>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
extern template double detail::dot_buffers<double>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
extern template float dot<float>(Runtime&, const std::vector<float>&, const std::vector<float>&);
extern template double dot<double>(Runtime&, const std::vector<double>&, const std::vector<double>&);

// Over a DeviceGroup (group_forms.hpp), float or double: the chunks' (or parts') dot products
// added on the host in element order. A part of the data needs no partial type: its dot is dot()
// over the part (parts' dots add, in order for the same bits; mpi::sum adds them over ranks).
template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b);
template <class T>
T dot(DeviceGroup& group, const DistributedBuffer<T>& a, const DistributedBuffer<T>& b);
extern template float dot<float>(DeviceGroup&, const std::vector<float>&, const std::vector<float>&);
extern template double dot<double>(DeviceGroup&, const std::vector<double>&, const std::vector<double>&);
extern template float dot<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&);
extern template double dot<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&);

}  // namespace clatomics
