// dot: per-group sums in __local memory, one atomic add per group (kernels/dot.cl).
#include "clatomics/dot.hpp"

#include <algorithm>
#include <stdexcept>
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

namespace clatomics {
namespace {

const detail::Signature dot_kernel{"clat_dot", "global a, a_offset, global b, b_offset, count, global out, local scratch"};

template <class T>
void check_type(Runtime& rt) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "dot: float or double");
  if constexpr (std::is_same_v<T, double>) detail::require_double(rt, "dot<double>");
}

// Ranges already checked; count > 0.
template <class T>
T dot_range(Runtime& rt, detail::Commands& commands, cl_mem a, std::size_t a_offset, cl_mem b, std::size_t b_offset,
            std::size_t count) {
  const detail::VectorLaunch<T> launch(rt, "kernels/dot.cl", dot_kernel, count);
  const T zero = 0;
  const detail::Mem out = detail::make_buffer(rt, sizeof(T), CL_MEM_READ_WRITE, &zero);
  detail::bind(launch.kernel, detail::arg("a", a), detail::arg("a_offset", cl_ulong(a_offset)), detail::arg("b", b),
               detail::arg("b_offset", cl_ulong(b_offset)), detail::arg("count", cl_ulong(count)), detail::arg("out", out),
               detail::arg("scratch", detail::LocalBytes{launch.grid.group * sizeof(T)}));
  commands.launch(launch.kernel, launch.grid);
  T result{};
  commands.read(out.get(), 0, sizeof(T), &result);
  return result;
}

}  // namespace

template <class T>
T detail::dot_buffers(Runtime& rt, cl_mem a, std::size_t a_offset, cl_mem b, std::size_t b_offset, std::size_t count) {
  check_type<T>(rt);
  check_range(rt, {"dot: a", a, a_offset, count, sizeof(T), Access::read});
  check_range(rt, {"dot: b", b, b_offset, count, sizeof(T), Access::read});
  if (count == 0) return T(0);
  Commands commands(rt);
  return dot_range<T>(rt, commands, a, a_offset, b, b_offset, count);
}

template <class T>
Plan plan_dot(Runtime& rt, std::size_t count) {
  check_type<T>(rt);
  Plan plan;
  plan.algorithm = "dot of " + std::to_string(count) + " " + detail::cl_type_name<T>();
  plan.strategy = "one atomic add per work-group";
  plan.program = "kernels/dot.cl";
  detail::VectorLaunch<T>(rt, "kernels/dot.cl", dot_kernel, std::max<std::size_t>(1, count)).describe(rt, plan);
  return plan;
}

template <class T>
T dot(Runtime& rt, const std::vector<T>& a, const std::vector<T>& b) {
  check_type<T>(rt);
  if (a.size() != b.size())
    throw std::invalid_argument("clatomics: dot: b has " + std::to_string(b.size()) + " elements, a has " + std::to_string(a.size()));
  if (a.empty()) return T(0);
  const std::size_t chunk = detail::chunk_elements(rt, a.size(), sizeof(T), 2);
  const detail::Mem da = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  const detail::Mem db = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  detail::Commands commands(rt);
  T result = 0;
  for (std::size_t first = 0; first < a.size(); first += chunk) {
    const std::size_t n = std::min(chunk, a.size() - first);
    commands.write(da.get(), 0, n * sizeof(T), a.data() + first);
    commands.write(db.get(), 0, n * sizeof(T), b.data() + first);
    result += dot_range<T>(rt, commands, da.get(), 0, db.get(), 0, n);
  }
  return result;
}

template float detail::dot_buffers<float>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
template double detail::dot_buffers<double>(Runtime&, cl_mem, std::size_t, cl_mem, std::size_t, std::size_t);
template float dot<float>(Runtime&, const std::vector<float>&, const std::vector<float>&);
template double dot<double>(Runtime&, const std::vector<double>&, const std::vector<double>&);
template Plan plan_dot<float>(Runtime&, std::size_t);
template Plan plan_dot<double>(Runtime&, std::size_t);

// dot over a device group: the chunks' or parts' dot products added on the host in element order.
namespace {

template <class T>
struct DotOnGroup {
  using Part = T;
  using Total = T;
  const std::vector<T>*a, *b;  // host data; null for resident data
  std::size_t n_a, n_b;

  Total start(Runtime& rt) const {
    (void)dot<T>(rt, std::vector<T>{}, std::vector<T>{});  // refuses a type the device lacks
    if (n_a != n_b)
      throw std::invalid_argument("clatomics: dot: a has " + std::to_string(n_a) + " elements, b has " + std::to_string(n_b));
    return T(0);
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::dot_buffers<T>(rt, at[0].buffer, at[0].offset, at[1].buffer, at[1].offset, count);
  }
  void merge(Total& total, Part&& part) const { total += part; }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*a), detail::host_array(*b)}; }
  std::size_t size() const { return a->size(); }
  std::size_t device_bytes() const { return 0; }
};

}  // namespace

template <class T>
T dot(DeviceGroup& group, const std::vector<T>& a, const std::vector<T>& b) {
  return detail::run_spread(group, DotOnGroup<T>{&a, &b, a.size(), b.size()});
}

template <class T>
T dot(DeviceGroup& group, const DistributedBuffer<T>& a, const DistributedBuffer<T>& b) {
  const DotOnGroup<T> call{nullptr, nullptr, a.size, b.size};
  detail::check_layout(group, a);
  detail::check_layout(group, b);
  detail::check_same_layout("dot", a, b);
  return detail::run_resident(group, call, detail::resident_arrays(a, b), a.first, a.count);
}

template float dot<float>(DeviceGroup&, const std::vector<float>&, const std::vector<float>&);
template double dot<double>(DeviceGroup&, const std::vector<double>&, const std::vector<double>&);
template float dot<float>(DeviceGroup&, const DistributedBuffer<float>&, const DistributedBuffer<float>&);
template double dot<double>(DeviceGroup&, const DistributedBuffer<double>&, const DistributedBuffer<double>&);

Plan detail::plan_request_dot(Runtime& rt, const PlanRequest& request) {
  return plan_for_type<float, double>("dot", request, [&](auto value) { return plan_dot<decltype(value)>(rt, request.n); });
}

}  // namespace clatomics
