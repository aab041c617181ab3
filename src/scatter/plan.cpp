// A scatter call's plan: the sample of its indices, the strategy, and clat_scatter's build options
// and launch shape.
#include "scatter/plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "core/testing.hpp"
#include "scatter/device_call.hpp"

namespace clatomics::detail {
namespace {

const Signature sample_kernel{"clat_scatter_sample", "global idx, idx_off, n, global sample, nsample"};

}  // namespace

std::string Scatter::base_options() const {
  return scatter_type_options(info_, call_.index64, tuning_.contiguous) + define("CLAT_SC_OP", scatter_op_macro(what_, call_.op)) +
         define("CLAT_SC_SEGMENTS", call_.segments ? 1 : 0) + define("CLAT_SC_NAN_PROP", call_.options.nan == NanRule::propagate ? 1 : 0);
}

// Indices at evenly spaced positions: sorted when they never decrease, hot when many of them
// share bins.
ScatterSample Scatter::sample(const Program& checks) {
  ScatterSample s;
  if (call_.segments) {
    s.sorted = true;  // segments are sorted bins by construction
    return s;
  }
  const std::size_t n = std::min(tuning_.sample_size, call_.count);
  if (n < 2) return s;
  const LibraryKernel kernel = make_kernel(checks, sample_kernel);
  const Mem buffer = make_buffer(rt_, n * sizeof(cl_ulong));
  bind(kernel, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("n", cl_ulong(call_.count)),
       arg("sample", buffer), arg("nsample", cl_uint(n)));
  const std::size_t group = tuning_.small_group;
  commands_.launch(kernel, make_grid(rt_, kernel, n, group, (n + group - 1) / group));
  std::vector<cl_ulong> picked(n);
  commands_.read(buffer.get(), 0, n * sizeof(cl_ulong), picked.data());
  s.sorted = std::is_sorted(picked.begin(), picked.end());
  std::unordered_map<cl_ulong, std::size_t> seen;
  for (cl_ulong b : picked) ++seen[b];
  s.size = n;
  s.distinct = seen.size();
  // Hot: far more of the sample on repeated bins than spread indices over `bins` would put
  // there (1 - (1 - 1/bins)^(n - 1) of it), and at least a share of it.
  std::size_t repeated = 0;
  for (const auto& [bin, times] : seen)
    if (times >= 2) repeated += times;
    else ++s.once;
  const double spread = 1.0 - std::pow(1.0 - 1.0 / double(call_.bins), double(n - 1));
  const double share = double(repeated) / double(n);
  s.hot = share >= tuning_.hot_share && share >= tuning_.hot_over_spread * spread;
  return s;
}

void Scatter::choose(const ScatterSample& sample) {
  const auto& caps = rt_.device_info().caps;
  const ScatterOptions& o = call_.options;
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const bool sorted = sample.sorted || o.indices_are_sorted;
  if (plan_.window && o.strategy == ScatterStrategy::automatic && sample.hot && !sorted &&
      call_.count * width_ / window_values_per_slot_hot < slots_)
    plan_.window = false;
  const LocalRoom room = this->room();
  plan_.sample = sample;
  plan_.tuning = tuning_;
  plan_.solo = room.solo;
  plan_.group = room.group;
  plan_.max_groups = resident_groups(caps);
  const std::size_t copies = room.copies(slots_);
  // The table's keys (bin * width + d) stay below the tag that marks a free slot.
  const std::size_t cache = slots_ < scatter_no_tag ? room.cache_slots : 0;

  // automatic: every slot private when they fit; hot bins in the table; else straight to global
  // memory (sorted indices make few updates, runs; spread ones rarely meet). Keeping only the
  // leading slots private measured slower than global atomics on the H200 for spread indices.
  ScatterStrategy s = o.strategy;
  if (s == ScatterStrategy::automatic) {
    if (copies)
      s = ScatterStrategy::local_private;
    else if (cache && sample.hot && !sorted)
      s = ScatterStrategy::local_cache;
    else
      s = ScatterStrategy::global_atomics;
  }
  plan_.strategy = s;
  if (s == ScatterStrategy::local_private)
    while ((std::size_t(1) << plan_.shift) < copies) ++plan_.shift;
  if (s == ScatterStrategy::local_cache) plan_.cache_slots = cache;
  if (tuning_.merging_groups_per_cu && s != ScatterStrategy::global_atomics)
    plan_.max_groups = tuning_.merging_groups_per_cu * cu;  // each merges its slots
  // NVIDIA's private copies of the window's sums in two 32-bit limbs (kernels/scatter_window.cl),
  // where their bound holds for the fewest values a copy takes: one step of the group.
  const std::uint64_t step_per_copy = plan_.group * items_per_step() / std::min(plan_.group, std::size_t(1) << plan_.shift);
  plan_.limbs = caps.nvidia && plan_.window && s == ScatterStrategy::local_private && !plan_.solo &&
                scatter_limbs_hold(step_per_copy, window_span() + 24);
  // Hot bins that reach global memory: combine a warp's updates of one address first.
  plan_.agg = s == ScatterStrategy::global_atomics && sample.hot && !sorted;
  // Sorted indices: runs that continue across neighbouring work-items combine in the warp.
  plan_.runs = s == ScatterStrategy::global_atomics && sorted;
  // Propagating min/max never run in place: out's own NaN may have bits that the ordered
  // atomics do not order (clat_scatter_finish joins it).
  plan_.direct = !plan_.fixed && !plan_.counts && !plan_.prop && o.include_self;
  // Deterministic rows whose bins are spread: grouped by bin first on GPUs, where enough rows
  // share a bin (device_call.hpp). Their entries and counts are 32-bit.
  const std::uint64_t launch_rows = std::min<std::uint64_t>({call_.count, launch_elements() / width_, sort_rows_launch});
  const bool can_sort = plan_.fixed && s == ScatterStrategy::global_atomics && !call_.segments && call_.bins <= 0xffffffffu;
  const bool worth_sorting = tuning_.sort_rows && !sorted && width_ >= sort_rows_min_width && launch_rows / sort_rows_per_bin >= call_.bins;
  switch (testing::scatter_rows()) {
    case testing::ScatterRows::automatic: plan_.sort_rows = can_sort && worth_sorting; break;
    case testing::ScatterRows::sorted: plan_.sort_rows = can_sort; break;
    case testing::ScatterRows::in_place: plan_.sort_rows = false; break;
  }
  // Deterministic sums of fewer values than half the bins, reaching few of them or in order: the
  // bins reached are listed and only they are finished (kernels/scatter_listed.cl), rather than
  // every slot read. The finish meets listed bins in the order of the values: spread ones cost a
  // random access each, which measured slower than reading every slot in order where they were a
  // fifth of the bins (PoCL 3.1, 4M uniform values into 16M bins: 384 ms against 117), so they
  // are listed only where the sample says they are at most 1/16 of the bins.
  const bool can_list = plan_.fixed && width_ == 1 && !call_.segments && call_.bins < 0xffffffffu;
  // The bins reached, from the sample: those it saw, and for each it saw once a share of the
  // values it did not see (Good and Turing's estimate of what a sample misses): spread indices
  // reach about as many bins as values, one bin one.
  const std::size_t unsampled = call_.count - std::min(call_.count, sample.size);
  const double unseen = sample.size ? double(sample.once) / double(sample.size) * double(unsampled) : 0.0;
  const double reached = double(sample.distinct) + unseen;
  const bool worth_listing = call_.count <= call_.bins / 2 && (sorted || reached <= double(call_.bins) / 16);
  // More values than that, reaching few of many bins (one bin among 16M; hot indices): every
  // update marks its block of slots, and the finish reads the marked blocks' slots only (on the
  // H200 the finish of 16M slots took as long as the fast mode's whole call of 64M values into
  // one bin; scatter_mark_min_slots says where it pays).
  const bool worth_marking = slots_ >= scatter_mark_min_slots && reached <= double(call_.bins) / 16;
  switch (testing::scatter_finish()) {
    case testing::ScatterFinish::automatic:
      plan_.listed = can_list && worth_listing;
      plan_.marked = can_list && !plan_.listed && worth_marking;
      break;
    case testing::ScatterFinish::listed: plan_.listed = can_list; break;
    case testing::ScatterFinish::marked: plan_.marked = can_list; break;
    case testing::ScatterFinish::every_slot: break;
  }
}

std::string Scatter::build_options() const {
  const Capabilities& caps = rt_.device_info().caps;
  std::string options = base_options() + define("CLAT_SC_FIXED", plan_.fixed ? 1 : 0) + define("CLAT_SC_WINDOW", plan_.window ? 1 : 0) + define("CLAT_SC_COUNTS", plan_.counts ? 1 : 0) +
                        define("CLAT_SC_SOLO", plan_.solo ? 1 : 0) + define("CLAT_SC_AGG", plan_.agg ? 1 : 0) +
                        define("CLAT_SC_RUNS", plan_.runs ? 1 : 0) + define("CLAT_SC_SORT_ROWS", plan_.sort_rows ? 1 : 0) + define("CLAT_SC_MARKS", plan_.marked ? 1 : 0) + define("CLAT_SC_VEC_RED", caps.nv_compute_capability >= 90 ? 1 : 0);
  options += define("CLAT_SC_MODE", scatter_mode_macro(plan_.strategy));
  if (plan_.marked) options += define("CLAT_SC_MARK_SHIFT", scatter_mark_shift);
  if (plan_.strategy == ScatterStrategy::local_private) options += define("CLAT_SC_SHIFT", plan_.shift);
  if (plan_.strategy == ScatterStrategy::local_cache) options += define("CLAT_SC_SLOTS", (long long)plan_.cache_slots);
  if (plan_.window) options += define("CLAT_SC_GROUP", (long long)plan_.group) + define("CLAT_SC_LIMBS", plan_.limbs ? 1 : 0);
  options += define("CLAT_SC_K", (long long)items_per_step());
  if (caps.correctly_rounded_divide) options += " -cl-fp32-correctly-rounded-divide-sqrt";  // means
  return options;
}

std::uint64_t Scatter::per_launch() const {
  const std::uint64_t rows = std::max<std::uint64_t>(1, launch_elements() / width_);
  return plan_.sort_rows ? std::min(rows, sort_rows_launch) : rows;
}

std::size_t Scatter::launches() const { return std::size_t((call_.count + per_launch() - 1) / per_launch()); }

Scatter::LocalBytesOf Scatter::local_bytes() const {
  std::size_t slots = 1;
  if (plan_.strategy == ScatterStrategy::local_private) slots = slots_ << plan_.shift;
  if (plan_.strategy == ScatterStrategy::local_cache) slots = plan_.cache_slots;
  return {slots * plan_.store_bytes * plan_.words(), (plan_.strategy == ScatterStrategy::local_cache ? slots : 1) * sizeof(cl_uint),
          (plan_.counts ? slots : 1) * sizeof(cl_uint)};
}

bool scatter_limbs_hold(std::uint64_t per_copy, int value_bits) {
  per_copy = std::max<std::uint64_t>(per_copy, 1);
  if (per_copy >> 32) return false;
  int limb = 32;  // clz of a 32-bit per_copy
  while (per_copy >> (32 - limb)) --limb;
  const int shift = value_bits - limb;
  if (shift >= 31) return false;
  const std::uint64_t high = shift >= 0 ? per_copy << shift : (per_copy >> -shift) + 1;
  return high + per_copy < (std::uint64_t(1) << 31);
}

std::uint64_t Scatter::values_per_copy(const Grid& grid, std::uint64_t pairs) const {
  // kernels/scatter.cl: per_group, in its 32-bit arithmetic, over the copies a group has.
  const std::uint32_t step = std::uint32_t(grid.group * items_per_step());
  const std::uint32_t per_group = std::uint32_t((pairs + grid.groups - 1) / grid.groups + step - 1) / step * step;
  return per_group / std::min<std::size_t>(grid.group, std::size_t(1) << plan_.shift);
}

Grid Scatter::accumulate_grid(std::size_t n) const {
  const std::size_t k = items_per_step();
  const std::uint64_t pairs = std::uint64_t(n) * width_, units = (pairs + k - 1) / k;
  Grid grid = make_grid(rt_, kernel_, units, plan_.group, plan_.max_groups);
  if (!plan_.limbs) return grid;
  // The limbs' bound: more groups, each taking fewer values, until it holds (at one step a group
  // at the most, which the plan checked).
  const int value_bits = window_span() + 24;
  while (!scatter_limbs_hold(values_per_copy(grid, pairs), value_bits) && std::uint64_t(grid.groups) * grid.group < units)
    grid = make_grid(rt_, kernel_, units, plan_.group, grid.groups * 2);
  if (!scatter_limbs_hold(values_per_copy(grid, pairs), value_bits)) throw std::logic_error("scatter_reduce: the limbs' bound");
  return grid;
}

ScatterPlan Scatter::plan() {
  choose(sample(build_library_file(rt_, "kernels/scatter_checks.cl", scatter_type_options(info_, call_.index64, tuning_.contiguous))));
  plan_.options = build_options();
  program_ = build_library_file(rt_, plan_.file, plan_.options);
  kernel_ = make_kernel(program_, scatter_kernel_signature());
  const std::size_t first_launch = std::size_t(std::min<std::uint64_t>(per_launch(), call_.count));
  plan_.grid = plan_.sort_rows ? sorted_rows_grid(first_launch) : accumulate_grid(first_launch);
  if (plan_.sort_rows) plan_.kernel = "clat_sr_sum";  // after the grouping's count, starts and place
  plan_.launches = launches();
  const LocalBytesOf local = local_bytes();
  plan_.local_bytes = local.acc + local.tags + local.counts + (plan_.window ? plan_.grid.group * window_item_bytes : 0);
  return plan_;
}

Plan ScatterPlan::plan(const Runtime& rt, const char* what) const {
  Plan out;
  out.algorithm = what;
  out.program = file;
  out.kernel = kernel;
  out.build_options = rt.build_options() + options;
  out.strategy = strategy_name(strategy);
  out.global_size = grid.items(), out.local_size = grid.group;
  const auto text = [](const auto& v) { return detail::plan_text(v); };
  out.tuning = {{"device class", tuning.device_class},
                {"launches", text(launches)},
                {"local bytes", text(local_bytes)},
                {"sample", std::string(sample.sorted ? "sorted" : "unsorted") + ", " + (sample.hot ? "hot" : "spread") +
                               (sample.size ? ", " + text(sample.distinct) + " bins of " + text(sample.size) : "")},
                {"accumulator", std::string(direct ? "out" : "scratch") + (fixed ? ", 128-bit fixed point" : "") + (window ? ", 64-bit window" : "") + (limbs ? ", copies in 32-bit limbs" : "") + (counts ? ", counts" : "") +
                                     (sort_rows ? ", rows sorted by bin" : "") + (listed ? ", finished over the bins reached" : "") +
                                     (marked ? ", finished over the blocks of slots updated" : "")},
                {"group", text(tuning.group)},
                {"max copies", text(tuning.max_copies)},
                {"merging groups per cu", text(tuning.merging_groups_per_cu)},
                {"items per step", text(tuning.items_per_step)},
                {"items per step, deterministic", text(tuning.fixed_items_per_step)},
                {"local reserve", text(tuning.local_reserve)},
                {"cache slots", text(tuning.cache_min_slots) + ".." + text(tuning.cache_max_slots)},
                {"sample size", text(tuning.sample_size)},
                {"hot share", text(tuning.hot_share)},
                {"hot over spread", text(tuning.hot_over_spread)},
                {"small group", text(tuning.small_group)},
                {"small groups per cu", text(tuning.small_groups_per_cu)},
                {"sort rows", tuning.sort_rows ? "yes" : "no"}};
  return out;
}

ScatterPlan plan_scatter(Runtime& rt, const ScatterCall& call, const char* what) {
  Scatter scatter(rt, call, what);
  scatter.check();
  if (Scatter::empty(call) || call.count == 0) return scatter.empty_plan();
  return scatter.plan();
}

Plan scatter_plan(Runtime& rt, const ScatterCall& call) {
  const char* what = scatter_what(call);
  return plan_scatter(rt, call, what).plan(rt, what);
}

}  // namespace clatomics::detail
