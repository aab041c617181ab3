// Lesson: histogramming, the classic application of atomics. Every element is one
// increment of its bin; when many elements fall in the same bins those increments contend, and
// privatization (each work-group or work-item counts in its own copy first, then merges with one
// atomic per bin) takes the contention away. clatomics::histogram chooses the privatization from
// the device; global_atomics asks for one global atomic per element, for the comparison.
// Every count must equal the host's exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "bench.hpp"
#include "lessons.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

const char* strategy_label(HistogramStrategy s) {
  return s == HistogramStrategy::global_atomics ? "global_atomics: one atomic per element" : "automatic";
}

template <class T>
cl::Buffer upload(Runtime& rt, std::vector<T>& host) {
  return checked("clCreateBuffer", [&] {
    return cl::Buffer(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T), host.data());
  });
}

std::uint64_t largest(const std::vector<std::uint64_t>& counts) {
  std::uint64_t m = 0;
  for (auto c : counts) m = std::max(m, c);
  return m;
}

// The host's counts; broken("histogram") moves one count to the next bin.
std::vector<std::uint64_t> host_counts(std::size_t nbins, std::size_t n, const std::function<std::size_t(std::size_t)>& bin) {
  std::vector<std::uint64_t> counts(nbins);
  for (std::size_t i = 0; i < n; ++i) ++counts[bin(i)];
  if (broken("histogram")) --counts[bin(0)], ++counts[(bin(0) + 1) % nbins];
  return counts;
}

}  // namespace

bool lesson_histogram(Runtime& rt, std::ostream& out) {
  const std::size_t n = lesson_elements(rt);
  const std::size_t nbytes = 4 * n;
  std::vector<std::vector<std::string>> rows{{"input", "bins", "strategy", "largest bin", "check", "GB/s"}};
  bool all_ok = true;
  const auto row = [&](const std::string& input, std::size_t nbins, HistogramStrategy s, std::uint64_t top, bool ok,
                       double bytes, double ms) {
    all_ok = all_ok && ok;
    rows.push_back({input, std::to_string(nbins), strategy_label(s), std::to_string(top), ok_mark(ok), gbps(bytes, ms)});
  };

  // Bytes: uniform, then skewed (3 in 4 are 0: one bin takes most of the increments).
  for (bool skewed : {false, true}) {
    std::vector<std::uint8_t> bytes(nbytes);
    for (std::size_t i = 0; i < nbytes; ++i) {
      const std::uint32_t r = mix(i);
      bytes[i] = skewed && (r & 3u) != 0 ? 0 : std::uint8_t(r >> 24);
    }
    const auto expected = host_counts(256, nbytes, [&](std::size_t i) { return bytes[i]; });
    const cl::Buffer buffer = upload(rt, bytes);
    for (auto s : {HistogramStrategy::automatic, HistogramStrategy::global_atomics}) {
      const auto r = warm_and_time([&] { return histogram(rt, view<cl_uchar>(buffer, 0, nbytes), HistogramOptions{s}); });
      row(skewed ? "bytes, 3 in 4 are 0" : "bytes, uniform", 256, s, largest(r.timed),
          r.warm == expected && r.timed == expected, double(nbytes), r.ms);
    }
  }

  // Keys into many bins: too many to privatize on most GPUs (automatic then uses global atomics).
  {
    const std::size_t nbins = 100000;
    std::vector<cl_uint> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = cl_uint(mix(i) % (nbins + nbins / 10));  // ~9% out of range
    // the host's: bin nbins holds the keys out of range
    auto expected = host_counts(nbins + 1, n, [&](std::size_t i) { return std::min<std::size_t>(keys[i], nbins); });
    const std::uint64_t out_of_range = expected.back();
    expected.pop_back();
    const cl::Buffer buffer = upload(rt, keys);
    const auto r = warm_and_time([&] { return histogram_keys(rt, view<cl_uint>(buffer, 0, n), nbins); });
    const auto good = [&](const KeyHistogram& h) { return h.counts == expected && h.out_of_range == out_of_range; };
    row("uint keys, ~9% out of range", nbins, HistogramStrategy::automatic, largest(r.timed.counts), good(r.warm) && good(r.timed),
        double(n) * sizeof(cl_uint), r.ms);
  }

  // Floats in 64 even bins over [-4, 4] (NumPy's edges), with weights 1 or 2 added per bin
  // through the float atomic add: integer sums below 2^24, exact in any order.
  {
    const std::size_t nbins = 64;
    const float lo = -4.0f, hi = 4.0f;
    std::vector<float> values(n), weights(n);
    for (std::size_t i = 0; i < n; ++i) {
      // a sum of four uniforms on a 1/64 grid: roughly normal, exactly on the bin edges at times
      const std::uint32_t r = mix(i);
      values[i] = float(int(r & 255u) + int(r >> 8 & 255u) + int(r >> 16 & 255u) + int(r >> 24) - 510) / 64.0f;
      weights[i] = float(1 + (mix(i + n) & 1u));
    }
    values[mix(n) % n] = std::nanf("");
    std::vector<std::uint64_t> expected(nbins);
    std::vector<float> expected_weights(nbins);
    std::uint64_t below = 0, above = 0, nan = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float v = values[i];
      if (std::isnan(v)) ++nan;
      else if (v < lo) ++below;
      else if (v > hi) ++above;
      else {
        // the edges -4 + k/8 are exact in float and v is on a 1/64 grid: no rounding near an edge
        const std::size_t b = std::min<std::size_t>(nbins - 1, std::size_t(std::floor((v - lo) * 8.0f)));
        ++expected[b];
        expected_weights[b] += weights[i];
      }
    }
    if (broken("histogram")) ++expected[0];
    const cl::Buffer dv = upload(rt, values), dw = upload(rt, weights);
    const auto r = warm_and_time([&] { return histogram_even(rt, view<float>(dv, 0, n), {nbins, lo, hi}, {view<float>(dw, 0, n)}); });
    const auto good = [&](const EvenHistogram& h) {
      return h.counts == expected && h.sums == std::vector<std::vector<double>>{std::vector<double>(expected_weights.begin(), expected_weights.end())} && h.below == below && h.above == above && h.nan == nan;
    };
    row("floats in [-4, 4], weights 1|2", nbins, HistogramStrategy::automatic, largest(r.timed.counts),
        good(r.warm) && good(r.timed), 2.0 * double(n) * sizeof(float), r.ms);
    out << text_table(rows, 2);
    out << "  floats: also " << below << " below, " << above << " above and " << nan
        << " NaN counted apart; the weights' per-bin sums exact.\n";
  }
  out << "  automatic privatizes where the bins fit: GPUs count in __local copies per work-group (several\n"
         "  per group when they fit), CPUs in per-work-item counters (up to 16,384 bins, else one __local copy);\n"
         "  each copy is merged with one atomic per bin. Too many bins for __local memory: global atomics.\n"
         "  GB/s: input bytes over the device time of one call (zeroing, counting, merging).\n";
  return all_ok;
}

}  // namespace clatomics::cli
