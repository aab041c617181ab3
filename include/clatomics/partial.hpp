// clatomics/partial.hpp — results of parts of the data that merge into the result of the whole:
// for several devices of one host (clatomics/device_group.hpp) and for many processes (MPI:
// clatomics/mpi.hpp, or any engine that can add and gather plain arrays).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/histogram.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/scatter.hpp"

namespace clatomics {

// The deterministic reduction's tile: its fixed tree reduces each run of reduce_tile elements of
// the whole range to one value, then those values by the same rule. A part that starts at a
// multiple of reduce_tile has the same tile values as one pass over all the data.
inline constexpr std::size_t reduce_tile = 16384;

// A reduction of elements [first, first + count) of a larger range.
// tiled (deterministic float/double sum and product): values holds one value per tile of the
// part, the tiles first / reduce_tile, ...; merge_reduce() runs the rest of the fixed tree over
// every part's tiles in order, so the result's bits equal one pass over all the data whatever
// the parts. Otherwise values holds the part's result (exact for integers and for min/max; a
// fast float sum is as the single-device one) or nothing when count is 0.
template <class T>
struct ReducePartial {
  ReduceOp op = ReduceOp::sum;
  bool tiled = false;
  std::uint64_t first = 0, count = 0;
  std::vector<T> values;
};

// The partial reduction of a view (view<float>(buffer, offset, count)), elements first, ... of
// the whole range. Refuses (std::invalid_argument, before anything is enqueued) what reduce()
// refuses, and a deterministic float sum or product whose first is not a multiple of reduce_tile.
template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const View<T>& part, ReduceOp op, std::uint64_t first, ReduceOptions options = {});
// The same over host data (one shard).
template <class T>
ReducePartial<T> reduce_partial(Runtime& rt, const std::vector<T>& shard, ReduceOp op, std::uint64_t first,
                                ReduceOptions options = {});

// The result of the parts together. They may come in any order; together they must cover one
// range without gap or overlap, with one known op and one kind (tiled or not) for every part,
// empty ones too; tiled only where a deterministic reduce makes tiles (float and double sums and
// products); and every tiled part but the last must hold whole tiles; else std::invalid_argument. Tiled parts run the tree's last
// levels on the host, in the kernel's order (no device needed: any rank or engine can merge).
// Only empty parts: reduce()'s identity; no parts at all: refused.
template <class T>
T merge_reduce(std::vector<ReducePartial<T>> parts);

// Histograms merge by adding: counts and tallies exactly (64-bit), weight sums in double (their
// order of addition may change the last bits, as with atomics). into and from must have the same
// bins (and, for even histograms, the same range, edges and weight channels); else std::invalid_argument
// and into is unchanged.
void merge_into(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from);
void merge_into(KeyHistogram& into, const KeyHistogram& from);
void merge_into(EvenHistogram& into, const EvenHistogram& from);
// 2-D: the same nx, ny and weight channels (the bins' ranges are the caller's to keep alike: the
// result does not hold them).
void merge_into(EvenHistogram2D& into, const EvenHistogram2D& from);
// dot, compact and segment_reduce need no partial type: a part's dot is dot() over the part
// (parts' dots add, in order for the same bits), a part's kept elements are compact() over the
// part (joined in the parts' order, with options.stable the input's order), and a part of whole
// segments is segment_reduce() over those segments, offsets rebased (rows joined in order).
// mpi.hpp gathers them over ranks.

// scatter_reduce over a part of its (indices, values): what the part gives each bin of an output
// of `bins` rows of `width`, before out's own values enter. Parts merge (merge_into) into what
// the whole data gives, which finish_scatter() then applies to out, exactly as one
// scatter_reduce(out, ...) over all the data treats out (include_self, mean, a bin no value
// reaches keeping its value). O: the values' type, float for half_t and bfloat16_t values (the
// parts are joined in float or double on the host, as a DeviceGroup joins its chunks).
// Integers, min and max merge exactly as one device computes them; float sums and means add the
// parts in double and round once per bin when finished (a deterministic part's sums are its own
// exact sums rounded once: the bits depend on the data and its split into parts, never on the
// run or the device).
template <class V>
using scatter_partial_t = std::conditional_t<detail::scatter_sixteen_bits<V>(), float, V>;
template <class O>
struct ScatterPartial {
  using Acc = std::conditional_t<std::is_floating_point_v<O>, double, O>;  // float sums and means add in double
  ScatterOp op = ScatterOp::sum;
  ScatterOptions options;  // the call's: include_self and nan decide how parts merge and finish
  std::size_t bins = 0, width = 1;
  ScatterResult result;  // out_of_range added over the parts; strategy: the first part's with values
  bool any = false;      // some part held values
  std::vector<Acc> values;            // bins * width, each at the op's identity until a value reaches it
  std::vector<std::uint64_t> counts;  // how many values reached each bin, for mean and include_self = false; else empty
};

// The partial scatter_reduce of one part: indices and values as scatter_reduce takes them (views
// of device buffers, or host vectors with width values an index), into bins rows of width.
// Refuses (std::invalid_argument, before anything is enqueued) what scatter_reduce refuses; an
// index >= bins is counted in result.out_of_range or, with OutOfRange::refuse, refused.
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const View<I>& indices, const View<V>& values,
                                                            ScatterOp op, ScatterOptions options = {}, std::size_t width = 1);
template <class V, class I>
ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial(Runtime& rt, std::size_t bins, const std::vector<I>& indices,
                                                            const std::vector<V>& values, ScatterOp op, ScatterOptions options = {},
                                                            std::size_t width = 1);
// from's values come after into's (the order float sums are added in). Refused
// (std::invalid_argument, into unchanged) unless both have the same op, bins, width, include_self
// and NaN rule.
template <class O>
void merge_into(ScatterPartial<O>& into, const ScatterPartial<O>& from);
// Applies the merged parts to out (bins * width elements, else std::invalid_argument and out
// untouched): out as one scatter_reduce over all the parts' data leaves it.
template <class O>
ScatterResult finish_scatter(std::vector<O>& out, const ScatterPartial<O>& merged);

// reduce_by_key over a part of its (keys, values): the part's runs before they are finished.
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

#define CLATOMICS_PARTIAL_EXTERN(T)                                                                                            \
  extern template ReducePartial<T> reduce_partial<T>(Runtime&, const View<T>&, ReduceOp, std::uint64_t, ReduceOptions);        \
  extern template ReducePartial<T> reduce_partial<T>(Runtime&, const std::vector<T>&, ReduceOp, std::uint64_t, ReduceOptions);  \
  extern template T merge_reduce<T>(std::vector<ReducePartial<T>>);
CLATOMICS_PARTIAL_EXTERN(float)
CLATOMICS_PARTIAL_EXTERN(double)
CLATOMICS_PARTIAL_EXTERN(cl_int)
CLATOMICS_PARTIAL_EXTERN(cl_uint)
CLATOMICS_PARTIAL_EXTERN(cl_long)
CLATOMICS_PARTIAL_EXTERN(cl_ulong)
#undef CLATOMICS_PARTIAL_EXTERN

#define CLATOMICS_SCATTER_PARTIAL_EXTERN(V)                                                                                       \
  extern template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, cl_uint>(Runtime&, std::size_t, const View<cl_uint>&,   \
                                                                                         const View<V>&, ScatterOp, ScatterOptions,     \
                                                                                         std::size_t);                                  \
  extern template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, cl_ulong>(Runtime&, std::size_t, const View<cl_ulong>&, \
                                                                                          const View<V>&, ScatterOp, ScatterOptions,    \
                                                                                          std::size_t);                                 \
  extern template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, cl_uint>(                                              \
      Runtime&, std::size_t, const std::vector<cl_uint>&, const std::vector<V>&, ScatterOp, ScatterOptions, std::size_t);              \
  extern template ScatterPartial<scatter_partial_t<V>> scatter_reduce_partial<V, cl_ulong>(                                             \
      Runtime&, std::size_t, const std::vector<cl_ulong>&, const std::vector<V>&, ScatterOp, ScatterOptions, std::size_t);
CLATOMICS_SCATTER_PARTIAL_EXTERN(float)
CLATOMICS_SCATTER_PARTIAL_EXTERN(double)
CLATOMICS_SCATTER_PARTIAL_EXTERN(cl_int)
CLATOMICS_SCATTER_PARTIAL_EXTERN(cl_uint)
CLATOMICS_SCATTER_PARTIAL_EXTERN(cl_long)
CLATOMICS_SCATTER_PARTIAL_EXTERN(cl_ulong)
CLATOMICS_SCATTER_PARTIAL_EXTERN(half_t)
CLATOMICS_SCATTER_PARTIAL_EXTERN(bfloat16_t)
#undef CLATOMICS_SCATTER_PARTIAL_EXTERN
#define CLATOMICS_SCATTER_MERGE_EXTERN(O)                                                 \
  extern template void merge_into<O>(ScatterPartial<O>&, const ScatterPartial<O>&); \
  extern template ScatterResult finish_scatter<O>(std::vector<O>&, const ScatterPartial<O>&);
CLATOMICS_SCATTER_MERGE_EXTERN(float)
CLATOMICS_SCATTER_MERGE_EXTERN(double)
CLATOMICS_SCATTER_MERGE_EXTERN(cl_int)
CLATOMICS_SCATTER_MERGE_EXTERN(cl_uint)
CLATOMICS_SCATTER_MERGE_EXTERN(cl_long)
CLATOMICS_SCATTER_MERGE_EXTERN(cl_ulong)
#undef CLATOMICS_SCATTER_MERGE_EXTERN

#define CLATOMICS_BY_KEY_PARTIAL_EXTERN(K, V)                                                                                     \
  extern template ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial<K, V>(Runtime&, const View<K>&, const View<V>&,     \
                                                                                    ScatterOp, ScatterOptions);                  \
  extern template ByKeyPartial<K, scatter_partial_t<V>> reduce_by_key_partial<K, V>(Runtime&, const std::vector<K>&,              \
                                                                                    const std::vector<V>&, ScatterOp, ScatterOptions);
#define CLATOMICS_BY_KEY_PARTIAL_TYPES(V) CLATOMICS_BY_KEY_PARTIAL_EXTERN(cl_uint, V) CLATOMICS_BY_KEY_PARTIAL_EXTERN(cl_ulong, V)
CLATOMICS_BY_KEY_PARTIAL_TYPES(float)
CLATOMICS_BY_KEY_PARTIAL_TYPES(double)
CLATOMICS_BY_KEY_PARTIAL_TYPES(cl_int)
CLATOMICS_BY_KEY_PARTIAL_TYPES(cl_uint)
CLATOMICS_BY_KEY_PARTIAL_TYPES(cl_long)
CLATOMICS_BY_KEY_PARTIAL_TYPES(cl_ulong)
CLATOMICS_BY_KEY_PARTIAL_TYPES(half_t)
CLATOMICS_BY_KEY_PARTIAL_TYPES(bfloat16_t)
#undef CLATOMICS_BY_KEY_PARTIAL_TYPES
#undef CLATOMICS_BY_KEY_PARTIAL_EXTERN
#define CLATOMICS_BY_KEY_MERGE_EXTERN(K, O)                                                     \
  extern template void merge_into<K, O>(ByKeyPartial<K, O>&, const ByKeyPartial<K, O>&); \
  extern template std::pair<std::vector<K>, std::vector<O>> finish_by_key<K, O>(const ByKeyPartial<K, O>&);
#define CLATOMICS_BY_KEY_MERGE_TYPES(O) CLATOMICS_BY_KEY_MERGE_EXTERN(cl_uint, O) CLATOMICS_BY_KEY_MERGE_EXTERN(cl_ulong, O)
CLATOMICS_BY_KEY_MERGE_TYPES(float)
CLATOMICS_BY_KEY_MERGE_TYPES(double)
CLATOMICS_BY_KEY_MERGE_TYPES(cl_int)
CLATOMICS_BY_KEY_MERGE_TYPES(cl_uint)
CLATOMICS_BY_KEY_MERGE_TYPES(cl_long)
CLATOMICS_BY_KEY_MERGE_TYPES(cl_ulong)
#undef CLATOMICS_BY_KEY_MERGE_TYPES
#undef CLATOMICS_BY_KEY_MERGE_EXTERN

}  // namespace clatomics
