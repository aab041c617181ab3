// Native paths against the CAS loop, bit for bit, where the op is exact: small integer adds
// (any order gives the same sum), min and max of mixed values from NaN and signed zeros, on
// global and local memory, under full contention. Two runtimes on one device: one as checked,
// one with every native path off.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "support.hpp"

namespace {

const char* kernels = R"CLC(
#define DEFINE(T)                                                                            \
  kernel void all_##T(global T *cells, global const T *v) {                                 \
    size_t i = get_global_id(0);                                                             \
    clat_atomic_add_##T(cells + 0, floor(v[i] * (T)0.015625));                                      \
    clat_atomic_min_##T(cells + 1, v[i]);                                                    \
    clat_atomic_max_##T(cells + 2, v[i]);                                                    \
    clat_atomic_sub_##T(cells + 3, floor(v[i] * (T)0.015625));                                      \
  }                                                                                          \
  kernel void all_##T##_local(global T *cells, global const T *v) {                          \
    local T l[4];                                                                            \
    size_t lid = get_local_id(0), i = get_global_id(0), g = get_group_id(0);                 \
    if (lid < 4) l[lid] = cells[g * 4 + lid];                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    clat_atomic_add_##T##_local(l + 0, floor(v[i] * (T)0.015625));                                  \
    clat_atomic_min_##T##_local(l + 1, v[i]);                                                \
    clat_atomic_max_##T##_local(l + 2, v[i]);                                                \
    clat_atomic_sub_##T##_local(l + 3, floor(v[i] * (T)0.015625));                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    if (lid < 4) cells[g * 4 + lid] = l[lid];                                                \
  }
DEFINE(float)
#ifdef CLAT_HAS_DOUBLE
DEFINE(double)
#endif
)CLC";

clatomics::Runtime& cas_runtime() {
  static clatomics::Runtime rt([] {
    auto options = clatomics::Options::from_env();
    options.force_cas = true;
    return options;
  }());
  return rt;
}

template <class T>
std::vector<T> run(clatomics::Runtime& rt, const std::vector<T>& values, bool local) {
  const std::size_t group = test::group_size(), groups = local ? values.size() / group : 1;
  std::vector<T> cells;
  for (std::size_t g = 0; g < groups; ++g)
    cells.insert(cells.end(), {T(0.5), std::numeric_limits<T>::quiet_NaN(), T(-0.0), T(0)});
  cl::Buffer cells_buf = test::to_device(rt, cells), v = test::to_device(rt, values);
  cl::Kernel kernel(rt.build(kernels), (std::string("all_") + (sizeof(T) == 4 ? "float" : "double") + (local ? "_local" : "")).c_str());
  test::set_args(kernel, cells_buf, v);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(values.size()), cl::NDRange(group));
  return test::to_host<T>(rt, cells_buf, cells.size());
}

}  // namespace

TEST_CASE_TEMPLATE("native and CAS paths give the same bits where the op is exact", T, float, double) {
  auto& native = test::runtime();
  if (std::is_same<T, double>::value && !native.supports_double()) return;
  std::mt19937 rng(7);
  std::uniform_real_distribution<T> dist(-1000, 1000);
  std::vector<T> values(32768);
  for (auto& v : values) v = dist(rng);
  // signed zeros among them; the adds see integers in [-16, 15], so every partial sum is exact
  for (std::size_t i = 0; i < values.size(); i += 97) values[i] = (i / 97) % 2 ? T(-0.0) : T(0.0);
  MESSAGE(native.device_info().describe());
  for (bool local : {false, true}) {
    CAPTURE(local);
    const auto a = run(native, values, local), b = run(cas_runtime(), values, local);
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      CAPTURE(k);
      CHECK(test::bits(a[k]) == test::bits(b[k]));
    }
    // and both equal the host's serial answer
    T sum = T(0.5), lo = std::numeric_limits<T>::infinity(), hi = -std::numeric_limits<T>::infinity();
    for (std::size_t i = 0; i < (local ? test::group_size() : values.size()); ++i) {
      sum += std::floor(values[i] * T(0.015625));
      lo = std::min(lo, values[i]);
      hi = std::max(hi, values[i]);
    }
    CHECK(a[0] == sum);
    CHECK(a[1] == lo);
    CHECK(a[2] == hi);
  }
}
