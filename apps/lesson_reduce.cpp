// Lesson: a reduction, like bank tellers adding their piles to one running total.
// clatomics::reduce sums each work-group's share in __local memory and adds it to the
// total with one atomic; its deterministic option uses a fixed tree over the elements' positions instead.
// The data are small integers stored as floats: every partial sum stays below 2^24, so every
// order of addition gives the exact total and the check can ask for equality.
#include <algorithm>
#include <cmath>

#include "bench.hpp"
#include "lessons.hpp"
#include "table.hpp"

namespace clatomics::cli {

bool lesson_reduce(Runtime& rt, std::ostream& out) {
  const std::size_t n = lesson_elements(rt);
  // 0..3, plus one -1000 and one +1000 planted for min and max: |any partial sum| <= 3n + 1000 < 2^24
  std::vector<float> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = float(mix(i) % 4u);
  const std::size_t at_min = mix(n) % n, at_max = (at_min + 1 + mix(n + 1) % (n - 1)) % n;  // never the same
  data[at_min] = -1000.0f;
  data[at_max] = 1000.0f;

  // The references, on the host in double (exact for these integers).
  double sum = 0, lo = data[0], hi = data[0];
  for (float v : data) {
    sum += v;
    lo = std::min<double>(lo, v);
    hi = std::max<double>(hi, v);
  }
  if (broken("reduce")) sum += 1, lo += 1, hi += 1;

  const cl::Buffer buffer = checked("clCreateBuffer", [&] {
    return cl::Buffer(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), data.data());
  });
  const double bytes = double(n) * sizeof(float);
  out << "  " << n << " floats, integers from 0 to 3 (one -1000, one +1000): every partial sum is exact,\n"
      << "  so the device must match the host to the last bit, whatever order the work-groups finish in.\n";

  struct Case {
    const char* op;
    ReduceOp reduce_op;
    bool deterministic;
    const char* how;
    double reference;
  };
  const Case cases[] = {
      {"sum", ReduceOp::sum, false, "per group in __local, one atomic add per group", sum},
      {"sum", ReduceOp::sum, true, "deterministic: a fixed tree over positions", sum},
      {"min", ReduceOp::min, false, "per group in __local, one atomic min per group", lo},
      {"max", ReduceOp::max, false, "per group in __local, one atomic max per group", hi},
  };
  std::vector<std::vector<std::string>> rows{{"op", "how", "result", "host reference", "check", "GB/s"}};
  bool all_ok = true;
  for (const auto& c : cases) {
    const auto r = warm_and_time([&] { return reduce(rt, view<float>(buffer, 0, n), c.reduce_op, ReduceOptions{c.deterministic}); });
    const bool ok = double(r.warm) == c.reference && double(r.timed) == c.reference;
    all_ok = all_ok && ok;
    rows.push_back({std::string(c.op) + " float", c.how, exact(r.timed), exact(c.reference), ok_mark(ok), gbps(bytes, r.ms)});
  }
  out << text_table(rows, 2);
  out << "  (GB/s: bytes read over the device time of one call, from profiling events.)\n";
  return all_ok;
}

}  // namespace clatomics::cli
