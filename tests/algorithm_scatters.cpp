// The registry's scatter_reduce, scatter_reduce_arg, segment_reduce and reduce_by_key
// (algorithm_cases.hpp). Values are small integers as floats and out holds such before the call,
// so sums are exact in any order.
#include "algorithm_entries.hpp"

namespace test::algorithms {
namespace {

using clatomics::Runtime;
using clatomics::ScatterOp;
using clatomics::ScatterOptions;

const char* op_name(ScatterOp op) { return op == ScatterOp::sum ? "sum" : op == ScatterOp::min ? "min" : "max"; }
float apply(ScatterOp op, float a, float b) { return op == ScatterOp::sum ? a + b : op == ScatterOp::min ? std::min(a, b) : std::max(a, b); }

ScatterOptions with_self(bool include_self) {
  ScatterOptions o;
  o.include_self = include_self;
  return o;
}
std::string call_name(ScatterOp op, bool include_self) { return std::string(op_name(op)) + (include_self ? "" : ", include_self false"); }

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(i % 97) - 40.0f;
  return v;
}

// Indices beyond the bins (an eighth more) are counted, not written.
Contents scatter_contents(const Shape& s, unsigned seed, bool with_arg) {
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
Scattered host_scatter(const Contents& before, ScatterOp op, bool include_self) {
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

Call scatter_call(ScatterOp op, bool include_self) {
  Call c;
  c.what = call_name(op, include_self);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got = clatomics::scatter_reduce(rt, view<float>(r[0]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(include_self));
    if (!before) return;
    const Scattered want = host_scatter(*before, op, include_self);
    CHECK(got.out_of_range == want.out_of_range);
    check_output(rt, r[0], (*before)[0], want.out);
  };
  return c;
}

// Without out's own values: with them, a tie between out's value and a value has no lowest position.
Call arg_call(ScatterOp op) {
  Call c;
  c.what = call_name(op, false);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const auto got =
        clatomics::scatter_reduce_arg(rt, view<float>(r[0]), view<cl_ulong>(r[3]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(false));
    if (!before) return;
    const Scattered want = host_scatter(*before, op, false);
    CHECK(got.out_of_range == want.out_of_range);
    check_output(rt, r[0], (*before)[0], want.out);
    check_output(rt, r[3], (*before)[3], want.arg);
  };
  return c;
}

// A segment with no values: 0 without out's own value (as torch_scatter's segment_csr), out's
// value with it; values outside [offsets[0], offsets[segments]) take no part.
Call segment_call(ScatterOp op, bool include_self) {
  Call c;
  c.what = call_name(op, include_self);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    (void)clatomics::segment_reduce(rt, view<float>(r[0]), view<cl_uint>(r[1]), view<float>(r[2]), op, with_self(include_self));
    if (!before) return;
    auto want = as<float>((*before)[0]);
    const auto offsets = as<cl_uint>((*before)[1]);
    const auto val = as<float>((*before)[2]);
    for (std::size_t s = 0; s < want.size(); ++s) {
      if (!include_self) want[s] = 0.0f;
      for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) want[s] = !include_self && i == offsets[s] ? val[i] : apply(op, want[s], val[i]);
    }
    check_output(rt, r[0], (*before)[0], want);
  };
  return c;
}

Call by_key_call(ScatterOp op) {
  Call c;
  c.what = op_name(op);
  c.run = [=](Runtime& rt, const Ranges& r, const Contents* before) {
    const std::size_t runs =
        clatomics::reduce_by_key(rt, view<cl_uint>(r[0]), view<float>(r[1]), view<cl_uint>(r[2]), view<float>(r[3]), op);
    if (!before) return;
    const auto keys = as<cl_uint>((*before)[0]);
    const auto val = as<float>((*before)[1]);
    std::vector<cl_uint> unique;
    std::vector<float> reductions;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i == 0 || keys[i] != keys[i - 1]) {
        unique.push_back(keys[i]), reductions.push_back(val[i]);
        continue;
      }
      reductions.back() = apply(op, reductions.back(), val[i]);
    }
    REQUIRE(runs == unique.size());
    check_output(rt, r[2], (*before)[2], unique);
    check_output(rt, r[3], (*before)[3], reductions);
  };
  return c;
}

// A random op, with out's own values or without.
Call random_scatter(std::mt19937_64& g, Call (*make)(ScatterOp, bool)) {
  const ScatterOp ops[] = {ScatterOp::sum, ScatterOp::min, ScatterOp::max};
  const ScatterOp op = ops[g() % 3];
  return make(op, g() % 2);
}

struct Indices {
  std::vector<cl_uint> idx, sorted, hot;
  std::vector<float> v;
};
Indices kernel_indices() {
  const std::size_t n = 200000;
  Indices d;
  d.idx.resize(n), d.sorted.resize(n);
  for (std::size_t i = 0; i < n; ++i) d.idx[i] = cl_uint((i * 2654435761u) % 1000), d.sorted[i] = cl_uint(i / 300);
  d.hot = d.idx;
  for (std::size_t i = 0; i < n; i += 2) d.hot[i] = 7;
  d.v = ramp(n);
  return d;
}

void scatters(Runtime& rt) {
  using namespace clatomics;
  const Indices d = kernel_indices();
  const std::size_t n = d.idx.size();
  for (const ScatterStrategy s : {ScatterStrategy::automatic, ScatterStrategy::global_atomics, ScatterStrategy::local_private,
                                  ScatterStrategy::local_cache})
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max, ScatterOp::mean}) {
      ScatterOptions o;
      o.strategy = s;
      std::vector<float> out(1000, 1.0f);
      try {
        (void)scatter_reduce(rt, out, d.idx, d.v, op, o);
        (void)scatter_reduce(rt, out, d.hot, d.v, op, o);
        o.include_self = false;
        (void)scatter_reduce(rt, out, d.idx, d.v, op, o);
      } catch (const std::invalid_argument&) {
        // a strategy that cannot hold these bins here
      }
    }
  std::vector<float> out(1000, 0.0f);
  ScatterOptions refuse;
  refuse.out_of_range = OutOfRange::refuse;
  (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, refuse);
  (void)scatter_reduce(rt, out, std::vector<cl_ulong>(d.idx.begin(), d.idx.end()), d.v, ScatterOp::sum);
  (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, {}, 1);
  std::vector<float> rows(1000 * 3, 0.0f);
  (void)scatter_reduce(rt, rows, std::vector<cl_uint>(d.idx.begin(), d.idx.begin() + std::ptrdiff_t(n / 3)),
                       std::vector<float>(d.v.begin(), d.v.begin() + std::ptrdiff_t(n / 3 * 3)), ScatterOp::sum, {}, 3);
  std::vector<half_t> h(n, half_t{0x3c00}), hout(1000, half_t{0});
  (void)scatter_reduce(rt, hout, d.idx, h, ScatterOp::sum);
  if (rt.supports_double() && rt.device_info().caps.int64_base_atomics) {
    ScatterOptions det;
    det.deterministic = true;
    (void)scatter_reduce(rt, out, d.idx, d.v, ScatterOp::sum, det);
    (void)scatter_reduce(rt, hout, d.idx, h, ScatterOp::mean, det);
  }
}

}  // namespace

Algorithm scatter_reduce_entry() {
  Algorithm a;
  a.name = "scatter_reduce";
  a.operands = {{"scatter_reduce: out", Role::inout, 4, Extent::bins},
                {"scatter_reduce: indices", Role::input, 4, Extent::length},
                {"scatter_reduce: values", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) { return scatter_contents(s, seed, false); };
  a.calls = {scatter_call(ScatterOp::sum, true), scatter_call(ScatterOp::sum, false), scatter_call(ScatterOp::max, true),
             scatter_call(ScatterOp::min, false)};
  const auto with = [](std::string what, std::string says, ScatterOp op, ScatterOptions options, bool longer_indices) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::scatter_reduce(rt, view<float>(r[0]), view<cl_uint>(longer_indices ? longer(r[1]) : r[1]), view<float>(r[2]), op, options);
    });
  };
  ScatterOptions nan_rule, deterministic, strategy, out_of_range;
  nan_rule.nan = static_cast<clatomics::NanRule>(7);
  deterministic.deterministic = true;
  strategy.strategy = static_cast<clatomics::ScatterStrategy>(42);
  out_of_range.out_of_range = static_cast<clatomics::OutOfRange>(5);
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), {}, false),
                with("nan outside NanRule", "options.nan (7)", ScatterOp::max, nan_rule, false),
                with("deterministic prod of floats", "deterministic prod", ScatterOp::prod, deterministic, false),
                with("strategy outside ScatterStrategy", "options.strategy (42)", ScatterOp::sum, strategy, false),
                with("out_of_range outside OutOfRange", "options.out_of_range (5)", ScatterOp::sum, out_of_range, false),
                with("more indices than values", "indices for", ScatterOp::sum, {}, true)};
  a.random_call = [](std::mt19937_64& g) { return random_scatter(g, scatter_call); };
  a.fp64_name = "scatter_reduce: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::scatter_reduce(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_uint>(pools[1], 0, n),
                                    clatomics::view<double>(pools[2], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = scatters;
  return a;
}

Algorithm scatter_reduce_arg_entry() {
  Algorithm a;
  a.name = "scatter_reduce_arg";
  a.operands = {{"scatter_reduce_arg: out", Role::inout, 4, Extent::bins},
                {"scatter_reduce_arg: indices", Role::input, 4, Extent::length},
                {"scatter_reduce_arg: values", Role::input, 4, Extent::length},
                {"scatter_reduce_arg: arg", Role::inout, 8, Extent::bins}};
  a.available = int64_atomics;
  a.contents = [](const Shape& s, unsigned seed) { return scatter_contents(s, seed, true); };
  a.calls = {arg_call(ScatterOp::max), arg_call(ScatterOp::min)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_arg) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::scatter_reduce_arg(rt, view<float>(r[0]), view<cl_ulong>(longer_arg ? longer(r[3]) : r[3]), view<cl_uint>(r[1]),
                                          view<float>(r[2]), op);
    });
  };
  a.refusals = {with("op sum", "arg needs op min or max", ScatterOp::sum, false),
                with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false),
                with("arg of another length than out", "arg holds", ScatterOp::max, true)};
  a.fp64_name = "scatter_reduce_arg: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::scatter_reduce_arg(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_ulong>(pools[3], 0, n),
                                        clatomics::view<cl_uint>(pools[1], 0, n), clatomics::view<double>(pools[2], 0, n), ScatterOp::max);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    std::vector<float> out(1000, 0.0f);
    (void)clatomics::scatter_reduce_arg(rt, out, d.idx, d.v, ScatterOp::max);
  };
  return a;
}

Algorithm segment_reduce_entry() {
  Algorithm a;
  a.name = "segment_reduce";
  a.operands = {{"segment_reduce: out", Role::inout, 4, Extent::bins},
                {"segment_reduce: offsets", Role::input, 4, Extent::bins_plus_one},
                {"segment_reduce: values", Role::input, 4, Extent::length}};
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    const auto out = small_floats(s.bins, gen, -8, 8);
    auto offsets = below(s.bins ? s.bins + 1 : 0, gen, s.length + 1);  // repeats: empty segments
    std::sort(offsets.begin(), offsets.end());
    return Contents{bytes_of(out), bytes_of(offsets), bytes_of(small_floats(s.length, gen, -8, 8))};
  };
  a.calls = {segment_call(ScatterOp::sum, true), segment_call(ScatterOp::sum, false), segment_call(ScatterOp::max, false)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_offsets) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      // Two offsets more: with no segments, one offset is allowed.
      const Range offsets = longer_offsets ? longer(longer(r[1])) : r[1];
      (void)clatomics::segment_reduce(rt, view<float>(r[0]), view<cl_uint>(offsets), view<float>(r[2]), op);
    });
  };
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false),
                with("two offsets more than segments + 1", "offsets for", ScatterOp::sum, true)};
  a.random_call = [](std::mt19937_64& g) { return random_scatter(g, segment_call); };
  a.fp64_name = "segment_reduce: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::segment_reduce(rt, clatomics::view<double>(pools[0], 0, n), clatomics::view<cl_uint>(pools[1], 0, n + 1),
                                    clatomics::view<double>(pools[2], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    std::vector<cl_uint> offsets(668);
    for (std::size_t s = 0; s < offsets.size(); ++s) offsets[s] = cl_uint(std::min(d.v.size(), s * 300));
    std::vector<float> segments(offsets.size() - 1, 0.0f);
    (void)clatomics::segment_reduce(rt, segments, offsets, d.v, ScatterOp::sum);
    // Empty segments.
    (void)clatomics::segment_reduce(rt, segments, std::vector<cl_uint>(offsets.size(), 0), std::vector<float>{}, ScatterOp::sum, with_self(false));
  };
  return a;
}

Algorithm reduce_by_key_entry() {
  Algorithm a;
  a.name = "reduce_by_key";
  a.operands = {{"reduce_by_key: keys", Role::input, 4, Extent::length},
                {"reduce_by_key: values", Role::input, 4, Extent::length},
                {"reduce_by_key: unique_keys", Role::output, 4, Extent::length},
                {"reduce_by_key: reductions", Role::inout, 4, Extent::length}};
  a.available = int64_atomics;
  a.contents = [](const Shape& s, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<cl_uint> keys(s.length);
    cl_uint key = gen() % 50;
    for (auto& k : keys) k = gen() % 4 == 0 ? (key = gen() % 50) : key;  // runs, and keys that come back later
    return Contents{bytes_of(keys), bytes_of(small_floats(s.length, gen, -8, 8)), poison(4 * s.length), poison(4 * s.length)};
  };
  a.calls = {by_key_call(ScatterOp::sum), by_key_call(ScatterOp::max)};
  const auto with = [](std::string what, std::string says, ScatterOp op, bool longer_values, bool longer_keys) {
    return refusal(std::move(what), std::move(says), [=](Runtime& rt, const Ranges& r) {
      (void)clatomics::reduce_by_key(rt, view<cl_uint>(longer_keys ? longer(r[0]) : r[0]), view<float>(longer_values || longer_keys ? longer(r[1]) : r[1]),
                                     view<cl_uint>(r[2]), view<float>(r[3]), op);
    });
  };
  a.refusals = {with("op outside ScatterOp", "op (42) is not a ScatterOp", static_cast<ScatterOp>(42), false, false),
                with("more values than keys", "keys and values: views of", ScatterOp::sum, true, false),
                with("outputs shorter than the keys", "unique_keys: the view holds", ScatterOp::sum, false, true)};
  a.random_call = [](std::mt19937_64& g) { return by_key_call(g() % 2 ? ScatterOp::sum : ScatterOp::min); };
  a.fp64_name = "reduce_by_key: double";
  a.fp64_call = [](Runtime& rt, const std::vector<cl::Buffer>& pools, std::size_t n) {
    (void)clatomics::reduce_by_key(rt, clatomics::view<cl_uint>(pools[0], 0, n), clatomics::view<double>(pools[1], 0, n),
                                   clatomics::view<cl_uint>(pools[2], 0, n), clatomics::view<double>(pools[3], 0, n), ScatterOp::sum);
  };
  a.reach_kernels = [](Runtime& rt) {
    const Indices d = kernel_indices();
    (void)clatomics::reduce_by_key(rt, d.sorted, d.v, ScatterOp::sum);
    (void)clatomics::reduce_by_key(rt, std::vector<cl_ulong>(d.sorted.begin(), d.sorted.end()), d.v, ScatterOp::max);
  };
  return a;
}

}  // namespace test::algorithms
