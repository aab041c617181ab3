// reduce: one atomic per work-group, or two fixed-order passes (kernels/reduce.cl).
#include "clatomics/reduce.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "buffer_checks.hpp"
#include "launch.hpp"
#include "runtime_state.hpp"

namespace clatomics {
namespace {

template <class T>
constexpr int type_code() {
  if constexpr (std::is_same_v<T, float>) return 0;
  if constexpr (std::is_same_v<T, double>) return 1;
  if constexpr (std::is_same_v<T, cl_int>) return 2;
  if constexpr (std::is_same_v<T, cl_uint>) return 3;
  if constexpr (std::is_same_v<T, cl_long>) return 4;
  if constexpr (std::is_same_v<T, cl_ulong>) return 5;
}

const char* op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::prod: return "prod";
  }
  throw std::invalid_argument("clatomics::reduce: op is not a ReduceOp");
}

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
void check_type(Runtime& rt) {
  if constexpr (std::is_same_v<T, double>) detail::require_double(rt, "reduce<double>");
}

// One range of one buffer, already checked; count > 0.
template <class T>
T reduce_range(Runtime& rt, detail::Commands& commands, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op,
               bool deterministic) {
  const auto& caps = rt.device_info().caps;
  const bool cpu = !caps.is_gpu();
  // CPUs: 64-byte vectors over one contiguous chunk per work-item, a few work-items per core.
  // GPUs: 16-byte vectors in a grid stride, enough work-groups to fill every compute unit.
  const int vec = int((cpu ? 64 : 16) / sizeof(T));
  const std::string options = detail::define("CLAT_REDUCE_TYPE", type_code<T>()) + detail::define("CLAT_VEC", vec) +
                              detail::define("CLAT_CONTIGUOUS", cpu ? 1 : 0);
  const detail::Program program = detail::build_library_file(rt, "kernels/reduce.cl", options);
  const std::string name = std::string("clat_reduce_") + op_name(op);
  const detail::Kernel kernel = detail::make_kernel(program, name.c_str());
  const std::size_t units = count / std::size_t(vec) + 1;
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const detail::Grid grid = cpu ? detail::make_grid(rt, kernel, units, 1, 4 * cu) : detail::make_grid(rt, kernel, units, 256, 8 * cu);
  // 64-bit integer atomics are an extension: without them, the two passes need none.
  const bool two_pass = deterministic || (sizeof(T) == 8 && !std::is_floating_point_v<T> && !caps.int64_base_atomics);

  const T start = atomic_start<T>(op);
  const detail::Mem out = detail::make_buffer(rt, sizeof(T), CL_MEM_READ_WRITE, &start);
  const detail::Mem partials = two_pass ? detail::make_buffer(rt, grid.groups * sizeof(T)) : out;
  detail::set_args(kernel, buffer, cl_ulong(offset), cl_ulong(count), partials, cl_uint(two_pass ? 1 : 0),
                   detail::LocalBytes{grid.group * sizeof(T)});
  commands.launch(kernel, grid);
  if (two_pass) {
    const detail::Kernel final_kernel = detail::make_kernel(program, (name + "_final").c_str());
    const detail::Grid one = detail::make_grid(rt, final_kernel, grid.groups, cpu ? 1 : 256, 1);
    detail::set_args(final_kernel, partials, cl_uint(grid.groups), out, detail::LocalBytes{one.group * sizeof(T)});
    commands.launch(final_kernel, one);
  }
  T result{};
  commands.read(out.get(), 0, sizeof(T), &result);
  return result;
}

}  // namespace

template <class T>
T detail::reduce_buffer(Runtime& rt, cl_mem buffer, std::size_t offset, std::size_t count, ReduceOp op, ReduceOptions options) {
  op_name(op);
  check_type<T>(rt);
  detail::check_range(rt, {"reduce: buffer", buffer, offset, count, sizeof(T), detail::Access::read});
  if (count == 0) return identity<T>(op);
  detail::Commands commands(rt);
  return reduce_range<T>(rt, commands, buffer, offset, count, op, options.deterministic);
}

template <class T>
T reduce(Runtime& rt, const std::vector<T>& data, ReduceOp op, ReduceOptions options) {
  op_name(op);
  check_type<T>(rt);
  if (data.empty()) return identity<T>(op);
  const std::size_t chunk = detail::chunk_elements(rt, data.size(), sizeof(T));
  const detail::Mem buffer = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  detail::Commands commands(rt);
  T result{};
  for (std::size_t first = 0; first < data.size(); first += chunk) {
    const std::size_t n = std::min(chunk, data.size() - first);
    commands.write(buffer.get(), 0, n * sizeof(T), data.data() + first);
    const T part = reduce_range<T>(rt, commands, buffer.get(), 0, n, op, options.deterministic);
    result = first == 0 ? part : combine(op, result, part);
  }
  return result;
}

#define CLATOMICS_REDUCE_INSTANTIATE(T)                                                                       \
  template T detail::reduce_buffer<T>(Runtime&, cl_mem, std::size_t, std::size_t, ReduceOp, ReduceOptions); \
  template T reduce<T>(Runtime&, const std::vector<T>&, ReduceOp, ReduceOptions);
CLATOMICS_REDUCE_INSTANTIATE(float)
CLATOMICS_REDUCE_INSTANTIATE(double)
CLATOMICS_REDUCE_INSTANTIATE(cl_int)
CLATOMICS_REDUCE_INSTANTIATE(cl_uint)
CLATOMICS_REDUCE_INSTANTIATE(cl_long)
CLATOMICS_REDUCE_INSTANTIATE(cl_ulong)

}  // namespace clatomics
