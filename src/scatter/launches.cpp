// Scatter's launches: a checked call's accumulation (kernels/scatter.cl) with the kernels around it
// (kernels/scatter_checks.cl): the 16-bit output's widening and narrowing, the fixed-point grid,
// argmin/argmax, and the calls of no values.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "scatter/device_call.hpp"

namespace clatomics::detail {
namespace {

// kernels/scatter.cl, built per op, options and plan.
const Signature scatter_kernel{"clat_scatter",
                               "global idx, idx_off, global val, val_off, first, n, width, vstride, nbins, global acc, acc_off, astride, "
                               "global counts, global flags, e_grid, e_top, global wide, w_lo, w_span, global oor, oor_slot, lslots, local lacc, "
                               "local ltag, "
                               "local lcount"};
const Signature fill_kernel{"clat_scatter_fill", "global acc, n"};
const Signature finish_kernel{"clat_scatter_finish",
                              "global out, out_off, ostride, width, nbins, global acc, global counts, global flags, e_grid, e_top, global wide, "
                              "w_lo, include_self, mean"};
// kernels/scatter_listed.cl, in the same program.
const Signature touch_kernel{"clat_scatter_touch", "global idx, idx_off, n, nbins, global flags, global list"};
const Signature settle_kernel{"clat_scatter_settle", "global out, out_off, ostride, nbins"};
const Signature finish_listed_kernel{"clat_scatter_finish_listed",
                                     "global list, n, global out, out_off, ostride, global acc, global counts, global flags, e_grid, e_top, "
                                     "global wide, w_lo, include_self, mean"};
// kernels/scatter_sorted_rows.cl, in the same program.
const Signature sort_count_kernel{"clat_sr_count", "global idx, idx_off, first, n, nbins, global starts, global ranks, global oor, oor_slot"};
const Signature sort_starts_kernel{"clat_sr_starts", "global starts, nbins, local scratch"};
const Signature sort_place_kernel{"clat_sr_place", "global idx, idx_off, first, n, nbins, global starts, global ranks, global entries"};
const Signature sort_sum_kernel{"clat_sr_sum",
                                "global entries, global starts, nbins, global val, val_off, first, width, vstride, global acc, acc_off, astride, "
                                "global counts, global flags, e_grid, e_top, global wide, w_lo, w_span, global oor"};
constexpr std::uint64_t sort_rows_stretch = 64;  // CLAT_SR_STRETCH
const Signature arg_kernel{"clat_scatter_arg",
                           "global idx, idx_off, global val, val_off, first, n, nbins, global out, out_off, global arg, arg_off"};
// kernels/scatter_checks.cl, built per type.
const Signature top_kernel{"clat_scatter_top", "global val, val_off, first, n, stride, width, vstride, global top"};
const Signature fill_ulong_kernel{"clat_scatter_fill_ulong", "global p, off, n, value"};
// A 16-bit output widened into float scratch and narrowed back: the same parameters.
const Signature widen16_kernel{"clat_scatter_widen16", "global out, off, stride, width, bins, global wide"};
const Signature narrow16_kernel{"clat_scatter_narrow16", widen16_kernel.params};
// kernels/scatter_empty_segments.cl, built per type.
const Signature fill_rows_kernel{"clat_scatter_fill_rows", "global out, off, ostride, width, nbins, one"};

// Fixed point: the grid's top guessed from a sample's largest value, with 2^headroom to spare.
constexpr int fixed_headroom = 8;

}  // namespace

const Signature& scatter_kernel_signature() { return scatter_kernel; }

void Scatter::bind_16bit(const LibraryKernel& kernel, cl_mem out16, std::size_t offset, std::size_t stride, const Mem& wide) const {
  bind(kernel, arg("out", out16), arg("off", cl_ulong(offset)), arg("stride", cl_ulong(stride)), arg("width", cl_uint(width_)),
       arg("bins", cl_ulong(call_.bins)), arg("wide", wide));
}

// The fixed-point grid's top: the largest biased double exponent of the values at `rows` evenly
// spaced positions (all of them when rows == count).
int Scatter::values_top(const Program& checks, std::size_t rows) {
  const LibraryKernel kernel = make_kernel(checks, top_kernel);
  const cl_uint zero = 0;
  const Mem top = make_buffer(rt_, sizeof(cl_uint), CL_MEM_READ_WRITE, &zero);
  const std::size_t stride = call_.count / rows;
  for (std::size_t done = 0; done < rows;) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch(), rows - done));
    bind(kernel, arg("val", call_.values), arg("val_off", cl_ulong(call_.values_offset)), arg("first", cl_ulong(done * stride)),
         arg("n", cl_ulong(n)), arg("stride", cl_ulong(stride)), arg("width", cl_uint(width_)), arg("vstride", cl_ulong(vstride_)),
         arg("top", top));
    commands_.launch(kernel, small_grid(kernel, n * width_));
    done += n;
  }
  cl_uint biased = 0;
  commands_.read(top.get(), 0, sizeof biased, &biased);
  // Values that are all zero have no exponent: the lowest top whose grid keeps a zero (the
  // kernel keeps a float whose own exponent is at most top - 896, a double's at most top).
  return std::max(int(biased), call_.type == ScatterType::f64 ? 0 : 896);
}

// The lowest bit's weight 2^e_grid, so that the sum of count values and out's own below
// 2^(top - 1022) stays below 2^126 (two's complement in 128 bits).
int Scatter::fixed_grid(int top) const {
  int bits = 0;
  for (std::uint64_t c = std::uint64_t(call_.count) + 1; c; c >>= 1) ++bits;  // count + 1 < 2^bits
  return top - 1022 + bits - 126;
}

int Scatter::window_span() const {
  int bits = 0;
  for (std::uint64_t c = std::uint64_t(call_.count) + 1; c; c >>= 1) ++bits;  // count < 2^bits
  return 39 - bits;
}

// The window: float exponents [lo, lo + span] whose values are integers in units of 2^(lo - 150)
// on the grid (lo - 150 >= e_grid) and whose count-fold sum stays below 2^63 (count * 2^(span +
// 24) <= 2^63), under the largest exponent the grid keeps and one above the likely top (the
// sample's largest), reaching down as far as that allows; 2^(150 - lo) must be a normal float.
Scatter::Window Scatter::window(int e_grid, int e_top, int likely_top) const {
  Window w;
  if (!plan_.window) return w;
  const int span = window_span();
  const int keep = std::min(e_top - 896, 254);  // kernels/scatter_runs.cl, CLAT_SC_KEEP_LIMIT
  const int hi = std::min(keep, likely_top - 896 + 1);
  const int lo = std::max({hi - span, 23, e_grid + 150});
  if (span < 0 || lo > hi) return w;
  w.lo = lo;
  w.span = cl_uint(hi - lo);
  return w;
}

// A call of no values: empty segments get the empty reduction (include_self false), arg "no
// element".
ScatterResult Scatter::run_nothing(const Program& checks) {
  ScatterResult result;
  result.strategy = scatter_asked_strategy(call_.options);
  if (call_.segments && !call_.options.include_self) {  // every segment is empty
    const Program empty = build_library_file(rt_, "kernels/scatter_empty_segments.cl", scatter_type_options(info_, call_.index64, tuning_.contiguous));
    const LibraryKernel fill = make_kernel(empty, fill_rows_kernel);
    bind(fill, arg("out", call_.out), arg("off", cl_ulong(call_.out_offset)), arg("ostride", cl_ulong(ostride_)),
         arg("width", cl_uint(width_)), arg("nbins", cl_ulong(call_.bins)), arg("one", cl_uint(call_.op == ScatterOp::prod ? 1 : 0)));
    commands_.launch(fill, small_grid(fill, slots_));
    cl_uint done = 0;  // the call returns with its commands done (an offset's first 4 bytes)
    commands_.read(call_.indices, call_.indices_offset * index_size_, sizeof done, &done);
  }
  if (call_.with_arg) {
    const LibraryKernel fill = make_kernel(checks, fill_ulong_kernel);
    bind(fill, arg("p", call_.arg), arg("off", cl_ulong(call_.arg_offset)), arg("n", cl_ulong(call_.bins)), arg("value", cl_ulong(0)));
    commands_.launch(fill, small_grid(fill, call_.bins));
    cl_ulong first_arg = 0;  // the call returns with its commands done
    commands_.read(call_.arg, call_.arg_offset * sizeof(cl_ulong), sizeof first_arg, &first_arg);
  }
  return result;
}

ScatterResult Scatter::run() {
  if (empty(call_)) return run_empty();
  // Checks that read the device's data: the output is untouched until they pass.
  const Program checks = build_library_file(rt_, "kernels/scatter_checks.cl", scatter_type_options(info_, call_.index64, tuning_.contiguous));
  if (call_.segments) check_offsets(checks);
  if (call_.count == 0) return run_nothing(checks);
  if (!call_.segments && call_.options.out_of_range == OutOfRange::refuse) check_indices(checks);
  // Every check has passed. A 16-bit output: the call runs on float scratch widened from it (its
  // rows contiguous), rounded into it once at the end (kernels/scatter_checks.cl).
  const cl_mem out16 = call_.out;
  const std::size_t out16_offset = call_.out_offset, out16_stride = ostride_;
  Mem wide;
  if (call_.out16) {
    wide = make_buffer(rt_, slots_ * sizeof(cl_float));
    const LibraryKernel widen = make_kernel(checks, widen16_kernel);
    bind_16bit(widen, out16, out16_offset, out16_stride, wide);
    commands_.launch(widen, small_grid(widen, slots_));
    call_.out = wide.get();
    call_.out_offset = 0;
    ostride_ = width_;
  }
  plan();
  ScatterResult result;
  result.strategy = plan_.strategy;
  const Program& program = program_;
  // Fixed point: a grid from a sample's largest value with room to spare; a value above it sends
  // the call round again with the grid of the true largest (found by a pass over the values).
  if (plan_.fixed) {
    const int sampled = values_top(checks, std::min(tuning_.sample_size, call_.count));
    const int guess = sampled + fixed_headroom;
    if (!accumulate(program, fixed_grid(guess), guess, sampled, result)) {
      const int top = values_top(checks, call_.count);
      if (!accumulate(program, fixed_grid(top), top, top, result))
        throw std::logic_error("clatomics: scatter_reduce: a value lay above the grid of the largest value");
    }
  } else {
    accumulate(program, 0, 0, 0, result);
  }
  if (call_.with_arg) find_arg(checks, program);
  if (call_.out16) {
    const LibraryKernel narrow = make_kernel(checks, narrow16_kernel);
    bind_16bit(narrow, out16, out16_offset, out16_stride, wide);
    commands_.launch(narrow, small_grid(narrow, slots_));
    cl_ushort first = 0;  // the call returns with its commands done
    commands_.read(out16, out16_offset * sizeof first, sizeof first, &first);
  }
  return result;
}

// argmin/argmax: arg at "no element" (count), then the lowest position of each bin's result.
void Scatter::find_arg(const Program& checks, const Program& program) {
  const LibraryKernel fill = make_kernel(checks, fill_ulong_kernel);
  bind(fill, arg("p", call_.arg), arg("off", cl_ulong(call_.arg_offset)), arg("n", cl_ulong(call_.bins)),
       arg("value", cl_ulong(call_.count)));
  commands_.launch(fill, small_grid(fill, call_.bins));
  const LibraryKernel kernel = make_kernel(program, arg_kernel);
  bind(kernel, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("val", call_.values),
       arg("val_off", cl_ulong(call_.values_offset)), arg("first", cl_ulong(0)), arg("n", cl_ulong(call_.count)),
       arg("nbins", cl_ulong(call_.bins)), arg("out", call_.out), arg("out_off", cl_ulong(call_.out_offset)), arg("arg", call_.arg),
       arg("arg_off", cl_ulong(call_.arg_offset)));
  commands_.launch(kernel, small_grid(kernel, call_.count));
  cl_ulong first_arg = 0;  // the call returns with its commands done
  commands_.read(call_.arg, call_.arg_offset * sizeof(cl_ulong), sizeof first_arg, &first_arg);
}

// Every element into the accumulator, then (unless it is out itself) into out. Returns false,
// out untouched, when a fixed-point value lay above e_top (the grid must be redone). likely_top:
// where the window of float values ends (the sample's largest exponent, or the true one).
bool Scatter::accumulate(const Program& program, int e_grid, int e_top, int likely_top, ScatterResult& result) {
  // The accumulator: out itself, or scratch slots at the identity (plus counts and flags). The
  // fixed point's slots, flags and window sums are lent by the runtime at zero and left at zero
  // by the finish, which clears what it reads (core/zeroed_scratch.hpp); a call that stops
  // before its finish releases them.
  ScratchLease scratch, flags, wide, listed;
  Mem own_scratch, counts;
  const Window window = this->window(e_grid, e_top, likely_top);
  cl_mem acc = call_.out;
  std::size_t acc_offset = call_.out_offset, astride = ostride_;
  const auto lease = [&](std::size_t bytes, bool accumulator_slots) {
    ScratchLease lent = state_of(rt_).scratch.take(rt_, bytes);
    if (lent.fresh() && accumulator_slots) fill_slots(program, lent.get());
    else if (lent.fresh()) commands_.fill_zero(lent.get(), bytes);
    return lent;
  };
  if (!plan_.direct) {
    const std::size_t bytes = slots_ * plan_.store_bytes * plan_.words();
    if (plan_.fixed) {
      scratch = lease(bytes, true);
      acc = scratch.get();
    } else {
      own_scratch = make_buffer(rt_, bytes);
      fill_slots(program, own_scratch.get());
      acc = own_scratch.get();
    }
    acc_offset = 0;
    astride = width_;
  }
  if (plan_.counts) {
    counts = make_buffer(rt_, call_.bins * sizeof(cl_ulong));
    commands_.fill_zero(counts.get(), call_.bins * sizeof(cl_ulong));
  }
  // The marked finish's words ahead of the slots' flags: one a block of slots (scatter_fixed.cl).
  const std::size_t mark_words = (slots_ + (std::size_t(1) << scatter_mark_shift) - 1) >> scatter_mark_shift;
  const std::size_t mark_bytes = plan_.marked ? mark_words * sizeof(cl_uint) : 0;
  if (plan_.fixed) flags = lease(mark_bytes + slots_ * sizeof(cl_uint), false);
  if (plan_.window) wide = lease(slots_ * 2 * sizeof(cl_ulong), false);  // the 128-bit sums of the values outside the window
  if (plan_.listed) {  // the bins the values reach, marked in flags and listed by position
    listed = lease(call_.count * sizeof(cl_uint), false);
    const LibraryKernel touch = make_kernel(program, touch_kernel);
    bind(touch, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("n", cl_ulong(call_.count)),
         arg("nbins", cl_ulong(call_.bins)), arg("flags", flags.get()), arg("list", listed.get()));
    commands_.launch(touch, small_grid(touch, call_.count));
  }
  // Launches of fewer than 2^32 (element, column) pairs: 32-bit positions, run lengths and
  // tallies. tally[0]: a value above the grid; tally[1 + l]: launch l's indices >= bins.
  const std::uint64_t per_launch = this->per_launch();
  const std::size_t launches = this->launches();
  const Mem tally = make_buffer(rt_, (launches + 1) * sizeof(cl_uint));
  commands_.fill_zero(tally.get(), (launches + 1) * sizeof(cl_uint));
  cl_mem no_buffer = tally.get();  // any valid buffer, for arguments the program does not use
  const Slots slots{acc,
                    acc_offset,
                    astride,
                    counts ? counts.get() : no_buffer,
                    flags ? flags.get() : no_buffer,
                    wide ? wide.get() : no_buffer,
                    e_grid,
                    e_top,
                    window,
                    tally.get()};
  SortScratch sort;
  if (plan_.sort_rows) {
    sort.starts = make_buffer(rt_, (call_.bins + 1) * sizeof(cl_uint));
    const std::size_t rows = std::size_t(std::min<std::uint64_t>(per_launch, call_.count));
    sort.ranks = make_buffer(rt_, rows * sizeof(cl_uint));
    sort.entries = make_buffer(rt_, (rows + 1) * 2 * sizeof(cl_uint));  // clat_sr_sum reads entries in pairs
  }
  for (std::size_t l = 0; l < launches; ++l) {
    const std::size_t first = l * per_launch, n = std::size_t(std::min<std::uint64_t>(per_launch, call_.count - first));
    if (plan_.sort_rows) launch_sorted_rows(l, first, n, slots, sort);
    else launch_in_place(l, first, n, slots);
  }
  std::vector<cl_uint> tallies(launches + 1);
  if (plan_.fixed) {
    commands_.read(tally.get(), 0, sizeof(cl_uint), tallies.data());
    if (tallies[0]) return false;
  }
  // The bins no value reached, as the finish of every slot leaves them: it writes them where it
  // keeps no counts (sums with include_self), and leaves them alone where it does.
  if (plan_.listed && !plan_.counts) {
    const LibraryKernel settle = make_kernel(program, settle_kernel);
    bind(settle, arg("out", call_.out), arg("out_off", cl_ulong(call_.out_offset)), arg("ostride", cl_ulong(ostride_)),
         arg("nbins", cl_ulong(call_.bins)));
    commands_.launch(settle, small_grid(settle, call_.bins));
  }
  // The finish over the bins listed or over every slot: its own arguments, then clat_sc_finish_slot's.
  const auto finish = [&](const Signature& signature, std::size_t items, const auto&... own) {
    const LibraryKernel kernel = make_kernel(program, signature);
    bind(kernel, own..., arg("out", call_.out), arg("out_off", cl_ulong(call_.out_offset)), arg("ostride", cl_ulong(ostride_)),
         arg("acc", slots.acc), arg("counts", slots.counts), arg("flags", slots.flags), arg("e_grid", cl_int(slots.e_grid)),
         arg("e_top", cl_int(slots.e_top)), arg("wide", slots.wide), arg("w_lo", cl_int(slots.window.lo)),
         arg("include_self", cl_uint(call_.options.include_self ? 1 : 0)), arg("mean", cl_uint(call_.op == ScatterOp::mean ? 1 : 0)));
    commands_.launch(kernel, small_grid(kernel, items));
  };
  if (plan_.listed) finish(finish_listed_kernel, call_.count, arg("list", listed.get()), arg("n", cl_ulong(call_.count)));
  else if (!plan_.direct) finish(finish_kernel, slots_, arg("width", cl_uint(width_)), arg("nbins", cl_ulong(call_.bins)));
  commands_.fill_zero(flags.get(), mark_bytes);  // the finish read the marks: cleared after it
  commands_.read(tally.get(), 0, (launches + 1) * sizeof(cl_uint), tallies.data());
  for (std::size_t l = 1; l <= launches; ++l) result.out_of_range += tallies[l];
  // The finish has cleared what it read, and the read above waited for it.
  for (ScratchLease* lent : {&scratch, &flags, &wide, &listed}) lent->mark_zeroed();
  return true;
}

// The slots of a fresh accumulator at the identity (kernels/scatter_finish.cl's fill).
void Scatter::fill_slots(const Program& program, cl_mem acc) {
  const LibraryKernel fill = make_kernel(program, fill_kernel);
  bind(fill, arg("acc", acc), arg("n", cl_ulong(slots_)));
  commands_.launch(fill, small_grid(fill, slots_));
}

void Scatter::launch_in_place(std::size_t l, std::size_t first, std::size_t n, const Slots& slots) {
  const LibraryKernel& kernel = kernel_;  // made by plan()
  const LocalBytesOf local = local_bytes();
  bind(kernel, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("val", call_.values),
       arg("val_off", cl_ulong(call_.values_offset)), arg("first", cl_ulong(first)), arg("n", cl_ulong(n)), arg("width", cl_uint(width_)),
       arg("vstride", cl_ulong(vstride_)), arg("nbins", cl_ulong(call_.bins)), arg("acc", slots.acc), arg("acc_off", cl_ulong(slots.offset)),
       arg("astride", cl_ulong(slots.stride)), arg("counts", slots.counts), arg("flags", slots.flags), arg("e_grid", cl_int(slots.e_grid)),
       arg("e_top", cl_int(slots.e_top)), arg("wide", slots.wide), arg("w_lo", cl_int(slots.window.lo)), arg("w_span", slots.window.span),
       arg("oor", slots.tally), arg("oor_slot", cl_uint(1 + l)),
       arg("lslots", cl_uint(plan_.strategy == ScatterStrategy::local_private ? slots_ : 0)), arg("lacc", LocalBytes{local.acc}),
       arg("ltag", LocalBytes{local.tags}), arg("lcount", LocalBytes{local.counts}));
  commands_.launch(kernel, accumulate_grid(n));
}

// The rows counted by bin, each bin given its first entry, the rows placed, then summed.
void Scatter::launch_sorted_rows(std::size_t l, std::size_t first, std::size_t n, const Slots& slots, const SortScratch& scratch) {
  const LibraryKernel count = make_kernel(program_, sort_count_kernel), begin = make_kernel(program_, sort_starts_kernel),
                      place = make_kernel(program_, sort_place_kernel), sum = make_kernel(program_, sort_sum_kernel);
  const cl_uint bins = cl_uint(call_.bins);  // the plan keeps bins below 2^32
  commands_.fill_zero(scratch.starts.get(), (std::size_t(bins) + 1) * sizeof(cl_uint));
  bind(count, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("first", cl_ulong(first)), arg("n", cl_uint(n)),
       arg("nbins", bins), arg("starts", scratch.starts), arg("ranks", scratch.ranks), arg("oor", slots.tally), arg("oor_slot", cl_uint(1 + l)));
  commands_.launch(count, small_grid(count, n));
  const Grid scan = small_grid(begin, bins);
  bind(begin, arg("starts", scratch.starts), arg("nbins", bins), arg("scratch", LocalBytes{scan.group * sizeof(cl_uint)}));
  commands_.launch(begin, scan);
  bind(place, arg("idx", call_.indices), arg("idx_off", cl_ulong(call_.indices_offset)), arg("first", cl_ulong(first)), arg("n", cl_uint(n)),
       arg("nbins", bins), arg("starts", scratch.starts), arg("ranks", scratch.ranks), arg("entries", scratch.entries));
  commands_.launch(place, small_grid(place, n));
  bind(sum, arg("entries", scratch.entries), arg("starts", scratch.starts), arg("nbins", bins), arg("val", call_.values),
       arg("val_off", cl_ulong(call_.values_offset)), arg("first", cl_ulong(first)), arg("width", cl_uint(width_)),
       arg("vstride", cl_ulong(vstride_)), arg("acc", slots.acc), arg("acc_off", cl_ulong(slots.offset)), arg("astride", cl_ulong(slots.stride)),
       arg("counts", slots.counts), arg("flags", slots.flags), arg("e_grid", cl_int(slots.e_grid)), arg("e_top", cl_int(slots.e_top)),
       arg("wide", slots.wide), arg("w_lo", cl_int(slots.window.lo)), arg("w_span", slots.window.span), arg("oor", slots.tally));
  commands_.launch(sum, sorted_rows_grid(sum, n));
}

Grid Scatter::sorted_rows_grid(const Kernel& sum, std::size_t n) const {
  const std::uint64_t stretches = (std::uint64_t(n) + sort_rows_stretch - 1) / sort_rows_stretch;
  return make_grid(rt_, sum, stretches * width_, plan_.group, plan_.max_groups);
}

Grid Scatter::sorted_rows_grid(std::size_t n) const { return sorted_rows_grid(make_kernel(program_, sort_sum_kernel), n); }

}  // namespace clatomics::detail
