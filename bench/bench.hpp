// The benchmark framework shared by every suite of `clatomics bench`: timing from OpenCL
// profiling events, medians after a warm-up, and the yardsticks measured in the same run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "clatomics/clatomics.hpp"

namespace clatomics::bench {

// Runs f, turning a cl::Error from OpenCL-CLHPP (this program's setting) into clatomics::Error.
template <class F>
decltype(auto) checked(const char* call, F&& f) {
  try {
    return f();
  } catch (const cl::Error& e) {
    throw Error(e.err(), std::string(call) + " (" + e.what() + ")");
  }
}

// Builds one of bench/cl's kernel files (embedded in this program) with the snippet library.
cl::Program build_bench_kernel(const Runtime& rt, const std::string& file, const std::string& options = {});

// Where a run says what it is doing (stderr): a line per measured benchmark with the count and
// an estimate of the time left ("[12/40] algorithms: histogram_even 1000 bins ... ETA 14 s"), and
// notes. On a terminal the step line is overwritten in place; elsewhere (a log) each is a line.
class Progress {
 public:
  Progress(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
  void add_steps(std::size_t n) { total_ += n; }
  void step(const std::string& what);  // the next benchmark starts
  void note(const std::string& what);  // a line of its own ("[bench] what")
  void finish();                       // ends an overwritten line
  std::size_t done() const { return done_; }
  std::size_t total() const { return total_; }

 private:
  void clear_line();
  std::ostream& out_;
  bool terminal_;
  std::size_t total_ = 0, done_ = 0;
  bool line_open_ = false;  // a step line waits to be overwritten (terminal)
  double start_s_ = -1;
};

struct Config {
  std::size_t bytes = std::size_t(256) << 20;  // data size for the algorithm suites
  int warmup = 2;
  int repeats = 7;
  bool quick = false;              // tiny sizes, one repeat: for tests of the CLI
  Progress* progress = nullptr;  // where "which benchmark, which size" goes (stderr)
};

// One measured figure beside its yardstick from the same run, described field by field (the
// JSON, the table and the plot read these fields; nothing parses a name). A field that does not
// apply to a suite stays empty, or 0 for the counts.
struct Row {
  std::string suite;          // "atomics", "variants", "algorithms", "scatter"
  std::string op;             // "add", "mul", ...; algorithms: "reduce sum", "dot", "histogram", "compact", ...
  std::string type;           // "float", "double", "half", "bf16"; algorithms also "int", "uchar"
  std::string space;          // "global", "local"
  std::string form;           // "agg" (aggregated), "noret" (no value returned), "stable" (compaction),
                              // "deterministic" (scatter); "" plain
  std::size_t addresses = 0;  // how many distinct addresses the work-items update (contention)
  std::size_t bytes = 0;      // input bytes (algorithms; scatter: index + value bytes)
  std::size_t bins = 0;       // histograms, scatter (output bins)
  std::size_t width = 0;      // scatter: values per element (rows of `width`), 0 for one value
  std::string distribution;   // "spread", "blocked" (work-items to addresses); "uniform", "one bin", "half kept",
                              // "zipf 1.1", "sorted uniform"
  std::string path;           // what ran: a path_name() ("cas", "ptx", ...), "cas+backoff", "ptx scalar (opt-in)";
                              // scatter: the ScatterStrategy that ran ("global_atomics", ...)
  double value = 0;           // median
  std::string unit;           // "M ops/s", "GB/s"
  std::string yardstick;      // "cas loop", "read-only pass", "C++ 2 threads", "fast mode", "torch index_add_", ...
  double yardstick_value = 0;
  double ratio() const { return yardstick_value > 0 ? value / yardstick_value : 0; }
};

// Milliseconds between an event's start and end (the queue must have profiling enabled).
double event_ms(const cl::Event& event);

// Runs once_ms warmup times, then repeats times, and returns the median of the latter.
double median_ms(const Config& config, const std::function<double()>& once_ms);

// Yardstick: GB/s of a kernel that only reads `bytes` of `buffer` (uint4 loads).
double read_only_gbps(Runtime& rt, const cl::Buffer& buffer, std::size_t bytes, const Config& config);

// Yardstick on the host: median ms of f(first, last) split over all hardware threads.
double host_parallel_ms(const Config& config, std::size_t n, const std::function<void(std::size_t, std::size_t)>& f);

// A note on the run's progress (a line of its own), and the start of the next measured benchmark
// (counted: each suite's steps() says how many it will start).
void progress(const Config& config, const std::string& what);
void step(const Config& config, const std::string& what);

// "64 MiB", "3.6 GiB", "1.5 KiB": powers of 1024, three significant digits at most, no trailing
// zeros (the one formatter of sizes in the program's output).
std::string format_bytes(std::uint64_t bytes);

// A device buffer holding a copy of host (at least one byte).
template <class T>
cl::Buffer upload(Runtime& rt, const std::vector<T>& host) {
  return cl::Buffer(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::max<std::size_t>(1, host.size()) * sizeof(T),
                    const_cast<T*>(host.data()));
}

// The median of v (not empty).
double median(std::vector<double> v);

}  // namespace clatomics::bench
