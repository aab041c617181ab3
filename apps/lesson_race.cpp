// Lesson: why atomics exist. Many work-items increment one counter; the plain read-add-write
// loses updates when two of them overlap, the atomic never does. Also tickets, as when each
// customer takes a number: the old value an atomic returns is unique.
#include <algorithm>
#include <numeric>
#include <set>

#include "bench.hpp"
#include "lessons.hpp"
#include "report.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

struct Outcome {
  double value = 0;
  double ms = 0;
};

// Runs kernel(counter, repeats) over n work-items with the counter starting at 0.
template <class T>
Outcome count(Runtime& rt, const cl::Program& program, const char* name, std::size_t n, std::size_t group,
              cl_uint repeats) {
  return checked(name, [&] {
    T zero = 0;
    cl::Buffer counter(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(T), &zero);
    cl::Kernel kernel(program, name);
    kernel.setArg(0, counter);
    kernel.setArg(1, repeats);
    cl::Event event;
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group), nullptr, &event);
    T result = 0;
    rt.queue().enqueueReadBuffer(counter, CL_TRUE, 0, sizeof(T), &result);
    return Outcome{double(result), bench::event_ms(event)};
  });
}

// Runs a ticket kernel; returns the tickets handed out.
std::vector<cl_uint> tickets(Runtime& rt, const cl::Program& program, const char* name, std::size_t n, std::size_t group) {
  return checked(name, [&] {
    cl_uint zero = 0;
    cl::Buffer counter(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
    cl::Buffer out(rt.context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
    cl::Kernel kernel(program, name);
    kernel.setArg(0, counter);
    kernel.setArg(1, out);
    rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(group));
    std::vector<cl_uint> host(n);
    rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, n * sizeof(cl_uint), host.data());
    return host;
  });
}

}  // namespace

bool lesson_lost_update(Runtime& rt, std::ostream& out) {
  const auto& caps = rt.device_info().caps;
  const std::size_t group = std::min<std::size_t>(256, caps.max_work_group_size);
  const std::size_t n = caps.is_gpu() ? (std::size_t(1) << 20) : (std::size_t(1) << 16);
  // n * repeats <= 2^24: every count is exact in a float too. Long loops on a CPU give the two
  // threads' work-groups time to overlap.
  const cl_uint repeats = caps.is_gpu() ? 16 : 256;
  const double expected = double(n) * repeats + (broken("race") ? 1 : 0);
  const cl::Program program = build_demo_kernel(rt, "demo_race.cl");

  struct Line {
    const char* method;
    Outcome outcome;
    bool atomic;
  };
  const Line lines[] = {
      {"plain  x += 1   (uint)", count<cl_uint>(rt, program, "demo_plain_increment", n, group, repeats), false},
      {"atomic_inc(&x)  (uint)", count<cl_uint>(rt, program, "demo_atomic_increment", n, group, repeats), true},
      {"plain  x += 1.0f (float)", count<cl_float>(rt, program, "demo_plain_add_float", n, group, repeats), false},
      {"clat_atomic_add_float(&x, 1)", count<cl_float>(rt, program, "demo_atomic_add_float", n, group, repeats), true},
  };
  out << "  " << n << " work-items each add 1 to one shared counter " << repeats << " times (expected "
      << bench::format_number(expected) << ")\n";
  std::vector<std::vector<std::string>> rows{{"method", "count", "lost updates", "check", "M ops/s"}};
  bool ok = true, plain_lost = false;
  for (const auto& line : lines) {
    const double lost = expected - line.outcome.value;
    // the atomic must be exact; the plain one can only lose updates, never invent them
    const bool good = line.atomic ? lost == 0 : lost >= 0;
    if (!line.atomic && lost > 0) plain_lost = true;
    ok = ok && good;
    rows.push_back({line.method, bench::format_number(line.outcome.value), bench::format_number(lost),
                     line.atomic ? ok_mark(good) : (good ? "(race)" : "FAILED"), mops(expected, line.outcome.ms)});
  }
  out << text_table(rows, 2);
  if (!plain_lost)
    out << "  No update was lost this time: a CPU runs each work-group on one thread, so two increments\n"
           "  rarely overlap on few cores. Nothing guarantees it; on a GPU most updates are lost.\n";

  // Tickets: each work-item takes a number once.
  const auto plain = tickets(rt, program, "demo_plain_ticket", n, group);
  auto atomic = tickets(rt, program, "demo_atomic_ticket", n, group);
  const std::size_t plain_distinct = std::set<cl_uint>(plain.begin(), plain.end()).size();
  std::sort(atomic.begin(), atomic.end());
  std::vector<cl_uint> expected_tickets(n);
  std::iota(expected_tickets.begin(), expected_tickets.end(), 0u);
  const bool atomic_ok = atomic == expected_tickets;
  ok = ok && atomic_ok;
  out << "\n  Tickets: " << n << " work-items each take a number (the old value) from a counter\n";
  const std::size_t atomic_distinct = std::set<cl_uint>(atomic.begin(), atomic.end()).size();
  out << text_table({{"method", "distinct numbers", "handed out twice or more", "check"},
                     {"plain  t = x; x = t + 1", std::to_string(plain_distinct), std::to_string(n - plain_distinct), "(race)"},
                     {"t = atomic_inc(&x)", std::to_string(atomic_distinct), std::to_string(n - atomic_distinct),
                      ok_mark(atomic_ok) + (atomic_ok ? " (exactly 0.." + std::to_string(n - 1) + ")" : "")}},
                    2);
  return ok;
}

}  // namespace clatomics::cli
