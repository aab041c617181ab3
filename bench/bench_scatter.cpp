// The scatter benchmark: scatter_reduce sum (fast and deterministic) against a read-only pass
// over the same bytes, plain C++ on CPU devices, and PyTorch / CuPy figures when given.
#include "bench_scatter.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>

#include "clatomics/scatter.hpp"
#include "report.hpp"

namespace clatomics::bench {
namespace {

constexpr const char* suite = "scatter";
constexpr const char* op_name = "scatter_reduce sum";
constexpr const char* deterministic_form = "deterministic";
constexpr const char* read_only = "read-only pass";
constexpr const char* fast_mode = "fast mode";
// The yardsticks bench/scatter_torch.py measures (its "gbps" keys).
constexpr const char* torch_fast = "torch index_add_";
constexpr const char* cupy_fast = "cupyx scatter_add";
constexpr const char* torch_deterministic = "torch index_add_ deterministic";

std::string host_name() {
  return "C++ " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads, private copies";
}

// Draw i of the stream `seed`: splitmix64 of the counter, so that any part of a stream can be
// drawn alone (threads here; numpy in bench/scatter_torch.py, which draws the same numbers).
std::uint64_t draw(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr std::uint64_t index_seed = 11, zipf_seed = 12, value_seed = 13;

// f(first, last) over [0, n), split over the hardware threads (data generation only).
template <class F>
void parallel_for(std::size_t n, F f) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back([&, t] { f(n * t / threads, n * (t + 1) / threads); });
  for (auto& th : pool) th.join();
}

// Zipf's law with s = 1.1 over the ranks 1..2^24 (truncated: the untruncated law would put 18%
// of its mass beyond them), sampled by inverting its CDF: rank(u) is the smallest r with
// CDF(r) > u, for u uniform in [0, 1). A guide table (the rank at each 2^-20 step of u) leaves a
// binary search over the few ranks between two steps. The index is then (rank - 1) mod M: the
// hottest rank lands in bin 0. bench/scatter_torch.py does the same with np.cumsum and
// np.searchsorted.
class Zipf {
 public:
  static constexpr std::size_t ranks = std::size_t(1) << 24;
  static constexpr double s = 1.1;

  Zipf() : cdf_(ranks), guide_(guide_size) {
    double total = 0;
    for (std::size_t r = 0; r < ranks; ++r) cdf_[r] = total += std::pow(double(r + 1), -s);
    for (auto& c : cdf_) c /= total;
    cdf_.back() = 1.0;
    std::size_t r = 0;
    for (std::size_t g = 0; g < guide_size; ++g) {
      while (cdf_[r] <= double(g) / guide_size) ++r;
      guide_[g] = std::uint32_t(r);
    }
  }
  // 0-based: rank - 1.
  std::uint32_t operator()(double u) const {
    const std::size_t g = std::min(guide_size - 1, std::size_t(u * guide_size));
    const std::size_t lo = guide_[g], hi = g + 1 < guide_size ? std::size_t(guide_[g + 1]) + 1 : ranks;
    return std::uint32_t(std::upper_bound(cdf_.begin() + lo, cdf_.begin() + hi, u) - cdf_.begin());
  }

 private:
  static constexpr std::size_t guide_size = std::size_t(1) << 20;
  std::vector<double> cdf_;
  std::vector<std::uint32_t> guide_;
};

// One case: the indices' distribution over `bins` bins, `width` values per element.
struct Case {
  std::string distribution;  // as the rows name it
  std::string tag;           // as CLATOMICS_BENCH_SCATTER names it
  std::size_t bins, width, elements;
  bool sorted() const { return tag == "sorted"; }
  std::string label() const {
    return (width > 1 ? "rows of " + std::to_string(width) + ", " : std::string()) + std::to_string(bins) + " bins, " + distribution;
  }
};

std::vector<cl_uint> make_indices(const Case& c, const Zipf* zipf) {
  std::vector<cl_uint> idx(c.elements);
  const std::uint64_t m = c.bins;
  if (c.tag == "onebin") {
    std::fill(idx.begin(), idx.end(), cl_uint(m / 2));
  } else if (c.tag == "zipf") {
    parallel_for(c.elements, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) idx[i] = cl_uint((*zipf)(double(draw(zipf_seed, i) >> 11) * 0x1.0p-53) % m);
    });
  } else {  // uniform, rows, sorted: the top 32 bits scaled to [0, m)
    parallel_for(c.elements, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) idx[i] = cl_uint(((draw(index_seed, i) >> 32) * m) >> 32);
    });
    if (c.sorted()) {  // a counting sort: the same indices in order
      std::vector<std::size_t> count(m);
      for (const cl_uint b : idx) ++count[b];
      std::size_t i = 0;
      for (std::size_t b = 0; b < m; ++b)
        for (std::size_t k = 0; k < count[b]; ++k) idx[i++] = cl_uint(b);
    }
  }
  return idx;
}

// k / 256 for k uniform in [-256, 256): dyadic values whose float sums are exact while partial
// sums stay below 2^16 in magnitude (so both modes can be checked closely).
std::vector<float> make_values(std::size_t n) {
  std::vector<float> v(n);
  parallel_for(n, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) v[i] = float(int(draw(value_seed, i) >> 55) - 256) * (1.0f / 256.0f);
  });
  return v;
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "/") + n;
  return out;
}

// Figures from bench/scatter_torch.py: GB/s by yardstick name, by case.
using TorchKey = std::tuple<std::string, std::size_t, std::size_t, std::size_t>;  // distribution, bins, width, bytes
using TorchFigures = std::map<TorchKey, std::map<std::string, double>>;

TorchFigures read_torch_figures(const Config& config) {
  TorchFigures figures;
  const char* path = std::getenv("CLATOMICS_BENCH_SCATTER_TORCH");
  if (!path || !*path) return figures;
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("CLATOMICS_BENCH_SCATTER_TORCH: cannot read ") + path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const auto doc = nlohmann::json::parse(line);
      auto& gbps = figures[{doc.at("distribution").get<std::string>(), doc.at("bins").get<std::size_t>(),
                            doc.at("width").get<std::size_t>(), doc.at("bytes").get<std::size_t>()}];
      for (const auto& [name, value] : doc.at("gbps").items())
        if (value.is_number()) gbps[name] = value.get<double>();
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(std::string("CLATOMICS_BENCH_SCATTER_TORCH: ") + path + " line " + std::to_string(number) + ": " + e.what());
    }
  }
  progress(config, std::string("scatter: torch figures from ") + path + " (" + std::to_string(figures.size()) + " cases)");
  return figures;
}

// What one case measured.
struct Figures {
  double fast = 0, deterministic = 0, read_only = 0, host = 0;  // GB/s
  std::string fast_strategy, deterministic_strategy;
};

class ScatterBench {
 public:
  ScatterBench(Runtime& rt, const Config& config) : rt_(rt), config_(config), torch_(read_torch_figures(config)) {
    once_ = config;
    once_.quick = false;
    once_.warmup = 0;
    once_.repeats = 1;
  }

  void run(const Case& c, std::vector<Row>& rows) {
    step(config_, "scatter: " + c.label() + " (" + std::to_string(c.elements) + " elements)");
    if (c.tag == "zipf" && !zipf_) zipf_ = std::make_unique<Zipf>();
    const std::size_t n_values = c.elements * c.width;
    if (values_.size() != n_values) {  // the same values for every case of one width
      values_.clear();
      values_.shrink_to_fit();
      values_ = make_values(n_values);
    }
    const std::vector<cl_uint> idx = make_indices(c, zipf_.get());
    const cl::Buffer indices = upload(rt_, idx), values = upload(rt_, values_);
    const cl::Buffer out(rt_.context(), CL_MEM_READ_WRITE, c.bins * c.width * sizeof(float));
    const std::size_t index_bytes = c.elements * 4, value_bytes = n_values * 4, bytes = index_bytes + value_bytes;

    ScatterOptions fast;
    fast.indices_are_sorted = c.sorted();
    ScatterOptions det = fast;
    det.deterministic = true;
    const auto call = [&](const ScatterOptions& o) {
      return scatter_reduce(rt_, view<float>(out, 0, c.bins * c.width), view<cl_uint>(indices, 0, c.elements),
                            view<float>(values, 0, c.elements * c.width), ScatterOp::sum, o, c.width);
    };

    // Checked once against the host before the timing (out starts at 0 each time).
    std::vector<double> sum(c.bins * c.width), magnitude(c.bins * c.width);
    for (std::size_t i = 0; i < c.elements; ++i)
      for (std::size_t d = 0; d < c.width; ++d) {
        const double v = values_[i * c.width + d];
        sum[idx[i] * c.width + d] += v;
        magnitude[idx[i] * c.width + d] += std::fabs(v);
      }
    check(call, fast, out, sum, magnitude, c, "fast");
    if (deterministic_) {
      try {
        check(call, det, out, sum, magnitude, c, "deterministic");
      } catch (const std::invalid_argument& e) {  // no fp64 or no 64-bit atomics: no such mode here
        deterministic_ = false;
        progress(config_, std::string("scatter: no deterministic mode on this device (") + e.what() + ")");
      }
    }
    sum = {};
    magnitude = {};

    // On CPU devices, for bins that fit a thread's private copy, the plain C++ yardstick.
    const bool host = !rt_.device_info().caps.is_gpu() && c.bins <= 65536 && c.width == 1;
    std::vector<float> host_out(host ? c.bins : 0);
    std::mutex merge;
    const auto host_loop = [&](std::size_t first, std::size_t last) {
      std::vector<float> mine(c.bins);
      for (std::size_t i = first; i < last; ++i) mine[idx[i]] += values_[i];
      std::lock_guard<std::mutex> lock(merge);
      for (std::size_t b = 0; b < c.bins; ++b) host_out[b] += mine[b];
    };

    // In turns, as the algorithms suite measures (bench_algorithms.cpp, measure()): each timed
    // device call after an untimed read-only pass (the device busy, not idle, when it starts),
    // then the read-only pass over the indices and the values, then the host loop.
    const int warmup = config_.quick ? 0 : config_.warmup, repeats = config_.quick ? 1 : std::max(1, config_.repeats);
    std::vector<double> fast_ms, det_ms, read_ms, host_ms;
    std::set<std::string> fast_strategies, det_strategies;
    for (int i = -warmup; i < repeats; ++i) {
      read_only_ms(indices, index_bytes, values, value_bytes);
      const double f = timed(call, fast, fast_strategies);
      double d = 0;
      if (deterministic_) {
        read_only_ms(indices, index_bytes, values, value_bytes);
        d = timed(call, det, det_strategies);
      }
      const double r = read_only_ms(indices, index_bytes, values, value_bytes);
      const double h = host ? host_parallel_ms(once_, c.elements, host_loop) : 0;
      if (i < 0) continue;
      fast_ms.push_back(f);
      det_ms.push_back(d);
      read_ms.push_back(r);
      host_ms.push_back(h);
    }
    const auto gbps = [&](double ms) { return ms > 0 ? double(bytes) / (ms * 1e6) : 0.0; };

    Row row;
    row.suite = suite;
    row.op = op_name;
    row.type = "float";
    row.bins = c.bins;
    row.width = c.width;
    row.bytes = bytes;
    row.distribution = c.distribution;
    row.unit = "GB/s";
    const auto torch = torch_.find({c.distribution, c.bins, c.width, bytes});
    if (!torch_.empty() && torch == torch_.end())
      progress(config_, "scatter: no torch figures for " + c.label() + " at " + std::to_string(bytes) +
                            " bytes (run bench/scatter_torch.py with the same --size)");
    const auto add = [&](const char* yardstick, double value) {
      if (value <= 0) return;
      row.yardstick = yardstick;
      row.yardstick_value = value;
      rows.push_back(row);
    };
    const auto add_torch = [&](const char* name) {
      if (torch == torch_.end()) return;
      const auto it = torch->second.find(name);
      if (it != torch->second.end()) add(name, it->second);
    };

    row.path = joined(fast_strategies);
    row.value = gbps(median(fast_ms));
    const double fast_gbps = row.value;
    add(read_only, gbps(median(read_ms)));
    if (host) add(host_name().c_str(), gbps(median(host_ms)));
    add_torch(torch_fast);
    add_torch(cupy_fast);
    if (deterministic_) {
      row.form = deterministic_form;
      row.path = joined(det_strategies);
      row.value = gbps(median(det_ms));
      add(read_only, gbps(median(read_ms)));
      add(fast_mode, fast_gbps);
      add_torch(torch_deterministic);
    }
  }

 private:
  template <class Call>
  void check(const Call& call, const ScatterOptions& options, const cl::Buffer& out, const std::vector<double>& sum,
             const std::vector<double>& magnitude, const Case& c, const char* mode) {
    rt_.queue().enqueueFillBuffer(out, 0.0f, 0, sum.size() * sizeof(float));
    const ScatterResult r = call(options);
    std::vector<float> got(sum.size());
    rt_.queue().enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(float), got.data());
    if (r.out_of_range != 0)
      throw std::runtime_error("scatter: " + c.label() + ", " + mode + ": " + std::to_string(r.out_of_range) + " indices out of range");
    for (std::size_t b = 0; b < got.size(); ++b) {
      // Exact unless partial sums passed 2^16; 2^-20 of the bin's magnitude is far above what
      // rounding could then add, and far below a lost or doubled element of a small bin.
      if (!(std::fabs(double(got[b]) - sum[b]) <= magnitude[b] * 0x1.0p-20)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, ": out[%zu] = %.9g, the host's sum %.9g", b, double(got[b]), sum[b]);
        throw std::runtime_error("scatter: " + c.label() + ", " + mode + buf);
      }
    }
  }

  // Device time of every command the call enqueued (wall-clock time to its end if it recorded none).
  template <class Call>
  double timed(const Call& call, const ScatterOptions& options, std::set<std::string>& strategies) {
    rt_.queue().finish();
    const auto start = std::chrono::steady_clock::now();
    ProfileScope scope;
    const ScatterResult r = call(options);
    strategies.insert(strategy_name(r.strategy));
    if (scope.commands() > 0) return scope.device_ms();
    rt_.queue().finish();
    if (!wall_clock_noted_) {
      wall_clock_noted_ = true;
      progress(config_, "scatter: scatter_reduce recorded no commands in a ProfileScope: wall-clock times");
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  // The read-only pass over the indices and then the values: milliseconds of both.
  double read_only_ms(const cl::Buffer& a, std::size_t a_bytes, const cl::Buffer& b, std::size_t b_bytes) {
    return double(a_bytes) / (read_only_gbps(rt_, a, a_bytes, once_) * 1e6) + double(b_bytes) / (read_only_gbps(rt_, b, b_bytes, once_) * 1e6);
  }

  Runtime& rt_;
  const Config& config_;
  Config once_;
  TorchFigures torch_;
  std::unique_ptr<Zipf> zipf_;
  std::vector<float> values_;
  bool deterministic_ = true;
  bool wall_clock_noted_ = false;
};

std::vector<Case> all_cases(std::size_t elements, std::size_t row_elements, bool quick) {
  std::vector<Case> cases;
  for (const std::size_t m : {std::size_t(1), std::size_t(256), std::size_t(65536), std::size_t(16777216)}) {
    if (quick && m > 65536) continue;
    if (m == 1) {  // every distribution puts everything in bin 0
      cases.push_back({"one bin", "onebin", m, 1, elements});
      continue;
    }
    if (quick && m == 65536) {
      cases.push_back({"uniform", "uniform", m, 1, elements});
      continue;
    }
    cases.push_back({"uniform", "uniform", m, 1, elements});
    cases.push_back({"zipf 1.1", "zipf", m, 1, elements});
    cases.push_back({"sorted uniform", "sorted", m, 1, elements});
    cases.push_back({"one bin", "onebin", m, 1, elements});
  }
  for (const std::size_t d : {std::size_t(32), std::size_t(128)})
    if (!quick || d == 32) cases.push_back({"uniform", "rows", 100000, d, row_elements});
  return cases;
}

// Elements rounded down to a multiple of 1024 (at least 1024), index + values in one allocation each.
std::size_t fit(std::size_t elements, std::size_t width, std::size_t max_alloc) {
  elements = std::min(elements, max_alloc / (4 * width));
  return std::max<std::size_t>(1024, elements / 1024 * 1024);
}

// The cases a run measures, fitted to the device's largest allocation; CLATOMICS_BENCH_SCATTER
// narrows them (distributions: uniform, zipf, sorted, onebin, rows; and bin counts). `narrowed`:
// whether the variable named anything.
std::vector<Case> chosen_cases(const Runtime& rt, const Config& config, bool* narrowed = nullptr) {
  const std::size_t value_bytes = config.quick ? std::min<std::size_t>(config.bytes, std::size_t(1) << 20) : config.bytes;
  if (value_bytes < 4096) throw std::invalid_argument("scatter: --size must be at least 4096 bytes");
  const std::size_t max_alloc = std::size_t(rt.device_info().caps.max_mem_alloc_size);
  const std::size_t elements = fit(value_bytes / 4, 1, max_alloc);
  const char* only = std::getenv("CLATOMICS_BENCH_SCATTER");
  std::set<std::string> tags, bins;
  if (only && *only) {
    const std::string list = only;
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t end = std::min(list.find(',', start), list.size());
      const std::string item = list.substr(start, end - start);
      if (!item.empty()) (std::isdigit(static_cast<unsigned char>(item[0])) ? bins : tags).insert(item);
      start = end + 1;
    }
  }
  if (narrowed) *narrowed = !tags.empty() || !bins.empty();
  std::vector<Case> cases;
  for (const auto& c : all_cases(elements, value_bytes / 64, config.quick)) {
    if (!tags.empty() && !tags.count(c.tag)) continue;
    if (!bins.empty() && !bins.count(std::to_string(c.bins))) continue;
    Case fitted = c;
    fitted.elements = fit(c.elements, c.width, max_alloc);
    cases.push_back(fitted);
  }
  return cases;
}

}  // namespace

std::size_t scatter_steps(const Runtime& rt, const Config& config) { return chosen_cases(rt, config).size(); }

std::vector<Row> run_scatter_benchmarks(Runtime& rt, const Config& config) {
  bool narrowed = false;
  const std::vector<Case> cases = chosen_cases(rt, config, &narrowed);
  ScatterBench bench(rt, config);
  std::vector<Row> rows;
  for (const auto& c : cases) bench.run(c, rows);
  if (rows.empty() && narrowed)
    throw std::invalid_argument("scatter: CLATOMICS_BENCH_SCATTER='" + std::string(std::getenv("CLATOMICS_BENCH_SCATTER")) +
                                "' names no case (uniform, zipf, sorted, onebin, rows; 1, 256, 65536, 16777216, 100000)");
  return rows;
}

void print_scatter_summary(const std::vector<Row>& rows, bool, std::ostream& out) {
  // The rows of one case, by form and yardstick.
  struct Line {
    std::string label;
    std::map<std::pair<std::string, std::string>, const Row*> by;
  };
  std::vector<Line> lines;
  for (const auto& r : rows) {
    if (r.suite != suite) continue;
    const std::string label = (r.width > 1 ? "rows of " + std::to_string(r.width) + ", " : std::string()) + std::to_string(r.bins) +
                              " bins, " + r.distribution;
    if (lines.empty() || lines.back().label != label) lines.push_back({label, {}});
    lines.back().by[{r.form, r.yardstick.rfind("C++ ", 0) == 0 ? "C++" : r.yardstick}] = &r;
  }
  if (lines.empty()) return;
  const auto times = [](double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", ratio);
    return std::string(buf);
  };
  const auto cell = [&](const Row* r, bool ratio) { return !r ? std::string("-") : ratio ? times(r->ratio()) : format_number(r->value); };
  std::vector<std::vector<std::string>> table{{"case", "fast GB/s", "/read-only", "strategy", "det GB/s", "/read-only", "strategy",
                                               "det/fast time", "/C++", "/torch", "/cupyx", "det /torch det"}};
  for (const auto& line : lines) {
    const auto get = [&](const std::string& form, const std::string& yardstick) -> const Row* {
      const auto it = line.by.find({form, yardstick});
      return it == line.by.end() ? nullptr : it->second;
    };
    const Row* fast = get("", read_only);
    const Row* det = get(deterministic_form, read_only);
    const Row* det_fast = get(deterministic_form, fast_mode);
    table.push_back({line.label, cell(fast, false), cell(fast, true), fast ? fast->path : "-", cell(det, false), cell(det, true),
                     det ? det->path : "-", det_fast && det_fast->ratio() > 0 ? times(1 / det_fast->ratio()) : "-",
                     cell(get("", "C++"), true), cell(get("", torch_fast), true), cell(get("", cupy_fast), true),
                     cell(get(deterministic_form, torch_deterministic), true)});
  }
  // Columns that no case filled (no torch figures, no deterministic mode, a GPU's absent C++) go.
  for (std::size_t c = table[0].size(); c-- > 1;)
    if (std::all_of(table.begin() + 1, table.end(), [&](const auto& t) { return t[c] == "-"; }))
      for (auto& t : table) t.erase(t.begin() + std::ptrdiff_t(c));
  std::vector<std::size_t> widths(table[0].size());
  for (const auto& t : table)
    for (std::size_t i = 0; i < t.size(); ++i) widths[i] = std::max(widths[i], t[i].size());
  out << "\nscatter summary (scatter_reduce sum float; GB/s of index + value bytes; /X: ratio to X in the same run;\n"
         "det/fast time: how much longer the deterministic mode takes)\n";
  for (const auto& t : table) {
    out << " ";
    for (std::size_t i = 0; i < t.size(); ++i) {
      const std::size_t pad = widths[i] - t[i].size();
      out << " " << (i == 0 ? t[i] + std::string(pad, ' ') : std::string(pad, ' ') + t[i]);
    }
    out << "\n";
  }
}

Suite scatter_suite() { return {"scatter", "scatter_reduce sum (fast, deterministic) over 1..16M bins and rows: GB/s vs a read-only pass, C++, torch", run_scatter_benchmarks, scatter_steps, print_scatter_summary}; }

}  // namespace clatomics::bench
