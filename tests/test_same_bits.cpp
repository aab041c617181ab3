// The same bits on every device: the deterministic calls (reduce's tree,
// scatter's fixed-point sums and their correctly rounded means, over bins and
// rows and segments, float and double) run on every device this process sees,
// and each result must equal the first device's bit for bit. CTest shows it
// every device CI has (PoCL and Intel's CPU runtime); on the GPU machine the
// same program compares NVIDIA's OpenCL with PoCL. Exits 77 (skipped) where
// fewer than two devices with fp64 are seen.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

namespace {

using clatomics::ScatterOp;

// Values over 40 binades and both signs: partial sums are inexact, so only a
// fixed order (or exact accumulation) gives the same bits twice.
template <class T>
std::vector<T> wide_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<T> v(n);
  for (auto& e : v) e = T(std::ldexp(mantissa(gen), exponent(gen)));
  return v;
}

std::vector<cl_uint> indices(std::size_t n, cl_uint bins, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<cl_uint> v(n);
  for (auto& e : v) e = cl_uint(gen() % bins);
  return v;
}

// Every result of one device, as raw bytes under a name.
using Results = std::map<std::string, std::vector<unsigned char>>;

template <class T>
void keep(Results& results, const std::string& name, const std::vector<T>& values) {
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  results[name] = bytes;
}

template <class T>
void deterministic_calls(clatomics::Runtime& rt, Results& results, const std::string& type) {
  constexpr std::size_t n = (std::size_t(1) << 20) + 17;
  constexpr cl_uint bins = 1000;
  const auto values = wide_values<T>(n, 1), own = wide_values<T>(bins, 2);
  const auto idx = indices(n, bins, 3);
  clatomics::ReduceOptions tree;
  tree.deterministic = true;
  keep(results, type + " reduce sum", std::vector<T>{clatomics::reduce(rt, values, clatomics::ReduceOp::sum, tree)});
  clatomics::ScatterOptions det;
  det.deterministic = true;
  for (const bool self : {true, false}) {
    det.include_self = self;
    for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
      const std::string name = type + (op == ScatterOp::sum ? " scatter sum" : " scatter mean") + (self ? " include_self" : "");
      std::vector<T> out = own;
      clatomics::scatter_reduce(rt, out, idx, values, op, det);
      keep(results, name, out);
      // Rows of 4: bins * 4 outputs, n / 4 rows of values.
      std::vector<T> rows(std::size_t(bins) * 4, T(0.5));
      const std::vector<cl_uint> row_idx(idx.begin(), idx.begin() + n / 4);
      const std::vector<T> row_values(values.begin(), values.begin() + n / 4 * 4);
      clatomics::scatter_reduce(rt, rows, row_idx, row_values, op, det, 4);
      keep(results, name + " rows", rows);
    }
  }
  // Segments: 1000 of uneven lengths (one empty).
  std::vector<cl_uint> offsets{0};
  for (cl_uint s = 0; s < bins; ++s)
    offsets.push_back(cl_uint(std::min<std::size_t>(n, offsets.back() + (s == 7 ? 0 : 1 + (s * 2654435761u) % 2000))));
  offsets.back() = cl_uint(n);
  det.include_self = false;
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::mean}) {
    std::vector<T> out(bins, T(0));
    clatomics::segment_reduce(rt, out, offsets, values, op, det);
    keep(results, type + (op == ScatterOp::sum ? " segment sum" : " segment mean"), out);
  }
}

}  // namespace

TEST_CASE("deterministic reduce and scatter sums and means give the same bits on every device") {
  std::vector<std::unique_ptr<clatomics::Runtime>> runtimes;
  const auto ids = clatomics::all_device_ids();
  for (std::size_t d = 0; d < ids.size(); ++d) {
    clatomics::Options options = clatomics::Options::from_env();
    options.device = std::to_string(d);
    auto rt = std::make_unique<clatomics::Runtime>(options);
    if (rt->supports_double()) runtimes.push_back(std::move(rt));  // scatter's deterministic mode needs fp64
  }
  for (const auto& rt : runtimes)
    std::cout << "device: " << rt->device_info().caps.device_name << " (" << rt->device_info().caps.platform_name << ")\n";
  if (runtimes.size() < 2) {
    std::cout << "SKIPPED: " << runtimes.size() << " device(s) with fp64 seen; the comparison needs two\n";
    std::exit(77);
  }
  std::vector<Results> all(runtimes.size());
  for (std::size_t d = 0; d < runtimes.size(); ++d) {
    deterministic_calls<float>(*runtimes[d], all[d], "float");
    deterministic_calls<double>(*runtimes[d], all[d], "double");
  }
  for (std::size_t d = 1; d < runtimes.size(); ++d)
    for (const auto& [name, bytes] : all[0]) {
      CAPTURE(name);
      CAPTURE(runtimes[d]->device_info().caps.device_name);
      CHECK(all[d].at(name) == bytes);
    }
}
