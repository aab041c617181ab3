// reduce over a device group: each chunk or resident part a partial result (partial.hpp), merged
// as one pass over all the data would be.
#include <algorithm>

#include "clatomics/device_group.hpp"
#include "groups/engine.hpp"
#include "groups/started.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics {
namespace {

template <class T>
struct ReduceOnGroup {
  using Part = ReducePartial<T>;
  using Total = std::vector<ReducePartial<T>>;
  const std::vector<T>* data;  // host data; null for resident data
  std::size_t n;
  ReduceOp op;
  ReduceOptions options;

  Total start(Runtime& rt) const {
    (void)reduce<T>(rt, std::vector<T>{}, op, options);  // refuses a bad op or type
    return {};
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t first, std::size_t count) const {
    return detail::reduce_partial_later<T>(rt, at[0].buffer, at[0].offset, count, op, first, options).get();
  }
  void merge(Total& total, Part&& part) const { total.push_back(std::move(part)); }
  std::vector<detail::HostArray> host() const { return {{data ? data->data() : nullptr, sizeof(T)}}; }
  std::size_t size() const { return n; }
  std::size_t device_bytes() const { return 0; }
};

template <class T>
T finish(ReduceOp op, std::vector<ReducePartial<T>>&& parts) {
  return parts.empty() ? detail::reduce_identity<T>(op) : merge_reduce<T>(std::move(parts));
}

}  // namespace

template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  return finish<T>(op, detail::run_spread(group, ReduceOnGroup<T>{&data, data.size(), op, options}));
}

template <class T>
T reduce(DeviceGroup& group, const DistributedBuffer<T>& data, ReduceOp op, ReduceOptions options) {
  detail::check_layout(group, data);
  const ReduceOnGroup<T> call{nullptr, data.size, op, options};
  // A deterministic float sum or product merges whole tiles (reduce_partial): parts that do not
  // start at a tile (a layout of the user's own, not distribute()'s) run in run_spread's chunks,
  // which do, with the same bits.
  const bool cut_tiles = detail::tiled_merge<T>(op, options) &&
                         std::any_of(data.first.begin(), data.first.end(), [](std::size_t first) { return first % reduce_tile != 0; });
  const auto arrays = detail::resident_arrays(data);
  return finish<T>(op, cut_tiles ? detail::run_resident_chunks(group, call, arrays, data.first, data.count)
                                 : detail::run_resident(group, call, arrays, data.first, data.count));
}

#define CLATOMICS_REDUCE_GROUP_INSTANTIATE(T)                                             \
  template T reduce<T>(DeviceGroup&, const std::vector<T>&, ReduceOp, ReduceOptions); \
  template T reduce<T>(DeviceGroup&, const DistributedBuffer<T>&, ReduceOp, ReduceOptions);
CLATOMICS_REDUCE_GROUP_INSTANTIATE(float)
CLATOMICS_REDUCE_GROUP_INSTANTIATE(double)
CLATOMICS_REDUCE_GROUP_INSTANTIATE(cl_int)
CLATOMICS_REDUCE_GROUP_INSTANTIATE(cl_uint)
CLATOMICS_REDUCE_GROUP_INSTANTIATE(cl_long)
CLATOMICS_REDUCE_GROUP_INSTANTIATE(cl_ulong)
#undef CLATOMICS_REDUCE_GROUP_INSTANTIATE

}  // namespace clatomics
