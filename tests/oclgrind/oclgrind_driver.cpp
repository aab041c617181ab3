// oclgrind_driver FAMILY: runs one kernel family of the library on tiny inputs and checks the
// results against the host, so that run.cmake can run it under Oclgrind (races, uninitialized
// values, out-of-bounds accesses, API misuse). Tiny sizes because the simulator is thousands of
// times slower than a device; several work-groups and several work-items per address all the
// same, so races between work-items and between groups have a chance to show.
// Exit 0: every result matched; 1: a mismatch (printed); 2: usage or an exception.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

// Oclgrind (21.10 and its later sources alike) loses clEnqueueFillBuffer in its uninitialized-value
// tracking: the fill stores its pattern one copy at a time, and each host store re-allocates the
// shadow of the whole buffer to the size of that one store (Uninitialized::hostMemoryStore ->
// allocAndStoreShadowMemory -> ShadowMemory::allocate), so a zeroed buffer ends with a shadow of one
// pattern's bytes and every later read of it counts as uninitialized. The library links statically
// into this program, whose own definition comes first: each of its fills becomes here one blocking
// write of the same bytes at the same place in the queue's order (the same wait list and event),
// which Oclgrind tracks (the library's fills start at offset 0, as such a write must for Oclgrind).
// A buffer the library forgot to fill is still reported.
extern "C" CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer, const void* pattern,
                                                              size_t pattern_size, size_t offset, size_t size, cl_uint waits,
                                                              const cl_event* wait_list, cl_event* event) {
  if (!pattern || pattern_size == 0 || size % pattern_size || offset % pattern_size) return CL_INVALID_VALUE;
  std::vector<unsigned char> bytes(size);
  for (size_t at = 0; at < size; at += pattern_size) std::memcpy(bytes.data() + at, pattern, pattern_size);
  return clEnqueueWriteBuffer(queue, buffer, CL_TRUE, offset, size, bytes.data(), waits, wait_list, event);
}

// The same tracking keeps a released buffer's shadow, and Oclgrind hands the released buffer's
// number (the top bits of its addresses) to the next buffer created: that buffer then inherits
// the old shadow, its size included (it has no memoryDeallocated handler, and a kernel argument
// gets a fresh, all-uninitialized shadow only where none exists). Reads past the old size count as
// uninitialized, stores there are dropped, and bytes the old buffer had initialized pass as
// initialized in the new one. So this program never gives a buffer back: every buffer gets a
// number of its own and a fresh shadow. The inputs are tiny; the process ends soon after.
extern "C" CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem buffer) { return buffer ? CL_SUCCESS : CL_INVALID_MEM_OBJECT; }

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cout << "MISMATCH: " << what << "\n";
  }
}

template <class T>
std::string str(T v) {
  std::ostringstream out;
  out.precision(17);
  out << +v;
  return out.str();
}

// ---- snippet ops ----------------------------------------------------------------------------
// Every op runs on `cells` addresses, `per_cell` work-items on each (item i on cell i % cells),
// in work-groups of `group` items: once on __global memory, once on a __local copy per group.
constexpr std::size_t cells = 4, per_cell = 8, group = 16, items = cells * per_cell;

// One op: its call (P the pointer, I the item's global id, T the type, SFX "" or "_local"), the
// first value of each cell, and the host's check of a cell's final value and old values.
struct OpCase {
  std::string name, call;
  double init;  // as T
  // final value and old values of one cell given its items' ids; returns what is wrong, or "".
  std::function<std::string(double init, const std::vector<long>& ids, double final_value, const std::vector<double>& olds)> check;
};

std::string expect_final(double want, double got) { return want == got ? "" : "final " + str(got) + ", want " + str(want); }

// The old values of a fold op applied in some order: each old is init folded with a subset, and
// the final value is init folded with all; checked where the op's order does not matter by
// requiring that the olds, sorted as the op moves the value, step through distinct states.
std::string expect_olds_distinct(const std::vector<double>& olds) {
  std::vector<double> sorted = olds;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end() ? "" : "two work-items saw the same old value";
}

// The check of an op whose final value is init folded with every operand (f), and, where asked,
// whose olds are all distinct.
template <class F>
auto fold(F f, bool distinct_olds) {
  return [f, distinct_olds](double init, const std::vector<long>& ids, double got, const std::vector<double>& olds) {
    double want = init;
    for (long i : ids) want = f(want, i);
    std::string why = expect_final(want, got);
    if (why.empty() && distinct_olds) why = expect_olds_distinct(olds);
    return why;
  };
}

std::vector<OpCase> real_cases() {
  auto exchange = [](double init, const std::vector<long>& ids, double got, const std::vector<double>& olds) -> std::string {
    // xchg: the old values and the final value are init and the operands, each once.
    std::vector<double> seen = olds, want{init};
    seen.push_back(got);
    for (long i : ids) want.push_back(double(i + 100));
    std::sort(seen.begin(), seen.end());
    std::sort(want.begin(), want.end());
    return seen == want ? "" : "xchg lost or repeated a value";
  };
  auto cmpxchg = [](double init, const std::vector<long>& ids, double got, const std::vector<double>& olds) -> std::string {
    // Every item tries init -> its operand: exactly one wins, the others see the winner's value.
    std::size_t winners = std::count(olds.begin(), olds.end(), init);
    if (winners != 1) return "cmpxchg: " + str(winners) + " winners";
    if (std::find_if(ids.begin(), ids.end(), [&](long i) { return double(i + 100) == got; }) == ids.end()) return "cmpxchg: final is no operand";
    for (double o : olds)
      if (o != init && o != got) return "cmpxchg: an old value is neither the first nor the winner's";
    return "";
  };
  return {
      {"add", "clat_atomic_add_T(P, (T)(I % 5 + 1))", 1, fold([](double a, long i) { return a + double(i % 5 + 1); }, true)},
      {"sub", "clat_atomic_sub_T(P, (T)(I % 5 + 1))", 1, fold([](double a, long i) { return a - double(i % 5 + 1); }, true)},
      {"mul", "clat_atomic_mul_T(P, (T)(I % 2 + 1))", 3, fold([](double a, long i) { return a * double(i % 2 + 1); }, false)},
      {"div", "clat_atomic_div_T(P, (T)(I % 2 + 1))", 1048576, fold([](double a, long i) { return a / double(i % 2 + 1); }, false)},
      {"mad", "clat_atomic_mad_T(P, (T)(I % 3 + 1), (T)2)", 1, fold([](double a, long i) { return a + double(i % 3 + 1) * 2; }, true)},
      {"min", "clat_atomic_min_T(P, (T)((I * 7) % 13) - (T)6)", 0, fold([](double a, long i) { return std::min(a, double((i * 7) % 13) - 6); }, false)},
      {"max", "clat_atomic_max_T(P, (T)((I * 7) % 13) - (T)6)", 0, fold([](double a, long i) { return std::max(a, double((i * 7) % 13) - 6); }, false)},
      {"bits_min", "clat_bits_min_T(P, (T)((I * 7) % 13) - (T)6)", 0, fold([](double a, long i) { return std::min(a, double((i * 7) % 13) - 6); }, false)},
      {"bits_max", "clat_bits_max_T(P, (T)((I * 7) % 13) - (T)6)", 0, fold([](double a, long i) { return std::max(a, double((i * 7) % 13) - 6); }, false)},
      {"xchg", "clat_atomic_xchg_T(P, (T)(I + 100))", 7, exchange},
      {"cmpxchg", "clat_atomic_cmpxchg_T(P, (T)7, (T)(I + 100))", 7, cmpxchg},
  };
}

std::vector<OpCase> integer_cases() {
  return {
      {"inc", "clat_atomic_inc_T(P, (T)1000)", 5, fold([](double a, long) { return a + 1; }, true)},
      {"dec", "clat_atomic_dec_T(P, (T)1000)", 500, fold([](double a, long) { return a - 1; }, true)},
      {"inc_sat", "clat_atomic_inc_sat_T(P, (T)9)", 5, fold([](double a, long) { return std::min(a + 1, 9.0); }, false)},
      {"dec_sat", "clat_atomic_dec_sat_T(P)", 3, fold([](double a, long) { return std::max(a - 1, 0.0); }, false)},
      {"mul", "clat_atomic_mul_T(P, (T)(I % 2 + 1))", 3, fold([](double a, long i) { return a * double(i % 2 + 1); }, false)},
      {"div", "clat_atomic_div_T(P, (T)(I % 2 + 1))", 1048576, fold([](double a, long i) { return std::floor(a / double(i % 2 + 1)); }, false)},
      {"min", "clat_atomic_min_T(P, (T)((I * 7) % 13))", 6, fold([](double a, long i) { return std::min(a, double((i * 7) % 13)); }, false)},
      {"max", "clat_atomic_max_T(P, (T)((I * 7) % 13))", 6, fold([](double a, long i) { return std::max(a, double((i * 7) % 13)); }, false)},
      // A compare-exchange increment from a guess: the first failed exchange returns the value.
      {"compare_exchange", "clat_cx_inc_T(P)", 11, fold([](double a, long) { return a + 1; }, true)},
  };
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

// One kernel per op and address space: op_<name>_global, op_<name>_local.
std::string op_kernels(const std::string& type, const std::vector<OpCase>& cases) {
  std::string src = "#define T " + type + "\n";
  src += "static inline T clat_cx_inc_T(volatile __global T *p) { T e = (T)0; while (!clat_atomic_compare_exchange_T(p, &e, e + (T)1)) {} return e; }\n"
         "static inline T clat_cx_inc_T_local(volatile __local T *p) { T e = (T)0; while (!clat_atomic_compare_exchange_T_local(p, &e, e + (T)1)) {} return e; }\n";
  for (const auto& c : cases) {
    std::string global_call = replace_all(replace_all(c.call, "P", "(cells + i % CELLS)"), "I", "(long)i");
    std::string local_call = replace_all(replace_all(c.call, "P", "(tmp + lid % CELLS)"), "I", "(long)i");
    local_call = replace_all(local_call, "_T(", "_T_local(");
    src += "kernel void op_" + c.name + "_global(global T *cells, global T *olds) {\n"
           "  const size_t i = get_global_id(0);\n"
           "  olds[i] = " + global_call + ";\n}\n";
    // Each group works on its own copy of the cells in __local memory, then writes it out.
    src += "kernel void op_" + c.name + "_local(global T *cells, global T *olds) {\n"
           "  local T tmp[CELLS];\n"
           "  const size_t i = get_global_id(0), lid = get_local_id(0), g = get_group_id(0);\n"
           "  if (lid < CELLS) tmp[lid] = cells[g * CELLS + lid];\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  olds[i] = " + local_call + ";\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  if (lid < CELLS) cells[g * CELLS + lid] = tmp[lid];\n}\n";
  }
  src = replace_all(src, "_T(", "_" + type + "(");
  src = replace_all(src, "_T_local(", "_" + type + "_local(");
  src = replace_all(src, "CELLS", std::to_string(cells));
  return src;
}

template <class T>
void run_ops(clatomics::Runtime& rt, const std::string& type, const std::vector<OpCase>& cases) {
  const cl::Program program = rt.build(op_kernels(type, cases));
  for (const auto& c : cases) {
    for (const bool local : {false, true}) {
      // __local: every group has its own cells, and its items are the ones that reach them.
      const std::size_t groups = items / group, ncells = local ? cells * groups : cells;
      std::vector<T> host(ncells, T(c.init)), olds(items);
      cl::Buffer cells_buf(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ncells * sizeof(T), host.data());
      cl::Buffer olds_buf(rt.context(), CL_MEM_READ_WRITE, items * sizeof(T));
      cl::Kernel kernel(program, ("op_" + c.name + (local ? "_local" : "_global")).c_str());
      kernel.setArg(0, cells_buf);
      kernel.setArg(1, olds_buf);
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(group));
      rt.queue().enqueueReadBuffer(cells_buf, CL_TRUE, 0, ncells * sizeof(T), host.data());
      rt.queue().enqueueReadBuffer(olds_buf, CL_TRUE, 0, items * sizeof(T), olds.data());
      for (std::size_t cell = 0; cell < ncells; ++cell) {
        std::vector<long> ids;
        std::vector<double> cell_olds;
        for (std::size_t i = 0; i < items; ++i) {
          const std::size_t at = local ? (i / group) * cells + (i % group) % cells : i % cells;
          if (at != cell) continue;
          ids.push_back(long(i));
          cell_olds.push_back(double(olds[i]));
        }
        const std::string why = c.check(c.init, ids, double(host[cell]), cell_olds);
        expect(why.empty(), type + " " + c.name + (local ? " local" : " global") + " cell " + std::to_string(cell) + ": " + why);
      }
    }
  }
  std::cout << type << ": " << cases.size() << " ops, global and local\n";
}

// ---- algorithms ------------------------------------------------------------------------------
std::vector<float> small_floats(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float(int((i * 37 + seed * 11) % 29) - 14) * 0.25f;
  return v;
}

void run_reduce(clatomics::Runtime& rt) {
  const auto x = small_floats(1000, 1);
  const double sum = std::accumulate(x.begin(), x.end(), 0.0);
  for (const bool deterministic : {false, true}) {
    clatomics::ReduceOptions o;
    o.deterministic = deterministic;
    expect(clatomics::reduce(rt, x, clatomics::ReduceOp::sum, o) == float(sum), "reduce sum");
    expect(clatomics::reduce(rt, x, clatomics::ReduceOp::min, o) == *std::min_element(x.begin(), x.end()), "reduce min");
    expect(clatomics::reduce(rt, x, clatomics::ReduceOp::max, o) == *std::max_element(x.begin(), x.end()), "reduce max");
  }
  std::vector<cl_int> ints(777);
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = cl_int(i % 13) - 6;
  expect(clatomics::reduce(rt, ints, clatomics::ReduceOp::sum) == std::accumulate(ints.begin(), ints.end(), 0), "reduce int sum");
  if (rt.supports_double()) {
    std::vector<double> d(x.begin(), x.end());
    expect(clatomics::reduce(rt, d, clatomics::ReduceOp::sum) == sum, "reduce double sum");
  }
}

void run_dot(clatomics::Runtime& rt) {
  const auto a = small_floats(1000, 2), b = small_floats(1000, 3);
  double want = 0;
  for (std::size_t i = 0; i < a.size(); ++i) want += double(a[i]) * double(b[i]);
  expect(clatomics::dot(rt, a, b) == float(want), "dot float");
}

void run_histogram(clatomics::Runtime& rt) {
  std::vector<std::uint8_t> bytes(2000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t((i * 7) % 256 < 128 ? i % 5 : (i * 13) % 256);
  std::vector<std::uint64_t> want(256, 0);
  for (auto b : bytes) ++want[b];
  for (auto s : {clatomics::HistogramStrategy::automatic, clatomics::HistogramStrategy::local_single,
                 clatomics::HistogramStrategy::global_atomics, clatomics::HistogramStrategy::private_per_item}) {
    clatomics::HistogramOptions o;
    o.strategy = s;
    expect(clatomics::histogram(rt, bytes, o) == want, "byte histogram, strategy " + std::to_string(int(s)));
  }
}

void run_histogram_even(clatomics::Runtime& rt) {
  const auto x = small_floats(1000, 4);
  std::vector<float> w(x.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = float(i % 3);
  const std::size_t nbins = 10;
  const float lo = -3.0f, hi = 3.0f;
  std::vector<std::uint64_t> counts(nbins, 0);
  std::vector<double> sums(nbins, 0);
  std::uint64_t below = 0, above = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < lo) ++below;
    else if (x[i] > hi) ++above;
    else {
      const std::size_t b = std::min<std::size_t>(nbins - 1, std::size_t((double(x[i]) - lo) / (hi - lo) * nbins));
      ++counts[b];
      sums[b] += w[i];
    }
  }
  for (auto s : {clatomics::HistogramStrategy::automatic, clatomics::HistogramStrategy::global_atomics,
                 clatomics::HistogramStrategy::local_single}) {
    clatomics::HistogramOptions o;
    o.strategy = s;
    const auto h = clatomics::histogram_even(rt, x, {nbins, lo, hi}, {w}, o);
    expect(h.counts == counts && h.below == below && h.above == above, "histogram_even counts, strategy " + std::to_string(int(s)));
    expect(h.sums.size() == 1, "histogram_even: one weight channel");
    for (std::size_t b = 0; b < nbins && !h.sums.empty(); ++b)
      expect(h.sums[0][b] == sums[b], "histogram_even weight of bin " + std::to_string(b));
  }
  // Four channels in __local copies (two phases of work-items, kernels/histogram/count.cl), float
  // sums and compensated pairs (copies of the global sums): channel c's weights are (c + 1) w.
  for (auto a : {clatomics::WeightAccumulation::float_atomic, clatomics::WeightAccumulation::compensated_float2}) {
    if (a == clatomics::WeightAccumulation::compensated_float2 && !rt.device_info().caps.int64_base_atomics) continue;
    std::vector<std::vector<float>> ws;
    for (int c = 0; c < 4; ++c) {
      ws.push_back(w);
      for (auto& v : ws.back()) v *= float(c + 1);
    }
    const auto h = clatomics::histogram_even(rt, x, {nbins, lo, hi}, {ws[0], ws[1], ws[2], ws[3]},
                                             {clatomics::HistogramStrategy::local_replicated, a});
    expect(h.counts == counts && h.sums.size() == 4, "histogram_even, 4 channels: counts");
    for (std::size_t c = 0; c < h.sums.size(); ++c)
      for (std::size_t b = 0; b < nbins; ++b)
        expect(h.sums[c][b] == double(c + 1) * sums[b], "histogram_even, 4 channels: weight of bin " + std::to_string(b));
  }
}

void run_histogram_keys(clatomics::Runtime& rt) {
  std::vector<cl_uint> keys(1500);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = cl_uint((i * 31) % 70);
  const std::size_t nbins = 64;
  std::vector<std::uint64_t> want(nbins, 0);
  std::uint64_t out = 0;
  for (auto k : keys) k < nbins ? ++want[k] : ++out;
  for (auto s : {clatomics::HistogramStrategy::automatic, clatomics::HistogramStrategy::global_atomics,
                 clatomics::HistogramStrategy::local_single}) {
    clatomics::HistogramOptions o;
    o.strategy = s;
    const auto h = clatomics::histogram_keys(rt, keys, nbins, o);
    expect(h.counts == want && h.out_of_range == out, "histogram_keys, strategy " + std::to_string(int(s)));
  }
}

void run_compact(clatomics::Runtime& rt) {
  const auto x = small_floats(1500, 5);
  std::vector<float> want;
  std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](float v) { return v > 0.5f; });
  for (const bool stable : {false, true}) {
    clatomics::CompactOptions o;
    o.stable = stable;
    auto got = clatomics::compact(rt, x, clatomics::where::x > 0.5f, o);
    if (!stable) std::sort(got.begin(), got.end());
    auto sorted = want;
    if (!stable) std::sort(sorted.begin(), sorted.end());
    expect(got == sorted, std::string("compact, stable ") + (stable ? "true" : "false"));
  }
}

void run_scatter(clatomics::Runtime& rt, clatomics::ScatterStrategy strategy) {
  const std::size_t n = 1200, bins = 40;
  std::vector<cl_uint> idx(n);
  // Hot bins (every other element on bins 0..3) so local_cache keeps some and spills others.
  for (std::size_t i = 0; i < n; ++i) idx[i] = cl_uint(i % 2 ? i % 4 : (i * 7) % bins);
  const auto v = small_floats(n, 6);
  for (auto op : {clatomics::ScatterOp::sum, clatomics::ScatterOp::min, clatomics::ScatterOp::max}) {
    std::vector<float> want(bins, 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      float& o = want[idx[i]];
      o = op == clatomics::ScatterOp::sum ? o + v[i] : op == clatomics::ScatterOp::min ? std::min(o, v[i]) : std::max(o, v[i]);
    }
    std::vector<float> out(bins, 1.0f);
    clatomics::ScatterOptions o;
    o.strategy = strategy;
    const auto r = clatomics::scatter_reduce(rt, out, idx, v, op, o);
    expect(r.strategy == strategy, std::string("scatter ran strategy ") + clatomics::strategy_name(r.strategy));
    expect(out == want, std::string("scatter_reduce op ") + std::to_string(int(op)) + ", " + clatomics::strategy_name(strategy));
  }
  if (rt.supports_double()) {  // the deterministic sum (128-bit fixed point) too
    std::vector<float> out(bins, 0.0f), want(bins, 0.0f);
    for (std::size_t i = 0; i < n; ++i) want[idx[i]] += v[i];
    clatomics::ScatterOptions o;
    o.strategy = strategy;
    o.deterministic = true;
    clatomics::scatter_reduce(rt, out, idx, v, clatomics::ScatterOp::sum, o);
    expect(out == want, std::string("deterministic scatter sum, ") + clatomics::strategy_name(strategy));
  }
}

void run_segment(clatomics::Runtime& rt) {
  const std::size_t n = 1000, segments = 30;
  const auto v = small_floats(n, 7);
  std::vector<cl_uint> offsets(segments + 1);
  for (std::size_t s = 0; s <= segments; ++s) offsets[s] = cl_uint(s * s * n / (segments * segments));
  for (auto op : {clatomics::ScatterOp::sum, clatomics::ScatterOp::max}) {
    std::vector<float> out(segments, 0.0f), want(segments, 0.0f);
    for (std::size_t s = 0; s < segments; ++s)
      for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) want[s] = op == clatomics::ScatterOp::sum ? want[s] + v[i] : std::max(want[s], v[i]);
    clatomics::segment_reduce(rt, out, offsets, v, op);
    expect(out == want, "segment_reduce op " + std::to_string(int(op)));
  }
}

void run_reduce_by_key(clatomics::Runtime& rt) {
  const std::size_t n = 1000;
  std::vector<cl_uint> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = cl_uint(i / 7 + (i % 50 == 0));  // runs of 7, broken now and then
  const auto v = small_floats(n, 8);
  std::vector<cl_uint> want_keys;
  std::vector<float> want_sums;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == 0 || keys[i] != keys[i - 1]) {
      want_keys.push_back(keys[i]);
      want_sums.push_back(0.0f);
    }
    want_sums.back() += v[i];
  }
  const auto got = clatomics::reduce_by_key(rt, keys, v, clatomics::ScatterOp::sum);
  expect(got.first == want_keys, "reduce_by_key keys");
  expect(got.second == want_sums, "reduce_by_key sums");
}

const std::map<std::string, std::function<void(clatomics::Runtime&)>>& families() {
  static const std::map<std::string, std::function<void(clatomics::Runtime&)>> all{
      {"ops_float", [](clatomics::Runtime& rt) { run_ops<float>(rt, "float", real_cases()); }},
      {"ops_double",
       [](clatomics::Runtime& rt) {
         if (!rt.supports_double()) {
           std::cout << "no fp64: double ops skipped\n";
           return;
         }
         auto cases = real_cases();
         if (!rt.device_info().caps.int64_extended_atomics)  // the bits min/max need atom_min/max
           cases.erase(std::remove_if(cases.begin(), cases.end(), [](const OpCase& c) { return c.name.rfind("bits_", 0) == 0; }),
                       cases.end());
         run_ops<double>(rt, "double", cases);
       }},
      {"ops_integer",
       [](clatomics::Runtime& rt) {
         run_ops<cl_uint>(rt, "uint", integer_cases());
         if (rt.device_info().caps.int64_base_atomics) run_ops<cl_long>(rt, "long", integer_cases());
         else std::cout << "no 64-bit atomics: long ops skipped\n";
       }},
      {"reduce", run_reduce},
      {"dot", run_dot},
      {"histogram", run_histogram},
      {"histogram_even", run_histogram_even},
      {"histogram_keys", run_histogram_keys},
      {"compact", run_compact},
      {"scatter_global", [](clatomics::Runtime& rt) { run_scatter(rt, clatomics::ScatterStrategy::global_atomics); }},
      {"scatter_local_private", [](clatomics::Runtime& rt) { run_scatter(rt, clatomics::ScatterStrategy::local_private); }},
      {"scatter_local_cache", [](clatomics::Runtime& rt) { run_scatter(rt, clatomics::ScatterStrategy::local_cache); }},
      {"segment", run_segment},
      {"reduce_by_key", run_reduce_by_key},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || !families().count(argv[1])) {
    std::cerr << "usage: oclgrind_driver FAMILY\nfamilies:";
    for (const auto& f : families()) std::cerr << " " << f.first;
    std::cerr << "\n";
    return 2;
  }
  try {
    clatomics::Runtime rt;
    std::cout << rt.device_info().caps.platform_name << " / " << rt.device_info().caps.device_name << " (" << rt.build_options() << ")\n";
    families().at(argv[1])(rt);
  } catch (const std::exception& e) {
    std::cerr << "oclgrind_driver " << argv[1] << ": " << e.what() << "\n";
    return 2;
  }
  std::cout << argv[1] << ": " << (failures ? "FAILED" : "PASS") << "\n";
  return failures ? 1 : 0;
}
