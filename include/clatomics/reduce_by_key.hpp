// clatomics/reduce_by_key.hpp — reductions of the runs of equal consecutive keys (thrust::reduce_by_key), of
// the scatter_reduce family (scatter.hpp: its ops, options and contracts).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "clatomics/group_forms.hpp"
#include "clatomics/scatter.hpp"

namespace clatomics {

namespace detail {
// One reduce_by_key call on device buffers: count keys and values, and room for count unique keys
// and reductions. out16: the reductions are of the values' 16-bit type (ScatterCall::out16).
struct KeysCall {
  ScatterType type = ScatterType::f32;
  bool out16 = false, key64 = false;
  cl_mem keys = nullptr;
  std::size_t keys_offset = 0;
  cl_mem values = nullptr;
  std::size_t values_offset = 0, count = 0;
  cl_mem unique_keys = nullptr;
  std::size_t unique_offset = 0;
  cl_mem reductions = nullptr;
  std::size_t reductions_offset = 0;
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;
};
// run_starts (when given): each run's first position and then count, runs + 1 of them (what a
// device group needs to join the runs of its parts).
std::size_t reduce_by_key_buffers(Runtime& rt, const KeysCall& call, std::vector<cl_ulong>* run_starts = nullptr);
Plan reduce_by_key_plan(Runtime& rt, const KeysCall& call);
std::size_t reduce_by_key_host(Runtime& rt, ScatterType type, bool out16, bool key64, const void* keys, const void* values, std::size_t count,
                               void* unique_keys, void* reductions, ScatterOp op, ScatterOptions options);
}  // namespace detail

namespace detail {
// A reduce_by_key call over views, their lengths checked.
template <class K, class V, class O>
KeysCall keys_call(const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions, ScatterOp op,
                   const ScatterOptions& options) {
  require_same_count("reduce_by_key: keys and values", keys, values);
  require_view_holds("reduce_by_key: unique_keys", unique_keys, keys.count());
  require_view_holds("reduce_by_key: reductions", reductions, keys.count());
  // Every view's whole range, in the order the call checks its arguments.
  require_view_in_buffer("reduce_by_key: keys", keys);
  require_view_in_buffer("reduce_by_key: values", values);
  require_view_in_buffer("reduce_by_key: unique_keys", unique_keys);
  require_view_in_buffer("reduce_by_key: reductions", reductions);
  KeysCall call;
  call.type = scatter_type_of<V>();
  call.out16 = scatter_out16<O, V>();  // O: V, or float for 16-bit values
  call.key64 = scatter_index64<K>();
  call.keys = keys.handle(), call.keys_offset = keys.offset();
  call.values = values.handle(), call.values_offset = values.offset(), call.count = keys.count();
  call.unique_keys = unique_keys.handle(), call.unique_offset = unique_keys.offset();
  call.reductions = reductions.handle(), call.reductions_offset = reductions.offset();
  call.op = op;
  call.options = options;
  return call;
}
}  // namespace detail

// Runs of equal consecutive keys (K: cl_uint or cl_ulong; sorted keys give unique keys), as
// thrust::reduce_by_key: unique_keys[u] is the key of run u and reductions[u] the reduction of
// its values (options.include_self is ignored: the outputs start empty; options.nan applies).
// Returns the number of runs (0 for no keys). unique_keys and reductions must hold keys.count()
// elements. The runs are reduced into reductions with atomics, so the device reads it too (a
// CL_MEM_WRITE_ONLY reductions buffer is refused).
template <class K, class V, class O>
std::size_t reduce_by_key(Runtime& rt, const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions,
                          ScatterOp op, ScatterOptions options = {}) {
  return detail::reduce_by_key_buffers(rt, detail::keys_call(keys, values, unique_keys, reductions, op, options));
}
// What reduce_by_key() with these arguments would run on rt's device (clatomics/plan.hpp): the
// reduction of the runs, as segment_reduce's plan gives it, after the call's checks and the count
// of the runs (the keys are read on the device, nothing is written); the runs' kernels and their
// count among the tuning values. No keys: nothing would run, and the plan is the strategy alone.
template <class K, class V, class O>
Plan plan_reduce_by_key(Runtime& rt, const View<K>& keys, const View<V>& values, const View<K>& unique_keys, const View<O>& reductions,
                        ScatterOp op, ScatterOptions options = {}) {
  return detail::reduce_by_key_plan(rt, detail::keys_call(keys, values, unique_keys, reductions, op, options));
}
// Host data: the reductions of O (scatter_output_t<V>, or float for 16-bit values:
// reduce_by_key<cl_uint, half_t, float>).
template <class K, class V, class O = scatter_output_t<V>>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(Runtime& rt, const std::vector<K>& keys, const std::vector<V>& values,
                                                        ScatterOp op, ScatterOptions options = {}) {
  constexpr bool out16 = detail::scatter_out16<O, V>();
  if (keys.size() != values.size()) detail::scatter_size_mismatch("reduce_by_key", keys.size(), values.size());
  std::pair<std::vector<K>, std::vector<O>> result(keys.size(), keys.size());
  const std::size_t runs = detail::reduce_by_key_host(rt, detail::scatter_type_of<V>(), out16, detail::scatter_index64<K>(), keys.data(),
                                                      values.data(), keys.size(), result.first.data(), result.second.data(), op, options);
  result.first.resize(runs);
  result.second.resize(runs);
  return result;
}

// Partial reduce_by_key, over a part of its (keys, values): the part's runs before they are
// finished.
// Parts merge (merge_into) in element order: a part's first run joins the run before it where
// their keys are equal, as one call over all the data finds one run there. finish_by_key() then
// gives what one reduce_by_key over all the data returns. O as for ScatterPartial (float for
// 16-bit values); integers, min and max exactly as one device; float sums and means add the
// parts' pieces of a run in double and round once when finished.
template <class K, class O>
struct ByKeyPartial {
  using Acc = typename ScatterPartial<O>::Acc;  // float sums and means add in double
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;  // the call's: nan decides how parts merge
  std::vector<K> keys;     // each run's key, in element order
  std::vector<Acc> values;  // each run's reduction (mean: its sum, divided when finished)
  std::vector<std::uint64_t> lengths;  // mean: each run's number of values (its divisor); else empty
};

// The partial reduce_by_key of one part: keys and values as reduce_by_key takes them (views of
// device buffers of the same count, or host vectors of the same size). Refuses
// (std::invalid_argument, before anything is enqueued) what reduce_by_key refuses.
template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial(Runtime& rt, const View<K>& keys, const View<V>& values, ScatterOp op,
                                                            ScatterOptions options = {});
template <class K, class V>
ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial(Runtime& rt, const std::vector<K>& keys, const std::vector<V>& values,
                                                            ScatterOp op, ScatterOptions options = {});
// from's elements come after into's: from's first run joins into's last where their keys are
// equal. Refused (std::invalid_argument, into unchanged) unless both have the same op and NaN
// rule, and each holds one value (and, for mean, one length) a key.
template <class K, class O>
void merge_into(ByKeyPartial<K, O>& into, const ByKeyPartial<K, O>& from);
// The merged parts' unique keys and reductions, as reduce_by_key(rt, keys, values, op, options)
// over all their data returns them (a mean divided as the device divides it).
template <class K, class O>
std::pair<std::vector<K>, std::vector<O>> finish_by_key(const ByKeyPartial<K, O>& merged);

#define CLATOMICS_BY_KEY_PARTIAL(EXTERN, V, K)                                                                                              \
  EXTERN template ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial<K, V>(Runtime&, const View<K>&, const View<V>&, ScatterOp,    \
                                                                                   ScatterOptions);                                         \
  EXTERN template ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial<K, V>(Runtime&, const std::vector<K>&, const std::vector<V>&, \
                                                                                   ScatterOp, ScatterOptions);
#define CLATOMICS_BY_KEY_PARTIAL_EXTERN(V, K) CLATOMICS_BY_KEY_PARTIAL(extern, V, K)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_BY_KEY_PARTIAL_EXTERN)
#undef CLATOMICS_BY_KEY_PARTIAL_EXTERN
#define CLATOMICS_BY_KEY_MERGE(EXTERN, O, K)                                                                \
  EXTERN template void merge_into<K, O>(ByKeyPartial<K, O>&, const ByKeyPartial<K, O>&);                    \
  EXTERN template std::pair<std::vector<K>, std::vector<O>> finish_by_key<K, O>(const ByKeyPartial<K, O>&);
#define CLATOMICS_BY_KEY_MERGE_EXTERN(O) CLATOMICS_BY_KEY_MERGE(extern, O, cl_uint) CLATOMICS_BY_KEY_MERGE(extern, O, cl_ulong)
CLATOMICS_FOR_SCATTER_OUTPUTS(CLATOMICS_BY_KEY_MERGE_EXTERN)
#undef CLATOMICS_BY_KEY_MERGE_EXTERN

// Over a DeviceGroup (group_forms.hpp): host data in chunks, or keys and values resident on the devices.
// reduce_by_key over host data, as reduce_by_key(Runtime&, std::vector...), above: the
// keys of the runs of equal consecutive keys and their reductions (of the values' type, and float
// for half_t and bfloat16_t values). The keys and values are cut into the engine's chunks (fixed
// by the data, never by the number of devices, every chunk a multiple of 64 elements), each
// chunk's runs reduced on the device that takes it, and the runs concatenated on the host in
// order, a chunk's last run joined to the next chunk's first where their keys are equal: by the
// op (float sums and means in double, rounded once; a mean divides the pieces' sum by the run's
// length). Integers, min and max are one device's results (options.nan included), and so is
// every run that no chunk boundary cuts: deterministic float sums and means too, bit for bit,
// wherever ScatterOptions::deterministic sums them exactly on the chunk's grid as on the whole
// call's (values within 2^73 (float) or 2^44 (double) of the chunk's largest). A cut run may
// differ from one device's in the last place; its bits depend on the data alone, never on the
// number of devices. Refused as on one device (std::invalid_argument, before anything runs).
namespace detail {
template <class K, class V>
std::pair<std::vector<K>, std::vector<group_scatter_output_t<V>>> group_reduce_by_key(DeviceGroup& group, const std::vector<K>& keys,
                                                                                     const std::vector<V>& values, ScatterOp op,
                                                                                     ScatterOptions options);
}  // namespace detail
template <class K, class V, class O = detail::group_scatter_output_t<V>>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(DeviceGroup& group, const std::vector<K>& keys, const std::vector<V>& values,
                                                        ScatterOp op, ScatterOptions options = {}) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_reduce_by_key<K, V>(group, keys, values, op, options);
}

// reduce_by_key over resident keys and values, laid out alike (refused otherwise): the
// host-data form's results, refusals and contract. Each device reduces the runs of its part, a
// part's last run joined to the next part's first where their keys are equal. Deterministic float
// sums and means run in the chunks the host-data form cuts the same data into, so that their bits
// are that form's: a chunk that spans two devices' parts is first copied through the host onto
// the device holding its first element.
namespace detail {
template <class K, class V>
std::pair<std::vector<K>, std::vector<group_scatter_output_t<V>>> group_reduce_by_key(DeviceGroup& group, const DistributedBuffer<K>& keys,
                                                                                     const DistributedBuffer<V>& values, ScatterOp op,
                                                                                     ScatterOptions options);
}  // namespace detail
template <class K, class V, class O = detail::group_scatter_output_t<V>, template <class> class Parts,
          std::enable_if_t<std::is_same_v<Parts<K>, DistributedBuffer<K>> && std::is_same_v<Parts<V>, DistributedBuffer<V>>, int> = 0>
std::pair<std::vector<K>, std::vector<O>> reduce_by_key(DeviceGroup& group, const Parts<K>& keys, const Parts<V>& values, ScatterOp op,
                                                        ScatterOptions options = {}) {
  detail::check_group_scatter_output<O, V>();
  return detail::group_reduce_by_key<K, V>(group, keys, values, op, options);
}

#define CLATOMICS_GROUP_BY_KEY(EXTERN, V, K)                                                                                   \
  EXTERN template std::pair<std::vector<K>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key<K, V>( \
      DeviceGroup&, const std::vector<K>&, const std::vector<V>&, ScatterOp, ScatterOptions);                                  \
  EXTERN template std::pair<std::vector<K>, std::vector<detail::group_scatter_output_t<V>>> detail::group_reduce_by_key<K, V>( \
      DeviceGroup&, const DistributedBuffer<K>&, const DistributedBuffer<V>&, ScatterOp, ScatterOptions);
#define CLATOMICS_GROUP_BY_KEY_EXTERN(V, K) CLATOMICS_GROUP_BY_KEY(extern, V, K)
CLATOMICS_FOR_SCATTER_TYPES(CLATOMICS_GROUP_BY_KEY_EXTERN)
#undef CLATOMICS_GROUP_BY_KEY_EXTERN

}  // namespace clatomics
