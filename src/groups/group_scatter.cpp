// scatter_reduce over a device group: each chunk of host (indices, values), or each device's
// resident part, reduced on its device into a copy of the output at the op's identity, the copies
// joined into out on the host in element order.
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/device_group.hpp"
#include "clatomics/scatter.hpp"
#include "groups/engine.hpp"
#include "scatter/partial.hpp"
#include "scatter/types.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("clatomics: scatter_reduce: " + why); }

// One call over host or resident data (groups/engine.hpp): indices, then values in rows of
// width. Each chunk or part is reduced into a copy of out at the op's identity
// (scatter/partial.hpp); the copies join in element order as merge_into joins partials, and
// finish_scatter applies them to out.
template <class V, class I>
struct ScatterOnGroup {
  using O = detail::group_scatter_output_t<V>;  // float for 16-bit values: the one-device calls write it unrounded
  using Part = ScatterPartial<O>;
  using Total = ScatterPartial<O>;
  // Chunks of whole 64-row blocks: a scatter has no reduction tiles to keep whole.
  static constexpr std::size_t multiple = 64;

  const std::vector<I>* indices;  // host data; null for resident data
  const std::vector<V>* values;
  std::size_t n, bins, width;
  ScatterOp op;
  ScatterOptions options;
  detail::ScatterRule<O> rule{op, options};

  Total start(Runtime&) const { return detail::empty_partial<O>(bins, width, op, options); }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::scatter_part<V, I>(rt, bins, width, op, options, at[0].buffer, at[0].offset, at[1].buffer, at[1].offset, count);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }

  std::vector<detail::HostArray> host() const {
    return {{indices ? indices->data() : nullptr, sizeof(I)}, {values ? values->data() : nullptr, width * sizeof(V), width}};
  }
  std::size_t size() const { return n; }
  std::size_t device_bytes() const { return rule.counted() ? sizeof(cl_uint) : 0; }
  ScatterResult finish(std::vector<O>& out, const Total& total) const { return finish_scatter(out, total); }
};

// Every device refuses what it cannot run (op, type, options) on a call with no elements (its
// probe is one row: no larger than out), and an out larger than one of its buffers.
template <class V, class I>
void probe_devices(DeviceGroup& group, std::size_t out_size, std::size_t bins, ScatterOp op, const ScatterOptions& options, std::size_t width) {
  using O = detail::group_scatter_output_t<V>;
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<O> probe(bins ? width : 0);
    (void)scatter_reduce<V, I>(group.runtime(d), probe, std::vector<I>{}, std::vector<V>{}, op, options, width);
    if (out_size * sizeof(O) > group.runtime(d).device_info().caps.max_mem_alloc_size)
      refuse("out (" + std::to_string(out_size * sizeof(O)) + " bytes) is larger than one buffer of device " + std::to_string(d));
  }
}

}  // namespace

template <class V, class I>
ScatterResult detail::group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const std::vector<I>& indices,
                                           const std::vector<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  using O = group_scatter_output_t<V>;
  const detail::HostRows rows = detail::host_rows("scatter_reduce", width, false, out.size(), indices.size(), values.size());
  probe_devices<V, I>(group, out.size(), rows.bins, op, options, width);
  // An empty output (as one device gives it): nothing runs; with no bins every index is out of
  // range (counted, or refused with OutOfRange::refuse).
  if (rows.bins == 0) {
    std::vector<O> none;
    return scatter_reduce<V, I>(group.runtime(0), none, indices, values, op, options, width);
  }
  const ScatterOnGroup<V, I> call{&indices, &values, rows.count, rows.bins, width, op, options};
  return call.finish(out, detail::run_spread(group, call));
}

template <class V, class I>
ScatterResult detail::group_scatter_reduce(DeviceGroup& group, std::vector<group_scatter_output_t<V>>& out, const DistributedBuffer<I>& indices,
                                           const DistributedBuffer<V>& values, ScatterOp op, ScatterOptions options, std::size_t width) {
  detail::check_layout(group, indices);
  detail::check_layout(group, values);
  const detail::HostRows rows = detail::host_rows("scatter_reduce", width, false, out.size(), indices.size, values.size);
  for (std::size_t d = 0; d < group.size(); ++d)
    if (values.first[d] != indices.first[d] * width || values.count[d] != indices.count[d] * width)
      refuse("values are not laid out as the rows of the indices: device " + std::to_string(d) + " holds indices' " +
             detail::elements_of(indices.first[d], indices.count[d]) + " and values' " + detail::elements_of(values.first[d], values.count[d]) +
             ", where their rows of width " + std::to_string(width) + " are values' " +
             detail::elements_of(indices.first[d] * width, indices.count[d] * width) + " (distribute(group, values, width) lays them out so)");
  std::vector<std::vector<detail::At>> arrays(group.size());
  for (std::size_t d = 0; d < group.size(); ++d)
    arrays[d] = {{indices.parts[d](), 0, sizeof(I)}, {values.parts[d](), 0, sizeof(V), width}};
  probe_devices<V, I>(group, out.size(), rows.bins, op, options, width);
  if (rows.bins == 0) {
    // No bins: every index is out of range, as one device counts or refuses them.
    detail::check_parts(group, arrays, indices.count);
    return detail::scatter_without_bins("scatter_reduce", options, width, false, rows.count);
  }
  const ScatterOnGroup<V, I> call{nullptr, nullptr, rows.count, rows.bins, width, op, options};
  // Where the bits depend on the chunks, the host-data form's chunks.
  const bool chunked = options.deterministic && call.rule.wide();
  return call.finish(out, chunked ? detail::run_resident_chunks(group, call, arrays, indices.first, indices.count)
                                  : detail::run_resident(group, call, arrays, indices.first, indices.count));
}

#define CLATOMICS_GROUP_SCATTER_MADE(V, I) CLATOMICS_GROUP_SCATTER(, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_SCATTER_MADE)

}  // namespace clatomics
