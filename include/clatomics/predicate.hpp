// clatomics/predicate.hpp — conditions on one element x, for compact (copy_if), as data.
//
// A Predicate is a small tree of comparisons of x with values, and of tests of x, combined with
// &&, || and !. The values are never written into OpenCL C source: the library compiles one
// program per *shape* of tree (x > p0 && x < p1) and passes the values in a buffer, so a predicate
// cannot inject code, and `x > 0.5f` and `x > 0.6f` share one compiled program.
//
//   using clatomics::where::x;
//   auto kept = clatomics::compact(rt, data, x > 0.5f && x < 0.9f);
//   auto bad  = clatomics::compact(rt, data, isnan(x) || !isfinite(x));   // found by ADL
//   auto bin  = clatomics::compact(rt, data, in_range(x, 10, 20));       // 10 <= x && x < 20
//
// Building: x compared with an arithmetic value (bool excluded) on either side with < <= > >= ==
// !=; where::isnan(x), where::isfinite(x), where::isinf(x); where::in_range(x, lo, hi), half-open
// like a histogram bin (empty when hi <= lo); && || ! on Predicates. `0.5f < x` is stored as
// `x > 0.5f`, and `!!p` as p. Anything else (x + 1 > 2, x < x, 0 < x < 1, a Predicate used as a
// bool) does not compile.
//
// Size: at most max_leaves (256) comparisons and tests (in_range counts as one); combining two
// Predicates into a bigger one throws std::invalid_argument naming the limit.
//
// Values are kept as given: integers as 64-bit integers (signed or unsigned, as their type), and
// floating values as double (a long double is rounded to double). They are converted only when the
// element type is known, when compact runs, by these rules; anything else throws
// std::invalid_argument naming the value and the element type, before anything is compiled:
//   float elements: a floating value rounds to the nearest float, as NumPy 2 treats a Python float
//     compared with a float32 array (beyond the float range: to +-infinity; NaN stays NaN, and
//     every comparison with NaN but != is false). An integer value must be exactly a float
//     (16777217 is refused: it would silently become 16777216).
//   int and uint elements: the value must be an integer within the element type's range (a
//     floating value without a fraction, such as 3.0, is fine; 0.5, NaN, infinities, -1 for
//     uint and 2^31 for int are refused rather than rounded or wrapped).
//   isnan, isfinite and isinf on int and uint elements hold for no, every, and no element
//     (NumPy's answers for integer arrays); they are folded away when the program is built.
//
// The string form, compact(rt, data, "x > 0.5f"), stays supported, but it is *code*: an OpenCL C
// expression of x compiled into the kernel, where arithmetic on x is allowed ("x % 3u == 0u",
// "fabs(x - 1.0f) < 0.1f"), and each distinct string compiles its own program. Before anything
// is compiled it is checked, and refused with std::invalid_argument naming the offending token and
// its position (bytes counted from 0), unless it is at most 4096 bytes, not blank, and made only
// of:
//   - spaces, tabs, newlines and carriage returns (no other control characters, no non-ASCII);
//   - the identifier x, and true and false;
//   - numeric literals: decimal, hex and octal integers with u/U and l/L suffixes (at most one of
//     each), decimal floats (1.5, .5, 2e-3) and hex floats (0x1.8p3), with an optional f/F;
//   - the operators + - * / % < <= > >= == != && || ! ~ & | ^ << >> ? : , and parentheses,
//     nested at most 64 deep and balanced (a ')' may not close the library's own wrapper);
//   - these OpenCL C built-in functions, each directly followed by '(' (spaces allowed):
//       isnan isfinite isinf isnormal signbit isequal isnotequal isgreater isgreaterequal isless
//       islessequal islessgreater isordered isunordered fabs abs abs_diff min max fmin fmax
//       clamp sign floor ceil round trunc rint sqrt rsqrt cbrt exp exp2 log log2 log10 sin cos
//       tan atan atan2 pow pown fmod copysign hypot fma mad popcount clz
//   - these constants: INFINITY NAN HUGE_VALF FLT_MAX FLT_MIN FLT_EPSILON INT_MAX INT_MIN
//     UINT_MAX M_PI_F M_E_F.
// So no statements, comments, preprocessor lines, string or character literals, member access,
// assignment, ++ or --, casts, type names, qualifiers, attributes, asm, or other functions
// (the library's own included). What it computes is still up to the expression: integer
// division or remainder by zero, or INT_MIN / -1, is undefined in OpenCL C and may stop the
// process on a CPU device (PoCL runs kernels in the host process); the structured form has no
// arithmetic and cannot do that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace clatomics {

class Predicate {
 public:
  // At most this many comparisons and tests in one Predicate.
  static constexpr std::size_t max_leaves = 256;

  // One value, as the user gave it.
  struct Value {
    enum class Kind { signed_integer, unsigned_integer, floating };
    Kind kind = Kind::signed_integer;
    std::int64_t i = 0;   // signed_integer
    std::uint64_t u = 0;  // unsigned_integer
    double d = 0;         // floating

    template <class V>
    static Value of(V v) {
      static_assert(std::is_arithmetic_v<V> && !std::is_same_v<V, bool>, "a predicate value is a number");
      Value r;
      if constexpr (std::is_floating_point_v<V>) {
        r.kind = Kind::floating;
        r.d = static_cast<double>(v);
      } else if constexpr (std::is_signed_v<V>) {
        r.kind = Kind::signed_integer;
        r.i = static_cast<std::int64_t>(v);
      } else {
        r.kind = Kind::unsigned_integer;
        r.u = static_cast<std::uint64_t>(v);
      }
      return r;
    }
  };

  enum class Op {
    // x OP a
    less, less_equal, greater, greater_equal, equal, not_equal,
    // tests of x
    is_nan, is_finite, is_inf,
    // a <= x && x < b
    in_range,
    // left && right, left || right, !left
    all, any, negation,
  };

  // A node of the tree; the library's lowering walks it. Immutable once built, shared between
  // copies of a Predicate and between the Predicates built from it.
  struct Node {
    Op op = Op::equal;
    Value a, b;                             // comparisons: a; in_range: a (lo) and b (hi)
    std::shared_ptr<const Node> left, right;  // all, any: both; negation: left
    std::size_t leaves = 1;                 // comparisons and tests in this subtree
  };

  // The building blocks behind the operators below, for predicates made at run time (an
  // operator chosen from a list, say). compare: op one of less .. not_equal; test: is_nan,
  // is_finite or is_inf; otherwise std::invalid_argument.
  static Predicate compare(Op op, Value value);
  static Predicate test(Op op);
  static Predicate range(Value lo, Value hi);

  const Node& root() const { return *root_; }
  std::size_t leaves() const { return root_->leaves; }

  // && and || throw std::invalid_argument when the result would hold more than max_leaves.
  friend Predicate operator&&(const Predicate& l, const Predicate& r);
  friend Predicate operator||(const Predicate& l, const Predicate& r);
  friend Predicate operator!(const Predicate& p);

 private:
  explicit Predicate(std::shared_ptr<const Node> root) : root_(std::move(root)) {}
  static Predicate combine(Op op, const Predicate& l, const Predicate& r);

  std::shared_ptr<const Node> root_;  // never null
};

namespace where {

// The type of the placeholder x: stands for the element; carries nothing.
struct Element {};
inline constexpr Element x{};

// The value types a comparison takes: arithmetic, but not bool (x == true is a mistake).
template <class V>
inline constexpr bool is_value_v = std::is_arithmetic_v<V> && !std::is_same_v<V, bool>;

#define CLATOMICS_WHERE_COMPARE(OP, OPCODE, FLIPPED)                                 \
  template <class V, std::enable_if_t<is_value_v<V>, int> = 0>                        \
  Predicate operator OP(Element, V v) {                                              \
    return Predicate::compare(Predicate::Op::OPCODE, Predicate::Value::of(v));       \
  }                                                                                   \
  template <class V, std::enable_if_t<is_value_v<V>, int> = 0>                        \
  Predicate operator OP(V v, Element) {                                              \
    return Predicate::compare(Predicate::Op::FLIPPED, Predicate::Value::of(v));      \
  }
// v < x is x > v, and so on.
CLATOMICS_WHERE_COMPARE(<, less, greater)
CLATOMICS_WHERE_COMPARE(<=, less_equal, greater_equal)
CLATOMICS_WHERE_COMPARE(>, greater, less)
CLATOMICS_WHERE_COMPARE(>=, greater_equal, less_equal)
CLATOMICS_WHERE_COMPARE(==, equal, equal)
CLATOMICS_WHERE_COMPARE(!=, not_equal, not_equal)
#undef CLATOMICS_WHERE_COMPARE

inline Predicate isnan(Element) { return Predicate::test(Predicate::Op::is_nan); }
inline Predicate isfinite(Element) { return Predicate::test(Predicate::Op::is_finite); }
inline Predicate isinf(Element) { return Predicate::test(Predicate::Op::is_inf); }

// lo <= x && x < hi.
template <class L, class H, std::enable_if_t<is_value_v<L> && is_value_v<H>, int> = 0>
Predicate in_range(Element, L lo, H hi) {
  return Predicate::range(Predicate::Value::of(lo), Predicate::Value::of(hi));
}

}  // namespace where
}  // namespace clatomics
