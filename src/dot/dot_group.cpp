// dot over a device group: the chunks' or parts' dot products added on the host in element order.
#include "clatomics/device_group.hpp"
#include "groups/engine.hpp"

namespace clatomics {
namespace {

template <class T>
struct DotOnGroup {
  using Part = T;
  using Total = T;
  const std::vector<T>*a, *b;  // host data; null for resident data
  std::size_t n_a, n_b;

  Total start(Runtime& rt) const {
    (void)dot<T>(rt, std::vector<T>{}, std::vector<T>{});  // refuses a type the device lacks
    if (n_a != n_b)
      throw std::invalid_argument("clatomics: dot: a has " + std::to_string(n_a) + " elements, b has " + std::to_string(n_b));
    return T(0);
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::dot_buffers<T>(rt, at[0].buffer, at[0].offset, at[1].buffer, at[1].offset, count);
  }
  void merge(Total& total, Part&& part) const { total += part; }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*a), detail::host_array(*b)}; }
  std::size_t size() const { return a->size(); }
  std::size_t device_bytes() const { return 0; }
};

}  // namespace

template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b) {
  return detail::run_spread(group, DotOnGroup<T>{&a, &b, a.size(), b.size()});
}

template <class T>
T dot(DeviceGroup& group, const DistributedBuffer<T>& a, const DistributedBuffer<T>& b) {
  const DotOnGroup<T> call{nullptr, nullptr, a.size, b.size};
  detail::check_layout(group, a);
  detail::check_layout(group, b);
  detail::check_same_layout("dot", a, b);
  return detail::run_resident(group, call, detail::resident_arrays(a, b), a.first, a.count);
}

template float dot<float>(DeviceGroup&, const std::vector<float>&, const std::vector<float>&);
template double dot<double>(DeviceGroup&, const std::vector<double>&, const std::vector<double>&);
template float dot<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&);
template double dot<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&);

}  // namespace clatomics
