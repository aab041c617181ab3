// The aggregated ops (cl/clatomics/aggregate.cl): every op on __global and __local memory, with
// one address for all, spread addresses, blocks of neighbours, random addresses, and (where the
// path allows divergent calls) only some work-items active. Each cell's returned old values and
// final value must be exactly those of some one-by-one order of its operations: the checks
// rebuild that order from the olds. Which aggregation path ran is logged.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <sstream>

#include "real_ops.hpp"

namespace {

using namespace real_ops;  // the ops, numbered as agg_ops.cl numbers its read-modify-writes

constexpr std::size_t n_items = 8192;
constexpr int path_warp = 5, path_subgroup = 6;  // config.cl's CLAT_PATH_WARP, _SUBGROUP

using test::mix;

cl::Program agg_program() { return test::runtime().build(test::test_source("agg_ops.cl")); }

struct Probe {
  int path = 0, width = 1;
};
const Probe& probe() {
  static const Probe p = [] {
    const auto v = test::run_probe(agg_program(), "agg_probe", 2);
    return Probe{v[0], v[1]};
  }();
  return p;
}
const char* path_label(int path) {
  return path == path_warp ? "warp (NVIDIA PTX)" : path == path_subgroup ? "sub-group" : "plain (no aggregation)";
}
// Divergent calls are allowed on every path but the sub-group one.
bool divergence_allowed() { return probe().path != path_subgroup; }

// Where each work-item goes: cell index (global: of all cells; local: within its group's cells).
struct Layout {
  const char* name;
  std::size_t cells;  // global: in all; local: per work-group
  std::function<std::size_t(std::size_t item, std::size_t lid)> cell;
};
std::vector<Layout> layouts(bool local) {
  const std::size_t g = test::group_size();
  if (!local)
    return {{"one address", 1, [](std::size_t, std::size_t) { return std::size_t(0); }},
            {"spread", n_items / 4, [](std::size_t i, std::size_t) { return i % (n_items / 4); }},
            {"blocks of 8", 128, [](std::size_t i, std::size_t) { return (i / 8) % 128; }},
            {"random of 5", 5, [](std::size_t i, std::size_t) { return std::size_t(mix(std::uint32_t(i)) % 5); }},
            {"random of 256", 256, [](std::size_t i, std::size_t) { return std::size_t(mix(std::uint32_t(i)) % 256); }}};
  return {{"one address", 1, [](std::size_t, std::size_t) { return std::size_t(0); }},
          {"spread", std::max<std::size_t>(1, g / 4), [g](std::size_t, std::size_t l) { return l % std::max<std::size_t>(1, g / 4); }},
          {"blocks of 8", (g + 7) / 8, [](std::size_t, std::size_t l) { return l / 8; }},
          {"random of 5", 5, [](std::size_t i, std::size_t) { return std::size_t(mix(std::uint32_t(i)) % 5); }},
          {"random of 32", 32, [](std::size_t i, std::size_t) { return std::size_t(mix(std::uint32_t(i)) % 32); }}};
}

template <class T>
struct Run {
  std::vector<T> init, a, b, olds, final_values;
  std::vector<std::size_t> global_cell;  // each item's cell in init/final_values
  std::vector<cl_uchar> active;
};

template <class T>
void launch(Run<T>& r, Op op, bool local, const Layout& layout, bool some) {
  auto& rt = test::runtime();
  const std::size_t g = test::group_size();
  std::vector<cl_uint> cell(n_items);
  for (std::size_t i = 0; i < n_items; ++i) cell[i] = cl_uint(layout.cell(i, i % g));
  const std::string name = std::string("agg_") + test::cl_type_name<T>() + (local ? "_local" : "_global") + (some ? "_some" : "");
  cl::Kernel kernel(agg_program(), name.c_str());
  cl::Buffer mem = test::to_device(rt, r.init), a = test::to_device(rt, r.a), b = test::to_device(rt, r.b);
  cl::Buffer cells = test::to_device(rt, cell), olds = test::to_device(rt, std::vector<T>(n_items, T(0)));
  cl::Buffer active = test::to_device(rt, r.active);
  cl_uint arg = test::set_args(kernel, mem, olds, a, b, cells, cl_uint(op));
  if (local) {
    kernel.setArg(arg++, cl_uint(layout.cells));
    kernel.setArg(arg++, cl::Local(layout.cells * sizeof(T)));
  }
  if (some) kernel.setArg(arg++, active);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n_items), cl::NDRange(g));
  r.olds = test::to_host<T>(rt, olds, n_items);
  r.final_values = test::to_host<T>(rt, mem, r.init.size());
}

// Serial-order checks. Each returns an empty string when the olds and the final value of one
// cell are exactly those of some one-by-one order of its items, else what is wrong.

// add/sub/mul/div/mad whose every step moves the value strictly one way: the order is the order
// of the olds (key), each next old is step(old, operand), and the final value follows the last.
template <class T, class Key, class Step>
std::string check_chain(const Run<T>& r, const std::vector<std::size_t>& items, std::size_t c, Key key, Step step) {
  std::vector<std::size_t> order(items);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key(r.olds[x]) < key(r.olds[y]); });
  T expect = r.init[c];
  for (auto i : order) {
    if (test::bits(r.olds[i]) != test::bits(expect))
      return "item " + std::to_string(i) + " got old " + std::to_string(r.olds[i]) + ", a serial order gives " + std::to_string(expect);
    expect = step(expect, i);
  }
  if (test::bits(r.final_values[c]) != test::bits(expect))
    return "final " + std::to_string(r.final_values[c]) + ", expected " + std::to_string(expect);
  return {};
}

// min (max: mirrored): sorted by old from the start value down, every old must be the running
// minimum; of the items seeing one value at most one lowers it (and runs last among them).
template <class T>
std::string check_minmax(const Run<T>& r, const std::vector<std::size_t>& items, std::size_t c, bool is_min) {
  auto better = [&](T x, T y) { return is_min ? x < y : x > y; };  // x wins over y
  std::vector<std::size_t> order(items);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return better(r.olds[y], r.olds[x]); });
  T current = r.init[c];
  for (std::size_t k = 0; k < order.size();) {
    const T seen = r.olds[order[k]];
    if (seen != current) return "old " + std::to_string(seen) + " where a serial order has " + std::to_string(current);
    std::size_t changers = 0;
    T next = current;
    for (; k < order.size() && r.olds[order[k]] == seen; ++k)
      if (better(r.a[order[k]], current)) ++changers, next = r.a[order[k]];
    if (changers > 1) return std::to_string(changers) + " items changed the value " + std::to_string(seen);
    current = next;
  }
  if (r.final_values[c] != current) return "final " + std::to_string(r.final_values[c]) + ", expected " + std::to_string(current);
  return {};
}

// a = -1 (mul/div with too many items for powers of two): the values alternate 1, -1, ...
template <class T>
std::string check_flip(const Run<T>& r, const std::vector<std::size_t>& items, std::size_t c) {
  std::size_t plus = 0, minus = 0;
  for (auto i : items) plus += r.olds[i] == T(1), minus += r.olds[i] == T(-1);
  const std::size_t n = items.size();
  if (plus != (n + 1) / 2 || minus != n / 2) return "olds are not alternately 1 and -1";
  if (r.final_values[c] != (n % 2 ? T(-1) : T(1))) return "wrong final value";
  return {};
}

template <class T>
void check_op(Op op, bool local, const Layout& layout, bool some) {
  const std::size_t g = test::group_size(), groups = n_items / g;
  Run<T> r;
  r.active.assign(n_items, 1);
  if (some)
    for (std::size_t i = 0; i < n_items; ++i) r.active[i] = mix(std::uint32_t(i) * 7u + 1u) % 3 != 0;
  r.global_cell.resize(n_items);
  const std::size_t ncells = local ? groups * layout.cells : layout.cells;
  for (std::size_t i = 0; i < n_items; ++i)
    r.global_cell[i] = layout.cell(i, i % g) + (local ? (i / g) * layout.cells : 0);
  std::vector<std::vector<std::size_t>> by_cell(ncells);
  for (std::size_t i = 0; i < n_items; ++i)
    if (r.active[i]) by_cell[r.global_cell[i]].push_back(i);
  std::size_t most = 0;
  for (const auto& items : by_cell) most = std::max(most, items.size());

  constexpr bool is_float = std::is_floating_point<T>::value;
  // powers of two stay exact while the exponent fits: else multiply/divide by -1
  const bool flip = (op == op_mul || op == op_div) && most > (sizeof(T) == 4 ? 100u : 1000u);
  r.a.resize(n_items);
  r.b.assign(n_items, T(0));
  for (std::size_t i = 0; i < n_items; ++i) {
    const std::uint32_t h = mix(std::uint32_t(i) + 12345u);
    switch (op) {
      case op_add:
      case op_sub: r.a[i] = is_float ? T(1 + h % 3) : T(1 + h % 1000); break;
      case op_mul:
      case op_div: r.a[i] = flip ? T(-1) : T(2); break;
      case op_mad: r.a[i] = T(2), r.b[i] = T(0.5 * double(1 + h % 3)); break;
      default: r.a[i] = std::is_signed<T>::value ? T(int(h % 2001) - 1000) : T(h % 2001);
    }
  }
  r.init.assign(ncells, T(0));
  for (std::size_t c = 0; c < ncells; ++c) {
    double total = 0;
    for (auto i : by_cell[c]) total += double(r.a[i]);
    switch (op) {
      case op_add: r.init[c] = is_float ? T(0) : T(std::numeric_limits<T>::max() - T(5000)); break;  // ints wrap
      case op_sub: r.init[c] = is_float ? T(total) : T(7); break;
      case op_mul: r.init[c] = T(1); break;
      case op_div: r.init[c] = flip ? T(1) : T(std::ldexp(1.0, int(by_cell[c].size()))); break;
      case op_mad: r.init[c] = T(0); break;
      default: r.init[c] = std::is_signed<T>::value ? T(5) : T(1000);
    }
  }
  launch(r, op, local, layout, some);

  std::size_t bad = 0;
  std::string first;
  for (std::size_t c = 0; c < ncells; ++c) {
    const auto& items = by_cell[c];
    std::string why;
    if (op == op_min || op == op_max) {
      why = check_minmax(r, items, c, op == op_min);
    } else if (flip) {
      why = check_flip(r, items, c);
    } else if constexpr (is_float) {
      switch (op) {
        case op_add:
          why = check_chain(r, items, c, [](T x) { return x; }, [&](T x, std::size_t i) { return x + r.a[i]; });
          break;
        case op_sub:
          why = check_chain(r, items, c, [](T x) { return -x; }, [&](T x, std::size_t i) { return x - r.a[i]; });
          break;
        case op_mul:
          why = check_chain(r, items, c, [](T x) { return x; }, [&](T x, std::size_t i) { return x * r.a[i]; });
          break;
        case op_div:
          why = check_chain(r, items, c, [](T x) { return -x; }, [&](T x, std::size_t i) { return x / r.a[i]; });
          break;
        default:
          why = check_chain(r, items, c, [](T x) { return x; },
                            [&](T x, std::size_t i) { return T(std::fma(double(r.a[i]), double(r.b[i]), double(x))); });
      }
    } else {  // integer add wraps: order by distance from the start, modulo 2^32
      const cl_uint start = cl_uint(r.init[c]);
      why = check_chain(r, items, c, [start](T x) { return cl_uint(x) - start; },
                        [&](T x, std::size_t i) { return T(cl_uint(x) + cl_uint(r.a[i])); });
    }
    if (!why.empty() && bad++ == 0) first = "cell " + std::to_string(c) + " (" + std::to_string(items.size()) + " items): " + why;
  }
  INFO(op_names[op], " ", test::cl_type_name<T>(), local ? " local, " : " global, ", layout.name, some ? ", some items active" : "",
       flip ? " (operand -1)" : "");
  INFO(first);
  CHECK(bad == 0);
}

template <class T>
void check_all(Op op) {
  if (test::skip_without_double<T>()) return;
  for (bool local : {false, true})
    for (const auto& layout : layouts(local)) {
      check_op<T>(op, local, layout, false);
      if (divergence_allowed()) check_op<T>(op, local, layout, true);
    }
}

}  // namespace

TEST_CASE("aggregation path") {
  const auto& p = probe();
  std::ostringstream line;
  line << "aggregated ops on " << test::runtime().device_info().caps.device_name << ": " << path_label(p.path)
       << ", width " << p.width;
  if (!divergence_allowed()) line << "; divergent calls not tested (the sub-group path must be called convergently)";
  MESSAGE(line.str());
  std::cerr << "[aggregate] " << line.str() << "\n";
  CHECK((p.path == path_warp || p.path == path_subgroup || p.path == 7));
  if (test::runtime().options().force_cas) CHECK(p.path == 7);
}

#define AGG_REAL_TEST(OP) \
  TEST_CASE_TEMPLATE("aggregated " #OP, T, float, double) { check_all<T>(op_##OP); }
#define AGG_ALL_TEST(OP) \
  TEST_CASE_TEMPLATE("aggregated " #OP, T, float, double, cl_int, cl_uint) { check_all<T>(op_##OP); }

// Every op of clatomics/ops.def: those with a native family exist for integers too.
#define AGG_TEST_add(OP) AGG_ALL_TEST(OP)
#define AGG_TEST_minmax(OP) AGG_ALL_TEST(OP)
#define AGG_TEST_none(OP) AGG_REAL_TEST(OP)
#define AGG_TEST_ROW(T, A, B, C, D, OP, OPERANDS, NEW, NATIVE, ...) AGG_TEST_##NATIVE(OP)
#define AGG_TEST_VIA(T, A, B, C, D, OP, ...) AGG_REAL_TEST(OP)
CLAT_REAL_OPS(AGG_TEST_ROW, AGG_TEST_VIA, , , , , )
