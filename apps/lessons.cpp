// The list of demo lessons (../shared/reference's lessons, each checked on the device).
#include "lessons.hpp"

#include "report.hpp"

namespace clatomics::cli {

const std::vector<Lesson>& lessons() {
  static const std::vector<Lesson> all = {
      {"race", "the lost update: a plain x += 1 from many work-items, against an atomic", lesson_lost_update},
      {"float", "float atomics add, mul, div, min, max on global and local memory, exact results", lesson_float_atomics},
      // Lessons built on the library's algorithms go here, one line each, e.g.
      // {"reduce", "a reduction against its host reference", lesson_reduce},
      // {"dot", "an atomic dot product against its host reference", lesson_dot},
      // {"histogram", "a histogram: privatized bins against the host's counts", lesson_histogram},
  };
  return all;
}

std::string table(const std::vector<std::vector<std::string>>& rows) {
  const std::string text = bench::text_table(rows);
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    out += "  " + text.substr(start, end - start + 1);
    start = end + 1;
  }
  return out;
}

std::string ok_mark(bool ok) { return ok ? "ok" : "FAILED"; }

std::string mops(double ops, double ms) { return ms > 0 ? bench::format_number(ops / (ms * 1e3)) : "-"; }

}  // namespace clatomics::cli
