// Lesson: OpenCL C has no float atomics; clatomics adds them (a compare-exchange loop, or the
// device's native path). Each op runs from many work-items at once on global and on local
// memory, with operands chosen so the exact result is known: every update must be there.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "bench.hpp"
#include "lessons.hpp"
#include "report.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

enum Op : cl_uint { op_add, op_mul, op_div, op_min, op_max };
const char* const op_names[] = {"add", "mul", "div", "min", "max"};

struct Run {
  std::vector<float> cells, olds;
  double ms = 0;
};

Run run(Runtime& rt, const cl::Program& program, Op op, bool local, std::size_t naddr, std::size_t group,
        std::vector<float> cells, const std::vector<float>& operands) {
  const char* name = local ? "demo_float_local" : "demo_float_global";
  return checked(name, [&] {
    const std::size_t n = operands.size();
    cl::Buffer mem(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, cells.size() * sizeof(float), cells.data());
    cl::Buffer a(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                 const_cast<float*>(operands.data()));
    cl::Buffer olds(rt.context(), CL_MEM_WRITE_ONLY, n * sizeof(float));
    cl::Kernel kernel(program, name);
    kernel.setArg(0, mem);
    kernel.setArg(1, a);
    kernel.setArg(2, olds);
    kernel.setArg(3, cl_uint(op));
    kernel.setArg(4, cl_uint(naddr));
    if (local) kernel.setArg(5, cl::Local(naddr * sizeof(float)));
    cl::Event event;
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group), nullptr, &event);
    Run r;
    r.cells = std::move(cells);
    r.olds.resize(n);
    rt.queue().enqueueReadBuffer(mem, CL_TRUE, 0, r.cells.size() * sizeof(float), r.cells.data());
    rt.queue().enqueueReadBuffer(olds, CL_TRUE, 0, n * sizeof(float), r.olds.data());
    r.ms = bench::event_ms(event);
    return r;
  });
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

bool lesson_float_atomics(Runtime& rt, std::ostream& out) {
  const auto& info = rt.device_info();
  const std::size_t group = std::min<std::size_t>(256, info.caps.max_work_group_size);
  const std::size_t n = info.caps.is_gpu() ? (std::size_t(1) << 20) : (std::size_t(1) << 16);
  const std::size_t per_cell_mul = std::min<std::size_t>(64, group);  // 2^64 stays far below FLT_MAX
  const cl::Program program = build_demo_kernel(rt, "demo_float.cl");
  out << "  " << n << " work-items, " << group << " per work-group. add: +1 each into one cell; mul: x2 and div: /2, "
      << per_cell_mul << " per cell;\n  min/max: " << n << " integers from -1000000 to 1000000 into one cell. "
      << "Checked: every cell, and the old values returned.\n";

  std::vector<std::vector<std::string>> rows{{"op", "memory", "path", "cells", "ops/cell", "result", "expected", "check", "M ops/s"}};
  bool all_ok = true;
  for (Op op : {op_add, op_mul, op_div, op_min, op_max}) {
    for (bool local : {false, true}) {
      // Cells and operands: item i updates cell i % naddr (global) or its group's cell lid % naddr.
      const bool muldiv = op == op_mul || op == op_div;
      const std::size_t per_cell = muldiv ? per_cell_mul : (local ? group : n);
      const std::size_t naddr = local ? group / per_cell : n / per_cell;
      const std::size_t cells = local ? (n / group) * naddr : naddr;
      const float start = op == op_mul ? 1.0f : op == op_div ? std::ldexp(1.0f, int(per_cell)) : 0.0f;
      std::vector<float> operands(n);
      for (std::size_t i = 0; i < n; ++i)
        operands[i] = op == op_add ? 1.0f : muldiv ? 2.0f : float(int((i * 2654435761u) % 2000001u) - 1000000);
      const Run r = run(rt, program, op, local, naddr, group, std::vector<float>(cells, start), operands);

      // Expected per cell, from the host; every old value must be one some serial order gives.
      const auto cell_of = [&](std::size_t i) { return local ? (i / group) * naddr + (i % group) % naddr : i % naddr; };
      std::vector<float> expected(cells, start);
      std::vector<std::vector<float>> olds(cells);
      for (std::size_t i = 0; i < n; ++i) {
        float& e = expected[cell_of(i)];
        if (op == op_add) e += operands[i];
        if (op == op_mul) e *= operands[i];
        if (op == op_div) e /= operands[i];
        if (op == op_min) e = std::min(e, operands[i]);
        if (op == op_max) e = std::max(e, operands[i]);
        olds[cell_of(i)].push_back(r.olds[i]);
      }
      if (broken("float")) expected[0] = std::nextafter(expected[0], HUGE_VALF);
      bool ok = true;
      for (std::size_t c = 0; c < cells && ok; ++c) {
        ok = same_bits(r.cells[c], expected[c]);
        auto& o = olds[c];
        std::sort(o.begin(), o.end());
        for (std::size_t k = 0; k < o.size() && ok; ++k) {
          if (op == op_add) ok = o[k] == float(k);  // 0, 1, 2, ...: each value seen once
          if (op == op_mul) ok = o[k] == std::ldexp(1.0f, int(k));
          if (op == op_div) ok = o[k] == std::ldexp(1.0f, int(k) + 1);
          if (op == op_min) ok = o[k] >= expected[c] && o[k] <= start;
          if (op == op_max) ok = o[k] <= expected[c] && o[k] >= start;
        }
      }
      all_ok = all_ok && ok;
      const std::string space = local ? "local" : "global";
      rows.push_back({op_names[op], space, path_name(info.path_of(op_names[op], "float", space)), std::to_string(cells),
                      std::to_string(per_cell), bench::format_number(r.cells[0]), bench::format_number(expected[0]),
                      ok_mark(ok), mops(double(n), r.ms)});
    }
  }
  out << text_table(rows, 2);
  out << "  (M ops/s: this one launch, profiling event time; `clatomics bench` measures properly.)\n";
  return all_ok;
}

}  // namespace clatomics::cli
