// Special values (special_values.hpp) under contention, every work-item on one address: no
// update may be lost and no loop may spin forever (CTest's timeout catches a hang). Sign flips of
// ±0 and ±inf by mul/div (a float compare would see -0 == +0 and skip the write), denormal steps
// by add/sub/mad, a cmpxchg chain through -0, +0, ±inf, a denormal and NaNs with distinct
// payloads (a float compare never matches NaN), an xchg chain through the same patterns, and
// min/max over NaN and ±0 mixtures with exact expected bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "special_values.hpp"

namespace {

using namespace specials;

constexpr std::size_t global_items = 65536;

// One scenario: every work-item applies op with its operands to one address (global: one cell
// for all; local: one cell per work-group, 4 groups). Returns, per cell, the final value and
// the olds its work-items got (in item order).
template <class T>
struct Cell {
  T final_value;
  std::vector<T> olds;
  std::vector<std::size_t> items;
};

template <class T>
std::vector<Cell<T>> contend(Op op, bool local, T init, const std::function<T(std::size_t)>& a_of,
                             const std::function<T(std::size_t)>& b_of = {}) {
  const std::size_t group = test::group_size(), n = local ? 4 * group : global_items;
  std::vector<T> a(n), b(n, T(0));
  for (std::size_t i = 0; i < n; ++i) a[i] = a_of(i), b[i] = b_of ? b_of(i) : T(0);
  const std::size_t cells = local ? n / group : 1;
  const auto out = launch<T>("contend", local, std::vector<T>(cells, init), a, b, op, n);
  std::vector<Cell<T>> result(cells);
  for (std::size_t c = 0; c < cells; ++c) result[c].final_value = out.mem[c];
  for (std::size_t i = 0; i < n; ++i) {
    result[local ? i / group : 0].olds.push_back(out.olds[i]);
    result[local ? i / group : 0].items.push_back(i);
  }
  return result;
}

template <class T>
std::vector<Bits<T>> sorted_bits(const std::vector<T>& values) {
  std::vector<Bits<T>> bits;
  for (T v : values) bits.push_back(test::bits(v));
  std::sort(bits.begin(), bits.end());
  return bits;
}

// Steps of one denormal (add, sub, mad): the olds must be exactly 0, d, 2d, ... (negated for
// sub), each once, and the final value m*d: every step kept, no update lost. Where the device
// may flush, an all-zero outcome is accepted too.
template <class T>
void check_denormal_steps(Op op, bool local) {
  const T d = std::numeric_limits<T>::denorm_min(), sign = op == op_sub ? T(-1) : T(1);
  const auto cells = contend<T>(op, local, T(0), [&](std::size_t) { return op == op_mad ? T(1) : d; },
                                [&](std::size_t) { return d; });
  for (const auto& cell : cells) {
    const std::size_t m = cell.olds.size();
    std::vector<T> expected;
    for (std::size_t k = 0; k < m; ++k) expected.push_back(k ? sign * T(k) * d : T(0));  // exact: k*d < 2^-126
    const bool exact = sorted_bits(cell.olds) == sorted_bits(expected) && same(cell.final_value, sign * T(m) * d);
    const bool flushed = std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(0)); }) &&
                         same(cell.final_value, T(0));
    INFO((std::string(op_names[op]) + " of denormals, "), m, std::string(" work-items on one ") + (local ? "local" : "global"),
         " cell: final ", show(cell.final_value), ", expected ", show(sign * T(m) * d));
    CHECK((exact || (may_flush<T>(op, local) && flushed)));
  }
}

// add: 1s and some +infs from 0: the finite olds are exactly 0..j-1, the other olds are +inf, and
// the final value is +inf. Signed zeros: -0 plus -0s stays -0 (bits); with +0s mixed in, +0.
template <class T>
void check_add_specials(bool local) {
  const T inf = std::numeric_limits<T>::infinity();
  for (const auto& cell : contend<T>(op_add, local, T(0), [&](std::size_t i) { return i % 64 == 5 ? inf : T(1); })) {
    std::vector<T> finite;
    for (T o : cell.olds)
      if (std::isfinite(o)) finite.push_back(o);
    std::sort(finite.begin(), finite.end());
    bool counted = true;
    for (std::size_t k = 0; k < finite.size(); ++k) counted = counted && same(finite[k], T(k));
    const auto infs = std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, inf); });
    CHECK(counted);
    CHECK(std::size_t(infs) + finite.size() == cell.olds.size());
    CHECK(same(cell.final_value, inf));
  }
  for (const auto& cell : contend<T>(op_add, local, T(-0.0), [](std::size_t) { return T(-0.0); })) {
    CHECK(same(cell.final_value, T(-0.0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
  for (const auto& cell : contend<T>(op_add, local, T(-0.0), [](std::size_t i) { return i % 7 == 3 ? T(0) : T(-0.0); })) {
    CHECK(same(cell.final_value, T(0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return o == T(0); }));  // either zero
    CHECK(std::any_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
}

// mul/div by -1 from ±0 and ±inf: the sign flips once per work-item, so the olds hold each
// sign exactly half the time and the final sign is the start's (an even count).
template <class T>
void check_sign_flips(Op op, bool local) {
  const T inf = std::numeric_limits<T>::infinity();
  for (T init : {T(-0.0), T(0), inf, -inf}) {
    for (const auto& cell : contend<T>(op, local, init, [](std::size_t) { return T(-1); })) {
      const std::size_t m = cell.olds.size();
      INFO((std::string(op_names[op]) + " by -1 from " + show(init) + ", "), m, std::string(" work-items, ") + (local ? "local" : "global"));
      REQUIRE(m % 2 == 0);
      CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, init); }) == std::ptrdiff_t(m / 2));
      CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, -init); }) == std::ptrdiff_t(m / 2));
      CHECK(same(cell.final_value, init));
    }
  }
}

template <class T>
T nan_with(Bits<T> payload, bool negative) {
  const Bits<T> quiet = sizeof(T) == 4 ? Bits<T>(0x7fc00000u) : Bits<T>(0x7ff8000000000000ull);
  const Bits<T> sign = Bits<T>(1) << (8 * sizeof(T) - 1);
  return test::from_bits<T>(quiet | payload | (negative ? sign : 0));
}

// min/max over mixtures: the final bits are exactly the reference fold; every old is the start
// or an operand (bits), and never beats the final value.
template <class T>
void check_minmax_mix(Op op, bool local, T init, const std::vector<T>& offered, const char* what) {
  for (const auto& cell : contend<T>(op, local, init, [&](std::size_t i) { return offered[i % offered.size()]; })) {
    T expected = init;
    std::vector<Bits<T>> allowed{test::bits(init)};
    for (auto i : cell.items) {
      const T v = offered[i % offered.size()];
      expected = reference(op, expected, v, T(0));
      allowed.push_back(test::bits(v));
    }
    std::sort(allowed.begin(), allowed.end());
    bool plausible = true;
    for (T o : cell.olds)
      plausible = plausible && std::binary_search(allowed.begin(), allowed.end(), test::bits(o)) &&
                  same(reference(op, o, cell.final_value, T(0)), cell.final_value);
    INFO((std::string(op_names[op]) + " over " + what + " from " + show(init) + (local ? ", local" : ", global") +
          ": final " + show(cell.final_value) + ", expected " + show(expected)));
    const bool flushed_ok = may_flush<T>(op, local) && same(flush(cell.final_value), flush(expected));
    CHECK((same(cell.final_value, expected) || flushed_ok));
    CHECK(plausible);
  }
}

template <class T>
void check_minmax(Op op, bool local) {
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN();
  std::vector<T> zeros_and_nans{T(0), T(-0.0), nan, nan_with<T>(0x55, true), nan_with<T>(3, false), T(-0.0)};
  check_minmax_mix<T>(op, local, nan, zeros_and_nans, "±0 and NaNs");
  check_minmax_mix<T>(op, local, nan_with<T>(0x123, true), zeros_and_nans, "±0 and NaNs");
  std::vector<T> all = special_values<T>();
  all.push_back(nan_with<T>(7, true));
  all.push_back(-L::denorm_min());
  check_minmax_mix<T>(op, local, T(1), all, "every special value");
  std::vector<T> nans{nan, nan_with<T>(1, true), nan_with<T>(0x42, false)};
  check_minmax_mix<T>(op, local, nan_with<T>(0x123, false), nans, "NaNs only (memory keeps its NaN)");
  check_minmax_mix<T>(op, local, T(0), {T(-0.0), L::denorm_min(), T(0), -L::denorm_min()}, "±0 and ±denormals");
}

// The chain states of special_values.cl: -0, +0, +inf, -inf, denormal, NaN payloads.
template <class T>
Bits<T> chain_bits(Bits<T> k) {
  switch (k) {
    case 0: return test::bits(T(-0.0));
    case 1: return 0;
    case 2: return test::bits(std::numeric_limits<T>::infinity());
    case 3: return test::bits(-std::numeric_limits<T>::infinity());
    case 4: return 1;
    default: return test::bits(nan_with<T>(k, k & 1));
  }
}

// xchg: each work-item swaps in its own state; olds plus the final value are every state once.
template <class T>
void check_xchg_chain(bool local) {
  const std::size_t group = test::group_size();
  for (const auto& cell : contend<T>(op_xchg, local, test::from_bits<T>(chain_bits<T>(0)), [&](std::size_t i) {
         return test::from_bits<T>(chain_bits<T>(Bits<T>(local ? i % group : i) + 1));
       })) {
    std::vector<T> seen = cell.olds;
    seen.push_back(cell.final_value);
    std::vector<Bits<T>> expected;
    for (std::size_t k = 0; k <= cell.olds.size(); ++k) expected.push_back(chain_bits<T>(Bits<T>(k)));
    std::sort(expected.begin(), expected.end());
    CHECK(sorted_bits(seen) == expected);
  }
}

// cmpxchg: the chain kernel advances the cell one state per work-item with a CAS loop; the olds
// are states 0..m-1 exactly once, the final state is m. Then one-shot compare-exchanges: against
// -0 in memory, a +0 compare never succeeds; a -0 compare succeeds exactly once.
template <class T>
void check_cmpxchg(bool local) {
  const std::size_t group = test::group_size(), n = local ? 4 * group : global_items, m = local ? group : n;
  const std::size_t cells = n / m;
  const auto out = launch<T>("chain", local, std::vector<T>(cells, test::from_bits<T>(chain_bits<T>(0))), {}, {},
                             op_cmpxchg, n);
  for (std::size_t c = 0; c < cells; ++c) {
    std::vector<T> olds(out.olds.begin() + std::ptrdiff_t(c * m), out.olds.begin() + std::ptrdiff_t((c + 1) * m));
    std::vector<Bits<T>> expected;
    for (std::size_t k = 0; k < m; ++k) expected.push_back(chain_bits<T>(Bits<T>(k)));
    std::sort(expected.begin(), expected.end());
    INFO("cmpxchg chain of ", m, std::string(" work-items, ") + (local ? "local" : "global") + ": final " + show(out.mem[c]));
    CHECK(sorted_bits(olds) == expected);
    CHECK(test::bits(out.mem[c]) == chain_bits<T>(Bits<T>(m)));
  }
  const auto distinct_nan = [](std::size_t i) { return nan_with<T>(Bits<T>(i + 1), i & 1); };
  for (const auto& cell : contend<T>(op_cmpxchg, local, T(-0.0), [](std::size_t) { return T(0); }, distinct_nan)) {
    CHECK(same(cell.final_value, T(-0.0)));
    CHECK(std::all_of(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); }));
  }
  for (const auto& cell : contend<T>(op_cmpxchg, local, T(-0.0), [](std::size_t) { return T(-0.0); }, distinct_nan)) {
    const auto winners = std::count_if(cell.olds.begin(), cell.olds.end(), [](T o) { return same(o, T(-0.0)); });
    CHECK(winners == 1);
    std::size_t winner = 0;
    for (std::size_t k = 0; k < cell.olds.size(); ++k)
      if (same(cell.olds[k], T(-0.0))) winner = cell.items[k];
    CHECK(same(cell.final_value, distinct_nan(winner)));
    CHECK(std::count_if(cell.olds.begin(), cell.olds.end(), [&](T o) { return same(o, cell.final_value); }) ==
          std::ptrdiff_t(cell.olds.size() - 1));
  }
}

template <class T>
void check_contention(Op op) {
  if (test::skip_without_double<T>()) return;
  for (bool local : {false, true}) {
    switch (op) {
      case op_add:
        check_denormal_steps<T>(op, local);
        check_add_specials<T>(local);
        break;
      case op_sub:
      case op_mad: check_denormal_steps<T>(op, local); break;
      case op_mul:
      case op_div: check_sign_flips<T>(op, local); break;
      case op_min:
      case op_max: check_minmax<T>(op, local); break;
      case op_xchg: check_xchg_chain<T>(local); break;
      case op_cmpxchg: check_cmpxchg<T>(local); break;
    }
  }
}

}  // namespace

#define CONTENTION_TEST(OP)                                                                     \
  TEST_CASE_TEMPLATE("special values: " #OP " (full contention, no update lost)", T, float, double) { \
    check_contention<T>(op_##OP);                                                               \
  }
REAL_OPS(CONTENTION_TEST)
