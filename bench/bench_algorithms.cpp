// The algorithms benchmark: each library call against a read-only pass and a plain C++ loop.
#include "bench_algorithms.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "peer_figures.hpp"
#include "report.hpp"

namespace clatomics::bench {
namespace {

constexpr const char* suite = "algorithms";
constexpr const char* read_only = "read-only pass";
// Names a file of other libraries' figures for this suite's rows (bench/cub_yardsticks.cu --json).
constexpr const char* peers_variable = "CLATOMICS_BENCH_ALGORITHMS_PEERS";

std::string host_name() { return "C++ " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads"; }

// Fast reproducible bytes (splitmix64): 256 MiB in well under a second.
void fill_random(void* data, std::size_t bytes, std::uint64_t seed) {
  auto* out = static_cast<unsigned char*>(data);
  std::uint64_t s = seed;
  for (std::size_t i = 0; i < bytes; i += 8) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::memcpy(out + i, &z, std::min<std::size_t>(8, bytes - i));
  }
}

// Floats uniform in [lo, hi) from random bits.
std::vector<float> random_floats(std::size_t n, float lo, float hi, std::uint64_t seed) {
  std::vector<std::uint32_t> bits(n);
  fill_random(bits.data(), n * 4, seed);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = lo + (hi - lo) * float(bits[i] >> 8) * (1.0f / 16777216.0f);
  return x;
}

// GB/s of `bytes` for the three figures of one benchmark.
struct Figures {
  double device = 0, read_only = 0, host = 0;
};

// Measures the library call (device time of every command it enqueued), the read-only pass over
// `buffer` and the host loop (f over [0, host_n) split over the hardware threads) in turns, each
// run after a warm-up: the three see the same load on a shared machine, so their ratios hold
// even when the absolute figures move.
Figures measure(Runtime& rt, const Config& config, const cl::Buffer& buffer, std::size_t bytes, const std::function<void()>& call,
                std::size_t host_n, const std::function<void(std::size_t, std::size_t)>& host) {
  Config once = config;
  once.quick = false;
  once.warmup = 0;
  once.repeats = 1;
  const int warmup = config.quick ? 0 : config.warmup, repeats = config.quick ? 1 : std::max(1, config.repeats);
  std::vector<double> device, read, cpu;
  for (int i = -warmup; i < repeats; ++i) {
    double ms = 0;
    // An untimed pass first, so that the call starts on a busy device as the timed read-only
    // pass after it does (after the host loop's idle time a GPU starts on lower clocks).
    read_only_gbps(rt, buffer, bytes, once);
    {
      ProfileScope scope;
      call();
      ms = scope.device_ms();
    }
    const double ro = read_only_gbps(rt, buffer, bytes, once);
    const double host_ms = host_parallel_ms(once, host_n, host);
    if (i < 0) continue;
    device.push_back(double(bytes) / (ms * 1e6));
    read.push_back(ro);
    cpu.push_back(double(bytes) / (host_ms * 1e6));
  }
  return {median(device), median(read), median(cpu)};
}

void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("algorithms: " + what + ": the device's result differs from the host's");
}

// What one benchmark measured: the library call, its data, and the rows' figures.
struct Case {
  std::string op, type, distribution;
  std::size_t bins;  // 0 unless a histogram
  std::string form;
};

// The two rows of one benchmark: against the read-only pass and against the host loop.
void add_rows(std::vector<Row>& rows, const Case& c, std::size_t bytes, const Figures& f) {
  Row row;
  row.suite = suite;
  row.op = c.op;
  row.type = c.type;
  row.form = c.form;
  row.bytes = bytes;
  row.bins = c.bins;
  row.distribution = c.distribution;
  row.value = f.device;
  row.unit = "GB/s";
  row.yardstick = read_only;
  row.yardstick_value = f.read_only;
  rows.push_back(row);
  row.yardstick = host_name();
  row.yardstick_value = f.host;
  rows.push_back(row);
}

// Plain loops for the host yardsticks: independent lanes so that the compiler can vectorize
// without reassociating (what a careful C++ programmer writes, no intrinsics).
float host_sum(const float* x, std::size_t n) {
  constexpr std::size_t lanes = 16;
  float acc[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    for (std::size_t j = 0; j < lanes; ++j) acc[j] += x[i + j];
  float s = 0;
  for (; i < n; ++i) s += x[i];
  for (const float a : acc) s += a;
  return s;
}

float host_dot(const float* a, const float* b, std::size_t n) {
  constexpr std::size_t lanes = 16;
  float acc[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    for (std::size_t j = 0; j < lanes; ++j) acc[j] += a[i + j] * b[i + j];
  float s = 0;
  for (; i < n; ++i) s += a[i] * b[i];
  for (const float v : acc) s += v;
  return s;
}

void bench_reduce(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 4;
  std::mutex m;
  {
    step(config, "algorithms: reduce sum float");
    const auto x = random_floats(n, -1.0f, 1.0f, 1);
    const cl::Buffer buffer = upload(rt, x);
    float result = 0;
    double host_total = 0;  // keeps the host loop's work alive
    const Figures f = measure(
        rt, config, buffer, n * 4, [&] { result = reduce(rt, view<float>(buffer, 0, n), ReduceOp::sum); }, n,
        [&](std::size_t first, std::size_t last) {
          const float s = host_sum(x.data() + first, last - first);
          std::lock_guard<std::mutex> lock(m);
          host_total += s;
        });
    double ref = 0, abs_total = 0;
    for (const float v : x) ref += v, abs_total += std::fabs(v);
    check(std::fabs(double(result) - ref) <= 1e-5 * abs_total + 1e-3, "reduce sum float");
    add_rows(rows, {"reduce sum", "float", "uniform", 0, ""}, n * 4, f);
  }
  {
    step(config, "algorithms: reduce sum int");
    std::vector<cl_int> x(n);
    fill_random(x.data(), n * 4, 2);
    const cl::Buffer buffer = upload(rt, x);
    cl_int result = 0;
    std::uint32_t host_total = 0;
    const Figures f = measure(
        rt, config, buffer, n * 4, [&] { result = reduce(rt, view<cl_int>(buffer, 0, n), ReduceOp::sum); }, n,
        [&](std::size_t first, std::size_t last) {
          std::uint32_t s = 0;  // wraps like the device's
          for (std::size_t i = first; i < last; ++i) s += std::uint32_t(x[i]);
          std::lock_guard<std::mutex> lock(m);
          host_total += s;
        });
    std::uint32_t ref = 0;
    for (const cl_int v : x) ref += std::uint32_t(v);
    check(std::uint32_t(result) == ref, "reduce sum int");
    add_rows(rows, {"reduce sum", "int", "uniform", 0, ""}, n * 4, f);
  }
}

void bench_dot(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  step(config, "algorithms: dot float");
  // a and b are the two halves of one buffer, so the read-only pass reads the same bytes.
  const std::size_t n = bytes / 8;
  const auto x = random_floats(2 * n, -1.0f, 1.0f, 3);
  const cl::Buffer buffer = upload(rt, x);
  float result = 0;
  std::mutex m;
  double host_total = 0;
  const Figures f = measure(
      rt, config, buffer, 2 * n * 4, [&] { result = dot(rt, view<float>(buffer, 0, n), view<float>(buffer, n, n)); }, n,
      [&](std::size_t first, std::size_t last) {
        const float s = host_dot(x.data() + first, x.data() + n + first, last - first);
        std::lock_guard<std::mutex> lock(m);
        host_total += s;
      });
  double ref = 0, abs_total = 0;
  for (std::size_t i = 0; i < n; ++i) ref += double(x[i]) * x[n + i], abs_total += std::fabs(double(x[i]) * x[n + i]);
  check(std::fabs(double(result) - ref) <= 1e-5 * abs_total + 1e-3, "dot float");
  add_rows(rows, {"dot", "float", "uniform", 0, ""}, 2 * n * 4, f);
}

void bench_byte_histogram(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  for (const bool one_bin : {false, true}) {
    const std::string variant = one_bin ? "one bin" : "uniform";
    step(config, "algorithms: histogram 256 bins, " + variant);
    std::vector<std::uint8_t> x(bytes, std::uint8_t(200));
    if (!one_bin) fill_random(x.data(), bytes, 4);
    const cl::Buffer buffer = upload(rt, x);
    std::vector<std::uint64_t> result;
    std::mutex m;
    std::vector<std::uint64_t> host_counts(256);
    const Figures f = measure(
        rt, config, buffer, bytes, [&] { result = histogram(rt, view<cl_uchar>(buffer, 0, bytes)); }, bytes,
        [&](std::size_t first, std::size_t last) {
          std::uint64_t c[256] = {};
          for (std::size_t i = first; i < last; ++i) ++c[x[i]];
          std::lock_guard<std::mutex> lock(m);
          for (int b = 0; b < 256; ++b) host_counts[b] += c[b];
        });
    std::vector<std::uint64_t> ref(256);
    for (const std::uint8_t v : x) ++ref[v];
    check(result == ref, "histogram 256 bins, " + variant);
    add_rows(rows, {"histogram", "uchar", variant, 256, ""}, bytes, f);
  }
}

// 100, 1,000 and 10,000 even bins, and 100 with one weight channel (the bytes: values and
// weights).
void bench_even_histogram(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  const float lo = 0.0f, hi = 1.0f;
  for (const std::size_t nbins : {std::size_t(100), std::size_t(1000), std::size_t(10000)})
    for (const bool weighted : {false, true}) {
      if (weighted && nbins != 100) continue;
      step(config, "algorithms: histogram_even " + std::to_string(nbins) + " bins" + (weighted ? ", weighted" : ""));
      // Weighted: values and weights side by side in one buffer, so the read-only pass reads both.
      const std::size_t n = bytes / (weighted ? 8 : 4);
      auto x = random_floats(n, -0.05f, 1.05f, 5);  // about 9% below or above
      if (weighted) {
        const auto w = random_floats(n, 0.0f, 1.0f, 6);
        x.insert(x.end(), w.begin(), w.end());
      }
      const cl::Buffer buffer = upload(rt, x);
      EvenHistogram result;
      const float scale = float(double(nbins) / (double(hi) - double(lo)));
      std::mutex m;
      std::vector<std::uint64_t> host_counts(nbins + 3);
      std::vector<float> host_sums(weighted ? nbins : 0);
      const View<float> values = view<float>(buffer, 0, n);
      std::vector<View<float>> weights;
      if (weighted) weights.push_back(view<float>(buffer, n, n));
      const EvenBins<float> bins{nbins, lo, hi};
      const Figures f = measure(
          rt, config, buffer, x.size() * 4, [&] { result = histogram_even(rt, values, bins, weights); }, n,
          [&](std::size_t first, std::size_t last) {
            std::vector<std::uint64_t> c(nbins + 3);
            std::vector<float> sums(host_sums.size());
            for (std::size_t i = first; i < last; ++i) {
              const float v = x[i];
              const std::size_t b = std::isnan(v) ? nbins + 2
                                    : v < lo      ? nbins
                                    : v > hi      ? nbins + 1
                                                  : std::min<std::size_t>(std::size_t((v - lo) * scale), nbins - 1);
              ++c[b];
              if (weighted && b < nbins) sums[b] += x[n + i];
            }
            std::lock_guard<std::mutex> lock(m);
            for (std::size_t b = 0; b < nbins + 3; ++b) host_counts[b] += c[b];
            for (std::size_t b = 0; b < sums.size(); ++b) host_sums[b] += sums[b];
          });
      std::uint64_t total = result.below + result.above + result.nan;
      for (const auto c : result.counts) total += c;
      check(total == n && result.nan == 0, "histogram_even");
      add_rows(rows, {"histogram_even", "float", "uniform", nbins, weighted ? "weighted" : ""}, x.size() * 4, f);
    }
}

// The even histograms a pyFAI-style user runs: double positions, 4 weight channels in one pass
// (each accumulation), 2-D bins and the range found in the data. Inputs that a call reads
// together sit in one buffer, so that the read-only pass reads the same bytes.
void bench_even_histogram_forms(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  std::mutex m;
  std::vector<std::uint64_t> host_counts;
  // The host loop: counts of floor((v - lo) * scale) over [lo, hi], one chunk per thread.
  const auto host_loop = [&](const auto* x, std::size_t nbins, double lo, double hi) {
    return [&m, &host_counts, x, nbins, lo, hi](std::size_t first, std::size_t last) {
      const double scale = double(nbins) / (hi - lo);
      std::vector<std::uint64_t> c(nbins + 1);
      for (std::size_t i = first; i < last; ++i) {
        const double v = double(x[i]);
        ++c[v >= lo && v <= hi ? std::min<std::size_t>(std::size_t((v - lo) * scale), nbins - 1) : nbins];
      }
      std::lock_guard<std::mutex> lock(m);
      host_counts.assign(c.begin(), c.end());
    };
  };
  const auto total = [](const std::vector<std::uint64_t>& counts) {
    std::uint64_t t = 0;
    for (const auto c : counts) t += c;
    return t;
  };
  if (rt.supports_double()) {
    step(config, "algorithms: histogram_even double 100 bins");
    const std::size_t n = bytes / 8;
    const auto f = random_floats(n, -0.05f, 1.05f, 7);
    const std::vector<double> x(f.begin(), f.end());
    const cl::Buffer buffer = upload(rt, x);
    EvenHistogram result;
    const Figures fig = measure(
        rt, config, buffer, n * 8, [&] { result = histogram_even(rt, view<double>(buffer, 0, n), EvenBins<double>{100, 0.0, 1.0}); }, n,
        host_loop(x.data(), 100, 0.0, 1.0));
    check(total(result.counts) + result.below + result.above == n, "histogram_even double");
    add_rows(rows, {"histogram_even", "double", "uniform", 100, ""}, n * 8, fig);
  }
  {
    // Positions then 4 weight channels: 5 floats per value.
    const std::size_t n = bytes / 20;
    auto data = random_floats(5 * n, 0.0f, 1.0f, 8);
    const cl::Buffer buffer = upload(rt, data);
    std::vector<View<float>> weights;
    for (std::size_t c = 1; c <= 4; ++c) weights.push_back(view<float>(buffer, c * n, n));
    for (const WeightAccumulation a :
         {WeightAccumulation::float_atomic, WeightAccumulation::compensated_float2, WeightAccumulation::double_atomic}) {
      if (a == WeightAccumulation::double_atomic && !rt.supports_double()) continue;
      if (a == WeightAccumulation::compensated_float2 && !rt.device_info().caps.int64_base_atomics) continue;
      const std::string form = a == WeightAccumulation::float_atomic ? "4 weights" : a == WeightAccumulation::double_atomic ? "4 weights, double sums" : "4 weights, compensated";
      step(config, "algorithms: histogram_even 100 bins, " + form);
      EvenHistogram result;
      HistogramOptions options;
      options.accumulation = a;
      const Figures fig = measure(
          rt, config, buffer, 5 * n * 4,
          [&] { result = histogram_even(rt, view<float>(buffer, 0, n), EvenBins<float>{100, 0.0f, 1.0f}, weights, options); }, n,
          [&](std::size_t first, std::size_t last) {
            double sums[4][100] = {};
            std::uint64_t c[100] = {};
            for (std::size_t i = first; i < last; ++i) {
              const std::size_t b = std::min<std::size_t>(std::size_t(data[i] * 100.0f), 99);
              ++c[b];
              for (std::size_t k = 0; k < 4; ++k) sums[k][b] += data[(k + 1) * n + i];
            }
            std::lock_guard<std::mutex> lock(m);
            host_counts.assign(c, c + 100);
            host_counts[0] += std::uint64_t(sums[0][0] + sums[3][99]) & 1;  // keeps the sums alive
          });
      check(total(result.counts) == n && result.sums.size() == 4, "histogram_even " + form);
      add_rows(rows, {"histogram_even", "float", "uniform", 100, form}, 5 * n * 4, fig);
    }
  }
  {
    step(config, "algorithms: histogram2d_even 100x100");
    const std::size_t n = bytes / 8;
    const auto data = random_floats(2 * n, -0.05f, 1.05f, 9);
    const cl::Buffer buffer = upload(rt, data);
    EvenHistogram2D result;
    const EvenBins<float> bins{100, 0.0f, 1.0f};
    const Figures fig = measure(
        rt, config, buffer, 2 * n * 4, [&] { result = histogram2d_even(rt, view<float>(buffer, 0, n), view<float>(buffer, n, n), bins, bins); }, n,
        [&](std::size_t first, std::size_t last) {
          std::vector<std::uint64_t> c(100 * 100 + 1);
          for (std::size_t i = first; i < last; ++i) {
            const float x = data[i], y = data[n + i];
            const bool in = x >= 0.0f && x <= 1.0f && y >= 0.0f && y <= 1.0f;
            ++c[in ? std::min<std::size_t>(std::size_t(x * 100.0f), 99) * 100 + std::min<std::size_t>(std::size_t(y * 100.0f), 99) : 10000];
          }
          std::lock_guard<std::mutex> lock(m);
          host_counts.assign(c.begin(), c.end());
        });
    check(total(result.counts) + result.outside == n, "histogram2d_even");
    add_rows(rows, {"histogram2d_even", "float", "uniform", 100 * 100, ""}, 2 * n * 4, fig);
  }
  {
    step(config, "algorithms: histogram_even 100 bins, range from the data");
    const std::size_t n = bytes / 4;
    const auto x = random_floats(n, -3.0f, 5.0f, 10);
    const cl::Buffer buffer = upload(rt, x);
    EvenHistogram result;
    const Figures fig = measure(
        rt, config, buffer, n * 4, [&] { result = histogram_even(rt, view<float>(buffer, 0, n), 100); }, n,
        [&](std::size_t first, std::size_t last) {  // the host's two passes: the range, then the counts
          float lo = x[first], hi = x[first];
          for (std::size_t i = first; i < last; ++i) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
          host_loop(x.data(), 100, lo, hi)(first, last);
        });
    check(total(result.counts) == n, "histogram_even, range from the data");
    add_rows(rows, {"histogram_even", "float", "uniform", 100, "range from the data"}, n * 4, fig);
  }
}

void bench_compact(Runtime& rt, const Config& config, std::size_t bytes, std::vector<Row>& rows) {
  const std::size_t n = bytes / 4;
  const auto x = random_floats(n, 0.0f, 1.0f, 6);
  std::size_t ref = 0;
  for (const float v : x) ref += v > 0.5f;
  const cl::Buffer buffer = upload(rt, x);
  cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(1, n) * 4);
  std::vector<float> host_out(n);
  for (const bool stable : {false, true}) {
    const std::string variant = stable ? "half kept, stable" : "half kept";
    step(config, "algorithms: compact float, " + variant);
    std::size_t kept = 0;
    const Figures f = measure(
        rt, config, buffer, n * 4, [&] { kept = compact(rt, view<float>(buffer, 0, n), view<float>(out, 0, n), "x > 0.5f", CompactOptions{stable}); }, n,
        [&](std::size_t first, std::size_t last) {
          std::size_t k = first;  // each thread compacts its chunk into its own part of the output
          for (std::size_t i = first; i < last; ++i)
            if (x[i] > 0.5f) host_out[k++] = x[i];
        });
    check(kept == ref, "compact float, " + variant);
    add_rows(rows, {"compact", "float", "half kept", 0, stable ? "stable" : ""}, n * 4, f);
  }
}

// CLATOMICS_BENCH_ALGOS narrows a run (tuning): a comma list of reduce, dot, histogram, even,
// even_forms, compact.
bool wanted(const char* name) {
  const char* only = std::getenv("CLATOMICS_BENCH_ALGOS");
  const std::string chosen = only && *only ? "," + std::string(only) + "," : "";
  return chosen.empty() || chosen.find("," + std::string(name) + ",") != std::string::npos;
}

}  // namespace

std::size_t algorithm_steps(const Runtime& rt, const Config&) {
  const bool fp64 = rt.supports_double(), int64 = rt.device_info().caps.int64_base_atomics;
  // each step() of the bench_* functions above, under the same conditions
  return (wanted("reduce") ? 2 : 0) + (wanted("dot") ? 1 : 0) + (wanted("histogram") ? 2 : 0) + (wanted("even") ? 4 : 0) +
         (wanted("even_forms") ? std::size_t(fp64) + 1 + std::size_t(int64) + std::size_t(fp64) + 2 : 0) +
         (wanted("compact") ? 2 : 0);
}

std::vector<Row> run_algorithm_benchmarks(Runtime& rt, const Config& config) {
  // Whole 64-byte multiples; quick: 1 MiB. A buffer must fit in one allocation (compact and the
  // read-only pass hold two of this size).
  std::size_t bytes = config.quick ? std::min<std::size_t>(config.bytes, std::size_t(1) << 20) : config.bytes;
  bytes = std::min<std::size_t>(bytes, std::size_t(rt.device_info().caps.max_mem_alloc_size)) / 64 * 64;
  if (bytes < 64) throw std::invalid_argument("algorithms: --size must be at least 64 bytes");
  const std::vector<PeerFigure> peers = read_peer_figures(peers_variable, suite, config);  // before the run: a bad file fails at once
  std::vector<Row> rows;
  if (wanted("reduce")) bench_reduce(rt, config, bytes, rows);
  if (wanted("dot")) bench_dot(rt, config, bytes, rows);
  if (wanted("histogram")) bench_byte_histogram(rt, config, bytes, rows);
  if (wanted("even")) bench_even_histogram(rt, config, bytes, rows);
  if (wanted("even_forms")) bench_even_histogram_forms(rt, config, bytes, rows);
  if (wanted("compact")) bench_compact(rt, config, bytes, rows);
  return with_peer_rows(rows, peers, config);
}

void print_algorithm_summary(const std::vector<Row>& rows, bool gpu, std::ostream& out) {
  const auto find = [&](const std::string& op, const std::string& distribution, bool host) -> const Row* {
    for (const auto& r : rows)
      if (r.suite == suite && r.op == op && r.distribution == distribution && (r.yardstick == read_only) != host) return &r;
    return nullptr;
  };
  if (std::none_of(rows.begin(), rows.end(), [](const Row& r) { return r.suite == suite; })) return;
  // The read-only pass bounds a GPU's kernels (memory-bound); on a CPU it is one more kernel
  // through the runtime (PoCL: a few GB/s, half of what reduce reads), so plain C++ is the bound.
  out << "\nalgorithms summary, " << (gpu ? "a GPU: targets against the read-only pass (the memory's rate)"
                                           : "a CPU: targets against plain C++ on every hardware thread")
      << "\n";
  const struct {
    const char* op;
    const char* label;
    const char* distribution;
    const char* gpu;
    const char* cpu;
  } targets[] = {{"reduce sum", "reduce sum float", "uniform", ">= 0.90x", ">= 0.7x"},
                 {"histogram", "histogram 256 bins", "uniform", ">= 0.85x", ">= 0.5x"},
                 {"histogram", "histogram 256 bins", "one bin", ">= 0.85x", ">= 0.5x"}};
  for (const auto& t : targets) {
    const Row* ro = find(t.op, t.distribution, false);
    const Row* cpu = find(t.op, t.distribution, true);
    if (!ro || !cpu) continue;
    out << "  " << t.label << " (" << t.distribution << "): " << format_number(ro->value) << " GB/s = ";
    if (gpu)
      out << two_places(ro->ratio()) << "x the read-only pass (target " << t.gpu << "), " << two_places(cpu->ratio()) << "x plain C++\n";
    else
      out << two_places(cpu->ratio()) << "x plain C++ (target " << t.cpu << "); read-only pass " << format_number(ro->yardstick_value)
          << " GB/s\n";
  }
  print_peer_summary(rows, suite, {read_only, host_name()}, peers_variable, out);
}

Suite algorithms_suite() { return {"algorithms", "reduce, dot, histograms, compact: GB/s vs a read-only pass and plain C++", run_algorithm_benchmarks, algorithm_steps, print_algorithm_summary}; }

}  // namespace clatomics::bench
