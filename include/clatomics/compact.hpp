// clatomics/compact.hpp — stream compaction (copy_if) with an atomic counter.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/opencl.hpp>

#include "clatomics/predicate.hpp"
#include "clatomics/plan.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/view.hpp"
#include "clatomics/group_forms.hpp"

namespace clatomics {

struct CompactOptions {
  // false: each tile of the input takes its place in the output with one atomic add on a counter
  // (the "take a number" pattern): the kept elements come out in no particular order.
  // true: the order of the input is kept. GPUs: one pass, each tile finding its place from the
  // counts its predecessors publish (decoupled look-back); CPUs: a count pass, a scan of the
  // per-block counts, then every block writes at its offset.
  // Either way the input is read once on GPUs, and out beyond the kept elements is not written.
  bool stable = false;
};

namespace detail {
template <class T>
constexpr bool compact_type_v = std::is_same_v<T, float> || std::is_same_v<T, cl_int> || std::is_same_v<T, cl_uint>;
template <class T>
constexpr void require_compact_type() {
  static_assert(compact_type_v<T>, "clatomics::compact: the element type must be float, cl_int or cl_uint");
}
template <class T>
std::size_t compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                            const Predicate& predicate, CompactOptions options);
template <class T>
std::size_t compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                            const std::string& expression, CompactOptions options);
template <class T>
std::vector<T> compact_vector(Runtime& rt, const std::vector<T>& in, const Predicate& predicate, CompactOptions options);
template <class T>
std::vector<T> compact_vector(Runtime& rt, const std::vector<T>& in, const std::string& expression, CompactOptions options);
}  // namespace detail

// Copies the elements x of the view in for which the predicate holds to out's first n elements
// and returns n (clatomics/view.hpp: the element type comes with the views, so a buffer of one
// type is never read as another: compact(rt, view<float>(a), view<float>(b), where::x > 0.5f)).
// T: float, cl_int or cl_uint. out must hold in.count() elements and share no memory with in.
// The predicate: a Predicate (clatomics/predicate.hpp: `where::x > 0.5f && where::x < 0.9f`),
// whose values are kernel arguments: one program per shape, any values. Or the string form, an
// OpenCL C expression of x ("x % 3u == 0u") that is code: checked token by token (see
// predicate.hpp for what it may hold) and compiled once per distinct string.
// Throws std::invalid_argument for a null buffer or one whose flags forbid its role, a range
// beyond its buffer or overflowing size_t, an out view smaller than in or sharing memory with
// in, a value the element type cannot hold, a string predicate outside the allowed form;
// clatomics::Error with the build log when a string predicate does not compile. In each case
// nothing has been enqueued and out is untouched.
template <class T>
std::size_t compact(Runtime& rt, const View<T>& in, const View<T>& out, const Predicate& predicate, CompactOptions options = {}) {
  detail::require_compact_type<T>();
  detail::require_view_holds("compact: out", out, in.count());
  detail::require_view_in_buffer("compact: in", in);  // in first, as the call checks its arguments
  detail::require_view_in_buffer("compact: out", out);
  return detail::compact_buffers<T>(rt, in.handle(), in.offset(), in.count(), out.handle(), out.offset(), predicate, options);
}
template <class T>
std::size_t compact(Runtime& rt, const View<T>& in, const View<T>& out, const std::string& expression, CompactOptions options = {}) {
  detail::require_compact_type<T>();
  detail::require_view_holds("compact: out", out, in.count());
  detail::require_view_in_buffer("compact: in", in);  // in first, as the call checks its arguments
  detail::require_view_in_buffer("compact: out", out);
  return detail::compact_buffers<T>(rt, in.handle(), in.offset(), in.count(), out.handle(), out.offset(), expression, options);
}

// The same over host data, streamed through the device in chunks when larger than one buffer
// may be; returns the kept elements.
template <class T>
std::vector<T> compact(Runtime& rt, const std::vector<T>& in, const Predicate& predicate, CompactOptions options = {}) {
  detail::require_compact_type<T>();
  return detail::compact_vector<T>(rt, in, predicate, options);
}
template <class T>
std::vector<T> compact(Runtime& rt, const std::vector<T>& in, const std::string& expression, CompactOptions options = {}) {
  detail::require_compact_type<T>();
  return detail::compact_vector<T>(rt, in, expression, options);
}

// What compact() over count elements would run on rt's device (clatomics/plan.hpp), without
// running it (the predicate's kernel is built).
template <class T>
Plan plan_compact(Runtime& rt, std::size_t count, const Predicate& predicate, CompactOptions options = {});
// Every element type with each form of predicate, for the library's explicit instantiations.
#define CLATOMICS_FOR_COMPACT_TYPES(X) \
  X(float, Predicate) X(cl_int, Predicate) X(cl_uint, Predicate) X(float, std::string) X(cl_int, std::string) X(cl_uint, std::string)
#define CLATOMICS_COMPACT_EXTERN(T, P)                                                                                \
  extern template std::size_t detail::compact_buffers<T>(Runtime&, cl_mem, std::size_t, std::size_t, cl_mem, std::size_t, \
                                                         const P&, CompactOptions);                                   \
  extern template std::vector<T> detail::compact_vector<T>(Runtime&, const std::vector<T>&, const P&, CompactOptions);
CLATOMICS_FOR_COMPACT_TYPES(CLATOMICS_COMPACT_EXTERN)
extern template Plan plan_compact<float>(Runtime&, std::size_t, const Predicate&, CompactOptions);
extern template Plan plan_compact<cl_int>(Runtime&, std::size_t, const Predicate&, CompactOptions);
extern template Plan plan_compact<cl_uint>(Runtime&, std::size_t, const Predicate&, CompactOptions);
#undef CLATOMICS_COMPACT_EXTERN

// Over a DeviceGroup (group_forms.hpp), float, cl_int or cl_uint: each chunk (or part) compacted
// on its device, the kept elements joined in element order (with options.stable, the input's
// order). A part of the data needs no partial type: its kept elements are compact() over the
// part, joined in the parts' order (mpi::concatenate joins them over ranks).
template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options = {});
template <class T>
std::vector<T> compact(DeviceGroup& group, const DistributedBuffer<T>& in, const Predicate& predicate, CompactOptions options = {});
#define CLATOMICS_COMPACT_GROUP(EXTERN, T)                                                                                \
  EXTERN template std::vector<T> compact<T>(DeviceGroup&, const std::vector<T>&, const Predicate&, CompactOptions);       \
  EXTERN template std::vector<T> compact<T>(DeviceGroup&, const DistributedBuffer<T>&, const Predicate&, CompactOptions);
#define CLATOMICS_COMPACT_GROUP_EXTERN(T) CLATOMICS_COMPACT_GROUP(extern, T)
CLATOMICS_COMPACT_GROUP_EXTERN(float)
CLATOMICS_COMPACT_GROUP_EXTERN(cl_int)
CLATOMICS_COMPACT_GROUP_EXTERN(cl_uint)
#undef CLATOMICS_COMPACT_GROUP_EXTERN

}  // namespace clatomics
