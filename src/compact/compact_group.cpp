// compact over a device group: each chunk or part compacted on its device, the kept elements
// joined in element order (with CompactOptions::stable, the input's order).
#include "clatomics/device_group.hpp"
#include "core/launch.hpp"
#include "groups/engine.hpp"

namespace clatomics {
namespace {

template <class T>
struct CompactOnGroup {
  using Part = std::vector<T>;
  using Total = std::vector<T>;
  const std::vector<T>* in;  // host data; null for resident data
  const Predicate& predicate;
  CompactOptions options;

  Total start(Runtime& rt) const {
    (void)compact<T>(rt, std::vector<T>{}, predicate, options);  // refuses the type or the predicate
    return {};
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    const detail::Mem out = detail::make_buffer(rt, std::max<std::size_t>(1, count) * sizeof(T));
    const std::size_t kept = detail::compact_buffers<T>(rt, at[0].buffer, at[0].offset, count, out.get(), 0, predicate, options);
    std::vector<T> host(kept);
    if (kept) detail::Commands(rt).read(out.get(), 0, kept * sizeof(T), host.data());
    return host;
  }
  void merge(Total& total, Part&& part) const { total.insert(total.end(), part.begin(), part.end()); }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*in)}; }
  std::size_t size() const { return in->size(); }
  std::size_t device_bytes() const { return sizeof(T); }
};

}  // namespace

template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options) {
  return detail::run_spread(group, CompactOnGroup<T>{&in, predicate, options});
}

template <class T>
std::vector<T> compact(DeviceGroup& group, const DistributedBuffer<T>& in, const Predicate& predicate, CompactOptions options) {
  detail::check_layout(group, in);
  return detail::run_resident(group, CompactOnGroup<T>{nullptr, predicate, options}, detail::resident_arrays(in), in.first, in.count);
}

#define CLATOMICS_COMPACT_GROUP_INSTANTIATE(T)                                                                    \
  template std::vector<T> compact<T>(DeviceGroup&, const std::vector<T>&, const Predicate&, CompactOptions); \
  template std::vector<T> compact<T>(DeviceGroup&, const DistributedBuffer<T>&, const Predicate&, CompactOptions);
CLATOMICS_COMPACT_GROUP_INSTANTIATE(float)
CLATOMICS_COMPACT_GROUP_INSTANTIATE(cl_int)
CLATOMICS_COMPACT_GROUP_INSTANTIATE(cl_uint)
#undef CLATOMICS_COMPACT_GROUP_INSTANTIATE

}  // namespace clatomics
