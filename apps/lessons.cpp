// The list of demo lessons, each checked on the device, and the helpers their tables share.
#include "lessons.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "report.hpp"

namespace clatomics::cli {

const std::string_view* embedded_file(std::string_view path);

cl::Program build_demo_kernel(const Runtime& rt, const std::string& file) {
  const std::string_view* text = embedded_file(file);
  if (!text) throw std::invalid_argument("no demo kernel file " + file);
  return rt.build(std::string(*text));
}

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = {
      {"race", "the lost update: a plain x += 1 from many work-items, against an atomic", lesson_lost_update},
      {"float", "float atomics add, mul, div, min, max on global and local memory, exact results", lesson_float_atomics},
      {"reduce", "a reduction (sum, min, max) with clatomics::reduce, against the host's", lesson_reduce},
      {"dot", "the atomic dot product with clatomics::dot, against the host's", lesson_dot},
      {"histogram", "histograms with clatomics::histogram: privatized vs global atomics", lesson_histogram},
  };
  return all;
}

std::string ok_mark(bool ok) { return ok ? "ok" : "FAILED"; }

std::string mops(double ops, double ms) { return ms > 0 ? bench::format_number(ops / (ms * 1e3)) : "-"; }

std::string gbps(double bytes, double ms) { return ms > 0 ? bench::format_number(bytes / (ms * 1e6)) : "-"; }

namespace {
// The shortest %g that reads back as the same T.
template <class T>
std::string shortest(T value) {
  if (std::fabs(value) < T(1e15) && value == std::floor(value)) return bench::format_number(double(value));  // integers in full
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(value));
    if (T(std::strtod(buf, nullptr)) == value) break;
  }
  return buf;
}
}  // namespace

std::string exact(double value) { return shortest(value); }
std::string exact(float value) { return shortest(value); }

bool broken(const std::string& lesson) {
  const char* env = std::getenv("CLATOMICS_DEMO_BREAK");
  if (!env) return false;
  std::istringstream list(env);
  for (std::string name; std::getline(list, name, ',');)
    if (name == lesson || name == "all") return true;
  return false;
}

std::size_t lesson_elements(const Runtime& rt) {
  return rt.device_info().caps.is_gpu() ? (std::size_t(1) << 22) : (std::size_t(1) << 20);
}

std::uint32_t mix(std::uint64_t i) {  // splitmix64's finalizer
  std::uint64_t z = i + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return std::uint32_t((z ^ (z >> 31)) >> 32);
}

}  // namespace clatomics::cli
