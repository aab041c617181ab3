// The registry of the library's algorithms for the cross-cutting suites (algorithm_cases.hpp).
// A new algorithm: write its entry (algorithm_entries.hpp declares them; one of the
// algorithm_*.cpp files beside this one defines it) and list it below.
#include "algorithm_cases.hpp"

#include <limits>

#include "algorithm_entries.hpp"

namespace test::algorithms {

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> list = {
        reduce_entry(),           reduce_partial_entry(),   dot_entry(),
        compact_entry(),          histogram_entry(),        histogram_keys_entry(),
        histogram_even_entry(),   histogram2d_even_entry(), scatter_reduce_entry(),
        scatter_reduce_arg_entry(), segment_reduce_entry(), reduce_by_key_entry(),
    };
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
