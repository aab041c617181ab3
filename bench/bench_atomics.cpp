// The atomics micro-benchmark: M ops/s per op, type, memory space, contention level and path.
#include "bench_atomics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>

#include "clatomics/ops.def"
#include "report.hpp"

namespace clatomics::bench {
namespace {

// The read-modify-writes of clatomics/ops.def in its order, then xchg.
#define BENCH_HOST_OP(T, A, B, C, D, name, ...) #name,
constexpr const char* all_ops[] = {CLAT_REAL_OPS(BENCH_HOST_OP, BENCH_HOST_OP, , , , , ) "xchg"};
#undef BENCH_HOST_OP
constexpr const char* backoff_path = "cas+backoff";  // the path of the rows of backoff.cl's loop

struct Plan {
  std::vector<std::string> ops, types, spaces, backoff_ops;
  std::vector<std::size_t> levels;
};

Plan make_plan(const Config& config, bool doubles) {
  Plan plan;
  if (config.quick) {
    plan.ops = {"add", "mul", "max"};
    plan.types = {"float"};
    plan.levels = {1, 1024};
    plan.backoff_ops = {"mul"};
  } else {
    plan.ops.assign(std::begin(all_ops), std::end(all_ops));
    plan.types = {"float"};
    if (doubles) plan.types.push_back("double");
    plan.levels = {1, 32, 1024, 65536};
    plan.backoff_ops = {"add", "mul", "div"};
  }
  plan.spaces = {"global", "local"};
  // Narrowing for focused runs (tuning, one op on a new device): comma lists from the environment.
  const auto narrow = [](const char* variable, std::vector<std::string>& list, const std::vector<std::string>& allowed) {
    const char* value = std::getenv(variable);
    if (!value || !*value) return;
    std::vector<std::string> chosen;
    std::istringstream in(value);
    for (std::string item; std::getline(in, item, ',');) {
      if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
        throw std::invalid_argument(std::string(variable) + ": unknown '" + item + "'");
      chosen.push_back(item);
    }
    list = chosen;
  };
  const std::vector<std::string> ops(std::begin(all_ops), std::end(all_ops));
  narrow("CLATOMICS_BENCH_OPS", plan.ops, ops);
  narrow("CLATOMICS_BENCH_TYPES", plan.types, doubles ? std::vector<std::string>{"float", "double"} : std::vector<std::string>{"float"});
  narrow("CLATOMICS_BENCH_SPACES", plan.spaces, {"global", "local"});
  std::vector<std::string> levels;
  for (auto n : plan.levels) levels.push_back(std::to_string(n));
  narrow("CLATOMICS_BENCH_LEVELS", levels, {"1", "32", "1024", "65536"});
  plan.levels.clear();
  for (const auto& n : levels) plan.levels.push_back(std::stoul(n));
  return plan;
}

// Local cells beyond half the local memory are skipped: room for the runtime's own use.
bool too_big_for_local(const Capabilities& caps, std::size_t bytes) { return bytes > caps.local_mem_size / 2; }

std::string level_name(std::size_t naddr) { return std::to_string(naddr) + (naddr == 1 ? " address" : " addresses"); }

// How much work one launch does. GPUs get enough work-items to fill every compute unit; a CPU
// runs a work-group per thread, so a few groups per core suffice. Each launch does up to
// target_ops ops but stops growing at max_ms, since the CAS loop under contention on a GPU is
// thousands of times slower than a native atomic.
struct Sizing {
  std::size_t items = 0, group = 0;
  std::uint64_t target_ops = 0;
  double max_ms = 0;
};

Sizing sizing(const Capabilities& caps, const Config& config, std::size_t kernel_group) {
  Sizing s;
  s.group = 1;
  while (s.group * 2 <= std::min<std::size_t>(256, kernel_group)) s.group *= 2;  // a power of two
  const std::size_t per_unit = caps.is_gpu() ? 2048 : 4 * s.group;
  s.items = std::max<std::size_t>(1, caps.compute_units) * per_unit / s.group * s.group;
  s.items = std::max(s.items, s.group);
  if (caps.is_gpu()) {
    s.target_ops = config.quick ? (1u << 20) : (1u << 24);
    s.max_ms = config.quick ? 10 : 50;
  } else {
    s.target_ops = config.quick ? (1u << 14) : (1u << 21);
    s.max_ms = config.quick ? 10 : 100;
  }
  return s;
}

// M ops/s of one bench kernel at naddr addresses: a calibration launch picks the work per
// launch, then the median of the timed launches (cells reset before each, outside the timing).
template <class T>
double measure(const Runtime& rt, const cl::Program& program, const std::string& kernel_name, bool local,
               std::size_t naddr, T init, const Config& config) {
  return checked(kernel_name.c_str(), [&] {
    cl::Kernel kernel(program, kernel_name.c_str());
    const auto& caps = rt.device_info().caps;
    Sizing s = sizing(caps, config, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device()));
    cl::Buffer sink(rt.context(), CL_MEM_READ_WRITE, sizeof(T));
    cl::Buffer cells;
    if (local) {
      kernel.setArg(0, init);
      kernel.setArg(1, cl_uint(naddr - 1));
      kernel.setArg(3, sink);
      kernel.setArg(4, cl::Local(naddr * sizeof(T)));
    } else {
      cells = cl::Buffer(rt.context(), CL_MEM_READ_WRITE, naddr * sizeof(T));
      kernel.setArg(0, cells);
      kernel.setArg(1, cl_uint(naddr - 1));
      kernel.setArg(3, sink);
    }
    const auto launch = [&](std::size_t items, cl_uint iters) {
      if (!local) rt.queue().enqueueFillBuffer(cells, init, 0, naddr * sizeof(T));
      kernel.setArg(2, iters);
      cl::Event event;
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(s.group), nullptr, &event);
      return event_ms(event);
    };
    const double first = launch(s.items, 1);  // also compiles the kernel on lazy platforms
    cl_uint iters = 1;
    if (first > s.max_ms) {
      // even one op per work-item is too slow: fewer work-items (whole groups)
      const auto groups = std::size_t(double(s.items / s.group) * s.max_ms / first);
      s.items = std::max<std::size_t>(1, groups) * s.group;
    } else {
      const double fit = s.max_ms / std::max(first, 1e-3);
      iters = cl_uint(std::clamp<double>(std::min<double>(fit, double(s.target_ops / s.items)), 1, 1 << 20));
    }
    const double ms = median_ms(config, [&] { return launch(s.items, iters); });
    return double(s.items) * iters / (ms * 1e3);
  });
}

double measure_op(const Runtime& rt, const cl::Program& program, const std::string& kernel_name, const std::string& op,
                  const std::string& type, bool local, std::size_t naddr, const Config& config) {
  const double init = (op == "mul" || op == "div") ? 1.0 : 0.0;
  if (type == "double") return measure<cl_double>(rt, program, kernel_name, local, naddr, init, config);
  return measure<cl_float>(rt, program, kernel_name, local, naddr, cl_float(init), config);
}

}  // namespace

std::vector<Row> run_atomics_benchmarks(Runtime& rt, const Config& config) {
  // The yardstick: the same kernels on the CAS loop, same device, context and queue.
  Options cas_options = rt.options();
  cas_options.force_cas = true;
  Runtime cas_rt(rt.context(), rt.device(), rt.queue(), cas_options);
  const Plan plan = make_plan(config, rt.supports_double());
  if (!rt.supports_double()) progress(config, "atomics: no double on this device: float only");
  // CLATOMICS_BACKOFF_OPTIONS: e.g. "-DCLAT_BACKOFF_MIN_NS=64 -DCLAT_BACKOFF_MAX_NS=65536" to tune.
  const char* backoff_options = std::getenv("CLATOMICS_BACKOFF_OPTIONS");
  const std::string file = "bench_atomics.cl",
                    options = std::string("-DCLAT_WITH_BACKOFF") + (backoff_options ? std::string(" ") + backoff_options : "");
  progress(config, "atomics: building the kernels (native paths and forced CAS)");
  const cl::Program native = build_bench_kernel(rt, file, options);
  const cl::Program cas = build_bench_kernel(cas_rt, file, options);
  const auto& info = rt.device_info();

  std::vector<Row> rows;
  for (const auto& type : plan.types)
    for (const auto& space : plan.spaces)
      for (const auto& op : plan.ops) {
        const bool local = space == "local";
        const std::string kernel = "bench_" + op + "_" + type + "_" + space;
        const std::string path = path_name(info.path_of(op, type, space));
        const bool backoff = std::find(plan.backoff_ops.begin(), plan.backoff_ops.end(), op) != plan.backoff_ops.end();
        for (std::size_t naddr : plan.levels) {
          const std::size_t bytes = naddr * (type == "double" ? 8 : 4);
          const std::string what = "atomics: " + op + " " + type + " " + space + ", " + level_name(naddr);
          if (local && too_big_for_local(info.caps, bytes)) {
            progress(config, what + ": skipped, " + std::to_string(bytes) + " bytes of cells exceed half the local memory");
            continue;
          }
          step(config, what + " (" + path + " | cas" + (backoff ? " | cas+backoff)" : ")"));
          Row row;
          row.suite = "atomics";
          row.op = op;
          row.type = type;
          row.space = space;
          row.addresses = naddr;
          row.path = path;
          row.unit = "M ops/s";
          row.yardstick = "cas loop";
          row.value = measure_op(rt, native, kernel, op, type, local, naddr, config);
          row.yardstick_value = measure_op(cas_rt, cas, kernel, op, type, local, naddr, config);
          rows.push_back(row);
          if (op == "min" || op == "max") {  // the loop users write by hand (re-reads, no early exit) as yardstick
            Row n = row;
            n.yardstick = "naive cas loop";
            n.yardstick_value = measure_op(cas_rt, cas, kernel + "_naive", op, type, local, naddr, config);
            rows.push_back(n);
          }
          if (backoff) {
            Row b = row;
            b.path = backoff_path;
            b.value = measure_op(cas_rt, cas, kernel + "_backoff", op, type, local, naddr, config);
            rows.push_back(b);
          }
        }
      }
  return rows;
}

std::size_t atomics_steps(const Runtime& rt, const Config& config) {
  const Plan plan = make_plan(config, rt.supports_double());
  std::size_t n = 0;
  for (const auto& type : plan.types)
    for (const auto& space : plan.spaces)
      for (std::size_t naddr : plan.levels)
        if (space != "local" || !too_big_for_local(rt.device_info().caps, naddr * (type == "double" ? 8 : 4))) n += plan.ops.size();
  return n;
}

void print_atomics_summary(const std::vector<Row>& rows, bool, std::ostream& out) {
  // addresses -> row, for one op/type on global memory, the backoff rows or the others
  const auto find = [&](const std::string& op, const std::string& type, bool backoff, const std::string& yardstick = "cas loop") {
    std::map<std::size_t, const Row*> by_level;
    for (const auto& r : rows)
      if (r.suite == "atomics" && r.op == op && r.type == type && r.space == "global" && r.yardstick == yardstick &&
          (r.path == backoff_path) == backoff)
        by_level[r.addresses] = &r;
    return by_level;
  };
  const auto line = [&](const std::string& label, const std::map<std::size_t, const Row*>& by_level, bool ratio) {
    if (by_level.empty()) return;
    out << "  " << label << ":";
    for (const auto& [naddr, row] : by_level)
      out << "  " << naddr << ": " << (ratio ? format_number(row->ratio()) + "x" : format_number(row->value));
    out << "\n";
  };
  if (std::none_of(rows.begin(), rows.end(), [](const Row& r) { return r.suite == "atomics"; })) return;
  out << "\natomics summary (targets; by number of addresses)\n";
  for (const char* type : {"float", "double"}) {
    const auto add = find("add", type, false);
    if (add.empty()) continue;
    line(std::string(type) + " add global, M ops/s on the " + add.begin()->second->path +
             " path (target on a GPU: within 1.15x of CUDA atomicAdd measured the same way)",
         add, false);
  }
  for (const char* op : {"min", "max"}) {
    line(std::string(op) + " float global, native/CAS with early exit", find(op, "float", false), true);
    line(std::string(op) + " float global, native/naive CAS loop that re-reads (target: >= 100x at 1 and 32)",
         find(op, "float", false, "naive cas loop"), true);
  }
  for (const char* type : {"float", "double"})
    for (const char* op : {"mul", "div"})
      line(std::string(op) + " " + type + " global, CAS+backoff/CAS (target: >= 2x at 32 and 1024)", find(op, type, true), true);
}

Suite atomics_suite() { return {"atomics", "each float/double op at 1..65536 addresses, native path vs CAS loop vs CAS with backoff", run_atomics_benchmarks, atomics_steps, print_atomics_summary}; }

}  // namespace clatomics::bench
