// compact (kernels/compact.cl, with the predicate compiled in as a function of x and its values).
// GPUs: one pass over tiles (coalesced loads, a work-group scan, coalesced writes), placed by a
// "take a number" counter or, to keep the order, by decoupled look-back. CPUs: each work-item's
// contiguous elements, placed by the counter or by count + scan + scatter.
#include "clatomics/compact.hpp"

#include <stdexcept>
#include <type_traits>

#include "clatomics/device_group.hpp"
#include "compact/predicate.hpp"
#include "core/buffer_checks.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/plan_request.hpp"
#include "core/runtime_state.hpp"
#include "core/source_text.hpp"
#include "core/testing.hpp"
#include "groups/engine.hpp"

namespace clatomics {
namespace {

const detail::Signature tiles_kernel{"clat_compact_tiles", "global in, offset, count, global clat_p, global out, out_base, global scratch, stable"};
const detail::Signature unstable_kernel{"clat_compact_unstable",
                                        "global in, offset, count, global clat_p, global out, out_base, global counter, local scratch"};
const detail::Signature count_kernel{"clat_compact_count", "global in, offset, count, global clat_p, global block_counts, local scratch"};
const detail::Signature scan_kernel{"clat_compact_scan", "global block_counts, nblocks, global block_offsets, local scratch"};
const detail::Signature scatter_kernel{"clat_compact_scatter",
                                       "global in, offset, count, global clat_p, global out, out_base, global block_offsets, local scratch"};

// The predicate as the body of clat_compact_keep(x, clat_p) and the values clat_p points to.
template <class T>
struct Keep {
  std::string body;
  std::vector<T> values;
};

// Structured: one body per shape; the values are data.
template <class T>
Keep<T> keep_of(const Predicate& predicate) {
  return {"  return " + detail::predicate_shape(predicate, detail::cl_type_name<T>()) + ";", detail::predicate_values<T>(predicate)};
}

// Text: checked token by token before it goes anywhere near the compiler. #line: the compiler's
// messages about it point at the predicate's own line 1.
template <class T>
Keep<T> keep_of(const std::string& expression) {
  detail::validate_predicate_expression(expression);
  return {"#line 1 \"predicate\"\n  return (" + expression + ");", {}};
}

// The kernels for one predicate and element type, built once (the runtime caches programs).
template <class T>
class Compactor {
 public:
  Compactor(Runtime& rt, const Keep<T>& keep) : rt_(rt) {
    const auto& caps = rt.device_info().caps;
    const testing::CompactPlan plan = testing::compact_plan();
    cpu_ = !caps.is_gpu();
    groups_ = detail::resident_groups(caps);
    const std::string name = detail::cl_type_name<T>();
    source_ = "#define CLAT_COMPACT_T " + name + "\n#define CLAT_COMPACT_USER_PREDICATE 1\n" +
              "static inline bool clat_compact_keep(" + name + " x, __global const " + name + " *clat_p) {\n" + keep.body +
              "\n}\n" + detail::embedded_source("kernels/compact.cl");  // which starts with its own #line
    if (plan.path == testing::CompactPath::one_pass || (plan.path == testing::CompactPath::automatic && !cpu_))
      one_pass_ = build_one_pass(caps, rt.device_info().local_mem_usable, plan);
    if (!one_pass_) {
      // GPUs: 256 work-items of 8 elements per block; CPUs: one work-item of 1024 per block.
      group_ = cpu_ ? 1 : 256;
      k_ = cpu_ ? 1024 : 8;
      options_ = detail::define("CLAT_COMPACT_K", (long long)k_) + detail::define("CLAT_COMPACT_STAGE", cpu_ ? 1 : 0);
      program_ = detail::build_cached(detail::state_of(rt), source_, options_);
    }
    // OpenCL has no empty buffers: a predicate without values gets one unused element.
    const std::vector<T> values = keep.values.empty() ? std::vector<T>(1) : keep.values;
    values_ = detail::make_buffer(rt, values.size() * sizeof(T), CL_MEM_READ_ONLY, values.data());
  }

  // Ranges already checked; returns the number kept, written to out from element out_offset.
  std::size_t run(detail::Commands& commands, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                  bool stable) {
    if (one_pass_) return run_tiles(commands, in, offset, count, out, out_offset, stable);
    return stable ? run_stable(commands, in, offset, count, out, out_offset) : run_unstable(commands, in, offset, count, out, out_offset);
  }

  // The first launch over count elements, as a plan (the predicate's source is prepended to
  // kernels/compact.cl, so the program is that file after the predicate).
  void plan(std::size_t count, bool stable, Plan& plan) const {
    const detail::Signature& main = one_pass_ ? tiles_kernel : stable ? count_kernel : unstable_kernel;
    detail::Grid grid;
    if (one_pass_)
      grid = tiles_grid(count);
    else if (stable)
      grid = stable_grid(detail::make_kernel(program_, count_kernel), detail::make_kernel(program_, scatter_kernel), count);
    else
      grid = unstable_grid(detail::make_kernel(program_, unstable_kernel), count);
    plan.strategy = one_pass_ ? (stable ? "one pass, tiles in order by decoupled look-back" : "one pass, tiles claim their places")
                              : (stable ? "count, scan of the block counts, scatter" : "one pass, a global counter");
    plan.kernel = main.kernel;
    plan.build_options = rt_.build_options() + options_;
    plan.global_size = grid.items(), plan.local_size = grid.group;
    plan.tuning = {{"work-group", std::to_string(group_)}, {"elements per work-item", std::to_string(k_)},
                   {"most work-groups", std::to_string(groups())}};
  }

 private:
  // The one-pass kernel for tiles of group_ * k_ elements, where the device has the __local
  // memory for a tile and runs a work-group of that size; false leaves the count + scan path.
  bool build_one_pass(const Capabilities& caps, cl_ulong local_mem, const testing::CompactPlan& plan) {
    group_ = plan.group ? plan.group : 256;
    k_ = plan.per_item;
    const auto local_bytes = [&] { return (group_ * k_ + group_ * k_ / 32) * sizeof(T) + (std::max<std::size_t>(group_, 35) + 1) * 4; };
    // The largest tile the __local memory holds, down to 8 elements a work-item: for two
    // work-groups per compute unit at least; on NVIDIA for one, since the size it reports is a
    // work-group's limit, not the compute unit's, and 32 elements (32 KiB tiles, half the
    // per-tile round trips of 16) measured 0.32x -> 0.45x of a read-only pass on the H200.
    if (!plan.per_item) {
      const std::size_t groups = caps.nvidia ? 1 : 2;
      for (k_ = caps.nvidia ? 32 : 16; k_ > 8 && groups * local_bytes() > local_mem; k_ /= 2) {
      }
    }
    if (local_bytes() > local_mem || group_ > caps.max_work_group_size) return false;
    options_ = " -DCLAT_COMPACT_ONE_PASS" + detail::define("CLAT_COMPACT_G", (long long)group_) + detail::define("CLAT_COMPACT_K", (long long)k_);
    program_ = detail::build_cached(detail::state_of(rt_), source_, options_);
    tiles_ = detail::make_kernel(program_, tiles_kernel);
    return detail::kernel_group_limit(rt_, tiles_) >= group_;
  }

  // Launches of fewer than 2^30 elements (the kernel's status words hold 30-bit counts), each a
  // whole number of tiles but the last.
  std::size_t run_tiles(detail::Commands& commands, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                        bool stable) {
    const std::size_t tile = group_ * k_;
    std::uint64_t per_launch = std::min<std::uint64_t>(detail::launch_elements(), (std::uint64_t(1) << 30) - 1);
    if (per_launch >= tile) per_launch -= per_launch % tile;
    // scratch[0]: the tile counter; then the kept counter (unstable) or one status word per tile.
    const std::size_t words = 1 + (stable ? blocks(std::size_t(std::min<std::uint64_t>(per_launch, count)), group_) : 1);
    const detail::Mem scratch = detail::make_buffer(rt_, words * sizeof(cl_uint));
    std::size_t kept = 0;
    for (std::size_t done = 0; done < count;) {
      const std::size_t n = std::size_t(std::min<std::uint64_t>(per_launch, count - done)), ntiles = blocks(n, group_);
      const detail::Grid grid = tiles_grid(n);
      commands.fill_zero(scratch.get(), (1 + (stable ? ntiles : 1)) * sizeof(cl_uint));
      detail::bind(tiles_, detail::arg("in", in), detail::arg("offset", cl_ulong(offset + done)), detail::arg("count", cl_ulong(n)),
                   detail::arg("clat_p", values_), detail::arg("out", out), detail::arg("out_base", cl_ulong(out_offset + kept)),
                   detail::arg("scratch", scratch), detail::arg("stable", cl_uint(stable)));
      commands.launch(tiles_, grid);
      cl_uint word = 0;  // the last tile's prefix, or the kept counter
      commands.read(scratch.get(), (stable ? ntiles : 1) * sizeof(cl_uint), sizeof word, &word);
      kept += stable ? (word & 0x3fffffffu) : word;
      done += n;
    }
    return kept;
  }

  std::size_t run_unstable(detail::Commands& commands, cl_mem in, std::size_t offset, std::size_t count, cl_mem out,
                           std::size_t out_offset) {
    const detail::LibraryKernel kernel = detail::make_kernel(program_, unstable_kernel);
    const detail::Mem counter = detail::make_buffer(rt_, sizeof(cl_uint));
    std::size_t kept = 0;
    // The counter is 32-bit: launches stay below 2^32 elements.
    for (std::size_t done = 0; done < count;) {
      const std::size_t n = std::size_t(std::min<std::uint64_t>(detail::launch_elements(), count - done));
      const detail::Grid grid = unstable_grid(kernel, n);
      commands.fill_zero(counter.get(), sizeof(cl_uint));
      detail::bind(kernel, detail::arg("in", in), detail::arg("offset", cl_ulong(offset + done)), detail::arg("count", cl_ulong(n)),
                   detail::arg("clat_p", values_), detail::arg("out", out), detail::arg("out_base", cl_ulong(out_offset + kept)),
                   detail::arg("counter", counter), detail::arg("scratch", detail::LocalBytes{grid.group * sizeof(cl_uint)}));
      commands.launch(kernel, grid);
      cl_uint launch_kept = 0;
      commands.read(counter.get(), 0, sizeof launch_kept, &launch_kept);
      kept += launch_kept;
      done += n;
    }
    return kept;
  }

  std::size_t run_stable(detail::Commands& commands, cl_mem in, std::size_t offset, std::size_t count, cl_mem out,
                         std::size_t out_offset) {
    const detail::LibraryKernel counts = detail::make_kernel(program_, count_kernel);
    const detail::LibraryKernel scan = detail::make_kernel(program_, scan_kernel);
    const detail::LibraryKernel scatter = detail::make_kernel(program_, scatter_kernel);
    const detail::Grid grid = stable_grid(counts, scatter, count);
    const std::size_t nblocks = blocks(count, grid.group);
    const detail::Grid one = detail::make_grid(rt_, scan, nblocks, 256, 1);
    const detail::Mem block_counts = detail::make_buffer(rt_, nblocks * sizeof(cl_uint));
    const detail::Mem block_offsets = detail::make_buffer(rt_, (nblocks + 1) * sizeof(cl_ulong));
    const detail::LocalBytes group_scratch{grid.group * sizeof(cl_uint)};
    detail::bind(counts, detail::arg("in", in), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
                 detail::arg("clat_p", values_), detail::arg("block_counts", block_counts), detail::arg("scratch", group_scratch));
    detail::bind(scan, detail::arg("block_counts", block_counts), detail::arg("nblocks", cl_ulong(nblocks)),
                 detail::arg("block_offsets", block_offsets), detail::arg("scratch", detail::LocalBytes{one.group * sizeof(cl_uint)}));
    detail::bind(scatter, detail::arg("in", in), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
                 detail::arg("clat_p", values_), detail::arg("out", out), detail::arg("out_base", cl_ulong(out_offset)),
                 detail::arg("block_offsets", block_offsets), detail::arg("scratch", group_scratch));
    commands.launch(counts, grid);
    commands.launch(scan, one);
    commands.launch(scatter, grid);
    cl_ulong kept = 0;
    commands.read(block_offsets.get(), nblocks * sizeof(cl_ulong), sizeof kept, &kept);
    return std::size_t(kept);
  }

  std::size_t blocks(std::size_t n, std::size_t group) const { return (n + group * k_ - 1) / (group * k_); }

  // The launches' shapes, for the runs and the plan alike. One pass: a work-group per tile.
  detail::Grid tiles_grid(std::size_t n) const {
    return detail::make_grid(rt_, tiles_, std::uint64_t(blocks(n, group_)) * group_, group_, groups());
  }
  detail::Grid unstable_grid(const detail::Kernel& kernel, std::size_t n) const {
    return detail::make_grid(rt_, kernel, blocks(n, group_), group_, groups());
  }
  // Count and scatter must cut the same blocks: one work-group size that both kernels run.
  detail::Grid stable_grid(const detail::Kernel& counts, const detail::Kernel& scatter, std::size_t count) const {
    detail::Grid grid = detail::make_grid(rt_, counts, 1, group_, 1);
    grid = detail::make_grid(rt_, scatter, 1, grid.group, 1);
    grid.groups = std::max<std::size_t>(1, std::min(blocks(count, grid.group), groups()));
    return grid;
  }
  std::size_t groups() const { return groups_; }

  Runtime& rt_;
  std::string source_, options_;
  detail::Program program_;
  detail::LibraryKernel tiles_;
  detail::Mem values_;
  bool cpu_ = false, one_pass_ = false;
  std::size_t groups_ = 1, group_ = 1, k_ = 1;
};

template <class T, class P>
std::size_t compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                            const P& predicate, CompactOptions options) {
  using namespace detail;
  const BufferRange input{"compact: in", in, offset, count, sizeof(T), Access::read};
  const BufferRange output{"compact: out (must hold count elements)", out, out_offset, count, sizeof(T), Access::write};
  check_range(rt, input);
  check_range(rt, output);
  // Other work-groups would overwrite elements before they were read.
  check_disjoint(output, input);
  Compactor<T> compactor(rt, keep_of<T>(predicate));  // a bad predicate throws here
  if (count == 0) return 0;
  Commands commands(rt);
  return compactor.run(commands, in, offset, count, out, out_offset, options.stable);
}

template <class T, class P>
std::vector<T> compact_host(Runtime& rt, const std::vector<T>& in, const P& predicate, CompactOptions options) {
  Compactor<T> compactor(rt, keep_of<T>(predicate));
  std::vector<T> kept;
  if (in.empty()) return kept;
  const std::size_t chunk = detail::chunk_elements(rt, in.size(), sizeof(T), 2);
  const detail::Mem din = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  const detail::Mem dout = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_WRITE);
  detail::Commands commands(rt);
  for (std::size_t first = 0; first < in.size(); first += chunk) {
    const std::size_t n = std::min(chunk, in.size() - first);
    commands.write(din.get(), 0, n * sizeof(T), in.data() + first);
    const std::size_t m = compactor.run(commands, din.get(), 0, n, dout.get(), 0, options.stable);
    kept.resize(kept.size() + m);
    commands.read(dout.get(), 0, m * sizeof(T), kept.data() + kept.size() - m);
  }
  return kept;
}

}  // namespace

template <class T>
Plan plan_compact(Runtime& rt, std::size_t count, const Predicate& predicate, CompactOptions options) {
  Plan plan;
  plan.algorithm = std::string("compact of ") + std::to_string(count) + " " + detail::cl_type_name<T>() + (options.stable ? ", stable" : "");
  plan.program = "kernels/compact.cl";
  Compactor<T>(rt, keep_of<T>(predicate)).plan(std::max<std::size_t>(1, count), options.stable, plan);
  return plan;
}

template <class T>
std::size_t detail::compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                                    const Predicate& predicate, CompactOptions options) {
  return clatomics::compact_buffers<T>(rt, in, offset, count, out, out_offset, predicate, options);
}

template <class T>
std::size_t detail::compact_buffers(Runtime& rt, cl_mem in, std::size_t offset, std::size_t count, cl_mem out, std::size_t out_offset,
                                    const std::string& expression, CompactOptions options) {
  return clatomics::compact_buffers<T>(rt, in, offset, count, out, out_offset, expression, options);
}

template <class T>
std::vector<T> detail::compact_vector(Runtime& rt, const std::vector<T>& in, const Predicate& predicate, CompactOptions options) {
  return compact_host(rt, in, predicate, options);
}

template <class T>
std::vector<T> detail::compact_vector(Runtime& rt, const std::vector<T>& in, const std::string& expression, CompactOptions options) {
  return compact_host(rt, in, expression, options);
}

#define CLATOMICS_COMPACT_INSTANTIATE(T, P)                                                                                  \
  template std::size_t detail::compact_buffers<T>(Runtime&, cl_mem, std::size_t, std::size_t, cl_mem, std::size_t, const P&, \
                                                  CompactOptions);                                                          \
  template std::vector<T> detail::compact_vector<T>(Runtime&, const std::vector<T>&, const P&, CompactOptions);
CLATOMICS_FOR_COMPACT_TYPES(CLATOMICS_COMPACT_INSTANTIATE)
template Plan plan_compact<float>(Runtime&, std::size_t, const Predicate&, CompactOptions);
template Plan plan_compact<cl_int>(Runtime&, std::size_t, const Predicate&, CompactOptions);
template Plan plan_compact<cl_uint>(Runtime&, std::size_t, const Predicate&, CompactOptions);

// compact over a device group: each chunk or part compacted on its device, the kept elements
// joined in element order (with CompactOptions::stable, the input's order).
namespace {

template <class T>
struct CompactOnGroup {
  using Part = std::vector<T>;
  using Total = std::vector<T>;
  const std::vector<T>* in;  // host data; null for resident data
  const Predicate& predicate;
  CompactOptions options;

  Total start(Runtime& rt) const {
    (void)compact<T>(rt, std::vector<T>{}, predicate, options);  // refuses the type or the predicate
    return {};
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    const detail::Mem out = detail::make_buffer(rt, std::max<std::size_t>(1, count) * sizeof(T));
    const std::size_t kept = detail::compact_buffers<T>(rt, at[0].buffer, at[0].offset, count, out.get(), 0, predicate, options);
    std::vector<T> host(kept);
    if (kept) detail::Commands(rt).read(out.get(), 0, kept * sizeof(T), host.data());
    return host;
  }
  void merge(Total& total, Part&& part) const { total.insert(total.end(), part.begin(), part.end()); }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*in)}; }
  std::size_t size() const { return in->size(); }
  std::size_t device_bytes() const { return sizeof(T); }
};

}  // namespace

template <class T>
std::vector<T> compact(DeviceGroup& group, const std::vector<T>& in, const Predicate& predicate, CompactOptions options) {
  return detail::run_spread(group, CompactOnGroup<T>{&in, predicate, options});
}

template <class T>
std::vector<T> compact(DeviceGroup& group, const DistributedBuffer<T>& in, const Predicate& predicate, CompactOptions options) {
  detail::check_layout(group, in);
  return detail::run_resident(group, CompactOnGroup<T>{nullptr, predicate, options}, detail::resident_arrays(in), in.first, in.count);
}

CLATOMICS_COMPACT_GROUP(, float)
CLATOMICS_COMPACT_GROUP(, cl_int)
CLATOMICS_COMPACT_GROUP(, cl_uint)

// Keeps x > 0.
Plan detail::plan_request_compact(Runtime& rt, const PlanRequest& request) {
  return plan_for_type<float, cl_int, cl_uint>("compact", request, [&](auto value) {
    using T = decltype(value);
    return plan_compact<T>(rt, request.n, where::x > T(0), CompactOptions{request.stable});
  });
}

}  // namespace clatomics
