// What every scatter suite stands on: buffer ranges as the entry points' views, one
// scatter_reduce call's data and layout (Problem), run through either overload and checked
// against the reference model, and the index type each value type is tested with.
#pragma once

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "clatomics/scatter.hpp"
#include "scatter_calls.hpp"
#include "scatter_data.hpp"
#include "scatter_reference.hpp"
#include "support.hpp"

namespace scatter_test {

using clatomics::NanRule;
using clatomics::OutOfRange;
using clatomics::Rows;
using clatomics::ScatterOptions;
using clatomics::ScatterResult;
using clatomics::ScatterStrategy;
using test::op_name;
using test::options;

inline const ScatterOp all_ops[] = {ScatterOp::sum, ScatterOp::prod, ScatterOp::min, ScatterOp::max, ScatterOp::mean};
inline const ScatterStrategy forced_strategies[] = {ScatterStrategy::global_atomics, ScatterStrategy::local_private, ScatterStrategy::local_cache};

inline std::string name_of(ScatterStrategy s) { return clatomics::strategy_name(s); }

// Buffer ranges as the entry points' views, so that one test reaches a range by offset and
// count whatever the layout: `rows` rows of `width` a `stride` apart (0: the width) from
// `offset`, the last row its width only. A size that overflows saturates, so that the call
// refuses it as a view beyond its buffer.
template <class T>
clatomics::View<T> rows_view(const cl::Buffer& b, std::size_t offset, std::size_t rows, std::size_t width = 1, std::size_t stride = 0) {
  const std::size_t step = stride ? stride : width;
  std::size_t count = 0;
  if (rows && width) count = rows - 1 > (none - width) / step ? none : (rows - 1) * step + width;
  return clatomics::view<T>(b, offset, count);
}
template <class V, class I>
ScatterResult scatter_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& indices,
                             std::size_t indices_offset, const cl::Buffer& values, std::size_t values_offset, std::size_t count, ScatterOp op,
                             ScatterOptions o = {}, Rows rows = {}) {
  return clatomics::scatter_reduce(rt, rows_view<Out<V>>(out, out_offset, bins, rows.width, rows.out_stride),
                                   clatomics::view<I>(indices, indices_offset, count),
                                   rows_view<V>(values, values_offset, count, rows.width, rows.value_stride), op, o, rows);
}
template <class V, class I>
ScatterResult arg_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t bins, const cl::Buffer& arg,
                         std::size_t arg_offset, const cl::Buffer& indices, std::size_t indices_offset, const cl::Buffer& values,
                         std::size_t values_offset, std::size_t count, ScatterOp op, ScatterOptions o = {}) {
  return clatomics::scatter_reduce_arg(rt, clatomics::view<Out<V>>(out, out_offset, bins), clatomics::view<cl_ulong>(arg, arg_offset, bins),
                                       clatomics::view<I>(indices, indices_offset, count), clatomics::view<V>(values, values_offset, count),
                                       op, o);
}
template <class V, class I>
ScatterResult segment_ranges(clatomics::Runtime& rt, const cl::Buffer& out, std::size_t out_offset, std::size_t segments,
                             const cl::Buffer& offsets, std::size_t offsets_offset, const cl::Buffer& values, std::size_t values_offset,
                             std::size_t count, ScatterOp op, ScatterOptions o = {}, Rows rows = {}) {
  return clatomics::segment_reduce(rt, rows_view<Out<V>>(out, out_offset, segments, rows.width, rows.out_stride),
                                   clatomics::view<I>(offsets, offsets_offset, segments + 1),
                                   rows_view<V>(values, values_offset, count, rows.width, rows.value_stride), op, o, rows);
}
template <class K, class V>
std::size_t by_key_ranges(clatomics::Runtime& rt, const cl::Buffer& keys, std::size_t keys_offset, const cl::Buffer& values,
                          std::size_t values_offset, std::size_t count, const cl::Buffer& unique_keys, std::size_t unique_offset,
                          const cl::Buffer& reductions, std::size_t reductions_offset, ScatterOp op, ScatterOptions o = {}) {
  return clatomics::reduce_by_key(rt, clatomics::view<K>(keys, keys_offset, count), clatomics::view<V>(values, values_offset, count),
                                  clatomics::view<K>(unique_keys, unique_offset, count),
                                  clatomics::view<Out<V>>(reductions, reductions_offset, count), op, o);
}

// Restores the default stream limits however the scope ends.
struct StreamLimits {
  explicit StreamLimits(std::size_t chunk_bytes, std::uint64_t launch_elements) {
    clatomics::testing::set_stream_limits({chunk_bytes, launch_elements});
  }
  ~StreamLimits() { clatomics::testing::set_stream_limits({}); }
  StreamLimits(const StreamLimits&) = delete;
  StreamLimits& operator=(const StreamLimits&) = delete;
};

template <class T>
cl::Buffer device(const std::vector<T>& host) {
  std::vector<T> padded = host;
  if (padded.empty()) padded.push_back(T());  // OpenCL has no empty buffers
  return test::to_device(test::runtime(), padded);
}

inline std::vector<unsigned char> bytes_of(const cl::Buffer& buffer) {
  const std::size_t size = buffer.getInfo<CL_MEM_SIZE>();
  std::vector<unsigned char> b(size);
  test::runtime().queue().enqueueReadBuffer(buffer, CL_TRUE, 0, size, b.data());
  return b;
}

// ---- One scatter_reduce call: its data, layout, and the checks of its result -----------------

// Element i's row is values[value_offset + i * value_stride + d], d < width; bin b's row is
// out[out_offset + b * out_stride + d]. Everything else in the three vectors is junk (values,
// indices) or sentinels (out) that must stay.
template <class V, class I>
struct Problem {
  std::size_t bins = 1, count = 0, width = 1, value_stride = 1, out_stride = 1;
  std::size_t out_offset = 0, index_offset = 0, value_offset = 0;
  std::vector<I> indices;
  std::vector<V> values;
  std::vector<Out<V>> out;
};

struct Shape {
  std::size_t width = 1, value_pad = 0, out_pad = 0;  // strides: width + pad
  std::size_t out_offset = 0, index_offset = 0, value_offset = 0;
};

template <class V, class I>
Problem<V, I> make_problem(std::size_t count, std::size_t bins, Dist dist, ScatterOp op, unsigned seed, unsigned oor64 = 0,
                           Shape shape = {}) {
  Problem<V, I> p;
  p.bins = bins, p.count = count, p.width = shape.width;
  p.value_stride = shape.width + shape.value_pad, p.out_stride = shape.width + shape.out_pad;
  p.out_offset = shape.out_offset, p.index_offset = shape.index_offset, p.value_offset = shape.value_offset;
  p.indices.assign(p.index_offset, I(0));  // bin 0, were it read
  const auto idx = make_indices<I>(count, bins, dist, seed, oor64);
  p.indices.insert(p.indices.end(), idx.begin(), idx.end());
  const auto v = make_values<V>(count * p.width, op, seed);
  p.values.resize(p.value_offset + count * p.value_stride);
  for (std::size_t k = 0; k < p.values.size(); ++k) p.values[k] = junk<V>(k);
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t d = 0; d < p.width; ++d) p.values[p.value_offset + i * p.value_stride + d] = v[i * p.width + d];
  const auto init = make_init<Out<V>>(bins * p.width, op, seed);
  p.out.assign(p.out_offset + bins * p.out_stride, sentinel<Out<V>>());
  for (std::size_t b = 0; b < bins; ++b)
    for (std::size_t d = 0; d < p.width; ++d) p.out[p.out_offset + b * p.out_stride + d] = init[b * p.width + d];
  return p;
}

template <class V, class I>
Expected<Out<V>> reference(const Problem<V, I>& p, ScatterOp op, bool include_self, bool exact) {
  std::vector<std::size_t> bin_of(p.count);
  for (std::size_t i = 0; i < p.count; ++i) {
    const I k = p.indices[p.index_offset + i];
    bin_of[i] = std::uint64_t(k) < p.bins ? std::size_t(k) : none;
  }
  return reference<V>(p.out, p.out_offset, p.out_stride, p.bins, p.width, bin_of, p.values, p.value_offset, p.value_stride, op,
                      include_self, exact);
}

enum class Api { host, buffers };

template <class O>
struct Ran {
  ScatterResult result;
  std::vector<O> out;
};

// Runs p through the std::vector overload (p must be contiguous, at offsets 0) or the cl::Buffer
// one, and returns what it gave; throws what the call throws.
template <class V, class I>
Ran<Out<V>> run(const Problem<V, I>& p, ScatterOp op, const ScatterOptions& o, Api api) {
  auto& rt = test::runtime();
  Ran<Out<V>> r;
  if (api == Api::host) {
    REQUIRE((p.out_offset == 0 && p.index_offset == 0 && p.value_offset == 0));
    REQUIRE((p.value_stride == p.width && p.out_stride == p.width));
    r.out = p.out;
    r.result = clatomics::scatter_reduce(rt, r.out, p.indices, p.values, op, o, p.width);
  } else {
    const cl::Buffer out = device(p.out);
    r.result = scatter_ranges<V, I>(rt, out, p.out_offset, p.bins, device(p.indices), p.index_offset, device(p.values),
                                               p.value_offset, p.count, op, o, Rows{p.width, p.value_stride, p.out_stride});
    r.out = test::to_host<Out<V>>(rt, out, p.out.size());
  }
  return r;
}

// The strategy a call reports: the forced one, else the one automatic chose (never automatic).
inline void check_strategy(const ScatterResult& r, const ScatterOptions& o, std::size_t count) {
  if (!count) return;  // nothing ran
  INFO("reported strategy ", name_of(r.strategy));
  if (o.strategy != ScatterStrategy::automatic) CHECK(r.strategy == o.strategy);
  else CHECK(r.strategy != ScatterStrategy::automatic);
}

template <class V, class I>
Ran<Out<V>> check_scatter(const Problem<V, I>& p, ScatterOp op, const ScatterOptions& o, Api api, bool exact, const std::string& what) {
  const auto e = reference(p, op, o.include_self, exact);
  const auto r = run(p, op, o, api);
  check_out(r.out, e, what);
  CHECK(r.result.out_of_range == e.out_of_range);
  check_strategy(r.result, o, p.count);
  return r;
}

template <class V, class I>
std::string describe(const char* api, ScatterOp op, std::size_t n, std::size_t bins, Dist dist, bool include_self,
                     ScatterStrategy s = ScatterStrategy::automatic) {
  std::ostringstream w;
  w << api << " " << type_name<V>() << " " << op_name(op) << " by " << type_name<I>() << ", n=" << n << " bins=" << bins << " "
    << dist_name(dist) << (include_self ? ", include_self" : ", without self") << ", " << name_of(s);
  return w.str();
}

// Bins past __local memory: twice what the device's __local memory holds of O.
template <class O>
std::size_t big_bins() {
  return std::size_t(test::runtime().device_info().caps.local_mem_size / sizeof(O)) * 2 + 1;
}

// What a case costs on PoCL is mostly its programs: a call builds one program for its (value
// type, op, index width, segments) and one for that plus its plan (include_self false or mean
// keeps counts; strategy; aggregation; fixed point), each ~2 s on 2 cores. So each value type has
// one index type (they alternate: both widths meet every op), and the cases use the programs of
// the op-and-type matrix (test_scatter_ops.cpp) wherever they can: include_self false there for
// float sum, min and max, int sum, double sum and long max; the other plans (forced strategies,
// the deterministic mode, segments, reduce_by_key) only where those are what a case is about.
template <class V>
using Idx = std::conditional_t<std::is_same_v<V, double> || std::is_same_v<V, cl_uint> || std::is_same_v<V, cl_ulong> ||
                                   std::is_same_v<V, bfloat16_t>,
                               cl_ulong, cl_uint>;

}  // namespace scatter_test
