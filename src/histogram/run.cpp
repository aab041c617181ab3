// The counting kernels' launches and merges: one histogram's counters allocated, counted into
// launch by launch, and read back.
#include "histogram/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#include "core/runtime_state.hpp"

namespace clatomics::detail::hist {
namespace {

// clat_hist_global, clat_hist_local and clat_hist_private: CLAT_HIST_ARGS.
const char* const counting_params =
    "global in, offset, count, nbins, lo, hi, scale, global edges, global in_y, y_offset, nbins_y, lo_y, hi_y, scale_y, global edges_y, "
    "global w0, w0_offset, global w1, w1_offset, global w2, w2_offset, global w3, w3_offset, global counts, global wsums, local lcounts, "
    "local lweights";

}  // namespace

const Signature global_kernel{"clat_hist_global", counting_params};
const Signature local_kernel{"clat_hist_local", counting_params};
const Signature private_kernel{"clat_hist_private", counting_params};
const Signature merge_kernel{"clat_hist_merge", "global counts, global totals, nslots"};

namespace {

// The counting kernel (and the merge) of plan's program; plan's launch limits completed for the
// work-group size the kernel allows.
struct Kernels {
  LibraryKernel counting, merge;
};
Kernels build_kernels(Runtime& rt, Plan& plan) {
  const Program program = build_library_file(rt, "kernels/histogram/count.cl", plan.options);
  Kernels kernels;
  kernels.counting = make_kernel(program, *plan.kernel);
  if (!plan.direct) kernels.merge = make_kernel(program, merge_kernel);
  if (plan.fill_items) {
    const std::size_t group = make_grid(rt, kernels.counting, 1, plan.group, 1).group;
    plan.max_groups = std::max<std::size_t>(1, plan.fill_items / group);
  }
  return kernels;
}

// The grid of a launch over n elements: one work-item a 16-byte load.
Grid launch_grid(const Runtime& rt, const Setup& setup, const Plan& plan, const Kernel& kernel, std::size_t n) {
  const std::size_t units = n / (16 / setup.position_bytes()) + 1;
  return make_grid(rt, kernel, units, plan.group, plan.max_groups);
}

}  // namespace

Plan plan_call(Runtime& rt, const Setup& setup, HistogramOptions options, std::size_t count) {
  Plan plan = make_plan(rt, setup, options.strategy);
  const Kernels kernels = build_kernels(rt, plan);
  const std::size_t first = std::size_t(std::min<std::uint64_t>(launch_elements(), count));
  const Grid grid = launch_grid(rt, setup, plan, kernels.counting, first);
  plan.global = grid.items();
  plan.local = grid.group;
  return plan;
}

Run::Run(Runtime& rt, const Setup& setup, HistogramOptions options)
    : rt_(rt), setup_(setup), plan_(make_plan(rt, setup, options.strategy)), slots_(setup.slots()), commands_(rt) {
  Kernels kernels = build_kernels(rt, plan_);
  kernel_ = std::move(kernels.counting);
  merge_ = std::move(kernels.merge);
}

// Direct plans count into totals_ themselves: no counts_ to merge. Weights always go straight into
// wtotals_: plan_.wcopies copies of every channel's sums, added up when read.
void Run::start() {
  const auto zeroed = [&](std::size_t bytes) {
    Mem buffer = make_buffer(rt_, bytes);
    commands_.fill_zero(buffer.get(), bytes);
    return buffer;
  };
  totals_ = zeroed(slots_ * 8);
  counts_ = plan_.direct ? totals_ : zeroed(slots_ * 4);
  // Only even bins read edges (and only two axes the second axis'); the others get any valid buffer.
  edges_x_ = setup_.x.edges.empty() ? counts_ : edges_buffer(setup_.x.edges);
  edges_y_ = setup_.y.edges.empty() ? counts_ : edges_buffer(setup_.y.edges);
  wtotals_ = setup_.channels ? zeroed(plan_.wcopies * setup_.channels * slots_ * setup_.acc_bytes()) : counts_;
}

void Run::add(const Inputs& in, std::size_t count) {
  if (setup_.doubles)
    add_as<cl_double>(in, count);
  else
    add_as<cl_float>(in, count);
}

Pending<std::vector<std::uint64_t>> Run::totals_later() {
  const auto out = std::make_shared<std::vector<std::uint64_t>>(slots_);
  if (started()) commands_.read_later(totals_.get(), 0, slots_ * 8, out->data());
  return Pending<std::vector<std::uint64_t>>(commands_, [out] { return std::move(*out); });
}

// A copy's sums that nothing was added to are +0: adding them changes no sum. A pair's hi + lo is
// exact in double (|lo| <= ulp(hi) / 2), and the copies' sum is within 2^-53 of each partial sum
// per add (the first copy's is exact: the bound histogram.hpp states holds).
std::vector<std::vector<double>> Run::weight_sums() {
  const std::size_t acc = setup_.acc_bytes(), bins = setup_.bins(), per_copy = setup_.channels * slots_ * acc;
  if (!started()) return std::vector<std::vector<double>>(setup_.channels, std::vector<double>(bins));
  std::vector<unsigned char> raw(plan_.wcopies * per_copy);
  commands_.read(wtotals_.get(), 0, raw.size(), raw.data());
  std::vector<std::vector<double>> sums(setup_.channels, std::vector<double>(bins));
  for (std::size_t c = 0; c < setup_.channels; ++c)
    for (std::size_t b = 0; b < bins; ++b) {
      double sum = 0;
      for (std::size_t copy = 0; copy < plan_.wcopies; ++copy) {
        const unsigned char* at = raw.data() + copy * per_copy + (c * slots_ + b) * acc;
        float pair[2] = {0, 0};
        double value = 0;
        if (setup_.accumulation == WeightAccumulation::double_atomic)
          std::memcpy(&value, at, 8);
        else
          std::memcpy(pair, at, acc), value = double(pair[0]) + double(pair[1]);
        sum = copy ? sum + value : value;
      }
      // Pairs past float's range are infinities (kernels/histogram/weights.cl); so is their sum
      // where it is (from 0x1.ffffffp127 on, a float rounds to an infinity).
      if (setup_.accumulation == WeightAccumulation::compensated_float2 && std::fabs(sum) >= 0x1.ffffffp127)
        sum = std::copysign(std::numeric_limits<double>::infinity(), sum);
      sums[c][b] = sum;
    }
  return sums;
}

Mem Run::edges_buffer(const std::vector<double>& edges) {
  if (setup_.doubles) return make_buffer(rt_, edges.size() * 8, CL_MEM_READ_ONLY, edges.data());
  const std::vector<float> narrow(edges.begin(), edges.end());  // float values held in double: exact
  return make_buffer(rt_, narrow.size() * 4, CL_MEM_READ_ONLY, narrow.data());
}

template <class P>
void Run::add_as(const Inputs& in, std::size_t count) {
  const std::uint64_t per_launch = launch_elements();
  const bool local = plan_.kernel == &local_kernel;
  const std::size_t local_slots = local ? slots_ << plan_.shift : 1;
  const std::size_t local_weights = setup_.channels ? (local ? slots_ << plan_.wshift : 1) * setup_.channels * setup_.acc_bytes() : 4;
  const Axis& x = setup_.x;
  const Axis& y = setup_.y;
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, count - done));
    const Grid grid = launch_grid(rt_, setup_, plan_, kernel_, n);
    const auto weight = [&](std::size_t c) { return c < in.weights.size() ? in.weights[c].buffer : counts_.get(); };
    const auto weight_offset = [&](std::size_t c) { return cl_ulong(c < in.weights.size() ? in.weights[c].offset + done : 0); };
    // Kinds and plans that do not read an argument still bind it: a valid buffer, a zero.
    bind(kernel_, arg("in", in.values), arg("offset", cl_ulong(in.offset + done)), arg("count", cl_ulong(n)),
                 arg("nbins", cl_uint(setup_.two_d ? x.nbins : setup_.nbins)), arg("lo", P(x.first)),
                 arg("hi", P(x.last)), arg("scale", P(x.scale)), arg("edges", edges_x_),
                 arg("in_y", in.y ? in.y : in.values), arg("y_offset", cl_ulong(in.y ? in.y_offset + done : 0)),
                 arg("nbins_y", cl_uint(y.nbins)), arg("lo_y", P(y.first)), arg("hi_y", P(y.last)),
                 arg("scale_y", P(y.scale)), arg("edges_y", edges_y_), arg("w0", weight(0)),
                 arg("w0_offset", weight_offset(0)), arg("w1", weight(1)), arg("w1_offset", weight_offset(1)),
                 arg("w2", weight(2)), arg("w2_offset", weight_offset(2)), arg("w3", weight(3)),
                 arg("w3_offset", weight_offset(3)), arg("counts", counts_), arg("wsums", wtotals_),
                 arg("lcounts", LocalBytes{local_slots * 4}), arg("lweights", LocalBytes{local_weights}));
    commands_.launch(kernel_, grid);
    if (!plan_.direct) {
      bind(merge_, arg("counts", counts_), arg("totals", totals_), arg("nslots", cl_uint(slots_)));
      commands_.launch(merge_, make_grid(rt_, merge_, slots_, plan_.tuning.merge_group, slots_));
    }
    done += n;
  }
}

}  // namespace clatomics::detail::hist
