// Predicates: building the tree (clatomics/predicate.hpp), lowering it to a shape and its values,
// and checking the string form token by token before it is compiled.
#include "compact/predicate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
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

// ---- The string form --------------------------------------------------------------------------

namespace {

// Pure functions of values: none takes a pointer (frexp, modf, sincos, remquo, fract, vload and
// the like would let the text write memory) or reaches the library's own code.
const char* const allowed_functions[] = {
    "isnan",  "isfinite", "isinf",  "isnormal", "signbit", "isequal", "isnotequal", "isgreater", "isgreaterequal",
    "isless", "islessequal", "islessgreater", "isordered", "isunordered", "fabs", "abs", "abs_diff", "min", "max",
    "fmin",   "fmax",    "clamp", "sign",    "floor",   "ceil",  "round", "trunc", "rint", "sqrt", "rsqrt", "cbrt",
    "exp",    "exp2",    "log",   "log2",    "log10",   "sin",   "cos",   "tan",   "atan", "atan2", "pow", "pown",
    "fmod",   "copysign", "hypot", "fma",    "mad",     "popcount", "clz"};

const char* const allowed_constants[] = {"INFINITY", "NAN",     "HUGE_VALF", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
                                         "INT_MAX",  "INT_MIN", "UINT_MAX",  "M_PI_F",  "M_E_F"};

template <std::size_t N>
bool listed(const char* const (&list)[N], const std::string& name) {
  for (const char* entry : list)
    if (name == entry) return true;
  return false;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident(char c) { return is_ident_start(c) || is_digit(c); }
char lower_case(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

// A token as the message shows it: quoted, cut short when long (an identifier may be 4 KiB).
std::string quoted(const std::string& token) {
  return "'" + (token.size() > 40 ? token.substr(0, 40) + "..." : token) + "'";
}

[[noreturn]] void refuse_token(const std::string& token, std::size_t pos, const std::string& why) {
  throw std::invalid_argument("clatomics: predicate: " + quoted(token) + " at position " + std::to_string(pos) + ": " + why);
}

std::string hex_byte(unsigned char c) {
  const char* digits = "0123456789ABCDEF";
  return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

// The end of the numeric literal starting at s[i] (a digit, or '.' before a digit), or npos when
// it is not one of: decimal/octal/hex integers with at most one u/U and one l/L, decimal floats
// with optional exponent, hex floats (p exponent required, as in C), floats with an optional f/F.
// A literal may not run into a letter, digit, '_' or '.' ("1x", "1.2.3", "08", "1f").
std::size_t number_end(const std::string& s, std::size_t i) {
  const std::size_t n = s.size();
  auto digits = [&](bool (*accept)(char)) {
    std::size_t count = 0;
    for (; i < n && accept(s[i]); ++i) ++count;
    return count;
  };
  auto exponent = [&]() {
    ++i;  // e or p
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    return digits(is_digit) > 0;
  };
  bool floating = false;
  if (s[i] == '0' && i + 1 < n && lower_case(s[i + 1]) == 'x') {
    i += 2;
    std::size_t count = digits(is_hex_digit);
    if (i < n && s[i] == '.') {
      ++i;
      count += digits(is_hex_digit);
      floating = true;
    }
    if (count == 0) return std::string::npos;
    if (i < n && lower_case(s[i]) == 'p') {
      if (!exponent()) return std::string::npos;
      floating = true;
    } else if (floating) {
      return std::string::npos;
    }
  } else {
    const std::size_t start = i;
    std::size_t count = digits(is_digit);
    bool bad_octal = false;
    if (count > 1 && s[start] == '0')
      for (std::size_t k = start; k < start + count; ++k) bad_octal = bad_octal || s[k] > '7';
    if (i < n && s[i] == '.') {
      ++i;
      count += digits(is_digit);
      floating = true;
    }
    if (count == 0) return std::string::npos;
    if (i < n && lower_case(s[i]) == 'e') {
      if (!exponent()) return std::string::npos;
      floating = true;
    }
    if (!floating && bad_octal) return std::string::npos;
  }
  if (floating) {
    if (i < n && lower_case(s[i]) == 'f') ++i;
  } else {
    bool u = false, l = false;
    for (; i < n; ++i) {
      const char c = lower_case(s[i]);
      if (c == 'u' && !u) u = true;
      else if (c == 'l' && !l) l = true;
      else break;
    }
  }
  if (i < n && (is_ident(s[i]) || s[i] == '.')) return std::string::npos;
  return i;
}

bool one_of(const std::string& token, std::initializer_list<const char*> list) {
  for (const char* entry : list)
    if (token == entry) return true;
  return false;
}

}  // namespace

void validate_predicate_expression(const std::string& text) {
  // The size first: a huge text is refused without being scanned.
  if (text.size() > max_predicate_expression_bytes)
    throw std::invalid_argument("clatomics: predicate: the expression is " + std::to_string(text.size()) + " bytes long, more than the " +
                                std::to_string(max_predicate_expression_bytes) + " allowed");
  std::vector<std::size_t> open;  // positions of the '(' not closed yet
  bool blank = true;
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (is_space(c)) {
      ++i;
      continue;
    }
    blank = false;
    if (byte >= 0x80)
      throw std::invalid_argument("clatomics: predicate: non-ASCII byte " + hex_byte(byte) + " at position " + std::to_string(i) +
                                  ": only ASCII is allowed");
    if (byte < 0x20 || byte == 0x7F)
      throw std::invalid_argument("clatomics: predicate: control character " + hex_byte(byte) + " at position " + std::to_string(i) +
                                  ": only space, tab, newline and carriage return are allowed");

    if (is_ident_start(c)) {
      std::size_t end = i;
      while (end < n && is_ident(text[end])) ++end;
      const std::string name = text.substr(i, end - i);
      if (listed(allowed_functions, name)) {
        // A function only as a call: the name alone could be an operand of something else.
        std::size_t next = end;
        while (next < n && is_space(text[next])) ++next;
        if (next == n || text[next] != '(') refuse_token(name, i, "a function must be followed by '('");
      } else if (name != "x" && name != "true" && name != "false" && !listed(allowed_constants, name)) {
        refuse_token(name, i,
                     "not an allowed name (x, true, false, and the built-in functions and constants listed in clatomics/predicate.hpp)");
      }
      i = end;
      continue;
    }

    if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(text[i + 1]))) {
      const std::size_t end = number_end(text, i);
      if (end == std::string::npos) {
        std::size_t bad = i;  // the whole run of number-like characters, for the message
        while (bad < n && (is_ident(text[bad]) || text[bad] == '.')) ++bad;
        refuse_token(text.substr(i, bad - i), i, "not a numeric literal");
      }
      i = end;
      continue;
    }

    // Punctuation: the sequences that are not allowed first, then the operators, longest first.
    const std::string two = text.substr(i, 2), three = text.substr(i, 3);
    if (one_of(two, {"/*", "*/", "//"})) refuse_token(two, i, "comments are not allowed");
    if (two == "??") refuse_token(two, i, "trigraphs are not allowed");
    if (one_of(two, {"%:", "<%", "%>", "<:", ":>"})) refuse_token(two, i, "digraphs are not allowed");
    if (one_of(two, {"++", "--"})) refuse_token(two, i, "increment and decrement are not allowed");
    if (two == "->") refuse_token(two, i, "member access is not allowed");
    if (one_of(three, {"<<=", ">>="})) refuse_token(three, i, "assignment is not allowed");
    if (one_of(two, {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="})) refuse_token(two, i, "assignment is not allowed");
    if (one_of(two, {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"})) {
      i += 2;
      continue;
    }
    switch (c) {
      case '+': case '-': case '*': case '/': case '%': case '<': case '>': case '!': case '~': case '&': case '|':
      case '^': case '?': case ':': case ',':
        ++i;
        continue;
      case '(':
        if (open.size() == std::size_t(max_predicate_expression_depth))
          refuse_token("(", i, "parentheses nested deeper than " + std::to_string(max_predicate_expression_depth));
        open.push_back(i);
        ++i;
        continue;
      case ')':
        // The text is compiled inside the library's own parentheses: this one would close them.
        if (open.empty()) refuse_token(")", i, "closes a parenthesis that was not opened");
        open.pop_back();
        ++i;
        continue;
      case '=': refuse_token("=", i, "assignment is not allowed");
      case '.': refuse_token(".", i, "member access is not allowed");
      case '"': refuse_token("\"", i, "string literals are not allowed");
      case '\'': refuse_token("'", i, "character literals are not allowed");
      case '\\': refuse_token("\\", i, "backslashes are not allowed");
      default: refuse_token(std::string(1, c), i, "not allowed in an expression");  // # ; { } [ ] @ $ `
    }
  }
  if (blank) throw std::invalid_argument("clatomics: predicate: the expression is empty");
  if (!open.empty()) refuse_token("(", open.back(), "never closed");
}

}  // namespace detail
}  // namespace clatomics
