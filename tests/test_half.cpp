// half and bfloat16 (cl/clatomics/half.cl, bfloat16.cl): conversions against an independent
// host reference (nearest value by search, ties to the even pattern), single ops on exact
// rounding cases, every op under contention on one element, on both halves of one word and spread
// beside untouched neighbours (a NaN with a payload, -0.0 or a negative subnormal: bits that must
// survive a packed add of -0.0 and the CAS loop alike), on __global and __local,
// and the last element of an odd-length buffer (its padding bits must survive).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <random>

#include "sixteen_bits.hpp"
#include "support.hpp"

namespace {

using test::bf16_format;
using test::Format;
using test::half_format;

enum Op : cl_uint { op_add, op_sub, op_min, op_max, op_xchg, op_cmpxchg };
const char* op_names[] = {"add", "sub", "min", "max", "xchg", "cmpxchg"};

// Whether the format's global add path flushes subnormal operands and results to zero (the
// device's check says so: Intel's bfloat16 atomic add does, as NVIDIA's float atom.add does).
bool add_flushes(const Format& f) {
  for (const auto& p : test::runtime().device_info().variant_paths)
    if (p.family == "16-bit" && p.op == "add" && p.type == f.name && p.space == "global") return p.flushes_subnormals;
  return false;
}

cl::Program program() { return test::runtime().build(test::test_source("half_ops.cl")); }

template <class In, class Out>
std::vector<Out> convert(const char* kernel_name, const std::vector<In>& in) {
  auto& rt = test::runtime();
  cl::Kernel kernel(program(), kernel_name);
  cl::Buffer src = test::to_device(rt, in), dst(rt.context(), CL_MEM_READ_WRITE, in.size() * sizeof(Out));
  test::set_args(kernel, src, dst);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(in.size()), cl::NullRange);
  return test::to_host<Out>(rt, dst, in.size());
}

void check_conversions(const Format& f, const char* to_kernel, const char* from_kernel) {
  // every 16-bit pattern to float: exact; NaN keeps its sign and payload
  std::vector<cl_ushort> all(65536);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = cl_ushort(i);
  const auto as_float = convert<cl_ushort, float>(from_kernel, all);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto b = std::uint16_t(i);
    if (f.is_nan(b)) {
      const std::uint32_t fb = test::bits(as_float[i]);
      const std::uint32_t expect = f.inf == 0x7c00 ? (std::uint32_t(b & 0x8000) << 16) | 0x7f800000u | (std::uint32_t(b & 0x3ff) << 13)
                                                   : std::uint32_t(b) << 16;
      bad += fb != expect;
    } else {
      bad += test::bits(as_float[i]) != test::bits(float(f.value(b)));
    }
  }
  CHECK_MESSAGE(bad == 0, f.name, " -> float: ", bad, " patterns wrong");

  // floats to the format: the special cases, every tie around a few values, and random patterns
  std::vector<float> in = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, 65536.0f, 1e30f, -1e30f,
                           std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                           std::ldexp(1.0f, -24), std::ldexp(1.0f, -25), std::ldexp(1.5f, -25), std::ldexp(1.0f, -14),
                           std::ldexp(3.0f, -26), 3.3895314e38f, 3.4e38f};
  for (std::uint16_t b = 0; b < f.inf; b = std::uint16_t(b + 97)) {  // midpoints to the next value: ties
    const double mid = (f.ladder[b] + f.ladder[b + 1u]) / 2;
    if (mid < 3.4e38) in.push_back(float(mid)), in.push_back(-float(mid));
  }
  std::mt19937 gen(7);
  for (int k = 0; k < 200000; ++k) in.push_back(test::from_bits<float>(std::uint32_t(gen())));
  const auto out = convert<float, cl_ushort>(to_kernel, in);
  bad = 0;
  std::string first;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint16_t got = out[i];
    bool ok;
    if (std::isnan(in[i])) {
      const std::uint32_t fb = test::bits(in[i]);
      const std::uint16_t expect = f.inf == 0x7c00 ? std::uint16_t(((fb >> 16) & 0x8000) | 0x7e00 | ((fb & 0x7fffff) >> 13))
                                                   : std::uint16_t((fb >> 16) | 0x40);
      ok = got == expect;
    } else {
      ok = got == f.round(double(in[i]));
    }
    if (!ok && bad++ == 0)
      first = std::to_string(in[i]) + " (bits " + std::to_string(test::bits(in[i])) + ") -> " + std::to_string(got) +
              ", expected " + std::to_string(f.round(double(in[i])));
  }
  CHECK_MESSAGE(bad == 0, "float -> ", f.name, ": ", bad, " wrong, first: ", first);
}

// One launch of ops_<fmt>_<space>: the elements' final bits, the olds (float) and cmpxchg's bits.
struct Launch {
  bool local = false;
  std::size_t items = 0, group = 1, cells = 0;  // cells: global in all; local per group
  Op op = op_add;
  cl_ushort cmp = 0;
  std::vector<cl_ushort> mem, abits, oldbits;
  std::vector<float> a, olds;
  std::vector<cl_uint> cell;
};

void run(const Format& f, Launch& l) {
  auto& rt = test::runtime();
  const std::string name = std::string("ops_") + f.name + (l.local ? "_local" : "_global");
  cl::Kernel kernel(program(), name.c_str());
  std::vector<cl_ushort> padded(l.mem);
  if (padded.size() % 2) padded.push_back(0xbeef);  // allocation rounded up to whole words
  cl::Buffer mem = test::to_device(rt, padded), a = test::to_device(rt, l.a), abits = test::to_device(rt, l.abits);
  cl::Buffer cell = test::to_device(rt, l.cell), olds(rt.context(), CL_MEM_READ_WRITE, l.items * sizeof(float));
  cl::Buffer oldbits = test::to_device(rt, std::vector<cl_ushort>(l.items, 0));
  cl_uint arg = test::set_args(kernel, mem, olds, oldbits, a, abits, cell, l.op, l.cmp);
  if (l.local) {
    kernel.setArg(arg++, cl_uint(l.cells));
    kernel.setArg(arg++, cl::Local(l.cells * sizeof(cl_ushort)));
  }
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(l.items), cl::NDRange(l.group));
  l.olds = test::to_host<float>(rt, olds, l.items);
  l.oldbits = test::to_host<cl_ushort>(rt, oldbits, l.items);
  const auto back = test::to_host<cl_ushort>(rt, mem, padded.size());
  if (padded.size() > l.mem.size()) CHECK_MESSAGE(back.back() == 0xbeef, "padding past an odd-length buffer changed");
  l.mem.assign(back.begin(), back.begin() + std::ptrdiff_t(l.mem.size()));
}

// Which of two 16-bit values order.cl's min/max picks: the one whose value the host reference
// returns (distinct patterns have distinct values, but for ±0, which the reference orders).
std::uint16_t min_max_pick(const Format& f, std::uint16_t a, std::uint16_t b, bool is_min) {
  const double x = f.value(a), y = f.value(b);
  const double winner = is_min ? test::ref_min(x, y) : test::ref_max(x, y);
  return test::bits(winner) == test::bits(x) ? a : b;
}

// Single ops with one work-item per element, neighbours updated at the same time: every result
// must be the reference's correctly rounded one.
void check_exact_cases(const Format& f, bool local) {
  std::vector<std::pair<std::uint16_t, float>> cases;  // start bits, operand
  auto bits_of = [&](double v) { return f.round(v); };
  for (double start : {2048.0, 2050.0, 1.0, 256.0, 65504.0, 0.0, -0.0, 1024.0, 3.0, -2048.0})
    for (double v : {1.0, 3.0, 1.0 / 2048, 3.0 / 2048, 8.0, 16.0, -0.0, 0.0, -1.0, 0.5, 1.0 / 512, 3.0 / 512, 1e-7, 7e-8})
      cases.emplace_back(bits_of(start), float(v));
  cases.emplace_back(std::uint16_t(0x0001), std::ldexp(1.0f, -24));   // smallest subnormals
  cases.emplace_back(std::uint16_t(0x8000), -0.0f);
  cases.emplace_back(f.inf, -std::numeric_limits<float>::infinity());  // inf + -inf: NaN
  std::mt19937 gen(11);
  while (cases.size() < 4096) {
    std::uint16_t s = std::uint16_t(gen()), v = std::uint16_t(gen());
    if (f.is_nan(s) || f.is_nan(v)) continue;
    cases.emplace_back(s, float(f.value(v)));
    if (cases.size() % 4 == 0) cases.back().second = test::from_bits<float>(std::uint32_t(gen()) & 0xbfffffffu);  // not representable
  }
  const std::size_t group = test::group_size();
  const std::size_t items = cases.size();
  const bool flushes = !local && add_flushes(f);
  for (Op op : {op_add, op_sub, op_min, op_max, op_xchg, op_cmpxchg}) {
    Launch l;
    l.local = local, l.items = items, l.group = group, l.op = op;
    l.cells = local ? group : items;
    for (std::size_t i = 0; i < items; ++i) {
      l.mem.push_back(cases[i].first);
      l.a.push_back(cases[i].second);
      l.abits.push_back(f.round(double(cases[i].second)));
      l.cell.push_back(cl_uint(local ? i % group : i));
    }
    l.cmp = l.mem[0];
    run(f, l);
    std::size_t bad = 0;
    std::string first;
    for (std::size_t i = 0; i < items; ++i) {
      const std::uint16_t start = cases[i].first, v = f.round(double(cases[i].second));
      const double s = f.value(start), vv = f.value(v);
      std::uint16_t expect = start;
      switch (op) {
        case op_add: expect = f.round(s + vv); break;
        case op_sub: expect = f.round(s - vv); break;
        case op_min: expect = min_max_pick(f, start, v, true); break;
        case op_max: expect = min_max_pick(f, start, v, false); break;
        case op_xchg: expect = v; break;
        default: expect = start == l.cmp ? v : start;
      }
      const std::uint16_t got = l.mem[i];
      bool ok = std::isnan(f.value(expect)) ? f.is_nan(got) : got == expect;
      if (!ok && flushes && (op == op_add || op == op_sub)) {  // the sum of the flushed operands, flushed
        const double fs = f.value(f.flush(start)), fv = f.value(f.flush(v));
        ok = got == f.flush(f.round(op == op_add ? fs + fv : fs - fv));
      }
      const bool old_ok = test::bits(l.olds[i]) == test::bits(float(f.value(start))) || (f.is_nan(start) && std::isnan(l.olds[i]));
      if ((!ok || !old_ok) && bad++ == 0)
        first = std::to_string(s) + " " + op_names[op] + " " + std::to_string(cases[i].second) + " gave bits " +
                std::to_string(got) + ", expected " + std::to_string(expect) + (old_ok ? "" : " (wrong old)");
    }
    CHECK_MESSAGE(bad == 0, f.name, " ", op_names[op], local ? " local" : " global", ": ", bad, " wrong; first: ", first);
  }
}

// Contention on one element, on both halves of one word, and spread over even elements beside
// untouched odd ones; optionally the last element of an odd-length buffer.
enum class Where { one, both_halves, spread, odd_last };
const char* where_name(Where w) {
  return w == Where::one ? "one element" : w == Where::both_halves ? "both halves of a word" : w == Where::spread ? "spread" : "last of an odd-length buffer";
}

void check_contention(const Format& f, Op op, bool local, Where where) {
  const std::size_t group = test::group_size();
  const std::size_t per_cell_max = std::min<std::size_t>(f.exact_ints, local ? group : 2048);
  Launch l;
  l.local = local, l.group = group, l.op = op;
  std::size_t used = 1;  // elements updated
  switch (where) {
    case Where::one: l.items = local ? group : per_cell_max, l.cells = 2, used = 1; break;
    case Where::both_halves: l.items = local ? group : 2 * per_cell_max, l.cells = 2, used = 2; break;
    case Where::spread: l.items = local ? group : 2048, l.cells = local ? group / 4 : 2048 / 4, used = l.cells / 2; break;
    case Where::odd_last: l.items = per_cell_max, l.cells = 2 * 37 + 1, used = 1; break;
  }
  l.items = std::max(group, l.items / group * group);
  const std::size_t groups = l.items / group, total_cells = local ? groups * l.cells : l.cells;
  auto element_of = [&](std::size_t i) -> std::size_t {  // within the group's cells for local
    switch (where) {
      case Where::one: return 0;
      case Where::both_halves: return i % 2;
      case Where::spread: return 2 * (i % used);
      default: return l.cells - 1;
    }
  };
  std::vector<std::vector<std::size_t>> by_cell(total_cells);
  for (std::size_t i = 0; i < l.items; ++i) {
    const std::size_t e = element_of(i);
    l.cell.push_back(cl_uint(e));
    by_cell[e + (local ? (i / group) * l.cells : 0)].push_back(i);
  }
  std::mt19937 gen(unsigned(op) * 31u + unsigned(where));
  const int range = int(std::min<std::size_t>(f.exact_ints, 200)) / 2;
  for (std::size_t i = 0; i < l.items; ++i) {
    float v = 1.0f;
    if (op == op_min || op == op_max) v = float(int(gen() % unsigned(2 * range + 1)) - range);
    if (op == op_xchg || op == op_cmpxchg) v = float(1 + i % (f.exact_ints - 1));
    l.a.push_back(v);
    l.abits.push_back(f.round(v));
  }
  const std::uint16_t sentinels[3] = {f.nan_sentinel, 0x8000u, 0x8001u};  // cell 1 (beside "one"): -0.0
  for (std::size_t c = 0; c < total_cells; ++c) l.mem.push_back(sentinels[c % 3]);
  for (std::size_t c = 0; c < total_cells; ++c) {
    if (by_cell[c].empty()) continue;
    double start = 0;
    if (op == op_sub) start = double(by_cell[c].size());
    if (op == op_min || op == op_max) start = 0.5;
    l.mem[c] = f.round(start);
  }
  const std::vector<cl_ushort> before(l.mem);
  l.cmp = f.round(op == op_min || op == op_max ? 0.5 : 0.0);
  run(f, l);

  std::size_t bad = 0, touched = 0;
  std::string first;
  for (std::size_t c = 0; c < total_cells; ++c) {
    const auto& items = by_cell[c];
    std::string why;
    if (items.empty()) {
      if (l.mem[c] != before[c]) why = "an untouched neighbour changed from " + std::to_string(before[c]) + " to " + std::to_string(l.mem[c]);
    } else {
      ++touched;
      const double start = f.value(before[c]), fin = f.value(l.mem[c]);
      std::vector<double> olds;
      for (auto i : items) olds.push_back(double(l.olds[i]));
      std::sort(olds.begin(), olds.end());
      const std::size_t n = items.size();
      switch (op) {
        case op_add:
        case op_sub: {  // serial order visits start, start +- 1, ...: consecutive integers
          bool ok = fin == (op == op_add ? double(n) : 0.0);
          for (std::size_t k = 0; k < n; ++k) ok = ok && olds[k] == double(op == op_add ? k : k + 1);
          if (!ok) why = "olds are not exactly the integers of a serial order";
          break;
        }
        case op_min:
        case op_max: {  // a serial order: sorted by old from the start, each value lowered at most once
          const bool is_min = op == op_min;
          std::vector<std::size_t> order(items);
          std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            return is_min ? l.olds[x] > l.olds[y] : l.olds[x] < l.olds[y];
          });
          double current = start;
          for (std::size_t k = 0; k < order.size() && why.empty();) {
            const double seen = l.olds[order[k]];
            if (seen != current) why = "old " + std::to_string(seen) + " where a serial order has " + std::to_string(current);
            std::size_t changers = 0;
            double next = current;
            for (; k < order.size() && double(l.olds[order[k]]) == seen; ++k) {
              const double a = l.a[order[k]];
              if (is_min ? a < current : a > current) ++changers, next = a;
            }
            if (changers > 1) why = "several items changed one value";
            current = next;
          }
          if (why.empty() && fin != current) why = "final value " + std::to_string(fin) + ", expected " + std::to_string(current);
          break;
        }
        case op_xchg: {  // an exchange chain: the olds and the final value are the start and all operands
          std::vector<double> all{start}, seen(olds);
          for (auto i : items) all.push_back(double(l.a[i]));
          seen.push_back(fin);
          std::sort(all.begin(), all.end());
          std::sort(seen.begin(), seen.end());
          if (all != seen) why = "exchange chain broken";
          break;
        }
        default: {  // exactly one compare succeeds; everyone else sees the winner
          std::size_t winners = 0, losers = 0;
          for (auto i : items) winners += l.oldbits[i] == l.cmp, losers += l.oldbits[i] == l.mem[c];
          bool offered = false;
          for (auto i : items) offered = offered || l.abits[i] == l.mem[c];
          if (winners != 1 || losers != n - 1 || !offered) why = "not exactly one successful compare-exchange";
        }
      }
    }
    if (!why.empty() && bad++ == 0) first = "element " + std::to_string(c) + ": " + why;
  }
  INFO(f.name, " ", op_names[op], local ? " local, " : " global, ", where_name(where), ", ", l.items, " items");
  INFO(first);
  CHECK(touched > 0);
  CHECK(bad == 0);
}

void log_paths() {
  static bool done = false;
  if (done) return;
  done = true;
  const auto v = test::run_probe(program(), "half_probe", 2);
  auto name = [](int p) { return p == 2 ? "ptx packed add" : p == 1 ? "Intel's bfloat16 atomic add" : "cas on the word"; };
  std::cerr << "[half] " << test::runtime().device_info().caps.device_name << ": half global add " << name(v[0]) << ", bf16 global add "
            << name(v[1]) << "; local and min/max/xchg/cmpxchg: cas on the word\n";
}

}  // namespace

TEST_CASE("half conversions round to nearest even") {
  log_paths();
  check_conversions(half_format(), "to_half", "from_half");
}

TEST_CASE("bfloat16 conversions round to nearest even") { check_conversions(bf16_format(), "to_bf16", "from_bf16"); }

TEST_CASE("half and bfloat16 ops round exactly, neighbours updated at once") {
  for (const Format* f : {&half_format(), &bf16_format()})
    for (bool local : {false, true}) check_exact_cases(*f, local);
}

TEST_CASE("half and bfloat16 ops under contention keep the neighbours' bits") {
  log_paths();
  for (const Format* f : {&half_format(), &bf16_format()})
    for (Op op : {op_add, op_sub, op_min, op_max, op_xchg, op_cmpxchg})
      for (bool local : {false, true})
        for (Where w : {Where::one, Where::both_halves, Where::spread, Where::odd_last})
          if (!(local && w == Where::odd_last)) check_contention(*f, op, local, w);
}
