// Lesson: the atomic dot product. clatomics::dot has each work-group sum its
// products in __local memory and add them to the result with one atomic add (no lock). With
// small integers the result is exact; with random data the order of the additions varies, and
// the check is the classic error bound |result - exact| <= gamma_n * sum |a_i * b_i| with
// gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability of Numerical Algorithms, 3.1),
// which holds for any order of addition and for fused multiply-adds.
#include <cmath>
#include <limits>
#include <type_traits>

#include "bench.hpp"
#include "lessons.hpp"
#include "report.hpp"
#include "table.hpp"

namespace clatomics::cli {
namespace {

struct Line {
  std::vector<std::string> cells;
  bool ok = false;
};

// a and b from make(i) -> {a_i, b_i}; allowed error 0 for exact data, else the bound above.
template <class T, class Make>
Line run(Runtime& rt, const std::string& what, std::size_t n, bool exact_data, Make make) {
  std::vector<T> a(n), b(n);
  long double reference = 0, magnitude = 0;  // 64-bit mantissa on x86: far below the bound
  for (std::size_t i = 0; i < n; ++i) {
    const auto ab = make(i);
    a[i] = ab.first;
    b[i] = ab.second;
    reference += (long double)a[i] * b[i];
    magnitude += std::fabs((long double)a[i] * b[i]);
  }
  const double u = std::ldexp(1.0, -std::numeric_limits<T>::digits);
  const double gamma = double(n) * u / (1 - double(n) * u);
  const double allowed = exact_data ? 0 : double(gamma * magnitude);
  if (broken("dot")) reference += allowed + 1;

  const auto buffer = [&](std::vector<T>& host) {
    return checked("clCreateBuffer", [&] {
      return cl::Buffer(rt.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(T), host.data());
    });
  };
  const cl::Buffer da = buffer(a), db = buffer(b);
  const auto r = warm_and_time([&] { return dot(rt, view<T>(da, 0, n), view<T>(db, 0, n)); });
  const double err = std::fmax(std::fabs(double(r.warm - reference)), std::fabs(double(r.timed - reference)));
  Line line;
  line.ok = err <= allowed;
  line.cells = {what,
                exact(r.timed),
                exact(double(reference)),
                bench::format_number(err),
                exact_data ? "0 (exact)" : bench::format_number(allowed),
                ok_mark(line.ok),
                gbps(2.0 * double(n) * sizeof(T), r.ms)};
  return line;
}

// A number in [-1, 1) from 32 random bits (exact in float and double).
double unit(std::uint32_t bits) { return std::ldexp(double(bits >> 8), -23) - 1.0; }

}  // namespace

bool lesson_dot(Runtime& rt, std::ostream& out) {
  const std::size_t n = lesson_elements(rt);
  out << "  a . b over " << n << " elements. Integers: a in -1..1, b in -3..3, every partial sum exact.\n"
      << "  Random: a, b in [-1, 1); allowed error gamma_n * sum|a*b|, gamma_n = n u / (1 - n u), any order.\n";
  std::vector<std::vector<std::string>> rows{
      {"data", "result", "host reference", "|error|", "allowed", "check", "GB/s"}};
  bool all_ok = true;
  const auto add = [&](const Line& line) {
    rows.push_back(line.cells);
    all_ok = all_ok && line.ok;
  };
  add(run<float>(rt, "float, integers", n, true, [](std::size_t i) {
    return std::pair<float, float>(float(int(mix(2 * i) % 3u) - 1), float(int(mix(2 * i + 1) % 7u) - 3));
  }));
  add(run<float>(rt, "float, random", n, false, [](std::size_t i) {
    return std::pair<float, float>(float(unit(mix(2 * i))), float(unit(mix(2 * i + 1))));
  }));
  if (rt.supports_double()) {
    add(run<double>(rt, "double, random", n, false, [](std::size_t i) {
      return std::pair<double, double>(unit(mix(2 * i)), unit(mix(2 * i + 1)));
    }));
  } else {
    rows.push_back({"double, random", "-", "-", "-", "-", "skipped: no fp64 on this device", "-"});
  }
  out << text_table(rows, 2);
  out << "  (Random data: the last bits vary from run to run, as the work-groups' atomic adds come in any\n"
         "  order; the worst-case bound is loose, the error seen far smaller. GB/s: both inputs' bytes over\n"
         "  the device time of one call.)\n";
  return all_ok;
}

}  // namespace clatomics::cli
