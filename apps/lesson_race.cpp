// Lesson: why atomics exist. Many work-items increment one counter; the plain read-add-write
// loses updates when two of them overlap, the atomic never does. Also tickets, as when each
// customer takes a number: the old value an atomic returns is unique.
#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

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

// Runs kernel(counter, repeats[, work]) over n work-items with the counter starting at 0; `work`
// (one uint per work-item) only for the kernels with work between the read and the write.
template <class T>
Outcome count(Runtime& rt, const cl::Program& program, const char* name, std::size_t n, std::size_t group,
              cl_uint repeats, bool with_work = false) {
  return checked(name, [&] {
    T zero = 0;
    cl::Buffer counter(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(T), &zero);
    cl::Kernel kernel(program, name);
    kernel.setArg(0, counter);
    kernel.setArg(1, repeats);
    cl::Buffer work;
    if (with_work) {
      work = cl::Buffer(rt.context(), CL_MEM_READ_WRITE, n * sizeof(cl_uint));
      kernel.setArg(2, work);
    }
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
  // threads' work-groups time to overlap. The kernels with work between the read and the write
  // run fewer times (each update costs some 64 steps more); on 2-core PoCL 4 already loses
  // updates in every run.
  const cl_uint repeats = caps.is_gpu() ? 16 : 256, work_repeats = caps.is_gpu() ? 1 : 16;
  const double shift = broken("race") ? 1 : 0;
  const cl::Program program = build_demo_kernel(rt, "demo_race.cl");

  struct Line {
    const char* method;
    double updates;  // the count expected
    Outcome outcome;
    bool atomic;
    bool work = false;  // work between the read and the write
  };
  const double plain_updates = double(n) * repeats, work_updates = double(n) * work_repeats;
  const Line lines[] = {
      {"plain  x += 1   (uint)", plain_updates, count<cl_uint>(rt, program, "demo_plain_increment", n, group, repeats), false},
      {"atomic_inc(&x)  (uint)", plain_updates, count<cl_uint>(rt, program, "demo_atomic_increment", n, group, repeats), true},
      {"plain  x += 1.0f (float)", plain_updates, count<cl_float>(rt, program, "demo_plain_add_float", n, group, repeats), false},
      {"clat_atomic_add_float(&x, 1)", plain_updates, count<cl_float>(rt, program, "demo_atomic_add_float", n, group, repeats), true},
      {"plain  t = x; work; x = t + 1", work_updates,
       count<cl_uint>(rt, program, "demo_plain_increment_work", n, group, work_repeats, true), false, true},
      {"t = atomic_inc(&x); work", work_updates,
       count<cl_uint>(rt, program, "demo_atomic_increment_work", n, group, work_repeats, true), true, true},
  };
  out << "  " << n << " work-items each add 1 to one shared counter " << repeats << " times (" << work_repeats
      << " times with work between the read and the write)\n";
  std::vector<std::vector<std::string>> rows{{"method", "expected", "count", "lost updates", "check", "M ops/s"}};
  bool ok = true;
  std::vector<std::string> kept;  // the plain rows that lost nothing this run
  std::size_t plain_rows = 0;
  for (const auto& line : lines) {
    const double expected = line.updates + shift;
    const double lost = expected - line.outcome.value;
    // the atomic must be exact; the plain one can only lose updates, never invent them
    const bool good = line.atomic ? lost == 0 : lost >= 0;
    if (!line.atomic) {
      ++plain_rows;
      if (lost == 0) kept.push_back(line.method);
    }
    ok = ok && good;
    // A plain row that lost nothing is not a pass: the race was there, this run did not hit it.
    const std::string plain_mark = !good ? "FAILED" : lost > 0 ? "race: lost" : "none lost this run";
    rows.push_back({line.method, bench::format_number(expected), bench::format_number(line.outcome.value),
                    bench::format_number(lost), line.atomic ? ok_mark(good) : plain_mark, mops(line.updates, line.outcome.ms)});
  }
  out << text_table(rows, 2);
  if (kept.size() == plain_rows)
    out << "  No update was lost in this run, not even with work between the read and the write: this device\n"
           "  did not run one work-item's update between another's read and write this time. Nothing promises\n"
           "  that (on a GPU most updates are lost); only the atomics are exact by construction.\n";
  else if (!kept.empty() && caps.is_gpu())
    out << "  '" << kept.front() << "'" << (kept.size() > 1 ? " and others" : "")
        << " lost no update this run, yet it races as the others do: this run's timing\n"
           "  missed the window between a read and its write. Only the atomics count every update.\n";
  else if (!kept.empty())
    out << "  '" << kept.front() << "'" << (kept.size() > 1 ? " and others" : "")
        << " lost no update this run, yet it races as the others do:\n"
           "  a CPU runs a work-group's work-items one after another on one thread, and its compiler may turn a\n"
           "  work-item's loop of increments into one read and one write, so two threads seldom fall between\n"
           "  each other's read and write. Where the window is wider (a float add, work between the read and\n"
           "  the write as a real update has) updates are lost. Only the atomics count every one.\n";

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
                     {"plain  t = x; x = t + 1", std::to_string(plain_distinct), std::to_string(n - plain_distinct),
                      plain_distinct < n ? "race: duplicates" : "none this run"},
                     {"t = atomic_inc(&x)", std::to_string(atomic_distinct), std::to_string(n - atomic_distinct),
                      ok_mark(atomic_ok) + (atomic_ok ? " (exactly 0.." + std::to_string(n - 1) + ")" : "")}},
                    2);
  return ok;
}

}  // namespace clatomics::cli
