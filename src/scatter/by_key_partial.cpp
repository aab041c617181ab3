// Partial reduce_by_key results: a part's runs found and reduced on a device (mean's as sums with
// their lengths), parts joined on the host in element order (a run that a cut split joined
// again), and the joined runs finished as one call over all the data finishes them.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "clatomics/reduce_by_key.hpp"
#include "core/buffer_checks.hpp"
#include "core/launch.hpp"
#include "scatter/partial.hpp"
#include "scatter/types.hpp"

namespace clatomics {
namespace {

[[noreturn]] void refuse(const char* what, const std::string& why) { throw std::invalid_argument(std::string("clatomics: ") + what + ": " + why); }

// The checks of one device's reduce_by_key with these types, op and options: refused as that call
// refuses them, nothing enqueued (no keys).
template <class K, class V>
void check_call(Runtime& rt, ScatterOp op, const ScatterOptions& options) {
  (void)reduce_by_key<K, V, scatter_partial_t<V>>(rt, std::vector<K>{}, std::vector<V>{}, op, options);
}

// A partial as reduce_by_key_partial and merge_into leave it: one value a key, and for mean one
// length a key.
template <class K, class O>
bool well_formed(const ByKeyPartial<K, O>& p) {
  return p.values.size() == p.keys.size() && p.lengths.size() == (p.op == ScatterOp::mean ? p.keys.size() : 0);
}

}  // namespace

template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> detail::by_key_part(Runtime& rt, ScatterOp op, const ScatterOptions& options, cl_mem keys,
                                                          std::size_t keys_offset, cl_mem values, std::size_t values_offset,
                                                          std::size_t count) {
  using O = scatter_partial_t<V>;
  ByKeyPartial<K, O> p = detail::empty_by_key<K, O>(op, options);
  if (count == 0) return p;
  const bool mean = op == ScatterOp::mean;
  const Mem unique = make_buffer(rt, count * sizeof(K)), reductions = make_buffer(rt, count * sizeof(O));
  KeysCall call;
  call.type = scatter_type_of<V>();
  call.key64 = scatter_index64<K>();
  call.keys = keys, call.keys_offset = keys_offset;
  call.values = values, call.values_offset = values_offset, call.count = count;
  call.unique_keys = unique.get(), call.reductions = reductions.get();
  call.op = mean ? ScatterOp::sum : op;  // divided once the runs' pieces of every part have joined
  call.options = options;
  std::vector<cl_ulong> starts;
  const std::size_t runs = reduce_by_key_buffers(rt, call, mean ? &starts : nullptr);
  std::vector<O> read(runs);
  p.keys.resize(runs);
  Commands commands(rt);
  commands.read(unique.get(), 0, runs * sizeof(K), p.keys.data());
  commands.read(reductions.get(), 0, runs * sizeof(O), read.data());
  p.values.assign(read.begin(), read.end());
  for (std::size_t u = 0; u + 1 < starts.size(); ++u) p.lengths.push_back(starts[u + 1] - starts[u]);
  return p;
}

template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial(Runtime& rt, const View<K>& keys, const View<V>& values, ScatterOp op,
                                                            ScatterOptions options) {
  check_call<K, V>(rt, op, options);
  detail::require_same_count("reduce_by_key_partial: keys and values", keys, values);
  detail::require_view_in_buffer("reduce_by_key_partial: keys", keys);
  detail::require_view_in_buffer("reduce_by_key_partial: values", values);
  detail::check_range(rt, {"reduce_by_key_partial: keys", keys.handle(), keys.offset(), keys.count(), sizeof(K), detail::Access::read});
  detail::check_range(rt, {"reduce_by_key_partial: values", values.handle(), values.offset(), values.count(), sizeof(V), detail::Access::read});
  return detail::by_key_part<K, V>(rt, op, options, keys.handle(), keys.offset(), values.handle(), values.offset(), keys.count());
}

template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial(Runtime& rt, const std::vector<K>& keys, const std::vector<V>& values,
                                                            ScatterOp op, ScatterOptions options) {
  using O = scatter_partial_t<V>;
  const char* what = "reduce_by_key_partial";
  check_call<K, V>(rt, op, options);
  if (keys.size() != values.size()) detail::scatter_size_mismatch(what, keys.size(), values.size());
  if (keys.empty()) return detail::empty_by_key<K, O>(op, options);
  detail::scatter_check_fits(rt, what, "keys", keys.size(), sizeof(K));
  detail::scatter_check_fits(rt, what, "values", values.size(), std::max(sizeof(V), sizeof(O)));
  const detail::Mem on_device_keys = detail::make_buffer(rt, keys.size() * sizeof(K), CL_MEM_READ_ONLY, keys.data());
  const detail::Mem on_device_values = detail::make_buffer(rt, values.size() * sizeof(V), CL_MEM_READ_ONLY, values.data());
  return detail::by_key_part<K, V>(rt, op, options, on_device_keys.get(), 0, on_device_values.get(), 0, keys.size());
}

template <class K, class O>
void merge_into(ByKeyPartial<K, O>& into, const ByKeyPartial<K, O>& from) {
  const auto differ = [&](const char* field, std::size_t a, std::size_t b) {
    if (a != b)
      refuse("merge_into", std::string("the reduce_by_key partials' ") + field + " differ (" + std::to_string(a) + " and " +
                               std::to_string(b) + "): parts of one reduce_by_key have the same op and nan rule");
  };
  differ("ops", std::size_t(into.op), std::size_t(from.op));
  differ("nan rules", std::size_t(into.options.nan), std::size_t(from.options.nan));
  if (!well_formed(into) || !well_formed(from))
    refuse("merge_into", "a reduce_by_key partial does not hold one value (and for mean one length) a key");
  const detail::ScatterRule<O> rule{into.op, into.options};
  const bool mean = into.op == ScatterOp::mean;
  std::size_t u = 0;
  if (!from.keys.empty() && !into.keys.empty() && into.keys.back() == from.keys.front()) {  // one run, cut in two
    into.values.back() = rule.join(into.values.back(), from.values.front());
    if (mean) into.lengths.back() += from.lengths.front();
    u = 1;
  }
  into.keys.insert(into.keys.end(), from.keys.begin() + std::ptrdiff_t(u), from.keys.end());
  into.values.insert(into.values.end(), from.values.begin() + std::ptrdiff_t(u), from.values.end());
  if (mean) into.lengths.insert(into.lengths.end(), from.lengths.begin() + std::ptrdiff_t(u), from.lengths.end());
}

template <class K, class O>
std::pair<std::vector<K>, std::vector<O>> finish_by_key(const ByKeyPartial<K, O>& merged) {
  if (!well_formed(merged)) refuse("finish_by_key", "the partial does not hold one value (and for mean one length) a key");
  using Rule = detail::ScatterRule<O>;
  std::pair<std::vector<K>, std::vector<O>> result;
  result.first = merged.keys;
  result.second.reserve(merged.values.size());
  for (std::size_t u = 0; u < merged.values.size(); ++u)
    result.second.push_back(merged.op == ScatterOp::mean ? Rule::mean(O(merged.values[u]), merged.lengths[u]) : O(merged.values[u]));
  return result;
}

#define CLATOMICS_BY_KEY_PART(V, K)                                                                                            \
  template ByKeyPartial<K, scatter_partial_t<V>> detail::by_key_part<K, V>(Runtime&, ScatterOp, const ScatterOptions&, cl_mem, \
                                                                           std::size_t, cl_mem, std::size_t, std::size_t);     \
  CLATOMICS_BY_KEY_PARTIAL(, V, K)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_BY_KEY_PART)
#define CLATOMICS_BY_KEY_MERGE_MADE(O) CLATOMICS_BY_KEY_MERGE(, O, cl_uint) CLATOMICS_BY_KEY_MERGE(, O, cl_ulong)
CLATOMICS_FOR_SCATTER_OUTPUTS(CLATOMICS_BY_KEY_MERGE_MADE)

}  // namespace clatomics
