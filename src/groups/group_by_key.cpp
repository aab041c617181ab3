// reduce_by_key over a device group: each chunk of host (keys, values), or each device's resident
// part, reduced on its device by the one-device call's machinery, the runs concatenated on the
// host in element order, a run that a chunk or part boundary cut joined again there.
#include <cstdint>
#include <utility>
#include <vector>

#include "clatomics/device_group.hpp"
#include "clatomics/scatter.hpp"
#include "groups/engine.hpp"
#include "scatter/partial.hpp"

namespace clatomics {
namespace {

// One call over host or resident data (groups/engine.hpp): keys, then values. Each chunk or part
// gives its runs as reduce_by_key_partial does (scatter/partial.hpp); they join in element order
// as merge_into joins partials, and finish_by_key gives the call's result.
template <class K, class V>
struct ByKeyOnGroup {
  using O = detail::group_scatter_output_t<V>;  // float for 16-bit values: the one-device calls write it unrounded
  using Part = ByKeyPartial<K, O>;
  using Total = ByKeyPartial<K, O>;
  using Result = std::pair<std::vector<K>, std::vector<O>>;
  // Chunks of whole 64-element blocks: the runs have no reduction tiles to keep whole.
  static constexpr std::size_t multiple = 64;

  const std::vector<K>* keys;  // host data; null for resident data
  const std::vector<V>* values;
  std::size_t n;
  ScatterOp op;
  ScatterOptions options;
  detail::ScatterRule<O> rule{op, options};

  Total start(Runtime&) const { return detail::empty_by_key<K, O>(op, options); }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::by_key_part<K, V>(rt, op, options, at[0].buffer, at[0].offset, at[1].buffer, at[1].offset, count);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }

  std::vector<detail::HostArray> host() const {
    return {{keys ? keys->data() : nullptr, sizeof(K)}, {values ? values->data() : nullptr, sizeof(V)}};
  }
  std::size_t size() const { return n; }
  // At most one run an element: its key, its reduction and offset, and the segment reduction's
  // slot (16-byte fixed point when deterministic), count and flags.
  std::size_t device_bytes() const { return sizeof(K) + sizeof(O) + sizeof(cl_ulong) + 28; }

  Result finish(const Total& total) const { return finish_by_key(total); }
};

// Every device refuses what it cannot run (op, type, options) on a call of one key, as it would
// refuse the call itself.
template <class K, class V>
void probe_devices(DeviceGroup& group, ScatterOp op, const ScatterOptions& options) {
  for (std::size_t d = 0; d < group.size(); ++d)
    (void)reduce_by_key<K, V, detail::group_scatter_output_t<V>>(group.runtime(d), std::vector<K>{0}, std::vector<V>(1), op, options);
}

}  // namespace

template <class K, class V>
std::pair<std::vector<K>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key(
    DeviceGroup& group, const std::vector<K>& keys, const std::vector<V>& values, ScatterOp op, ScatterOptions options) {
  if (keys.size() != values.size()) detail::scatter_size_mismatch("reduce_by_key", keys.size(), values.size());
  // No keys: no runs, after the one-device call's checks.
  if (keys.empty()) return reduce_by_key<K, V, group_scatter_output_t<V>>(group.runtime(0), keys, values, op, options);
  probe_devices<K, V>(group, op, options);
  const ByKeyOnGroup<K, V> call{&keys, &values, keys.size(), op, options};
  return call.finish(detail::run_spread(group, call));
}

template <class K, class V>
std::pair<std::vector<K>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key(
    DeviceGroup& group, const DistributedBuffer<K>& keys, const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options) {
  detail::check_layout(group, keys);
  detail::check_layout(group, values);
  detail::check_same_layout("reduce_by_key: keys and values", keys, values);
  const std::vector<std::vector<detail::At>> arrays = detail::resident_arrays(keys, values);
  if (keys.size == 0) {
    detail::check_parts(group, arrays, keys.count);
    return reduce_by_key<K, V, group_scatter_output_t<V>>(group.runtime(0), std::vector<K>{}, std::vector<V>{}, op, options);
  }
  probe_devices<K, V>(group, op, options);
  const ByKeyOnGroup<K, V> call{nullptr, nullptr, keys.size, op, options};
  // Where the bits depend on the chunks, the host-data form's chunks.
  const bool chunked = options.deterministic && call.rule.wide();
  return call.finish(chunked ? detail::run_resident_chunks(group, call, arrays, keys.first, keys.count)
                             : detail::run_resident(group, call, arrays, keys.first, keys.count));
}

#define CLATOMICS_GROUP_BY_KEY_MADE(V, K) CLATOMICS_GROUP_BY_KEY(, V, K)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_BY_KEY_MADE)

}  // namespace clatomics
