// One scatter-reduce or segment reduction on the device: its checks (checks.cpp), its plan
// (plan.cpp) and its launches (launches.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "clatomics/scatter.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/runtime_state.hpp"
#include "scatter/plan.hpp"
#include "scatter/tuning.hpp"
#include "scatter/types.hpp"

namespace clatomics::detail {

// clat_scatter's parameters (launches.cpp), for the plan's launch shape too.
const Signature& scatter_kernel_signature();

constexpr cl_uint scatter_no_tag = 0xffffffffu;  // CLAT_SC_EMPTY: the cache's free slot
// The marked finish (kernels/scatter_fixed.cl): the slots a mark stands for, 1 << scatter_mark_shift
// (the kernels' CLAT_SC_MARK_SHIFT, set from it), and the fewest slots that take it. Its marks
// cost the accumulating kernel updates of one word where many work-items end on one bin,
// measured on an H200 (64M values into one bin): 16M slots, the finish 0.152 ms -> 0.051 ms, the
// marks +0.025 ms; 65,536 slots, the finish 0.009 ms -> 0.007 ms, the marks +0.022 ms.
constexpr unsigned scatter_mark_shift = 8;
constexpr std::size_t scatter_mark_min_slots = std::size_t(1) << 20;
// Whether the private copies' limbs (kernels/scatter_window.cl) hold what a copy takes in one
// group: per_copy values, each integer below 2^value_bits in magnitude. The low limb takes
// clz(per_copy) bits (the kernel's choice), so its sum stays below 2^32; the high one's sum must
// stay within int: per_copy * 2^(value_bits - limb) + per_copy < 2^31.
bool scatter_limbs_hold(std::uint64_t per_copy, int value_bits);
// Hot spread indices (the sample's) take the deterministic sums' window only where the values are
// at least this many times the output slots (ScatterTuning::window_values_per_slot says why).
constexpr std::size_t window_values_per_slot_hot = 8;
// Deterministic rows whose bins are spread are grouped by bin before they are summed
// (kernels/scatter_sorted_rows.cl) where a row holds at least sort_rows_min_width values and a
// launch's rows are at least sort_rows_per_bin times the bins: a slot's atomics then come once
// per run of its bin's rows, not once per value; the grouping costs one atomic a row and 12
// bytes of scratch (a rank and an entry). A launch then takes at most sort_rows_launch rows.
// Measured on an H200, rows of 32 / 128 into 100,000 bins: at 5 rows a bin 1.2x / 1.8x the
// speed of the rows summed in place, at 40 rows a bin 1.6x / 1.9x. The width's threshold is
// where a row's atomics outnumber the grouping's, not measured.
constexpr std::size_t sort_rows_min_width = 4;
constexpr std::size_t sort_rows_per_bin = 4;
constexpr std::uint64_t sort_rows_launch = std::uint64_t(1) << 24;

class Scatter {
 public:
  Scatter(Runtime& rt, const ScatterCall& call, const char* what)
      : rt_(rt),
        call_(call),
        what_(what),
        info_(scatter_type_info(call.type)),
        tuning_(scatter_tuning(rt.device_info().caps)),
        commands_(rt) {}

  // The checks of the op, options and types alone (no buffers): every call makes them, empty
  // ones included.
  void check_options();
  // Every check, before anything is enqueued.
  void check();
  ScatterResult run();
  // The plan of a checked call: the sample of its indices, the strategy and clat_scatter's build.
  ScatterPlan plan();
  // A call with nothing to accumulate: no bins (or segments), or rows of width 0. Enqueues
  // nothing.
  static bool empty(const ScatterCall& call) { return call.bins == 0 || call.rows.width == 0; }
  ScatterResult run_empty() const;
  // The plan of a call that runs no accumulation: the strategy asked for, no launch.
  ScatterPlan empty_plan() const {
    ScatterPlan plan;
    plan.strategy = scatter_asked_strategy(call_.options);
    plan.tuning = tuning_;
    plan.grid.groups = 0;
    return plan;
  }

 private:
  // The device's checks of the offsets or indices (checks.cpp); the output is untouched until
  // they pass.
  void check_offsets(const Program& checks);
  void check_indices(const Program& checks);
  // Entries [first, first + n) of the indices (or offsets) as 64-bit values, read back to quote
  // them in a refusal.
  void read_indices(std::size_t first, std::size_t n, cl_ulong* into);
  std::string base_options() const;
  ScatterSample sample(const Program& checks);
  void choose(const ScatterSample& sample);
  std::string build_options() const;
  // The launches of clat_scatter for count elements of width: launch_elements() pairs at most.
  std::uint64_t per_launch() const;
  ScatterResult run_nothing(const Program& checks);
  int values_top(const Program& checks, std::size_t rows);
  int fixed_grid(int top) const;
  // The window of float exponents whose values are 64-bit sums (kernels/scatter_window.cl): lo,
  // and span above it; an empty one (lo beyond every exponent) where none fits.
  struct Window {
    int lo = 1 << 20;
    cl_uint span = 0;
  };
  Window window(int e_grid, int e_top, int likely_top) const;
  // The most exponents above the window's lowest that this call's count allows (its values' sums
  // stay below 2^63); a window value's integer is below 2^(window_span() + 24) in magnitude.
  int window_span() const;
  // The values the private copies' limbs take per copy in one group of grid over pairs (the
  // kernel's count, kernels/scatter.cl).
  std::uint64_t values_per_copy(const Grid& grid, std::uint64_t pairs) const;
  void fill_slots(const Program& program, cl_mem acc);
  bool accumulate(const Program& program, int e_grid, int e_top, int likely_top, ScatterResult& result);
  // Where accumulate's launches put a call's sums: the slots (out, or scratch), their counts,
  // flags and window (kernels/scatter.cl's parameters of the same names), and the tally.
  struct Slots {
    cl_mem acc;
    std::size_t offset, stride;
    cl_mem counts, flags, wide;
    int e_grid, e_top;
    Window window;
    cl_mem tally;
  };
  // The grouping's scratch (kernels/scatter_sorted_rows.cl): a count, then a first entry, a bin,
  // and the entries claimed after them; a rank and a (row, bin) entry a row of a launch.
  struct SortScratch {
    Mem starts, ranks, entries;
  };
  // Launch l, elements [first, first + n), in place (clat_scatter) or grouped by bin first.
  void launch_in_place(std::size_t l, std::size_t first, std::size_t n, const Slots& slots);
  void launch_sorted_rows(std::size_t l, std::size_t first, std::size_t n, const Slots& slots, const SortScratch& scratch);
  // The grid of clat_sr_sum (of program_) over a launch of n rows.
  Grid sorted_rows_grid(const Kernel& sum, std::size_t n) const;
  Grid sorted_rows_grid(std::size_t n) const;
  void find_arg(const Program& checks, const Program& program);
  // __local memory's room for this call's slots (accumulator, and count when counting).
  LocalRoom room() const {
    return local_room(rt_.device_info(), plan_.store_bytes * plan_.words() + (plan_.counts ? 4 : 0), plan_.window ? window_item_bytes : 0);
  }
  // The __local arguments of clat_scatter: bytes of the slots, the tags and the counts.
  struct LocalBytesOf {
    std::size_t acc, tags, counts;
  };
  LocalBytesOf local_bytes() const;
  // The launches of clat_scatter over the call's elements, and the grid of one of n elements.
  std::size_t launches() const;
  Grid accumulate_grid(std::size_t n) const;
  // CLAT_SC_K of the plan: the deterministic sums take fewer elements a step.
  std::size_t items_per_step() const { return plan_.fixed ? tuning_.fixed_items_per_step : tuning_.items_per_step; }
  // The launch of the small kernels (checks, fills, finish): units work-items, a few groups per
  // compute unit.
  Grid small_grid(const Kernel& kernel, std::uint64_t units) const {
    return make_grid(rt_, kernel, std::max<std::uint64_t>(units, 1), tuning_.small_group,
                     tuning_.small_groups_per_cu * std::max<cl_uint>(1, rt_.device_info().caps.compute_units));
  }
  // The widening or narrowing of a 16-bit output: out16's bins rows of width, `stride` apart, and
  // the float scratch wide.
  void bind_16bit(const LibraryKernel& kernel, cl_mem out16, std::size_t offset, std::size_t stride, const Mem& wide) const;

  Runtime& rt_;
  ScatterCall call_;
  const char* what_;
  ScatterTypeInfo info_;
  ScatterTuning tuning_;
  Commands commands_;
  ScatterPlan plan_;
  Program program_;      // clat_scatter's program, built by plan()
  LibraryKernel kernel_;  // clat_scatter, made by plan()
  std::size_t width_ = 1, vstride_ = 1, ostride_ = 1, index_size_ = 4, slots_ = 0;
  std::size_t out_size_ = 4;  // bytes of an element of call_.out
};

}  // namespace clatomics::detail
