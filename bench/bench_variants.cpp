// Aggregated vs plain atomics, and no-return vs returning add: M ops/s at each contention level.
#include "bench_variants.hpp"

#include <algorithm>
#include <cstdint>

namespace clatomics::bench {
namespace {

// M ops/s of one kernel at naddr cells, and the work-items it ran. Contention grows with the
// number of work-items in flight, so both kernels of a row run the same number: the yardstick is
// sized first (items == 0) and the aggregated kernel gets its count. Sizing: from one work-group
// per compute unit (every compute unit in the contest; never fewer) up to the full device
// (2048 per compute unit on GPUs), as many as one-op launches fit in max_ms; then up to
// target_ops ops per launch within max_ms (a contended CAS loop on a GPU is thousands of times
// slower than an aggregated op); median of the timed launches.
struct Measured {
  double mops = 0;
  std::size_t items = 0;
};

Measured measure(const Runtime& rt, const cl::Program& program, const std::string& name, std::size_t naddr, float init,
                 const Config& config, std::size_t items = 0) {
  return checked(name.c_str(), [&] {
    cl::Kernel kernel(program, name.c_str());
    const auto& caps = rt.device_info().caps;
    std::size_t group = 32;  // whole warps, for the blocked layout
    const std::size_t limit = std::min<std::size_t>(256, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device()));
    while (group * 2 <= limit) group *= 2;
    group = std::min(group, limit);
    const std::size_t units = std::max<std::size_t>(1, caps.compute_units);
    const std::size_t floor_items = units * group;
    const std::size_t full_items = std::max(floor_items, units * (caps.is_gpu() ? 2048 : 4 * group) / group * group);
    const std::uint64_t target_ops = caps.is_gpu() ? (config.quick ? (1u << 20) : (1u << 24)) : (config.quick ? (1u << 14) : (1u << 21));
    const double max_ms = caps.is_gpu() ? (config.quick ? 10 : 50) : (config.quick ? 10 : 100);
    cl::Buffer cells(rt.context(), CL_MEM_READ_WRITE, naddr * sizeof(float));
    cl::Buffer sink(rt.context(), CL_MEM_READ_WRITE, sizeof(float));
    kernel.setArg(0, cells);
    kernel.setArg(1, cl_uint(naddr - 1));
    kernel.setArg(3, sink);
    const auto launch = [&](std::size_t n, cl_uint iters) {
      rt.queue().enqueueFillBuffer(cells, init, 0, naddr * sizeof(float));
      kernel.setArg(2, iters);
      cl::Event event;
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group), nullptr, &event);
      return event_ms(event);
    };
    double first = 0;
    if (items == 0) {
      items = floor_items;
      first = launch(items, 1);
      if (first < max_ms && items < full_items) {
        const auto groups = std::size_t(double(items / group) * max_ms / std::max(first, 1e-3));
        items = std::clamp(groups * group, floor_items, full_items);
        first = launch(items, 1);
      }
    } else {
      first = launch(items, 1);
    }
    const double fit = max_ms / std::max(first, 1e-3);
    const auto iters = cl_uint(std::clamp<double>(std::min<double>(fit, double(target_ops / items)), 1, 1 << 20));
    const double ms = median_ms(config, [&] { return launch(items, iters); });
    return Measured{double(items) * iters / (ms * 1e3), items};
  });
}

// A row of this suite: float add/mul/div on global memory unless changed.
Row variant_row(const std::string& op, std::size_t naddr, const std::string& layout, const std::string& path) {
  Row row;
  row.suite = "variants";
  row.op = op;
  row.type = "float";
  row.space = "global";
  row.addresses = naddr;
  row.distribution = layout;
  row.path = path;
  row.unit = "M ops/s";
  return row;
}

std::vector<std::size_t> variant_levels(const Config& config) {
  return config.quick ? std::vector<std::size_t>{1, 1024} : std::vector<std::size_t>{1, 32, 1024, 65536};
}

std::vector<std::string> variant_ops(const Config& config) {
  return config.quick ? std::vector<std::string>{"add", "mul"} : std::vector<std::string>{"add", "mul", "div"};
}

}  // namespace

std::size_t variant_steps(const Runtime&, const Config& config) {
  // per level and layout (1 address: spread only): each op, and for add also the hardware
  // atomic, the no-return add, half and bf16
  const std::size_t cases = variant_levels(config).size() * 2 - 1;
  return cases * (variant_ops(config).size() + 4);
}

std::vector<Row> run_variant_benchmarks(Runtime& rt, const Config& config) {
  // build_options(device) already asks for sub-group aggregation where the device has it.
  progress(config, "variants: building the kernels");
  const cl::Program program = build_bench_kernel(rt, "bench_variants.cl");
  const std::vector<std::size_t> levels = variant_levels(config);
  const std::vector<std::string> ops = variant_ops(config);
  const auto& info = rt.device_info();
  const auto variant_path = [&](const char* family, const std::string& op, const std::string& type) {
    return std::string(path_name(info.variant_path_of(family, op, type, "global")));
  };
  const std::string add_path = path_name(info.path_of("add", "float", "global"));
  const std::string noret_path = variant_path("no-return", "add", "float");  // ptx (red) or plain (the returning add)
  const std::string half_path = variant_path("16-bit", "add", "half"), bf16_path = variant_path("16-bit", "add", "bf16");
  // On NVIDIA also the opt-in scalar f16/bf16 atom (half.cl says why it is not the default).
  cl::Program scalar;
  if (half_path == "ptx") scalar = build_bench_kernel(rt, "bench_variants.cl", "-DCLAT_PTX_HALF_SCALAR");

  std::vector<Row> rows;
  for (std::size_t naddr : levels)
    for (const std::string layout : {"spread", "blocked"}) {
      if (naddr == 1 && layout == "blocked") continue;  // the same as spread
      const std::string where = std::to_string(naddr) + " addr " + layout;
      for (const auto& op : ops) {
        const std::string agg_path = variant_path("aggregated", op, "float");
        const std::string plain_path = path_name(info.path_of(op, "float", "global"));
        step(config, "variants: " + op + " float, " + where + " (agg " + agg_path + " | plain " + plain_path + ")");
        const float init = op == "add" ? 0.0f : 1.0f;
        Row row = variant_row(op, naddr, layout, agg_path);
        row.form = "agg";
        row.yardstick = "plain " + plain_path;
        const Measured plain = measure(rt, program, "bench_" + op + "_plain_" + layout, naddr, init, config);
        row.yardstick_value = plain.mops;
        row.value = measure(rt, program, "bench_" + op + "_agg_" + layout, naddr, init, config, plain.items).mops;
        rows.push_back(row);
        if (op != "add") continue;
        // the device's own integer atomic_add, same layout: what one hardware atomic per call gives
        step(config, "variants: add uint hardware atomic, " + where);
        Row hw = row;
        hw.yardstick = "hardware atomic_add uint";
        hw.yardstick_value = measure(rt, program, "bench_add_hw_" + layout, naddr, init, config, plain.items).mops;
        rows.push_back(hw);
        step(config, "variants: add float no-return, " + where + " (" + noret_path + ")");
        Row noret = variant_row("add", naddr, layout, noret_path);
        noret.form = "noret";
        noret.yardstick = "returning add";
        noret.yardstick_value = plain.mops;
        noret.value = measure(rt, program, "bench_add_noret_" + layout, naddr, init, config, plain.items).mops;
        rows.push_back(noret);
        for (const auto& [type, path] : {std::pair<std::string, std::string>{"half", half_path}, {"bf16", bf16_path}}) {
          step(config, "variants: add " + type + ", " + where + " (" + path + ")");
          Row r = variant_row("add", naddr, layout, path);
          r.type = type;
          r.yardstick = "add float plain " + add_path;
          r.yardstick_value = plain.mops;
          r.value = measure(rt, program, "bench_add_" + type + "_" + layout, naddr, init, config, plain.items).mops;
          rows.push_back(r);
          if (scalar()) {
            r.path = "ptx scalar (opt-in)";
            r.value = measure(rt, scalar, "bench_add_" + type + "_" + layout, naddr, init, config, plain.items).mops;
            rows.push_back(r);
          }
        }
      }
    }
  return rows;
}

Suite variants_suite() { return {"variants", "aggregated vs plain vs hardware atomics, no-return add, half/bf16 add at 1..65536 addresses", run_variant_benchmarks, variant_steps, {}}; }

}  // namespace clatomics::bench
