// The multi-device suite: a device group against one of its devices (see bench_multi.hpp).
#include "bench_multi.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clatomics/device_group.hpp"
#include "report.hpp"

namespace clatomics::bench {
namespace {

std::unique_ptr<DeviceGroup> make_group() {
  if (const char* selector = std::getenv("CLATOMICS_BENCH_GROUP")) return std::make_unique<DeviceGroup>(selector);
  try {
    return std::make_unique<DeviceGroup>("gpu:all");
  } catch (const std::invalid_argument&) {
    return std::make_unique<DeviceGroup>("cpu:all");
  }
}

double wall_ms(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double gbps(std::size_t bytes, double ms) { return double(bytes) / (ms * 1e6); }

// Host-to-device copy rate of one device: 256 MiB writes from the (pageable) host data.
double copy_gbps(Runtime& rt, const void* host, std::size_t bytes, const Config& config) {
  const std::size_t chunk = std::min<std::size_t>(bytes, std::size_t(256) << 20);
  cl::Buffer buffer(rt.context(), CL_MEM_READ_ONLY, chunk);
  cl::CommandQueue queue = rt.queue();
  const double ms = median_ms(config, [&] { return wall_ms([&] { queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, chunk, host); }); });
  return gbps(chunk, ms);
}

// The same from pinned host memory: a mapped CL_MEM_ALLOC_HOST_PTR buffer of the device's context
// (what NVIDIA's OpenCL copies by DMA without staging).
double pinned_copy_gbps(Runtime& rt, std::size_t bytes, const Config& config) {
  const std::size_t chunk = std::min<std::size_t>(bytes, std::size_t(256) << 20);
  cl::Buffer pinned(rt.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, chunk);
  cl::CommandQueue queue = rt.queue();
  void* host = queue.enqueueMapBuffer(pinned, CL_TRUE, CL_MAP_WRITE, 0, chunk);
  std::memset(host, 1, chunk);
  const double rate = copy_gbps(rt, host, chunk, config);
  queue.enqueueUnmapMemObject(pinned, host);
  queue.finish();
  return rate;
}

// The host's own memory copy rate: the host data copied into another buffer (touched first) by
// every hardware thread at once, each its own slice: what staging into pinned memory can reach.
double host_copy_gbps(const void* host, std::size_t bytes, const Config& config) {
  const std::size_t chunk = std::min<std::size_t>(bytes, std::size_t(1) << 30);
  std::vector<unsigned char> to(chunk, 1);
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency()), slice = (chunk / threads + 63) / 64 * 64;
  const double ms = median_ms(config, [&] {
    return wall_ms([&] {
      std::vector<std::thread> copiers;
      for (std::size_t at = 0; at < chunk; at += slice)
        copiers.emplace_back([&, at] { std::memcpy(to.data() + at, static_cast<const unsigned char*>(host) + at, std::min(slice, chunk - at)); });
      for (std::thread& t : copiers) t.join();
    });
  });
  return gbps(chunk, ms);
}

Row row(const std::string& op, const std::string& type, const std::string& form, std::size_t bytes, const std::string& distribution,
        double value, const std::string& yardstick, double yardstick_value) {
  Row r;
  r.suite = "multi";
  r.op = op, r.type = type, r.form = form, r.bytes = bytes, r.distribution = distribution;
  r.value = value, r.unit = "GB/s", r.yardstick = yardstick, r.yardstick_value = yardstick_value;
  return r;
}

}  // namespace

std::vector<Row> run_multi_benchmarks(Runtime&, const Config& config) {
  std::unique_ptr<DeviceGroup> group = make_group();
  DeviceGroup one(std::vector<cl::CommandQueue>{group->runtime(0).queue()});
  const std::string devices = std::to_string(group->size()) + " devices";
  std::vector<Row> rows;
  const ReduceOptions det{true};
  const auto time = [&](const std::function<void()>& f) { return median_ms(config, [&] { return wall_ms(f); }); };

  // Resident data.
  const std::size_t bytes = config.quick ? std::size_t(16) << 20 : config.bytes;
  std::vector<float> x(bytes / 4);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float((i * 2654435761u) % 1000003u) * 1e-6f;
  std::vector<std::uint8_t> b(bytes);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::uint8_t((i * 2654435761u) >> 13);
  step(config, "multi: resident data on " + devices);
  {
    const auto xg = distribute(*group, x), x1 = distribute(one, x);
    const auto bg = distribute(*group, b), b1 = distribute(one, b);
    const double sum_g = time([&] { reduce<float>(*group, xg, ReduceOp::sum); });
    const double sum_1 = time([&] { reduce<float>(one, x1, ReduceOp::sum); });
    const double det_g = time([&] { reduce<float>(*group, xg, ReduceOp::sum, det); });
    const double det_1 = time([&] { reduce<float>(one, x1, ReduceOp::sum, det); });
    Runtime& first = group->runtime(0);  // the single-device calls on the same buffer
    const double tree_1 = time([&] { reduce(first, view<float>(x1.parts[0], 0, x.size()), ReduceOp::sum, det); });
    const double fast_1 = time([&] { reduce(first, view<float>(x1.parts[0], 0, x.size()), ReduceOp::sum); });
    const double hist_g = time([&] { histogram(*group, bg); });
    const double hist_1 = time([&] { histogram(one, b1); });
    rows.push_back(row("reduce sum", "float", "resident", bytes, devices, gbps(bytes, sum_g), "1 device", gbps(bytes, sum_1)));
    rows.push_back(row("reduce sum", "float", "resident, deterministic", bytes, devices, gbps(bytes, det_g), "fast mode", gbps(bytes, sum_g)));
    rows.push_back(row("reduce sum", "float", "resident, deterministic", bytes, "1 device", gbps(bytes, det_1), "fast mode", gbps(bytes, sum_1)));
    rows.push_back(row("reduce sum", "float", "cl::Buffer, deterministic", bytes, "1 device", gbps(bytes, tree_1), "fast mode", gbps(bytes, fast_1)));
    rows.push_back(row("histogram", "uchar", "resident", bytes, devices, gbps(bytes, hist_g), "1 device", gbps(bytes, hist_1)));
  }
  x.clear(), x.shrink_to_fit(), b.clear(), b.shrink_to_fit();

  // Host data.
  std::size_t host_bytes = config.quick ? std::size_t(16) << 20 : std::size_t(8) << 30;
  if (const char* env = std::getenv("CLATOMICS_BENCH_HOST_BYTES")) host_bytes = std::strtoull(env, nullptr, 10);
  std::vector<float> h(host_bytes / 4);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = float((i * 2654435761u) % 1000003u) * 1e-6f;
  step(config, "multi: host data, " + format_bytes(host_bytes));
  double copies = 0;
  double pinned_copies = 0;
  for (std::size_t d = 0; d < group->size(); ++d) {
    copies += copy_gbps(group->runtime(d), h.data(), host_bytes, config);
    pinned_copies += pinned_copy_gbps(group->runtime(d), host_bytes, config);
  }
  const double host_copies = host_copy_gbps(h.data(), host_bytes, config);
  rows.push_back(row("host-to-device copies", "bytes", "pinned host memory", host_bytes, devices, pinned_copies, "pageable", copies));
  rows.push_back(row("host memory copy", "bytes", std::to_string(std::thread::hardware_concurrency()) + " threads", host_bytes, "host",
                     host_copies, "pinned host-to-device copies", pinned_copies));
  const double host_g = time([&] { reduce<float>(*group, h, ReduceOp::sum); });
  const double host_1 = time([&] { reduce<float>(one, h, ReduceOp::sum); });
  const double host_det = time([&] { reduce<float>(*group, h, ReduceOp::sum, det); });
  rows.push_back(row("reduce sum", "float", "host data", host_bytes, devices, gbps(host_bytes, host_g), "1 device", gbps(host_bytes, host_1)));
  rows.push_back(row("reduce sum", "float", "host data", host_bytes, devices, gbps(host_bytes, host_g), "host-to-device copies", copies));
  rows.push_back(row("reduce sum", "float", "host data", host_bytes, devices, gbps(host_bytes, host_g), "pinned host-to-device copies",
                     pinned_copies));
  rows.push_back(row("reduce sum", "float", "host data", host_bytes, devices, gbps(host_bytes, host_g), "host memory copy", host_copies));
  rows.push_back(row("reduce sum", "float", "host data, deterministic", host_bytes, devices, gbps(host_bytes, host_det), "fast mode",
                     gbps(host_bytes, host_g)));
  h.clear(), h.shrink_to_fit();

  // scatter_reduce over host data: as many bytes of (uint index, float value) pairs, 65,536 bins.
  const std::size_t pairs = host_bytes / 8;
  std::vector<cl_uint> indices(pairs);
  std::vector<float> values(pairs);
  for (std::size_t i = 0; i < pairs; ++i) indices[i] = cl_uint((i * 2654435761u) >> 16), values[i] = float(i % 1000) * 1e-3f;
  step(config, "multi: scatter_reduce over host data, " + format_bytes(host_bytes));
  std::vector<float> out(65536, 0.0f);
  const double scatter_g = time([&] { scatter_reduce<float, cl_uint>(*group, out, indices, values, ScatterOp::sum); });
  const double scatter_1 = time([&] { scatter_reduce<float, cl_uint>(one, out, indices, values, ScatterOp::sum); });
  rows.push_back(row("scatter_reduce sum", "float", "host data, uint indices, 65,536 bins", host_bytes, devices, gbps(host_bytes, scatter_g),
                     "1 device", gbps(host_bytes, scatter_1)));
  return rows;
}

std::size_t multi_steps(const Runtime&, const Config&) { return 3; }  // resident, host data, scatter_reduce

void print_multi_summary(const std::vector<Row>& rows, bool, std::ostream& out) {
  out << "\nmulti summary (targets: resident >= 1.9x one device, host data >= 1.8x one device and >= 0.5x the pinned copies, "
         "deterministic <= 1.2x the fast mode's time)\n";
  for (const Row& r : rows)
    if (r.suite == "multi")
      out << "  " << r.op << " " << r.type << ", " << r.form << ", " << r.distribution << ": " << format_number(r.value) << " GB/s, "
          << format_number(r.ratio()) << "x " << r.yardstick << "\n";
}

Suite multi_suite() { return {"multi", "reduce and histogram on a device group (resident and host data) vs one of its devices", run_multi_benchmarks, multi_steps, print_multi_summary}; }

}  // namespace clatomics::bench
