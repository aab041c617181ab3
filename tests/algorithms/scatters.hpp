// What scatter_reduce, scatter_reduce_arg, segment_reduce and reduce_by_key share. Values are
// small integers as floats and out holds such before the call, so sums are exact in any order.
#pragma once

#include "algorithms/common.hpp"

namespace test::algorithms {

using clatomics::Runtime;
using clatomics::ScatterOp;
using clatomics::ScatterOptions;

inline const char* op_name(ScatterOp op) { return op == ScatterOp::sum ? "sum" : op == ScatterOp::min ? "min" : "max"; }
inline float apply(ScatterOp op, float a, float b) { return op == ScatterOp::sum ? a + b : op == ScatterOp::min ? std::min(a, b) : std::max(a, b); }

inline ScatterOptions with_self(bool include_self) {
  ScatterOptions o;
  o.include_self = include_self;
  return o;
}
inline std::string call_name(ScatterOp op, bool include_self) { return std::string(op_name(op)) + (include_self ? "" : ", include_self false"); }

// Indices beyond the bins (an eighth more) are counted, not written.
inline Contents scatter_contents(const Shape& s, unsigned seed, bool with_arg) {
  std::mt19937 gen(seed);
  const auto out = small_floats(s.bins, gen, -8, 8);
  const auto indices = below(s.length, gen, s.bins + s.bins / 8 + 1);
  Contents c{bytes_of(out), bytes_of(indices), bytes_of(small_floats(s.length, gen, -8, 8))};
  if (with_arg) c.push_back(poison(8 * s.bins));
  return c;
}

// out (with its own values or without), the positions that won (arg) and the indices out of range.
struct Scattered {
  std::vector<float> out;
  std::vector<cl_ulong> arg;
  std::uint64_t out_of_range = 0;
};
inline Scattered host_scatter(const Contents& before, ScatterOp op, bool include_self) {
  Scattered s{as<float>(before[0]), {}, 0};
  const auto idx = as<cl_uint>(before[1]);
  const auto val = as<float>(before[2]);
  s.arg.assign(s.out.size(), cl_ulong(val.size()));
  std::vector<bool> reached(s.out.size(), false);
  for (std::size_t i = 0; i < idx.size(); ++i) {
    const cl_uint b = idx[i];
    if (b >= s.out.size()) {
      ++s.out_of_range;
      continue;
    }
    const float next = !include_self && !reached[b] ? val[i] : apply(op, s.out[b], val[i]);
    if (!reached[b] || next != s.out[b]) s.arg[b] = i;  // ties keep the lowest position
    s.out[b] = next, reached[b] = true;
  }
  return s;
}

// Keys in runs (a new key a quarter of the time), keys that come back later among them.
inline std::vector<cl_uint> run_keys(std::size_t n, std::mt19937& gen) {
  std::vector<cl_uint> keys(n);
  cl_uint key = gen() % 50;
  for (auto& k : keys) k = gen() % 4 == 0 ? (key = gen() % 50) : key;
  return keys;
}

// reduce_by_key on the host: each run's key, and the op over its values.
inline std::pair<std::vector<cl_uint>, std::vector<float>> host_by_key(const std::vector<cl_uint>& keys, const std::vector<float>& val,
                                                                       ScatterOp op) {
  std::pair<std::vector<cl_uint>, std::vector<float>> runs;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || keys[i] != keys[i - 1]) runs.first.push_back(keys[i]), runs.second.push_back(val[i]);
    else runs.second.back() = apply(op, runs.second.back(), val[i]);
  }
  return runs;
}

// A random op, with out's own values or without.
inline Call random_scatter(std::mt19937_64& g, Call (*make)(ScatterOp, bool)) {
  const ScatterOp ops[] = {ScatterOp::sum, ScatterOp::min, ScatterOp::max};
  const ScatterOp op = ops[g() % 3];
  return make(op, g() % 2);
}

struct Indices {
  std::vector<cl_uint> idx, sorted, hot;
  std::vector<float> v;
};
inline Indices kernel_indices() {
  const std::size_t n = 200000;
  Indices d;
  d.idx.resize(n), d.sorted.resize(n);
  for (std::size_t i = 0; i < n; ++i) d.idx[i] = cl_uint((i * 2654435761u) % 1000), d.sorted[i] = cl_uint(i / 300);
  d.hot = d.idx;
  for (std::size_t i = 0; i < n; i += 2) d.hot[i] = 7;
  d.v = ramp(n);
  return d;
}

}  // namespace test::algorithms
