// Predicates: building the tree (clatomics/predicate.hpp), and lowering it to a shape and its
// values.
#include "predicate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace clatomics {

// ---- Building ---------------------------------------------------------------------------------

namespace {

bool is_comparison(Predicate::Op op) {
  switch (op) {
    case Predicate::Op::less:
    case Predicate::Op::less_equal:
    case Predicate::Op::greater:
    case Predicate::Op::greater_equal:
    case Predicate::Op::equal:
    case Predicate::Op::not_equal:
      return true;
    default:
      return false;
  }
}

bool is_test(Predicate::Op op) {
  return op == Predicate::Op::is_nan || op == Predicate::Op::is_finite || op == Predicate::Op::is_inf;
}

}  // namespace

Predicate Predicate::compare(Op op, Value value) {
  if (!is_comparison(op)) throw std::invalid_argument("clatomics: predicate: compare takes one of the comparison ops");
  auto node = std::make_shared<Node>();
  node->op = op;
  node->a = value;
  return Predicate(std::move(node));
}

Predicate Predicate::test(Op op) {
  if (!is_test(op)) throw std::invalid_argument("clatomics: predicate: test takes is_nan, is_finite or is_inf");
  auto node = std::make_shared<Node>();
  node->op = op;
  return Predicate(std::move(node));
}

Predicate Predicate::range(Value lo, Value hi) {
  auto node = std::make_shared<Node>();
  node->op = Op::in_range;
  node->a = lo;
  node->b = hi;
  return Predicate(std::move(node));
}

Predicate Predicate::combine(Op op, const Predicate& l, const Predicate& r) {
  // Both sides hold at most max_leaves, so the sum cannot overflow. Repeats count: the shape's
  // text grows with every occurrence, shared or not.
  const std::size_t leaves = l.leaves() + r.leaves();
  if (leaves > max_leaves)
    throw std::invalid_argument("clatomics: predicate: " + std::to_string(leaves) + " comparisons and tests, more than the " +
                                std::to_string(max_leaves) + " allowed in one predicate");
  auto node = std::make_shared<Node>();
  node->op = op;
  node->left = l.root_;
  node->right = r.root_;
  node->leaves = leaves;
  return Predicate(std::move(node));
}

Predicate operator&&(const Predicate& l, const Predicate& r) { return Predicate::combine(Predicate::Op::all, l, r); }
Predicate operator||(const Predicate& l, const Predicate& r) { return Predicate::combine(Predicate::Op::any, l, r); }

Predicate operator!(const Predicate& p) {
  // !!p is p: negations never stack, so the tree's depth stays bounded by its leaves.
  if (p.root_->op == Predicate::Op::negation) return Predicate(p.root_->left);
  auto node = std::make_shared<Predicate::Node>();
  node->op = Predicate::Op::negation;
  node->left = p.root_;
  node->leaves = p.leaves();
  return Predicate(std::move(node));
}

namespace detail {

// ---- Lowering ---------------------------------------------------------------------------------

namespace {

using Op = Predicate::Op;
using Node = Predicate::Node;
using Value = Predicate::Value;

const char* comparison_text(Op op) {
  switch (op) {
    case Op::less: return "<";
    case Op::less_equal: return "<=";
    case Op::greater: return ">";
    case Op::greater_equal: return ">=";
    case Op::equal: return "==";
    default: return "!=";
  }
}

std::string param(std::size_t& next) { return "clat_p[" + std::to_string(next++) + "]"; }

// Appends the node's text; next: the number of the next parameter. The depth of the recursion is
// bounded: at most max_leaves leaves, and negations do not stack.
void lower(const Node& n, bool integer_elements, std::string& out, std::size_t& next) {
  switch (n.op) {
    case Op::is_nan:
      out += integer_elements ? "(false)" : "(isnan(x))";
      return;
    case Op::is_finite:
      out += integer_elements ? "(true)" : "(isfinite(x))";
      return;
    case Op::is_inf:
      out += integer_elements ? "(false)" : "(isinf(x))";
      return;
    case Op::in_range: {
      const std::string lo = param(next);
      out += "((" + lo + " <= x) && (x < " + param(next) + "))";
      return;
    }
    case Op::all:
    case Op::any:
      out += '(';
      lower(*n.left, integer_elements, out, next);
      out += n.op == Op::all ? " && " : " || ";
      lower(*n.right, integer_elements, out, next);
      out += ')';
      return;
    case Op::negation:
      out += "(!";
      lower(*n.left, integer_elements, out, next);
      out += ')';
      return;
    default:
      out += "(x ";
      out += comparison_text(n.op);
      out += ' ';
      out += param(next);
      out += ')';
      return;
  }
}

template <class T>
const char* element_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, cl_int>) return "int";
  else return "uint";
}

// The value as the user would write it: integers in decimal, doubles in their shortest
// round-trip form (std::to_chars: no locale).
std::string describe(const Value& v) {
  if (v.kind == Value::Kind::signed_integer) return std::to_string(v.i);
  if (v.kind == Value::Kind::unsigned_integer) return std::to_string(v.u);
  if (std::isnan(v.d)) return "nan";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v.d);
  return std::string(buf, r.ptr);
}

[[noreturn]] void refuse(const Value& v, const std::string& why, const char* element) {
  throw std::invalid_argument("clatomics: predicate: " + describe(v) + " " + why + ", and the elements are " + element);
}

// Round to nearest, ties to even, as the FPU does, without the undefined behaviour of converting
// a double beyond the float range: from halfway between FLT_MAX and 2^128 on, the nearest is
// infinity; between FLT_MAX and there, FLT_MAX.
float round_to_float(double d) {
  if (std::isnan(d)) return std::numeric_limits<float>::quiet_NaN();
  const double magnitude = std::fabs(d);
  const float sign = std::signbit(d) ? -1.0f : 1.0f;
  if (magnitude >= std::ldexp(1.0, 128) - std::ldexp(1.0, 103)) return sign * std::numeric_limits<float>::infinity();
  if (magnitude > double(std::numeric_limits<float>::max())) return sign * std::numeric_limits<float>::max();
  return static_cast<float>(d);
}

// Whether a 64-bit magnitude is exactly a float: its odd part fits the 24-bit significand (the
// exponent always fits: 2^63 is far below FLT_MAX).
bool exactly_float(std::uint64_t magnitude) {
  if (magnitude == 0) return true;
  while ((magnitude & 1u) == 0) magnitude >>= 1;
  return magnitude < (std::uint64_t(1) << 24);
}

template <class T>
T convert(const Value& v) {
  const char* element = element_name<T>();
  if constexpr (std::is_same_v<T, float>) {
    switch (v.kind) {
      case Value::Kind::floating:
        return round_to_float(v.d);
      case Value::Kind::signed_integer: {
        // The magnitude in unsigned arithmetic: -INT64_MIN does not fit int64.
        const std::uint64_t magnitude = v.i < 0 ? std::uint64_t(0) - std::uint64_t(v.i) : std::uint64_t(v.i);
        if (!exactly_float(magnitude)) refuse(v, "is not exactly a float", element);
        return static_cast<float>(v.i);  // exact, so no rounding happens here
      }
      case Value::Kind::unsigned_integer:
        if (!exactly_float(v.u)) refuse(v, "is not exactly a float", element);
        return static_cast<float>(v.u);
    }
    return 0.0f;  // not reached: every kind returns above
  } else {
    using limits = std::numeric_limits<T>;
    const std::string range = "out of range (" + std::to_string(limits::min()) + " to " + std::to_string(limits::max()) + ")";
    switch (v.kind) {
      case Value::Kind::floating:
        if (!std::isfinite(v.d) || v.d != std::trunc(v.d)) refuse(v, "is not an integer", element);
        // The bounds are exact doubles, so the comparison is exact; after it the cast is defined.
        if (v.d < double(limits::min()) || v.d > double(limits::max())) refuse(v, "is " + range, element);
        return static_cast<T>(v.d);
      case Value::Kind::signed_integer:
        if (v.i < std::int64_t(limits::min()) || v.i > std::int64_t(limits::max())) refuse(v, "is " + range, element);
        return static_cast<T>(v.i);
      case Value::Kind::unsigned_integer:
        if (v.u > std::uint64_t(limits::max())) refuse(v, "is " + range, element);
        return static_cast<T>(v.u);
    }
    return T(0);  // not reached
  }
}

// The parameters in the order lower() numbers them.
template <class T>
void collect(const Node& n, std::vector<T>& out) {
  switch (n.op) {
    case Op::is_nan:
    case Op::is_finite:
    case Op::is_inf:
      return;
    case Op::in_range:
      out.push_back(convert<T>(n.a));
      out.push_back(convert<T>(n.b));
      return;
    case Op::all:
    case Op::any:
      collect(*n.left, out);
      collect(*n.right, out);
      return;
    case Op::negation:
      collect(*n.left, out);
      return;
    default:
      out.push_back(convert<T>(n.a));
      return;
  }
}

}  // namespace

std::string predicate_shape(const Predicate& predicate, const char* element_type_name) {
  const std::string type = element_type_name ? element_type_name : "(null)";
  if (type != "float" && type != "int" && type != "uint")
    throw std::invalid_argument("clatomics: predicate: elements of type '" + type + "' are not supported (float, int or uint)");
  std::string out;
  std::size_t next = 0;
  lower(predicate.root(), type != "float", out, next);
  return out;
}

template <class T>
std::vector<T> predicate_values(const Predicate& predicate) {
  std::vector<T> out;
  collect(predicate.root(), out);
  return out;
}

template std::vector<float> predicate_values<float>(const Predicate&);
template std::vector<cl_int> predicate_values<cl_int>(const Predicate&);
template std::vector<cl_uint> predicate_values<cl_uint>(const Predicate&);

}  // namespace detail
}  // namespace clatomics
