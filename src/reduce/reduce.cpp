// reduce: one atomic per work-group, or a fixed tree over the elements' positions (kernels/reduce.cl).
#include "clatomics/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "clatomics/device_group.hpp"
#include "core/buffer_checks.hpp"
#include "core/cl_types.hpp"
#include "core/kernel_args.hpp"
#include "core/launch.hpp"
#include "core/plan_request.hpp"
#include "core/runtime_state.hpp"
#include "core/vector_launch.hpp"
#include "groups/engine.hpp"
#include "groups/started.hpp"
#include "reduce/reduce_parts.hpp"

namespace clatomics {
namespace {


// kernels/reduce.cl's kernels: per op, the fast one (one atomic per group), the tree over the
// elements' tiles and the tree over tile values.
enum class ReduceKernel { fast, tiles, tiles_of_partials };

const detail::Signature& reduce_signature(ReduceOp op, ReduceKernel kind) {
  static const char* const fast = "global in, offset, count, global out, local scratch";
  static const char* const tree = "global in, offset, count, global partials, first, global out, finish, local scratch";
  static const detail::Signature sum[] = {{"clat_reduce_sum", fast}, {"clat_reduce_sum_tiles", tree}, {"clat_reduce_sum_tiles_of_partials", tree}};
  static const detail::Signature prod[] = {
      {"clat_reduce_prod", fast}, {"clat_reduce_prod_tiles", tree}, {"clat_reduce_prod_tiles_of_partials", tree}};
  static const detail::Signature min[] = {{"clat_reduce_min", fast}, {"clat_reduce_min_tiles", tree}, {"clat_reduce_min_tiles_of_partials", tree}};
  static const detail::Signature max[] = {{"clat_reduce_max", fast}, {"clat_reduce_max_tiles", tree}, {"clat_reduce_max_tiles_of_partials", tree}};
  const auto at = [kind](const detail::Signature(&of_op)[3]) -> const detail::Signature& {
    switch (kind) {
      case ReduceKernel::fast: return of_op[0];
      case ReduceKernel::tiles: return of_op[1];
      case ReduceKernel::tiles_of_partials: return of_op[2];
    }
    return of_op[0];
  };
  switch (op) {
    case ReduceOp::sum: return at(sum);
    case ReduceOp::prod: return at(prod);
    case ReduceOp::min: return at(min);
    case ReduceOp::max: return at(max);
  }
  throw std::invalid_argument("clatomics::reduce: op is not a ReduceOp");
}

}  // namespace

const char* detail::reduce_op_name(ReduceOp op, const char* what) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::prod: return "prod";
  }
  throw std::invalid_argument(std::string("clatomics: ") + what + ": op (" + std::to_string(static_cast<int>(op)) + ") is not a ReduceOp");
}

namespace {

template <class T>
T identity(ReduceOp op) {
  using L = std::numeric_limits<T>;
  switch (op) {
    case ReduceOp::sum: return T(0);
    case ReduceOp::prod: return T(1);
    case ReduceOp::min: return L::has_infinity ? L::infinity() : L::max();
    case ReduceOp::max: return L::has_infinity ? -L::infinity() : L::lowest();
  }
  return T(0);
}

// The device's semantics on the host, to combine the results of streamed chunks.
template <class T>
T combine(ReduceOp op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case ReduceOp::sum: return a + b;
      case ReduceOp::prod: return a * b;
      case ReduceOp::min:
      case ReduceOp::max: {
        if (std::isnan(b)) return a;
        if (std::isnan(a)) return b;
        if (a == b) return (std::signbit(a) == (op == ReduceOp::min)) ? a : b;
        return (op == ReduceOp::min) == (b < a) ? b : a;
      }
    }
  } else {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case ReduceOp::sum: return T(U(a) + U(b));
      case ReduceOp::prod: return T(U(a) * U(b));
      case ReduceOp::min: return b < a ? b : a;
      case ReduceOp::max: return b > a ? b : a;
    }
  }
  return a;
}

// The value out[0] starts from in the atomic path (float min/max: NaN, "no data yet").
template <class T>
T atomic_start(ReduceOp op) {
  if constexpr (std::is_floating_point_v<T>)
    if (op == ReduceOp::min || op == ReduceOp::max) return std::numeric_limits<T>::quiet_NaN();
  return identity<T>(op);
}

template <class T>
void check_type(Runtime& rt, const char* what = "reduce") {
  if constexpr (std::is_same_v<T, double>) detail::require_double(rt, (std::string(what) + "<double>").c_str());
}

// The fast path over one range of one buffer, already checked; count > 0: one atomic per group.
// *result holds the value once the commands have finished.
template <class T>
void reduce_fast(Runtime& rt, detail::Commands& commands, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op, T* result) {
  const detail::VectorLaunch<T> launch(rt, "kernels/reduce.cl", reduce_signature(op, ReduceKernel::fast), count);
  const T start = atomic_start<T>(op);
  const detail::Mem out = detail::make_buffer(rt, sizeof(T), CL_MEM_READ_WRITE, &start);
  detail::bind(launch.kernel, detail::arg("in", buffer), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
               detail::arg("out", out), detail::arg("scratch", detail::LocalBytes{launch.grid.group * sizeof(T)}));
  commands.launch(launch.kernel, launch.grid);
  commands.read_later(out.get(), 0, sizeof(T), result);
}

// The fixed tree of kernels/reduce.cl's tiles: its result depends only on the values and their
// positions in the range. Needs no atomics (so it also serves 64-bit integers without them).
template <class T>
class Tree {
 public:
  static constexpr std::size_t tile = reduce_tile;  // CLAT_TILE in kernels/reduce.cl

  Tree(Runtime& rt, ReduceOp op) : rt_(rt) {
    const auto& caps = rt.device_info().caps;
    // 256 work-items a group (one per lane) where the device allows; fewer hold several lanes.
    std::size_t group = detail::floor_pow2(std::min<std::size_t>(256, caps.max_work_group_size));
    for (;;) {
      options_ = detail::type_define<T>("CLAT_T") + detail::define("CLAT_TILE_GROUP", (long long)group);
      const detail::Program program = detail::build_library_file(rt, "kernels/reduce.cl", options_);
      elements_ = detail::make_kernel(program, reduce_signature(op, ReduceKernel::tiles));
      partials_ = detail::make_kernel(program, reduce_signature(op, ReduceKernel::tiles_of_partials));
      const std::size_t allowed = std::min(detail::kernel_group_limit(rt, elements_), detail::kernel_group_limit(rt, partials_));
      if (allowed >= group || group == 1) break;
      group = detail::floor_pow2(allowed);  // the kernels cannot run that many: compile for fewer
    }
    group_ = group;
    max_groups_ = std::max<std::size_t>(1, caps.compute_units) * (caps.is_gpu() ? std::max<std::size_t>(1, 2048 / group) : 4);
    out_ = detail::make_buffer(rt, sizeof(T));
  }

  static std::size_t tiles(std::size_t count) { return (count + tile - 1) / tile; }

  // The first launch over count elements, as a plan.
  void plan(std::size_t count, Plan& plan) const {
    const detail::Grid grid = detail::make_grid(rt_, elements_, tiles(count) * group_, group_, max_groups_);
    plan.kernel = elements_.signature->kernel;
    plan.build_options = rt_.build_options() + options_;
    plan.global_size = grid.items(), plan.local_size = grid.group;
    plan.tuning = {{"tile", std::to_string(tile)}, {"work-group", std::to_string(group_)}, {"most work-groups", std::to_string(max_groups_)}};
  }

  // The tiles of buffer[offset, offset + count) into partials[first, ...); count > 0.
  void tiles_into(detail::Commands& commands, cl_mem buffer, std::size_t offset, std::size_t count, const detail::Mem& partials,
                  std::size_t first) {
    launch(commands, elements_, buffer, offset, count, partials.get(), first, false);
  }

  // The result of a whole range, count > 0, into *result once the commands have finished.
  void reduce(detail::Commands& commands, cl_mem buffer, std::size_t offset, std::size_t count, T* result) {
    if (count <= tile) {
      launch(commands, elements_, buffer, offset, count, out_.get(), 0, true);
      commands.read_later(out_.get(), 0, sizeof(T), result);
      return;
    }
    const detail::Mem partials = detail::make_buffer(rt_, tiles(count) * sizeof(T));
    tiles_into(commands, buffer, offset, count, partials, 0);
    reduce_partials(commands, partials, tiles(count), result);
  }

  // The result from n tile values (each level of tiles reduced by the same rule), as reduce().
  void reduce_partials(detail::Commands& commands, detail::Mem partials, std::size_t n, T* result) {
    while (n > tile) {
      detail::Mem next = detail::make_buffer(rt_, tiles(n) * sizeof(T));
      launch(commands, partials_, partials.get(), 0, n, next.get(), 0, false);
      partials = std::move(next);
      n = tiles(n);
    }
    launch(commands, partials_, partials.get(), 0, n, out_.get(), 0, true);
    commands.read_later(out_.get(), 0, sizeof(T), result);
  }

 private:
  void launch(detail::Commands& commands, const detail::LibraryKernel& kernel, cl_mem in, std::size_t offset, std::size_t count,
              cl_mem to, std::size_t first, bool finish) {
    const detail::Grid grid = detail::make_grid(rt_, kernel, tiles(count) * group_, group_, max_groups_);
    detail::bind(kernel, detail::arg("in", in), detail::arg("offset", cl_ulong(offset)), detail::arg("count", cl_ulong(count)),
                 detail::arg("partials", finish ? out_.get() : to), detail::arg("first", cl_ulong(first)), detail::arg("out", out_),
                 detail::arg("finish", cl_uint(finish ? 1 : 0)), detail::arg("scratch", detail::LocalBytes{grid.group * sizeof(T)}));
    commands.launch(kernel, grid);
  }

  Runtime& rt_;
  std::string options_;
  detail::LibraryKernel elements_, partials_;
  std::size_t group_ = 1, max_groups_ = 1;
  detail::Mem out_;
};

// 64-bit integer atomics are an extension: without them, the tree (which needs none) serves.
template <class T>
bool needs_tree(const Runtime& rt, ReduceOptions options) {
  return options.deterministic || (sizeof(T) == 8 && !std::is_floating_point_v<T> && !rt.device_info().caps.int64_base_atomics);
}

}  // namespace

template <class T>
detail::Pending<T> detail::reduce_buffer_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op,
                                               ReduceOptions options, const char* what) {
  detail::reduce_op_name(op, what);
  check_type<T>(rt, what);
  check_range(rt, {(std::string(what) + ": buffer").c_str(), buffer, offset, count, sizeof(T), Access::read});
  const auto result = std::make_shared<T>(identity<T>(op));
  Commands commands(rt);
  if (count > 0 && needs_tree<T>(rt, options))
    Tree<T>(rt, op).reduce(commands, buffer, offset, count, result.get());
  else if (count > 0)
    reduce_fast<T>(rt, commands, buffer, offset, count, op, result.get());
  return Pending<T>(commands, [result] { return *result; });
}

template <class T>
T detail::reduce_buffer(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op, ReduceOptions options) {
  return reduce_buffer_later<T>(rt, buffer, offset, count, op, options).get();
}

template <class T>
Plan plan_reduce(Runtime& rt, std::size_t count, ReduceOp op, ReduceOptions options) {
  detail::reduce_op_name(op);
  check_type<T>(rt);
  Plan plan;
  plan.algorithm = std::string("reduce ") + detail::reduce_op_name(op) + " of " + std::to_string(count) + " " + detail::cl_type_name<T>();
  plan.program = "kernels/reduce.cl";
  if (needs_tree<T>(rt, options)) {
    plan.strategy = options.deterministic ? "deterministic: a fixed tree over tiles" : "a fixed tree over tiles (no 64-bit atomics)";
    Tree<T>(rt, op).plan(std::max<std::size_t>(1, count), plan);
  } else {
    plan.strategy = "one atomic per work-group";
    detail::VectorLaunch<T>(rt, "kernels/reduce.cl", reduce_signature(op, ReduceKernel::fast), std::max<std::size_t>(1, count))
        .describe(rt, plan);
  }
  return plan;
}

template <class T>
T reduce(Runtime& rt, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  detail::reduce_op_name(op);
  check_type<T>(rt);
  if (data.empty()) return identity<T>(op);
  detail::Commands commands(rt);
  if (needs_tree<T>(rt, options)) {
    // Chunks of whole tiles: every tile's value lands where one pass over all the data puts it.
    Tree<T> tree(rt, op);
    const std::size_t chunk = detail::chunk_elements(rt, data.size(), sizeof(T), 1, Tree<T>::tile);
    const detail::Mem buffer = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
    T result{};
    if (chunk >= data.size()) {
      commands.write(buffer.get(), 0, data.size() * sizeof(T), data.data());
      tree.reduce(commands, buffer.get(), 0, data.size(), &result);
    } else {
      const detail::Mem partials = detail::make_buffer(rt, Tree<T>::tiles(data.size()) * sizeof(T));
      for (std::size_t first = 0; first < data.size(); first += chunk) {
        const std::size_t n = std::min(chunk, data.size() - first);
        commands.write(buffer.get(), 0, n * sizeof(T), data.data() + first);
        tree.tiles_into(commands, buffer.get(), 0, n, partials, first / Tree<T>::tile);
      }
      tree.reduce_partials(commands, partials, Tree<T>::tiles(data.size()), &result);
    }
    commands.submit().finish();
    return result;
  }
  const std::size_t chunk = detail::chunk_elements(rt, data.size(), sizeof(T));
  const detail::Mem buffer = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  std::vector<T> parts((data.size() + chunk - 1) / chunk);  // the chunks' results, read as they finish
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::size_t first = k * chunk, n = std::min(chunk, data.size() - first);
    commands.write(buffer.get(), 0, n * sizeof(T), data.data() + first);
    reduce_fast<T>(rt, commands, buffer.get(), 0, n, op, &parts[k]);
  }
  commands.submit().finish();
  T result = parts.front();
  for (std::size_t k = 1; k < parts.size(); ++k) result = combine(op, result, parts[k]);
  return result;
}

template <class T>
detail::Pending<std::vector<T>> detail::reduce_tile_values_later(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count,
                                                                 ReduceOp op) {
  Commands commands(rt);
  const detail::Mem partials = detail::make_buffer(rt, Tree<T>::tiles(count) * sizeof(T));
  Tree<T>(rt, op).tiles_into(commands, buffer, offset, count, partials, 0);
  const auto values = std::make_shared<std::vector<T>>(Tree<T>::tiles(count));
  commands.read_later(partials.get(), 0, values->size() * sizeof(T), values->data());
  return Pending<std::vector<T>>(commands, [values] { return std::move(*values); });
}

template <class T>
T detail::reduce_of_tile_values(const std::vector<T>& tiles, ReduceOp op) {
  // kernels/reduce.cl's tile, on the host: lane j of 256 keeps 4 accumulators (accumulator c takes
  // elements 4 * (j + 256 r) + c, r = 0..15, in order), the lane's value is (a0 . a1) . (a2 . a3),
  // lanes combine as a binary tree (lane j takes lane j + s, s = 128 .. 1). IEEE adds and
  // multiplies in the same order give the device's bits.
  constexpr std::size_t lanes = 256, width = 4, steps = Tree<T>::tile / (lanes * width);
  const T ident = identity<T>(op);
  const auto comb = [op](T a, T b) { return op == ReduceOp::prod ? T(a * b) : T(a + b); };
  std::vector<T> level = tiles;
  do {
    std::vector<T> next((level.size() + Tree<T>::tile - 1) / Tree<T>::tile);
    for (std::size_t t = 0; t < next.size(); ++t) {
      const T* p = level.data() + t * Tree<T>::tile;
      const std::size_t n = std::min(Tree<T>::tile, level.size() - t * Tree<T>::tile);
      T lane[lanes];
      for (std::size_t j = 0; j < lanes; ++j) {
        T a[width] = {ident, ident, ident, ident};
        for (std::size_t r = 0; r < steps; ++r)
          for (std::size_t c = 0; c < width; ++c)
            if (const std::size_t e = width * (j + lanes * r) + c; e < n) a[c] = comb(a[c], p[e]);
        lane[j] = comb(comb(a[0], a[1]), comb(a[2], a[3]));
      }
      for (std::size_t step = lanes / 2; step > 0; step /= 2)
        for (std::size_t j = 0; j < step; ++j) lane[j] = comb(lane[j], lane[j + step]);
      next[t] = lane[0];
    }
    level = std::move(next);
  } while (level.size() > 1);
  return level.front();
}

template detail::Pending<std::vector<float>> detail::reduce_tile_values_later<float>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp);
template detail::Pending<std::vector<double>> detail::reduce_tile_values_later<double>(Runtime&, cl_mem, std::size_t, std::size_t,
                                                                                       ReduceOp);
template float detail::reduce_of_tile_values<float>(const std::vector<float>&, ReduceOp);
template double detail::reduce_of_tile_values<double>(const std::vector<double>&, ReduceOp);

template <class T>
T detail::reduce_identity(ReduceOp op) {
  return identity<T>(op);
}
template <class T>
T detail::reduce_combine(ReduceOp op, T a, T b) {
  return combine<T>(op, a, b);
}

#define CLATOMICS_REDUCE_MADE(T)                                                                                                  \
  CLATOMICS_REDUCE(, T)                                                                                                           \
  template detail::Pending<T> detail::reduce_buffer_later<T>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp, ReduceOptions, \
                                                             const char*);                                                        \
  template T detail::reduce_identity<T>(ReduceOp);                                                                                \
  template T detail::reduce_combine<T>(ReduceOp, T, T);
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_MADE)

// reduce over a device group: each chunk or resident part a partial result (reduce.hpp), merged
// as one pass over all the data would be.
namespace {

template <class T>
struct ReduceOnGroup {
  using Part = ReducePartial<T>;
  using Total = std::vector<ReducePartial<T>>;
  const std::vector<T>* data;  // host data; null for resident data
  std::size_t n;
  ReduceOp op;
  ReduceOptions options;

  Total start(Runtime& rt) const {
    (void)reduce<T>(rt, std::vector<T>{}, op, options);  // refuses a bad op or type
    return {};
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t first, std::size_t count) const {
    return detail::reduce_partial_later<T>(rt, at[0].buffer, at[0].offset, count, op, first, options).get();
  }
  void merge(Total& total, Part&& part) const { total.push_back(std::move(part)); }
  std::vector<detail::HostArray> host() const { return {{data ? data->data() : nullptr, sizeof(T)}}; }
  std::size_t size() const { return n; }
  std::size_t device_bytes() const { return 0; }
};

template <class T>
T finish(ReduceOp op, std::vector<ReducePartial<T>>&& parts) {
  return parts.empty() ? detail::reduce_identity<T>(op) : merge_reduce<T>(std::move(parts));
}

}  // namespace

template <class T>
T reduce(DeviceGroup& group, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  return finish<T>(op, detail::run_spread(group, ReduceOnGroup<T>{&data, data.size(), op, options}));
}

template <class T>
T reduce(DeviceGroup& group, const DistributedBuffer<T>& data, ReduceOp op, ReduceOptions options) {
  detail::check_layout(group, data);
  const ReduceOnGroup<T> call{nullptr, data.size, op, options};
  // A deterministic float sum or product merges whole tiles (reduce_partial): parts that do not
  // start at a tile (a layout of the user's own, not distribute()'s) run in run_spread's chunks,
  // which do, with the same bits.
  const bool cut_tiles = detail::tiled_merge<T>(op, options) &&
                         std::any_of(data.first.begin(), data.first.end(), [](std::size_t first) { return first % reduce_tile != 0; });
  const auto arrays = detail::resident_arrays(data);
  return finish<T>(op, cut_tiles ? detail::run_resident_chunks(group, call, arrays, data.first, data.count)
                                 : detail::run_resident(group, call, arrays, data.first, data.count));
}

#define CLATOMICS_REDUCE_GROUP_MADE(T) CLATOMICS_REDUCE_GROUP(, T)
CLATOMICS_FOR_REDUCE_TYPES(CLATOMICS_REDUCE_GROUP_MADE)

Plan detail::plan_request_reduce(Runtime& rt, const PlanRequest& request) {
  const ReduceOp op = reduce_op_named("plan: reduce", request.op);
  return plan_for_type<float, double, cl_int, cl_uint, cl_long, cl_ulong>("reduce", request, [&](auto value) {
    return plan_reduce<decltype(value)>(rt, request.n, op, ReduceOptions{request.deterministic});
  });
}

}  // namespace clatomics
