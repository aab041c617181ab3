// The native checks: each slot's kernels on known inputs, compared bit for bit.
#include "device/native_checks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "core/kernel_args.hpp"
#include "core/launch.hpp"

namespace clatomics::detail {
namespace {

bool is(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
T negative_nan() {
  using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const U bits = sizeof(T) == 4 ? U(0xffc00000u) : U(0xfff8000000000000ull);
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// One check kernel: device copies of its arguments, a launch, and the results read back.
class Run {
 public:
  // The kernel's parameters: __global buffers, but for the value parameters named in values.
  Run(const CheckTarget& target, std::string kernel_name, std::initializer_list<const char*> buffers,
      std::initializer_list<const char*> values = {})
      : target_(target), signature_{std::move(kernel_name), std::vector<Param>{}} {
    for (const char* name : buffers) signature_.params.push_back({name, ArgSpace::global});
    for (const char* name : values) signature_.params.push_back({name, ArgSpace::value});
    bound_.assign(signature_.params.size(), false);
    kernel_ = make_kernel(target.program, signature_);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  // A buffer argument holding data (written back after the launch).
  template <class T>
  void data(const char* name, std::vector<T>& values) {
    cl_int status = CL_SUCCESS;
    Mem buffer = Mem::adopt(clCreateBuffer(target_.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                           values.size() * sizeof(T), values.data(), &status));
    check(status, "clCreateBuffer");
    set(name, buffer);
    buffers_.push_back({std::move(buffer), values.data(), values.size() * sizeof(T)});
  }
  void value(const char* name, cl_uint v) { set(name, v); }
  // Runs n work-items in groups of group, then reads every data argument back (after the
  // kernel, also on an out-of-order queue).
  void launch(std::size_t n, std::size_t group) {
    require_all_bound(signature_, bound_);
    cl_event ran = nullptr;
    check(clEnqueueNDRangeKernel(target_.queue, kernel_.get(), 1, nullptr, &n, &group, 0, nullptr, &ran),
          "clEnqueueNDRangeKernel");
    const Event done = Event::adopt(ran);
    wait_bounded(ran);
    for (const auto& b : buffers_)
      check(clEnqueueReadBuffer(target_.queue, b.buffer.get(), CL_TRUE, 0, b.bytes, b.host, 1, &ran, nullptr),
            "clEnqueueReadBuffer");
  }

 private:
  // A check kernel finishes in milliseconds; one that has not after a generous bound has hung
  // (an implementation that never completes a sub-group loop, say): the path fails instead of
  // the caller's program hanging. The hung kernel's queue and context are kept, never released,
  // since releasing them could wait for it.
  void wait_bounded(cl_event ran) {
    constexpr auto bound = std::chrono::seconds(60);
    check(clFlush(target_.queue), "clFlush");
    const auto deadline = std::chrono::steady_clock::now() + bound;
    for (auto pause = std::chrono::microseconds(50);; pause = std::min(pause * 2, std::chrono::microseconds(20000))) {
      cl_int status = CL_QUEUED;
      check(clGetEventInfo(ran, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), "clGetEventInfo");
      if (status < 0) throw Error(status, "the check kernel");
      if (status == CL_COMPLETE) return;
      if (std::chrono::steady_clock::now() > deadline) {
        clRetainCommandQueue(target_.queue);
        clRetainContext(target_.context);
        throw Error(CL_OUT_OF_RESOURCES, "the check kernel (still running after " + std::to_string(bound.count()) + " s: hung)");
      }
      std::this_thread::sleep_for(pause);
    }
  }

  struct Data {
    Mem buffer;
    void* host;
    std::size_t bytes;
  };
  template <class A>
  void set(const char* name, const A& value) {
    const cl_uint index = param_index(signature_, name);
    if (bound_[index]) bound_twice(signature_, name);
    bound_[index] = true;
    set_arg(kernel_.get(), index, value);
  }

  const CheckTarget& target_;
  Signature signature_;
  LibraryKernel kernel_;
  std::vector<bool> bound_;
  std::vector<Data> buffers_;
};

// The olds of one cell's members, sorted, must be exactly expected(0), expected(1), ...
template <class T, class F>
std::string exact_olds(std::vector<T> olds, const std::string& what, std::size_t cell, F expected) {
  std::sort(olds.begin(), olds.end());
  for (std::size_t k = 0; k < olds.size(); ++k)
    if (!same_bits(olds[k], expected(k)))
      return what + ": cell " + std::to_string(cell) + " returned " + std::to_string(double(olds[k])) + " where " +
             std::to_string(double(expected(k))) + " was due";
  return {};
}

// check_add_<type>_<space>: n adds of 1 to one cell; olds must be exactly 0..n-1.
template <class T>
std::string check_add(const CheckTarget& target, const Slot& slot) {
  const bool local = is(slot.space, "local");
  const std::size_t group = target.group, n = local ? group : 4 * group;
  std::vector<T> cell(n / group, T(0)), olds(n, T(-1));
  Run run(target, std::string("check_") + slot.name, {"cell", "olds"});
  run.data("cell", cell);
  run.data("olds", olds);
  run.launch(n, group);
  if (cell[0] != T(local ? group : n))
    return "sum " + std::to_string(double(cell[0])) + ", expected " + std::to_string(local ? group : n);
  return exact_olds(olds, "olds", 0, [](std::size_t k) { return T(k); });
}

// check_subnormal_<add kernel>: adds whose operands and results are subnormal. The host's IEEE
// adds give the expected bits; a path that flushes subnormals gives zeros there.
template <class T>
bool flushes_subnormals(const CheckTarget& target, const std::string& kernel_name) {
  using L = std::numeric_limits<T>;
  const T tiny = L::denorm_min();
  std::vector<T> cells = {T(-0.0), T(4) * tiny, L::min()};
  std::vector<T> vals = {tiny, -tiny, -tiny};
  std::vector<T> due(3);
  for (std::size_t k = 0; k < 3; ++k) due[k] = cells[k] + vals[k];
  Run run(target, kernel_name, {"cells", "vals"});
  run.data("cells", cells);
  run.data("vals", vals);
  run.launch(1, 1);
  for (std::size_t k = 0; k < 3; ++k)
    if (!same_bits(cells[k], due[k])) return true;
  return false;
}

// check_minmax_<type>_<space>: min/max from NaN starts of a known set, and of +-0.
template <class T>
std::string check_minmax(const CheckTarget& target, const Slot& slot) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> vals = {T(3), T(-0.0), T(0), nan, T(-2.5), T(7.25), T(1.5), T(-1), T(0.5), T(-7), T(2), negative_nan<T>()};
  std::vector<T> cells = {negative_nan<T>(), nan, nan, negative_nan<T>(), T(0), T(-0.0)};
  const std::vector<T> expected = {T(-7), T(7.25), T(-7), T(7.25), T(-0.0), T(0)};
  Run run(target, std::string("check_") + slot.name, {"cells", "vals"}, {"nvals"});
  run.data("cells", cells);
  run.data("vals", vals);
  run.value("nvals", cl_uint(vals.size()));
  run.launch(target.group, target.group);
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

template <class T>
std::string check_agg_add(const CheckTarget& target, const char* kernel_name, std::size_t group, bool local) {
  const std::size_t groups = agg_items / group, ncells = local ? agg_cells * groups : agg_cells;
  std::vector<T> cells(ncells, T(0)), olds(agg_items, T(-1));
  Run run(target, kernel_name, {"cells", "olds"});
  run.data("cells", cells);
  run.data("olds", olds);
  run.launch(agg_items, group);
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
std::string check_agg(const CheckTarget& target) {
  const std::size_t g = floor_pow2(std::min<std::size_t>(64, target.group));  // divides 128; <= 64 for the local cells
  const std::size_t n = agg_items, c4 = agg_cells;
  std::vector<float> cells(4 * c4), olds(3 * n, -1.0f), vals(n);
  for (std::size_t c = 0; c < c4; ++c)
    cells[c] = 0.0f, cells[c4 + c] = 1.0f, cells[2 * c4 + c] = 0x1p40f,
    cells[3 * c4 + c] = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t i = 0; i < n; ++i) vals[i] = float(int(i * 37 % 128) - 64) / 4.0f;  // distinct
  Run run(target, "check_agg_float", {"cells", "olds", "vals"});
  run.data("cells", cells);
  run.data("olds", olds);
  run.data("vals", vals);
  run.launch(n, g);
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
  std::string why = check_agg_add<cl_uint>(target, "check_agg_local", g, true);
  if (why.empty() && target.doubles) why = check_agg_add<double>(target, "check_agg_double", g, false);
  return why;
}

// Packed half/bf16 add: exact sums and olds, both halves of a word contended, neighbours' bits kept.
std::string check_add16(const CheckTarget& target, const Slot& slot) {
  const bool half = is(slot.type, "half");
  const std::uint16_t nan = half ? 0x7d01u : 0x7f81u, sixty_four = half ? 0x5400u : 0x4280u;
  std::vector<std::uint16_t> h = {0, 0, 0x8000u, 0, 0, nan, 0x8001u, 0};
  const std::vector<std::uint16_t> start = h;
  const std::size_t g = floor_pow2(std::min<std::size_t>(64, target.group)), n = 64;
  std::vector<float> olds(2 * n, -1.0f);
  Run run(target, std::string("check_") + slot.name, {"h", "olds"});
  run.data("h", h);
  run.data("olds", olds);
  run.launch(n, g);
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

// check_subnormal_add_<half|bf16>_global: adds whose operands or results are subnormal in the
// format. A path may flush subnormal operands and results to zero (Intel's bfloat16 atomic add
// does; its note then says so), but a result that is neither the exact sum nor one with a flushed
// operand or result fails the check: Intel's CPU runtime gave 46 units for the 92 due from two
// normal bfloat16 values on a processor with AVX512-BF16 (the last case). why: empty, or what
// came back.
bool flushes_subnormals16(const CheckTarget& target, const Slot& slot, std::string& why) {
  const bool half = is(slot.type, "half");
  const int shift = half ? 24 : 133;  // the format's smallest subnormal is 2^-shift
  const float unit = std::ldexp(1.0f, -shift);
  const std::uint16_t normal = half ? 0x0400u : 0x0080u;  // the smallest normal
  // The last: -(1 + 6 / m) 2^(e_min + 1) + (1 + 52 / m) 2^(e_min + 1), two normal values 92
  // units apart (m: the significand's steps).
  const float larger = half ? std::ldexp(1.0f + 52.0f / 1024.0f, -13) : std::ldexp(1.0f + 52.0f / 128.0f, -125);
  std::vector<std::uint16_t> h = {0x0001u, normal, 0x0000u, std::uint16_t(0x8000u | 2u * normal | 6u)};
  std::vector<float> vals = {unit, -unit, unit, larger};
  const std::vector<std::vector<std::uint16_t>> allowed = {
      {0x0002u, 0x0001u, 0x0000u}, {std::uint16_t(normal - 1u), normal, 0x0000u}, {0x0001u, 0x0000u}, {92u, 0x0000u}};
  Run run(target, std::string("check_subnormal_") + slot.name, {"h", "vals"});
  run.data("h", h);
  run.data("vals", vals);
  run.launch(h.size(), 1);
  bool flushes = false;
  for (std::size_t e = 0; e < h.size(); ++e) {
    const auto& ok = allowed[e];
    if (std::find(ok.begin(), ok.end(), h[e]) == ok.end()) {
      char text[128];
      std::snprintf(text, sizeof text, "a subnormal sum came back as bits 0x%04x, neither the exact 0x%04x nor a flushed one",
                    unsigned(h[e]), unsigned(ok[0]));
      why = text;
      return false;
    }
    flushes |= h[e] != ok[0];
  }
  return flushes;
}

// No-return add/sub: exact sums on one contended cell and on seven shared ones.
template <class T>
std::string check_noret(const CheckTarget& target, const Slot& slot) {
  const std::size_t n = 4 * target.group;
  std::vector<T> cells(9, T(0));
  cells[1] = T(n);
  Run run(target, std::string("check_") + slot.name, {"cells"});
  run.data("cells", cells);
  run.launch(n, target.group);
  std::vector<T> due(9, T(0));
  due[0] = T(n);
  for (std::size_t i = 0; i < n; ++i) due[2 + i % 7] += T(0.5);
  for (std::size_t c = 0; c < due.size(); ++c)
    if (!same_bits(cells[c], due[c]))
      return "cell " + std::to_string(c) + " holds " + std::to_string(double(cells[c])) + ", expected " +
             std::to_string(double(due[c]));
  return {};
}

template <class T>
CheckResult check_float_add(const CheckTarget& target, const Slot& slot) {
  CheckResult result;
  result.why = is(slot.check, "noret") ? check_noret<T>(target, slot) : check_add<T>(target, slot);
  if (result.why.empty()) result.flushes_subnormals = flushes_subnormals<T>(target, std::string("check_subnormal_") + slot.name);
  return result;
}

}  // namespace

CheckResult run_check(const CheckTarget& target, const Slot& slot) {
  const bool is_double = is(slot.type, "double");
  try {
    if (is(slot.check, "agg")) return {check_agg(target)};
    if (is(slot.check, "add16")) {
      CheckResult result{check_add16(target, slot)};
      if (result.why.empty()) result.flushes_subnormals = flushes_subnormals16(target, slot, result.why);
      return result;
    }
    if (is(slot.check, "add") || is(slot.check, "noret"))
      return is_double ? check_float_add<double>(target, slot) : check_float_add<float>(target, slot);
    return {is_double ? check_minmax<double>(target, slot) : check_minmax<float>(target, slot)};
  } catch (const Error& e) {
    return {e.call() + " failed: " + error_name(e.code())};
  }
}

}  // namespace clatomics::detail
