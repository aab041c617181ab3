// The registry of the library's algorithms for the cross-cutting suites (algorithm_cases.hpp);
// its entries, one file each, are under tests/algorithms/.
#include "algorithm_cases.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace test::algorithms {
namespace {

// Filled by the entries' static initialisers, so it is made on first use, whichever runs first.
std::vector<Algorithm (*)()>& makers() {
  static std::vector<Algorithm (*)()> all;
  return all;
}

}  // namespace

Algorithm algorithm_of(const std::string& name, std::vector<Operand> operands) {
  Algorithm a;
  a.name = name;
  for (Operand& o : operands) o.name = name + ": " + o.name;
  a.operands = std::move(operands);
  return a;
}

bool register_algorithm(Algorithm (*make)()) {
  makers().push_back(make);
  return true;
}

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> list;
    for (const auto make : makers()) list.push_back(make());
    std::sort(list.begin(), list.end(), [](const Algorithm& a, const Algorithm& b) { return a.name < b.name; });
    const auto twin = std::adjacent_find(list.begin(), list.end(), [](const Algorithm& a, const Algorithm& b) { return a.name == b.name; });
    if (twin != list.end())
      throw std::logic_error("the tests' registry of algorithms: two entries are named \"" + twin->name + "\" (tests/algorithms/)");
    for (Algorithm& a : list)
      a.random_call = [own = a.random_call, calls = a.calls, refusals = a.refusals](std::mt19937_64& g) {
        if (!refusals.empty() && g() % 10 == 0) return refusals[g() % refusals.size()];
        return own ? own(g) : calls[g() % calls.size()];
      };
    return list;
  }();
  return all;
}

std::optional<std::size_t> count_of(const Operand& operand, const Shape& shape) {
  switch (operand.extent) {
    case Extent::length: return shape.length;
    case Extent::bins: return shape.bins;
    case Extent::bins_plus_one:
      if (shape.bins == std::numeric_limits<std::size_t>::max()) return std::nullopt;
      return shape.bins ? shape.bins + 1 : 0;
  }
  return std::nullopt;
}

Shape Algorithm::shape_with(std::size_t k, std::size_t count, Shape defaults) const {
  switch (operands[k].extent) {
    case Extent::length: defaults.length = count; break;
    case Extent::bins: defaults.bins = count; break;
    case Extent::bins_plus_one: defaults.bins = count ? count - 1 : 0; break;
  }
  return defaults;
}

std::size_t length_for(const Algorithm& algorithm, std::size_t words) {
  for (const Operand& o : algorithm.operands)
    if (o.extent == Extent::length) return words * 4 / o.element_bytes;
  return words;
}

Ranges on_device(const clatomics::Runtime& rt, const Algorithm& algorithm, const Contents& contents) {
  Ranges ranges;
  for (std::size_t k = 0; k < contents.size(); ++k)
    ranges.push_back({test::to_device(rt, contents[k]), 0, contents[k].size() / algorithm.operands[k].element_bytes});
  return ranges;
}

Bytes read(const clatomics::Runtime& rt, const Range& r, std::size_t element_bytes) {
  Bytes bytes(r.count * element_bytes);
  if (!bytes.empty()) rt.queue().enqueueReadBuffer(r.buffer, CL_TRUE, r.offset * element_bytes, bytes.size(), bytes.data());
  return bytes;
}

}  // namespace test::algorithms
