// Timing and yardsticks for the benchmark suites.
#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace clatomics::bench {

double event_ms(const cl::Event& event) {
  event.wait();
  const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return double(end - start) * 1e-6;
}

double median_ms(const Config& config, const std::function<double()>& once_ms) {
  for (int i = 0; i < (config.quick ? 0 : config.warmup); ++i) once_ms();
  std::vector<double> times;
  const int repeats = config.quick ? 1 : std::max(1, config.repeats);
  for (int i = 0; i < repeats; ++i) times.push_back(once_ms());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

const std::string_view* embedded_file(std::string_view path);

cl::Program build_bench_kernel(const Runtime& rt, const std::string& file, const std::string& options) {
  const std::string_view* text = embedded_file(file);
  if (!text) throw std::invalid_argument("no benchmark kernel file " + file);
  return rt.build(std::string(*text), options);
}

double read_only_gbps(Runtime& rt, const cl::Buffer& buffer, std::size_t bytes, const Config& config) {
  const cl::Program program = build_bench_kernel(rt, "read_only.cl");
  cl::Kernel kernel(program, "clat_read_only");  // read_only is an OpenCL C keyword
  cl::Buffer sink(rt.context(), CL_MEM_WRITE_ONLY, sizeof(cl_uint));
  const cl_ulong n4 = bytes / 16;
  kernel.setArg(0, buffer);
  kernel.setArg(1, n4);
  kernel.setArg(2, sink);
  const auto& caps = rt.device_info().caps;
  const std::size_t group = std::min<std::size_t>(256, caps.max_work_group_size);
  // Enough work-items to fill the device, each striding through the data.
  std::size_t items = std::size_t(caps.compute_units) * (caps.is_gpu() ? 2048 : 4) * group / group * group;
  items = std::max(group, std::min(items, std::size_t((n4 + group - 1) / group * group)));
  const double ms = median_ms(config, [&] {
    cl::Event event;
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(group), nullptr, &event);
    return event_ms(event);
  });
  return double(bytes) / (ms * 1e6);
}

double host_parallel_ms(const Config& config, std::size_t n, const std::function<void(std::size_t, std::size_t)>& f) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  return median_ms(config, [&] {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { f(n * t / threads, n * (t + 1) / threads); });
    for (auto& th : pool) th.join();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void progress(const Config& config, const std::string& what) {
  if (config.progress) config.progress->note(what);
}

void step(const Config& config, const std::string& what) {
  if (config.progress) config.progress->step(what);
}

namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::string eta_text(double seconds) {
  if (seconds < 1) return "< 1 s";
  if (seconds < 60) return std::to_string(int(seconds + 0.5)) + " s";
  const int s = int(seconds + 0.5);
  return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
}
}  // namespace

void Progress::clear_line() {
  if (line_open_) out_ << "\r\033[K";
  line_open_ = false;
}

void Progress::step(const std::string& what) {
  const double t = now_s();
  if (start_s_ < 0) start_s_ = t;
  ++done_;
  total_ = std::max(total_, done_);  // a suite that starts more than it announced still counts right
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + what;
  // The rate so far over the steps finished: rough (steps differ), but it moves the right way.
  if (done_ > 1) line += " ... ETA " + eta_text((t - start_s_) / double(done_ - 1) * double(total_ - done_ + 1));
  clear_line();
  if (terminal_) {
    out_ << line << std::flush;
    line_open_ = true;
  } else {
    out_ << line << std::endl;
  }
}

void Progress::note(const std::string& what) {
  clear_line();
  out_ << "[bench] " << what << std::endl;
}

void Progress::finish() {
  if (line_open_) out_ << std::endl;
  line_open_ = false;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1023.5 && u < 4) v /= 1024, ++u;  // 1023.9 KiB prints as 1 MiB, not 1024 KiB
  char buf[32];
  // %.3g drops trailing zeros: 64 MiB less a few bytes is "64 MiB", never "64.0 MiB"
  std::snprintf(buf, sizeof buf, v >= 1000 ? "%.0f %s" : "%.3g %s", v, units[u]);
  return buf;
}

}  // namespace clatomics::bench
