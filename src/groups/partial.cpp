// Partial results that merge: reductions of parts of a range (tile values where the bits must
// not depend on the parts), and histograms added bin by bin.
#include "clatomics/algorithms.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/buffer_checks.hpp"
#include "core/launch.hpp"
#include "groups/started.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& why) {
  throw std::invalid_argument("clatomics: " + what + ": " + why);
}

template <class T>
void check_first(ReduceOp op, std::uint64_t first, ReduceOptions options) {
  if (detail::tiled_merge<T>(op, options) && first % reduce_tile != 0)
    refuse("reduce_partial", "a deterministic float sum or product's part must start at a multiple of clatomics::reduce_tile (" +
                                 std::to_string(reduce_tile) + " elements) for its bits to equal one pass over all the data; first = " +
                                 std::to_string(first));
}

}  // namespace

template <class T>
detail::Pending<ReducePartial<T>> detail::reduce_partial_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count,
                                                               ReduceOp op, std::uint64_t first, ReduceOptions options) {
  check_first<T>(op, first, options);
  // Integers are never tiled: without optimisation, the tiled branch would still name float-only
  // functions for them, and the library would not link.
  if constexpr (std::is_floating_point_v<T>)
    if (detail::tiled_merge<T>(op, options)) {
      // reduce_buffer's checks, nothing run
      auto checked = detail::reduce_buffer_later<T>(rt, buffer, offset, 0, op, options, "reduce_partial");
      detail::check_range(rt, {"reduce_partial: buffer", buffer, offset, count, sizeof(T), detail::Access::read});
      if (!count) return std::move(checked).then([op, first](T) { return ReducePartial<T>{op, true, first, 0, {}}; });
      return detail::reduce_tile_values_later<T>(rt, buffer, offset, count, op).then([op, first, count](std::vector<T> tiles) {
        return ReducePartial<T>{op, true, first, count, std::move(tiles)};
      });
    }
  // reduce_buffer checks the op, the type and the buffer
  return detail::reduce_buffer_later<T>(rt, buffer, offset, count, op, options, "reduce_partial").then([op, first, count](T value) {
    return ReducePartial<T>{op, false, first, count, count ? std::vector<T>{value} : std::vector<T>{}};
  });
}

template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const View<T>& part, ReduceOp op, std::uint64_t first, ReduceOptions options) {
  return detail::reduce_partial_later<T>(rt, part.handle(), part.offset(), part.count(), op, first, options).get();
}

template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const std::vector<T>& shard, ReduceOp op, std::uint64_t first, ReduceOptions options) {
  check_first<T>(op, first, options);
  if constexpr (std::is_floating_point_v<T>)  // integers are never tiled (as in reduce_partial_later)
    if (detail::tiled_merge<T>(op, options)) {
      (void)reduce<T>(rt, std::vector<T>{}, op, options);
      ReducePartial<T> part{op, true, first, shard.size(), {}};
      // Whole tiles per chunk: each chunk's tile values are the range's.
      const std::size_t chunk = detail::chunk_elements(rt, shard.size(), sizeof(T), 1, reduce_tile);
      const detail::Mem buffer =
          detail::make_buffer(rt, std::max<std::size_t>(1, std::min(chunk, shard.size())) * sizeof(T), CL_MEM_READ_ONLY);
      for (std::size_t at = 0; at < shard.size(); at += chunk) {
        const std::size_t n = std::min(chunk, shard.size() - at);
        detail::Commands(rt).write(buffer.get(), 0, n * sizeof(T), shard.data() + at);
        const std::vector<T> tiles = detail::reduce_tile_values_later<T>(rt, buffer.get(), 0, n, op).get();
        part.values.insert(part.values.end(), tiles.begin(), tiles.end());
      }
      return part;
    }
  ReducePartial<T> part{op, false, first, shard.size(), {}};
  const T value = reduce<T>(rt, shard, op, options);  // checks the op and the type, also when empty
  if (!shard.empty()) part.values = {value};
  return part;
}

template <class T>
T merge_reduce(std::vector<ReducePartial<T>> parts) {
  if (parts.empty()) refuse("merge_reduce", "no parts (not even empty ones): no op to give the identity of");
  const ReduceOp op = parts.front().op;
  const bool tiled = parts.front().tiled;
  detail::reduce_op_name(op, "merge_reduce");  // refuses a value that is no ReduceOp
  if (tiled && !detail::tiled_merge<T>(op, ReduceOptions{true}))
    refuse("merge_reduce", "tiled parts are deterministic float or double sums or products only");
  for (const ReducePartial<T>& p : parts)  // empty parts too: they say which op the caller meant
    if (p.op != op || p.tiled != tiled)
      refuse("merge_reduce", "the part of elements " + std::to_string(p.first) + " .. has another op or kind than the first part");
  parts.erase(std::remove_if(parts.begin(), parts.end(), [](const ReducePartial<T>& p) { return p.count == 0; }), parts.end());
  if (parts.empty()) return detail::reduce_identity<T>(op);
  std::sort(parts.begin(), parts.end(), [](const ReducePartial<T>& a, const ReducePartial<T>& b) { return a.first < b.first; });
  const auto tiles = [](std::uint64_t n) { return (n + reduce_tile - 1) / reduce_tile; };
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const ReducePartial<T>& p = parts[k];
    const std::string which = "part " + std::to_string(k) + " (elements " + std::to_string(p.first) + " ..)";
    if (p.values.size() != (tiled ? tiles(p.count) : 1))
      refuse("merge_reduce", which + " holds " + std::to_string(p.values.size()) + " values for " + std::to_string(p.count) + " elements");
    if (k > 0 && p.first != parts[k - 1].first + parts[k - 1].count)
      refuse("merge_reduce", which + (p.first < parts[k - 1].first + parts[k - 1].count ? " overlaps" : " leaves a gap after") +
                                 " the part before it");
    if (tiled && p.first % reduce_tile != 0) refuse("merge_reduce", which + " does not start at a multiple of reduce_tile");
    if (tiled && k + 1 < parts.size() && p.count % reduce_tile != 0)
      refuse("merge_reduce", which + " ends inside a tile but is not the last part");
  }
  if (!tiled) {
    T result = parts.front().values.front();
    for (std::size_t k = 1; k < parts.size(); ++k) result = detail::reduce_combine<T>(op, result, parts[k].values.front());
    return result;
  }
  if constexpr (std::is_floating_point_v<T>) {
    std::vector<T> all;
    for (const auto& p : parts) all.insert(all.end(), p.values.begin(), p.values.end());
    return detail::reduce_of_tile_values<T>(all, op);
  }
  return T{};  // integers are never tiled
}

void merge_into(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from) {
  if (into.size() != from.size())
    refuse("merge_into", "histograms of " + std::to_string(into.size()) + " and " + std::to_string(from.size()) + " bins");
  for (std::size_t b = 0; b < into.size(); ++b) into[b] += from[b];
}

void merge_into(KeyHistogram& into, const KeyHistogram& from) {
  merge_into(into.counts, from.counts);
  into.out_of_range += from.out_of_range;
}

void merge_into(EvenHistogram& into, const EvenHistogram& from) {
  if (into.counts.size() != from.counts.size())
    refuse("merge_into", "even histograms of " + std::to_string(into.counts.size()) + " and " + std::to_string(from.counts.size()) + " bins");
  if (into.lo != from.lo || into.hi != from.hi) refuse("merge_into", "even histograms over different ranges");
  if (into.edges != from.edges)
    refuse("merge_into", "even histograms whose edges were computed differently (positions' type, or the range given or found)");
  if (into.sums.size() != from.sums.size()) refuse("merge_into", "even histograms with different weight channels");
  merge_into(into.counts, from.counts);
  into.below += from.below, into.above += from.above, into.nan += from.nan;
  for (std::size_t c = 0; c < into.sums.size(); ++c)
    for (std::size_t b = 0; b < into.sums[c].size(); ++b) into.sums[c][b] += from.sums[c][b];
}

void merge_into(EvenHistogram2D& into, const EvenHistogram2D& from) {
  if (into.nx != from.nx || into.ny != from.ny)
    refuse("merge_into", "2-D histograms of " + std::to_string(into.nx) + " x " + std::to_string(into.ny) + " and " + std::to_string(from.nx) +
                             " x " + std::to_string(from.ny) + " bins");
  if (into.x_lo != from.x_lo || into.x_hi != from.x_hi || into.y_lo != from.y_lo || into.y_hi != from.y_hi)
    refuse("merge_into", "2-D histograms over different ranges");
  if (into.x_edges != from.x_edges || into.y_edges != from.y_edges)
    refuse("merge_into", "2-D histograms whose edges were computed differently (the range given or found)");
  if (into.sums.size() != from.sums.size()) refuse("merge_into", "2-D histograms with different weight channels");
  merge_into(into.counts, from.counts);
  for (AxisTallies* t : {&into.x, &into.y}) {
    const AxisTallies& f = t == &into.x ? from.x : from.y;
    t->below += f.below, t->above += f.above, t->nan += f.nan;
  }
  into.outside += from.outside;
  for (std::size_t c = 0; c < into.sums.size(); ++c)
    for (std::size_t b = 0; b < into.sums[c].size(); ++b) into.sums[c][b] += from.sums[c][b];
}

#define CLATOMICS_REDUCE_PARTIAL_MADE(T)                                                                                           \
  CLATOMICS_REDUCE_PARTIAL(, T)                                                                                                    \
  template detail::Pending<ReducePartial<T>> detail::reduce_partial_later<T>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp, \
                                                                             std::uint64_t, ReduceOptions);
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_PARTIAL_MADE)

}  // namespace clatomics
