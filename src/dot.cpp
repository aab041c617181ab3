// dot: per-group sums in __local memory, one atomic add per group (kernels/dot.cl).
#include "clatomics/dot.hpp"

#include <stdexcept>
#include <type_traits>

#include "launch.hpp"

namespace clatomics {
namespace {

template <class T>
void check_type(Runtime& rt) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "dot: float or double");
  if constexpr (std::is_same_v<T, double>) rt.require_double("dot<double>");
}

// Ranges already checked; count > 0.
template <class T>
T dot_range(Runtime& rt, const cl::Buffer& a, std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, std::size_t count) {
  const auto& caps = rt.device_info().caps;
  const bool cpu = !caps.is_gpu();
  const int vec = int((cpu ? 64 : 16) / sizeof(T));
  const std::string options = detail::define("CLAT_DOT_TYPE", std::is_same_v<T, double> ? 1 : 0) + detail::define("CLAT_VEC", vec) +
                              detail::define("CLAT_CONTIGUOUS", cpu ? 1 : 0);
  cl::Kernel kernel = detail::make_kernel(rt.build_embedded("kernels/dot.cl", options), "clat_dot");
  const std::size_t units = count / std::size_t(vec) + 1;
  const std::size_t cu = std::max<cl_uint>(1, caps.compute_units);
  const detail::Grid grid = cpu ? detail::make_grid(rt, kernel, units, 1, 4 * cu) : detail::make_grid(rt, kernel, units, 256, 8 * cu);
  const T zero = 0;
  cl::Buffer out = detail::make_buffer(rt, sizeof(T), CL_MEM_READ_WRITE, &zero);
  checked("clSetKernelArg", [&] {
    kernel.setArg(0, a);
    kernel.setArg(1, cl_ulong(a_offset));
    kernel.setArg(2, b);
    kernel.setArg(3, cl_ulong(b_offset));
    kernel.setArg(4, cl_ulong(count));
    kernel.setArg(5, out);
    kernel.setArg(6, cl::Local(grid.group * sizeof(T)));
  });
  detail::launch(rt, kernel, grid);
  T result{};
  detail::read(rt, out, 0, sizeof(T), &result);
  return result;
}

}  // namespace

template <class T>
T dot(Runtime& rt, const cl::Buffer& a, std::size_t a_offset, const cl::Buffer& b, std::size_t b_offset, std::size_t count) {
  check_type<T>(rt);
  detail::check_range(rt, "dot: a", a, a_offset, count, sizeof(T));
  detail::check_range(rt, "dot: b", b, b_offset, count, sizeof(T));
  if (count == 0) return T(0);
  return dot_range<T>(rt, a, a_offset, b, b_offset, count);
}

template <class T>
T dot(Runtime& rt, const std::vector<T>& a, const std::vector<T>& b) {
  check_type<T>(rt);
  if (a.size() != b.size())
    throw std::invalid_argument("clatomics: dot: b has " + std::to_string(b.size()) + " elements, a has " + std::to_string(a.size()));
  if (a.empty()) return T(0);
  const std::size_t chunk = detail::chunk_elements(rt, a.size(), sizeof(T), 2);
  cl::Buffer da = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  cl::Buffer db = detail::make_buffer(rt, chunk * sizeof(T), CL_MEM_READ_ONLY);
  T result = 0;
  for (std::size_t first = 0; first < a.size(); first += chunk) {
    const std::size_t n = std::min(chunk, a.size() - first);
    detail::write(rt, da, 0, n * sizeof(T), a.data() + first);
    detail::write(rt, db, 0, n * sizeof(T), b.data() + first);
    result += dot_range<T>(rt, da, 0, db, 0, n);
  }
  return result;
}

template float dot<float>(Runtime&, const cl::Buffer&, std::size_t, const cl::Buffer&, std::size_t, std::size_t);
template double dot<double>(Runtime&, const cl::Buffer&, std::size_t, const cl::Buffer&, std::size_t, std::size_t);
template float dot<float>(Runtime&, const std::vector<float>&, const std::vector<float>&);
template double dot<double>(Runtime&, const std::vector<double>&, const std::vector<double>&);

}  // namespace clatomics
