// Partial scatter_reduce results: a part of the (indices, values) reduced on a device into a
// copy of the output at the op's identity (with its values' counts where the op needs them),
// parts merged on the host in element order, and the merged parts applied to out once.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "clatomics/scatter.hpp"
#include "core/buffer_checks.hpp"
#include "core/launch.hpp"
#include "core/testing.hpp"
#include "scatter/partial.hpp"
#include "scatter/types.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const char* what, const std::string& why) { throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why); }

template <class O>
detail::ScatterRule<O> rule_of(const ScatterPartial<O>& p) {
  return {p.op, p.options};
}

// A scatter of ones into cl_uint counts, in pieces of at most 2^24 values (one ones buffer
// serves them all: a resident part may be far larger than a chunk; smaller pieces where the
// tests force small chunks, so that they reach several), the counts read back and added up on
// the host before 2^32 values could wrap a bin's.
template <class I>
std::vector<std::uint64_t> count_values(Runtime& rt, std::size_t bins, bool sorted, cl_mem indices, std::size_t offset, std::size_t count) {
  const std::size_t forced = testing::stream_limits().chunk_bytes / sizeof(cl_uint);
  const std::size_t piece = std::min<std::size_t>({count, std::size_t(1) << 24, forced ? forced : count});
  const detail::Mem ones = detail::make_buffer(rt, piece * sizeof(cl_uint)), counts = detail::make_buffer(rt, bins * sizeof(cl_uint));
  const cl_uint one = 1;
  detail::Commands(rt).fill(ones.get(), &one, sizeof one, piece * sizeof(cl_uint));
  ScatterOptions count_options;
  count_options.indices_are_sorted = sorted;
  std::vector<std::uint64_t> total(bins, 0);
  std::vector<cl_uint> read(bins);
  std::size_t pending = 0;  // values counted on the device since its counts were last read
  for (std::size_t done = 0; done < count;) {
    if (pending == 0) detail::Commands(rt).fill_zero(counts.get(), bins * sizeof(cl_uint));
    const std::size_t m = std::min(piece, count - done);
    (void)detail::scatter_buffers(rt, detail::scatter_call<cl_uint, I>(ScatterOp::sum, count_options, false, counts.get(), 0, bins, indices,
                                                                       offset + done, ones.get(), 0, m));
    done += m, pending += m;
    if (done == count || pending + piece > std::numeric_limits<cl_uint>::max()) {
      detail::Commands(rt).read(counts.get(), 0, bins * sizeof(cl_uint), read.data());
      for (std::size_t b = 0; b < bins; ++b) total[b] += read[b];
      pending = 0;
    }
  }
  return total;
}

// The checks of one device's scatter_reduce with these types, op and options: refused as that
// call refuses them, nothing enqueued (an empty output and no values).
template <class V, class I>
void check_call(Runtime& rt, std::size_t width, ScatterOp op, const ScatterOptions& options) {
  std::vector<scatter_partial_t<V>> none;
  (void)scatter_reduce<V, I>(rt, none, std::vector<I>{}, std::vector<V>{}, op, options, width);
}

// No bins: every index is out of range, counted or refused as one device does (rows of width 0
// carry no value: nothing counted).
template <class O>
ScatterPartial<O> without_bins(const char* what, std::size_t width, ScatterOp op, const ScatterOptions& options, std::size_t count) {
  ScatterPartial<O> p = detail::empty_partial<O>(0, width, op, options);
  p.result = detail::scatter_without_bins(what, options, width, false, count);
  return p;
}

}  // namespace

template <class O>
ScatterPartial<O> detail::empty_partial(std::size_t bins, std::size_t width, ScatterOp op, const ScatterOptions& options) {
  ScatterPartial<O> p;
  p.op = op, p.options = options, p.bins = bins, p.width = width;
  const detail::ScatterRule<O> rule{op, options};
  p.values.assign(bins * width, rule.start());
  p.counts.assign(rule.counted() ? bins : 0, 0);
  p.result.strategy = detail::scatter_asked_strategy(options);
  return p;
}

template <class V, class I>
ScatterPartial<scatter_partial_t<V>> detail::scatter_part(Runtime& rt, std::size_t bins, std::size_t width, ScatterOp op,
                                                          const ScatterOptions& options, cl_mem indices, std::size_t indices_offset,
                                                          cl_mem values, std::size_t values_offset, std::size_t count) {
  using O = scatter_partial_t<V>;
  ScatterPartial<O> p = empty_partial<O>(bins, width, op, options);
  if (count == 0 || bins * width == 0) return p;
  const detail::ScatterRule<O> rule{op, options};
  const std::size_t bytes = bins * width * sizeof(O);
  const O start_value = rule.identity();
  const Mem copy = make_buffer(rt, bytes);
  Commands(rt).fill(copy.get(), &start_value, sizeof(O), bytes);
  ScatterOptions copy_options = options;
  copy_options.include_self = true;  // the copy starts at the identity: including it changes nothing
  ScatterCall call = scatter_call<V, I, O>(op == ScatterOp::mean ? ScatterOp::sum : op, copy_options, false, copy.get(), 0, bins, indices,
                                           indices_offset, values, values_offset, count);
  call.rows.width = width;
  p.result = scatter_buffers(rt, call);
  p.any = true;
  std::vector<O> read(bins * width);
  Commands(rt).read(copy.get(), 0, bytes, read.data());
  std::copy(read.begin(), read.end(), p.values.begin());
  if (rule.counted()) p.counts = count_values<I>(rt, bins, options.indices_are_sorted, indices, indices_offset, count);
  return p;
}

template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const View<I>& indices, const View<V>& values,
                                                            ScatterOp op, ScatterOptions options, std::size_t width) {
  const char* what = "scatter_reduce_partial";
  check_call<V, I>(rt, width, op, options);
  if (width ? values.count() / width != indices.count() || values.count() % width : values.count() != 0)
    refuse(what, "values holds " + std::to_string(values.count()) + " elements for " + std::to_string(indices.count()) +
                     " indices in rows of width " + std::to_string(width) + "; it must hold one row an index");
  // Then each view's whole range, in the order of the arguments (as every call checks them).
  detail::require_view_in_buffer("scatter_reduce_partial: indices", indices);
  detail::require_view_in_buffer("scatter_reduce_partial: values", values);
  detail::check_range(rt, {"scatter_reduce_partial: indices", indices.handle(), indices.offset(), indices.count(), sizeof(I), detail::Access::read});
  detail::check_range(rt, {"scatter_reduce_partial: values", values.handle(), values.offset(), values.count(), sizeof(V), detail::Access::read});
  if (bins == 0) return without_bins<scatter_partial_t<V>>(what, width, op, options, indices.count());
  return detail::scatter_part<V, I>(rt, bins, width, op, options, indices.handle(), indices.offset(), values.handle(), values.offset(),
                                    width ? indices.count() : 0);
}

template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const std::vector<I>& indices,
                                                            const std::vector<V>& values, ScatterOp op, ScatterOptions options,
                                                            std::size_t width) {
  const char* what = "scatter_reduce_partial";
  check_call<V, I>(rt, width, op, options);
  const detail::HostRows rows = detail::host_rows(what, width, false, bins * width, indices.size(), values.size());
  if (bins == 0) return without_bins<scatter_partial_t<V>>(what, width, op, options, rows.count);
  if (width == 0 || indices.empty()) return detail::empty_partial<scatter_partial_t<V>>(bins, width, op, options);
  const std::size_t largest = rt.device_info().caps.max_mem_alloc_size;
  if (values.size() * sizeof(V) > largest || indices.size() * sizeof(I) > largest)
    refuse(what, "an array larger than one device buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE, " + std::to_string(largest) +
                     " bytes); give views of its parts");
  const detail::Mem on_device_indices = detail::make_buffer(rt, indices.size() * sizeof(I), CL_MEM_READ_ONLY, indices.data());
  const detail::Mem on_device_values = detail::make_buffer(rt, values.size() * sizeof(V), CL_MEM_READ_ONLY, values.data());
  return detail::scatter_part<V, I>(rt, bins, width, op, options, on_device_indices.get(), 0, on_device_values.get(), 0, rows.count);
}

template <class O>
void merge_into(ScatterPartial<O>& into, const ScatterPartial<O>& from) {
  const auto differ = [&](const char* field, std::size_t a, std::size_t b) {
    if (a != b)
      refuse("merge_into", std::string("the scatter partials' ") + field + " differ (" + std::to_string(a) + " and " + std::to_string(b) +
                               "): parts of one scatter_reduce have the same op, bins, width, include_self and nan rule");
  };
  differ("ops", std::size_t(into.op), std::size_t(from.op));
  differ("bins", into.bins, from.bins);
  differ("widths", into.width, from.width);
  differ("include_self", into.options.include_self, from.options.include_self);
  differ("nan rules", std::size_t(into.options.nan), std::size_t(from.options.nan));
  if (into.values.size() != into.bins * into.width || from.values.size() != from.bins * from.width || into.counts.size() != from.counts.size())
    refuse("merge_into", "a scatter partial's values or counts are not of its bins and width");
  into.result.out_of_range += from.result.out_of_range;
  if (!from.any) return;
  if (!into.any) into.result.strategy = from.result.strategy, into.any = true;
  const detail::ScatterRule<O> rule = rule_of(into);
  for (std::size_t j = 0; j < into.values.size(); ++j) into.values[j] = rule.join(into.values[j], from.values[j]);
  for (std::size_t b = 0; b < into.counts.size(); ++b) into.counts[b] += from.counts[b];
}

template <class O>
ScatterResult finish_scatter(std::vector<O>& out, const ScatterPartial<O>& merged) {
  if (out.size() != merged.bins * merged.width)
    refuse("finish_scatter", "out has " + std::to_string(out.size()) + " elements for " + std::to_string(merged.bins) + " bins of width " +
                                 std::to_string(merged.width));
  const detail::ScatterRule<O> rule = rule_of(merged);
  const bool include_self = merged.options.include_self;
  for (std::size_t b = 0; b < merged.bins; ++b) {
    if (rule.counted() && merged.counts[b] == 0) continue;  // no values: the bin keeps its value
    for (std::size_t d = 0; d < merged.width; ++d) {
      const std::size_t j = b * merged.width + d;
      O r = include_self ? rule.with_self(out[j], merged.values[j]) : O(merged.values[j]);
      if (merged.op == ScatterOp::mean) r = rule.mean(r, merged.counts[b] + (include_self ? 1 : 0));
      out[j] = r;
    }
  }
  return merged.result;
}

#define CLATOMICS_SCATTER_PART(V, I)                                                                                           \
  template ScatterPartial<scatter_partial_t<V>> detail::scatter_part<V, I>(Runtime&, std::size_t, std::size_t, ScatterOp,      \
                                                                           const ScatterOptions&, cl_mem, std::size_t, cl_mem, \
                                                                           std::size_t, std::size_t);                          \
  CLATOMICS_SCATTER_PARTIAL(, V, I)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_SCATTER_PART)

#define CLATOMICS_SCATTER_MERGE_MADE(O)                                                                            \
  template ScatterPartial<O> detail::empty_partial<O>(std::size_t, std::size_t, ScatterOp, const ScatterOptions&); \
  CLATOMICS_SCATTER_MERGE(, O)
CLATOMICS_FOR_SCATTER_OUTPUTS(CLATOMICS_SCATTER_MERGE_MADE)

}  // namespace clatomics
