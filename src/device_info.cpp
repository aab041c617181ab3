// Trust, then verify: which native paths a device gets, and the build options that follow.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "clatomics/capabilities.hpp"
#include "clatomics/error.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/source.hpp"
#include "launch.hpp"

namespace clatomics {
namespace {

// The slots whose path config.cl chooses, in the order clat_probe_paths reports them.
struct Slot {
  const char* name;    // also the check kernel's name after "check_" (agg: several kernels)
  const char* macro;   // CLAT_NO_<PATH>_<macro> disables its native path
  const char* op;      // "add" (add and sub), "minmax", "agg" (aggregation), "add16", "noret"
  const char* type;
  const char* space;
};
constexpr Slot slots[] = {
    {"add_float_global", "ADD_FLOAT_GLOBAL", "add", "float", "global"},
    {"add_float_local", "ADD_FLOAT_LOCAL", "add", "float", "local"},
    {"add_double_global", "ADD_DOUBLE_GLOBAL", "add", "double", "global"},
    {"add_double_local", "ADD_DOUBLE_LOCAL", "add", "double", "local"},
    {"minmax_float_global", "MINMAX_FLOAT_GLOBAL", "minmax", "float", "global"},
    {"minmax_float_local", "MINMAX_FLOAT_LOCAL", "minmax", "float", "local"},
    {"minmax_double_global", "MINMAX_DOUBLE_GLOBAL", "minmax", "double", "global"},
    {"minmax_double_local", "MINMAX_DOUBLE_LOCAL", "minmax", "double", "local"},
    {"agg", "AGG", "agg", "all", "all"},
    {"add_half_global", "ADD_HALF_GLOBAL", "add16", "half", "global"},
    {"add_bf16_global", "ADD_BF16_GLOBAL", "add16", "bf16", "global"},
    {"noret_add_float_global", "RED_FLOAT_GLOBAL", "noret", "float", "global"},
    {"noret_add_double_global", "RED_DOUBLE_GLOBAL", "noret", "double", "global"},
};

bool is(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

// The native paths a slot's check covers (those config.cl can choose for it). A no-return add
// off PTX red takes the returning add's path, which that slot's own check covers.
std::vector<Path> native_paths(const Slot& slot) {
  if (is(slot.op, "add")) return {Path::ptx, Path::ext};
  if (is(slot.op, "minmax")) return {Path::bits};
  if (is(slot.op, "agg")) return {Path::warp, Path::subgroup};
  return {Path::ptx};  // add16, noret
}
bool owns(const Slot& slot, int code) {
  for (const Path p : native_paths(slot))
    if (code == int(p)) return true;
  return false;
}
// The code a slot falls back to when its native path is off.
int fallback_code(const Slot& slot) { return is(slot.op, "agg") ? int(Path::plain) : int(Path::cas); }
std::string disable_macro(const Slot& slot, Path path) {
  std::string name = path_name(path);
  for (auto& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
  return " -DCLAT_NO_" + name + "_" + slot.macro;
}
constexpr std::size_t slot_count = sizeof(slots) / sizeof(slots[0]);

template <class T>
T negative_nan() {
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t bits = 0xffc00000u;
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  } else {
    const std::uint64_t bits = 0xfff8000000000000ull;
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Runs check_add_<type>_<space>: n adds of 1 to one cell; olds must be exactly 0..n-1.
template <class T>
std::string check_add(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                      const Slot& slot, std::size_t group) {
  const bool local = std::strcmp(slot.space, "local") == 0;
  const std::size_t n = local ? group : 4 * group;
  std::vector<T> cell(n / group, T(0)), olds(n, T(-1));
  cl::Buffer cell_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cell.size() * sizeof(T), cell.data());
  cl::Buffer olds_buf(context, CL_MEM_READ_WRITE, n * sizeof(T));
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, cell_buf);
  kernel.setArg(1, olds_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
  queue.enqueueReadBuffer(cell_buf, CL_TRUE, 0, cell.size() * sizeof(T), cell.data());
  queue.enqueueReadBuffer(olds_buf, CL_TRUE, 0, n * sizeof(T), olds.data());
  if (cell[0] != T(local ? group : n))
    return "sum " + std::to_string(double(cell[0])) + ", expected " + std::to_string(local ? group : n);
  std::sort(olds.begin(), olds.end());
  for (std::size_t i = 0; i < n; ++i)
    if (olds[i] != T(i)) return "returned old values are not exactly 0..n-1";
  return {};
}

// Runs check_minmax_<type>_<space>: min/max from NaN starts of a known set, and of +-0.
template <class T>
std::string check_minmax(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                         const Slot& slot, std::size_t group) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> vals = {T(3), T(-0.0), T(0), nan, T(-2.5), T(7.25), T(1.5), T(-1), T(0.5), T(-7), T(2), negative_nan<T>()};
  std::vector<T> cells = {negative_nan<T>(), nan, nan, negative_nan<T>(), T(0), T(-0.0)};
  const std::vector<T> expected = {T(-7), T(7.25), T(-7), T(7.25), T(-0.0), T(0)};
  cl::Buffer cells_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells.size() * sizeof(T), cells.data());
  cl::Buffer vals_buf(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, vals.size() * sizeof(T),
                      const_cast<T*>(vals.data()));
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, cells_buf);
  kernel.setArg(1, vals_buf);
  kernel.setArg(2, cl_uint(vals.size()));
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(group), cl::NDRange(group));
  queue.enqueueReadBuffer(cells_buf, CL_TRUE, 0, cells.size() * sizeof(T), cells.data());
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (!same_bits(cells[i], expected[i]))
      return "cell " + std::to_string(i) + " holds " + std::to_string(double(cells[i])) + ", expected " +
             std::to_string(double(expected[i]));
  return {};
}

// Mirrors clat_check_cell in native_checks.cl: item i % 128 -> one of 54 cells.
constexpr std::size_t agg_cells = 54, agg_items = 128;
std::size_t agg_cell(std::size_t i) {
  const std::size_t w = (i >> 5) & 3u, l = i & 31u;
  return w == 0 ? 0 : w == 1 ? 1 + l : w == 2 ? 33 + (l & 3u) : l == 0 ? 37 : 38 + (l >> 1);
}

// The olds of one cell's members, sorted, must be exactly expected(0), expected(1), ...
template <class T, class F>
std::string exact_olds(std::vector<T> olds, const char* what, std::size_t cell, F expected) {
  std::sort(olds.begin(), olds.end());
  for (std::size_t k = 0; k < olds.size(); ++k)
    if (!same_bits(olds[k], expected(k)))
      return std::string(what) + ": cell " + std::to_string(cell) + " returned " + std::to_string(double(olds[k])) +
             " where " + std::to_string(double(expected(k))) + " was due";
  return {};
}

template <class T>
std::string check_agg_add(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                          const char* kernel_name, std::size_t group, bool local) {
  const std::size_t groups = agg_items / group, ncells = local ? agg_cells * groups : agg_cells;
  std::vector<T> cells(ncells, T(0)), olds(agg_items, T(-1));
  cl::Buffer cells_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ncells * sizeof(T), cells.data());
  cl::Buffer olds_buf(context, CL_MEM_READ_WRITE, agg_items * sizeof(T));
  cl::Kernel kernel(program, kernel_name);
  kernel.setArg(0, cells_buf);
  kernel.setArg(1, olds_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(agg_items), cl::NDRange(group));
  queue.enqueueReadBuffer(cells_buf, CL_TRUE, 0, ncells * sizeof(T), cells.data());
  queue.enqueueReadBuffer(olds_buf, CL_TRUE, 0, agg_items * sizeof(T), olds.data());
  std::vector<std::vector<T>> members(ncells);
  for (std::size_t i = 0; i < agg_items; ++i)
    members[local ? (i / group) * agg_cells + agg_cell(i % group + ((i / group) & 1u) * 64) : agg_cell(i)].push_back(olds[i]);
  for (std::size_t c = 0; c < ncells; ++c) {
    if (cells[c] != T(members[c].size()))
      return std::string(kernel_name) + ": cell " + std::to_string(c) + " sums to " + std::to_string(double(cells[c])) +
             ", expected " + std::to_string(members[c].size());
    const std::string why = exact_olds(members[c], kernel_name, c, [](std::size_t k) { return T(k); });
    if (!why.empty()) return why;
  }
  return {};
}

// Aggregated add, mul, div and max on float, uint add on __local, double add where present.
std::string check_agg(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                      std::size_t group, bool doubles) {
  const std::size_t g = detail::floor_pow2(std::min<std::size_t>(64, group));  // divides 128; <= 64 for the local cells
  const std::size_t n = agg_items, c4 = agg_cells;
  std::vector<float> cells(4 * c4), olds(3 * n, -1.0f), vals(n);
  for (std::size_t c = 0; c < c4; ++c)
    cells[c] = 0.0f, cells[c4 + c] = 1.0f, cells[2 * c4 + c] = 0x1p40f,
    cells[3 * c4 + c] = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t i = 0; i < n; ++i) vals[i] = float(int(i * 37 % 128) - 64) / 4.0f;  // distinct
  cl::Buffer cells_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells.size() * sizeof(float), cells.data());
  cl::Buffer olds_buf(context, CL_MEM_READ_WRITE, olds.size() * sizeof(float));
  cl::Buffer vals_buf(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), vals.data());
  cl::Kernel kernel(program, "check_agg_float");
  kernel.setArg(0, cells_buf);
  kernel.setArg(1, olds_buf);
  kernel.setArg(2, vals_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(g));
  queue.enqueueReadBuffer(cells_buf, CL_TRUE, 0, cells.size() * sizeof(float), cells.data());
  queue.enqueueReadBuffer(olds_buf, CL_TRUE, 0, olds.size() * sizeof(float), olds.data());
  for (std::size_t c = 0; c < c4; ++c) {
    std::vector<float> add, mul, div;
    float max = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i)
      if (agg_cell(i) == c) add.push_back(olds[i]), mul.push_back(olds[n + i]), div.push_back(olds[2 * n + i]), max = std::max(max, vals[i]);
    const auto m = int(add.size());
    const std::string cell = " in cell " + std::to_string(c);
    if (cells[c] != float(m)) return "agg add: sum " + std::to_string(cells[c]) + cell + ", expected " + std::to_string(m);
    if (cells[c4 + c] != std::ldexp(1.0f, m)) return "agg mul: product " + std::to_string(cells[c4 + c]) + cell;
    if (cells[2 * c4 + c] != std::ldexp(1.0f, 40 - m)) return "agg div: quotient " + std::to_string(cells[2 * c4 + c]) + cell;
    if (!same_bits(cells[3 * c4 + c], max)) return "agg max: " + std::to_string(cells[3 * c4 + c]) + cell;
    std::string why = exact_olds(add, "agg add", c, [](std::size_t k) { return float(k); });
    if (why.empty()) why = exact_olds(mul, "agg mul", c, [](std::size_t k) { return std::ldexp(1.0f, int(k)); });
    if (why.empty()) why = exact_olds(div, "agg div", c, [m](std::size_t k) { return std::ldexp(1.0f, 41 - m + int(k)); });
    if (!why.empty()) return why;
  }
  std::string why = check_agg_add<cl_uint>(context, queue, program, "check_agg_local", g, true);
  if (why.empty() && doubles) why = check_agg_add<double>(context, queue, program, "check_agg_double", g, false);
  return why;
}

// Packed half/bf16 add: exact sums and olds, both halves of a word contended, neighbours' bits kept.
std::string check_add16(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                        const Slot& slot, std::size_t group) {
  const bool half = is(slot.type, "half");
  const std::uint16_t nan = half ? 0x7d01u : 0x7f81u, sixty_four = half ? 0x5400u : 0x4280u;
  std::vector<std::uint16_t> h = {0, 0, 0x8000u, 0, 0, nan, 0x8001u, 0};
  const std::vector<std::uint16_t> start = h;
  const std::size_t g = detail::floor_pow2(std::min<std::size_t>(64, group));
  const std::size_t n = 64;
  std::vector<float> olds(2 * n, -1.0f);
  cl::Buffer h_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.size() * 2, h.data());
  cl::Buffer olds_buf(context, CL_MEM_READ_WRITE, olds.size() * sizeof(float));
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, h_buf);
  kernel.setArg(1, olds_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(g));
  queue.enqueueReadBuffer(h_buf, CL_TRUE, 0, h.size() * 2, h.data());
  queue.enqueueReadBuffer(olds_buf, CL_TRUE, 0, olds.size() * sizeof(float), olds.data());
  for (std::size_t e = 0; e < h.size(); ++e) {
    const bool added = e == 0 || e == 1 || e == 3 || e == 4 || e == 7;
    const std::uint16_t due = added ? sixty_four : start[e];
    if (h[e] != due) {
      char text[96];
      std::snprintf(text, sizeof text, "element %zu holds bits 0x%04x, expected 0x%04x%s", e, unsigned(h[e]), unsigned(due),
                    added ? "" : " (an untouched neighbour)");
      return text;
    }
  }
  for (std::size_t e = 0; e < 2; ++e) {
    std::vector<float> mine;
    for (std::size_t i = 0; i < n; ++i) mine.push_back(olds[2 * i + e]);
    const std::string why = exact_olds(mine, "olds", e, [](std::size_t k) { return float(k); });
    if (!why.empty()) return why;
  }
  return {};
}

// No-return add/sub: exact sums on one contended cell and on seven shared ones.
template <class T>
std::string check_noret(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                        const Slot& slot, std::size_t group) {
  const std::size_t n = 4 * group;
  std::vector<T> cells(9, T(0));
  cells[1] = T(n);
  cl::Buffer cells_buf(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells.size() * sizeof(T), cells.data());
  cl::Kernel kernel(program, (std::string("check_") + slot.name).c_str());
  kernel.setArg(0, cells_buf);
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
  queue.enqueueReadBuffer(cells_buf, CL_TRUE, 0, cells.size() * sizeof(T), cells.data());
  std::vector<T> due(9, T(0));
  due[0] = T(n);
  for (std::size_t i = 0; i < n; ++i) due[2 + i % 7] += T(0.5);
  for (std::size_t c = 0; c < due.size(); ++c)
    if (!same_bits(cells[c], due[c]))
      return "cell " + std::to_string(c) + " holds " + std::to_string(double(cells[c])) + ", expected " +
             std::to_string(double(due[c]));
  return {};
}

std::string run_check(const cl::Context& context, const cl::CommandQueue& queue, const cl::Program& program,
                      const Slot& slot, std::size_t group, bool doubles) {
  const bool is_double = std::strcmp(slot.type, "double") == 0;
  const bool is_add = std::strcmp(slot.op, "add") == 0;
  try {
    if (is(slot.op, "agg")) return check_agg(context, queue, program, group, doubles);
    if (is(slot.op, "add16")) return check_add16(context, queue, program, slot, group);
    if (is(slot.op, "noret"))
      return is_double ? check_noret<double>(context, queue, program, slot, group)
                       : check_noret<float>(context, queue, program, slot, group);
    if (is_add)
      return is_double ? check_add<double>(context, queue, program, slot, group)
                       : check_add<float>(context, queue, program, slot, group);
    return is_double ? check_minmax<double>(context, queue, program, slot, group)
                     : check_minmax<float>(context, queue, program, slot, group);
  } catch (const cl::Error& e) {
    return std::string(e.what()) + " failed: " + error_name(e.err());
  }
}

bool forced_to_fail(const Options& options, const Slot& slot) {
  for (const auto& name : options.fail_checks)
    if (name == "all" || name == slot.name) return true;
  return false;
}

std::string first_lines(const std::string& text, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < count && end != std::string::npos; ++i) end = text.find('\n', end + (i ? 1 : 0));
  return end == std::string::npos ? text : text.substr(0, end);
}

std::vector<OpPath> op_paths(const std::vector<int>& codes, const std::vector<NativeCheck>& checks, bool doubles) {
  static const char* ops[] = {"add", "sub", "mul", "div", "mad", "min", "max", "xchg", "cmpxchg"};
  std::vector<OpPath> paths;
  for (const char* type : {"float", "double"}) {
    if (!doubles && std::strcmp(type, "double") == 0) continue;
    for (const char* space : {"global", "local"}) {
      for (const char* op : ops) {
        OpPath p{op, type, space, Path::cas, {}, "atomic"};
        const std::string family = (p.op == "add" || p.op == "sub") ? "add" : (p.op == "min" || p.op == "max") ? "minmax" : "";
        if (p.op == "xchg" || p.op == "cmpxchg") p.path = Path::hardware;
        for (std::size_t s = 0; s < slot_count && !family.empty(); ++s) {
          if (family != slots[s].op || p.type != slots[s].type || p.space != slots[s].space) continue;
          p.path = Path(std::max(codes[s], 0));
          for (const auto& c : checks)
            if (c.slot == slots[s].name && !c.passed) p.note = std::string(path_name(c.path)) + " check failed: " + c.why;
        }
        paths.push_back(p);
      }
    }
  }
  return paths;
}

// The check's note for a slot that did not pass, if any ("" when it passed or never ran).
std::string failed_note(const std::vector<NativeCheck>& checks, const Slot& slot) {
  std::string note;
  for (const auto& c : checks)
    if (c.slot == slot.name && !c.passed)
      note += (note.empty() ? "" : "; ") + std::string(path_name(c.path)) + " check failed: " + c.why;
  return note;
}

const Slot& slot_named(const char* name) {
  for (const auto& slot : slots)
    if (is(slot.name, name)) return slot;
  throw std::logic_error(name);
}

// The issue-9 ops: aggregated, 16-bit, no-return, saturating and float2, with their paths.
std::vector<OpPath> variant_paths(const std::vector<int>& codes, const std::vector<NativeCheck>& checks,
                                  const std::vector<OpPath>& core, const Capabilities& caps, bool doubles) {
  const auto code = [&](const char* name) {
    for (std::size_t s = 0; s < slot_count; ++s)
      if (is(slots[s].name, name)) return Path(std::max(codes[s], 0));
    return Path::cas;
  };
  const auto core_path = [&](const std::string& op, const std::string& type, const std::string& space) {
    for (const auto& p : core)
      if (p.op == op && p.type == type && p.space == space) return p;
    return OpPath{op, type, space, Path::cas, {}, {}};
  };
  std::vector<OpPath> paths;
  const auto add = [&](const char* family, const std::string& op, const std::string& type, const std::string& space,
                       Path path, std::string note) { paths.push_back({op, type, space, path, std::move(note), family}); };
  const std::vector<std::string> reals = doubles ? std::vector<std::string>{"float", "double"} : std::vector<std::string>{"float"};
  const Path agg = code("agg");
  const std::string agg_note = failed_note(checks, slot_named("agg"));
  for (const char* space : {"global", "local"}) {
    for (const auto& type : reals)
      for (const char* op : {"add", "sub", "mul", "div", "mad", "min", "max"}) add("aggregated", op, type, space, agg, agg_note);
    for (const char* type : {"int", "uint"})
      for (const char* op : {"add", "min", "max"}) add("aggregated", op, type, space, agg, agg_note);
  }
  for (const char* type : {"half", "bf16"})
    for (const char* space : {"global", "local"})
      for (const char* op : {"add", "sub", "min", "max", "xchg", "cmpxchg"}) {
        const bool ptx_op = std::string(op) == "add" || std::string(op) == "sub";
        const bool global = std::string(space) == "global";
        const Slot& slot = slot_named(std::string(type) == "half" ? "add_half_global" : "add_bf16_global");
        add("16-bit", op, type, space, ptx_op && global ? code(slot.name) : Path::cas,
            ptx_op && global ? failed_note(checks, slot) : "");
      }
  for (const auto& type : reals)
    for (const char* space : {"global", "local"})
      for (const char* op : {"add", "sub", "min", "max"}) {
        const bool red = (std::string(op) == "add" || std::string(op) == "sub") && std::string(space) == "global";
        const OpPath own = core_path(red ? "add" : op, type, space);
        if (red && code(("noret_add_" + type + "_global").c_str()) == Path::ptx) {
          add("no-return", op, type, space, Path::ptx, {});
        } else {
          std::string note = red ? failed_note(checks, slot_named(("noret_add_" + type + "_global").c_str())) : "";
          if (!own.note.empty()) note += (note.empty() ? "" : "; ") + own.note;
          add("no-return", op, type, space, own.path, note);
        }
      }
  std::vector<std::string> ints = {"int", "uint"};
  if (caps.int64_base_atomics) ints.insert(ints.end(), {"long", "ulong"});
  for (const auto& type : ints)
    for (const char* space : {"global", "local"})
      for (const char* op : {"inc_sat", "dec_sat"}) add("saturating", op, type, space, Path::cas, {});
  if (caps.int64_base_atomics)
    for (const char* space : {"global", "local"})
      for (const char* op : {"add", "sub", "cmul", "xchg", "cmpxchg", "load"}) {
        const bool hw = std::string(op) == "xchg" || std::string(op) == "cmpxchg" || std::string(op) == "load";
        add("float2", op, "float2", space, hw ? Path::hardware : Path::cas, {});
      }
  return paths;
}

// Builds the check program; on a build failure, finds the one native path whose macro, turned
// off, lets it build (e.g. an instruction this GPU's assembler rejects) and records that.
// Throws the first build's error when no single path explains the failure (or bisect is off).
cl::Program build_checks(const cl::Context& context, const cl::Device& device, const std::string& source,
                         const std::string& options, std::string& disabled, std::vector<NativeCheck>& checks, bool bisect) {
  try {
    return build_program(context, device, source, options + disabled);
  } catch (const Error& first) {
    if (!bisect) throw;
    for (const auto& slot : slots)
      for (const Path path : native_paths(slot)) {
        const std::string macro = disable_macro(slot, path);
        if ((disabled + " ").find(macro + " ") != std::string::npos) continue;
        cl::Program program;
        try {
          program = build_program(context, device, source, options + disabled + macro);
        } catch (const Error&) {
          continue;
        }
        checks.push_back({slot.name, path, false, "the check program did not build with it: " + first_lines(first.build_log(), 3)});
        disabled += macro;
        return program;
      }
    throw;
  }
}

DeviceInfo compute_device_info(const cl::Device& device, const Options& options) {
  DeviceInfo info;
  info.caps = detect_capabilities(device);
  const auto& caps = info.caps;
  info.doubles = caps.fp64 && caps.int64_base_atomics && !options.hide_fp64;
  // Sub-group aggregation (opt-in, see Options) needs the shuffles; they need OpenCL C 2.0 or later.
  const bool subgroups =
      options.subgroup_aggregation && caps.subgroups && caps.subgroup_shuffle && caps.opencl_c_max >= 200;
  std::string base;
  if (caps.opencl_c_max >= 300 && (caps.ext_float_atomics || subgroups))
    base += " -cl-std=CL3.0";
  else if (subgroups)
    base += " -cl-std=CL2.0";
  if (subgroups) base += " -DCLAT_SUBGROUPS";
  if (caps.nvidia) base += " -DCLAT_NVIDIA_PTX";
  if (!info.doubles) base += " -DCLAT_NO_FP64";
  if (options.force_cas) base += " -DCLAT_FORCE_CAS";

  const cl::Context context = checked("clCreateContext", [&] { return cl::Context(device); });
  const cl::CommandQueue queue = checked("clCreateCommandQueue", [&] { return cl::CommandQueue(context, device); });
  const std::string check_source = embedded_source("kernels/native_checks.cl");
  const std::size_t group = std::min<std::size_t>(64, caps.max_work_group_size);
  std::string disabled;
  std::vector<int> codes(slot_count, 0);
  // Each round probes the chosen paths and checks the native ones not yet checked; a failure
  // disables that path, which may expose the next one (ptx -> ext -> cas, warp -> sub-group ->
  // plain, red -> the add's path), so the rounds go on until one round fails nothing: the codes
  // are then those of the final options. Each failure adds a macro, so this ends.
  for (int round = 0; round < 32; ++round) {
    cl::Program program;
    try {
      program = build_checks(context, device, check_source, base, disabled, info.checks, !options.force_cas);
    } catch (const Error& e) {
      if (options.force_cas) throw;
      for (const auto& slot : slots)
        info.checks.push_back({slot.name, Path::cas, false, "check program did not build: " + first_lines(e.build_log(), 3)});
      base += " -DCLAT_FORCE_CAS";
      disabled.clear();
      continue;
    }
    cl::Buffer out(context, CL_MEM_WRITE_ONLY, slot_count * sizeof(cl_int));
    checked("running clat_probe_paths", [&] {
      cl::Kernel probe(program, "clat_probe_paths");
      probe.setArg(0, out);
      queue.enqueueNDRangeKernel(probe, cl::NullRange, cl::NDRange(1), cl::NullRange);
      queue.enqueueReadBuffer(out, CL_TRUE, 0, slot_count * sizeof(cl_int), codes.data());
    });
    bool failed = false;
    for (std::size_t s = 0; s < slot_count; ++s) {
      if (!owns(slots[s], codes[s])) continue;  // cas, plain, another slot's path, or double absent
      const Path path = Path(codes[s]);
      const bool done = std::any_of(info.checks.begin(), info.checks.end(),
                                    [&](const NativeCheck& c) { return c.slot == slots[s].name && c.path == path; });
      if (done) continue;
      NativeCheck check{slots[s].name, path, false, {}};
      check.why = forced_to_fail(options, slots[s]) ? "failed on purpose (Options::fail_checks)"
                                                   : run_check(context, queue, program, slots[s], group, info.doubles);
      check.passed = check.why.empty();
      if (!check.passed) {
        disabled += disable_macro(slots[s], path);
        failed = true;
      }
      info.checks.push_back(check);
    }
    if (!failed) break;
  }
  for (const auto& c : info.checks)  // only if the rounds ran out: a failed path is off all the same
    for (std::size_t s = 0; s < slot_count; ++s)
      if (!c.passed && c.slot == slots[s].name && codes[s] == int(c.path)) codes[s] = fallback_code(slots[s]);
  info.build_options = (base + disabled).empty() ? "" : (base + disabled).substr(1);
  info.paths = op_paths(codes, info.checks, info.doubles);
  info.variant_paths = variant_paths(codes, info.checks, info.paths, caps, info.doubles);
  return info;
}

}  // namespace

const DeviceInfo& device_info(const cl::Device& device, const Options& options) {
  static std::mutex mutex;
  static std::map<std::pair<cl_device_id, std::string>, std::unique_ptr<DeviceInfo>> cache;
  std::string key = std::to_string(options.force_cas) + std::to_string(options.hide_fp64) +
                    std::to_string(options.subgroup_aggregation);
  for (const auto& name : options.fail_checks) key += "," + name;
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[{device(), key}];
  if (!entry) entry = std::make_unique<DeviceInfo>(compute_device_info(device, options));
  return *entry;
}

std::string run_native_check(const Runtime& rt, const std::string& slot, const std::string& extra_options) {
  for (const auto& s : slots) {
    if (slot != s.name) continue;
    if (is(s.type, "double") && !rt.supports_double())
      throw std::invalid_argument("clatomics: run_native_check: slot '" + slot + "' needs double, which this device lacks");
    const cl::Program program = rt.build_embedded("kernels/native_checks.cl", extra_options);
    const std::size_t group = std::min<std::size_t>(64, rt.device_info().caps.max_work_group_size);
    return run_check(rt.context(), rt.queue(), program, s, group, rt.supports_double());
  }
  throw std::invalid_argument("clatomics: run_native_check: unknown slot '" + slot + "'");
}

std::string build_options(const cl::Device& device, const Options& options) {
  return device_info(device, options).build_options;
}

}  // namespace clatomics
