// Predicates on the host, no device: the structured form's shape texts (one per structure, none
// per value) and parameter values per element type with every conversion refusal; the bound on
// its size; and the check of the string form against a table of accepted and hostile texts.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "compact/predicate.hpp"

namespace {

using clatomics::Predicate;
using clatomics::detail::predicate_shape;
using clatomics::detail::predicate_values;
using clatomics::detail::validate_predicate_expression;
using clatomics::where::x;

// The placeholder and Predicate admit only what the header lists.
template <class V, class = void>
struct can_compare : std::false_type {};
template <class V>
struct can_compare<V, std::void_t<decltype(x < std::declval<V>()), decltype(std::declval<V>() < x)>> : std::true_type {};
template <class V, class = void>
struct can_add : std::false_type {};
template <class V>
struct can_add<V, std::void_t<decltype(x + std::declval<V>())>> : std::true_type {};
static_assert(can_compare<float>::value && can_compare<double>::value && can_compare<int>::value);
static_assert(can_compare<unsigned long long>::value && can_compare<std::int8_t>::value);
static_assert(!can_compare<bool>::value, "x < true is a mistake, not a predicate");
static_assert(!can_compare<clatomics::where::Element>::value, "x < x is not a predicate");
static_assert(!can_compare<Predicate>::value, "0 < x < 1 does not compile");
static_assert(!can_compare<const char*>::value);
static_assert(!can_add<int>::value, "no arithmetic on x");
static_assert(!std::is_convertible_v<Predicate, bool>);
static_assert(std::is_copy_constructible_v<Predicate> && std::is_copy_assignable_v<Predicate>);
static_assert(std::is_empty_v<clatomics::where::Element>);

template <class T>
std::uint32_t bits(T v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Bit-exact, so -0.0f, NaN and the last ulp count.
void check_floats(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("parameter ", i, ": ", got[i], " vs ", want[i]);
    CHECK(bits(got[i]) == bits(want[i]));
  }
}

template <class T>
std::string value_refusal(const Predicate& p) {
  try {
    predicate_values<T>(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string refusal(const std::string& text) {
  try {
    validate_predicate_expression(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("predicate shapes: exact texts, no values in them") {
  using clatomics::where::in_range;
  using clatomics::where::isfinite;
  using clatomics::where::isinf;
  using clatomics::where::isnan;
  CHECK(predicate_shape(x > 0.5f, "float") == "(x > clat_p[0])");
  CHECK(predicate_shape(x < 1, "int") == "(x < clat_p[0])");
  CHECK(predicate_shape(x <= 1, "uint") == "(x <= clat_p[0])");
  CHECK(predicate_shape(x >= 1, "float") == "(x >= clat_p[0])");
  CHECK(predicate_shape(x == 1, "float") == "(x == clat_p[0])");
  CHECK(predicate_shape(x != 1, "float") == "(x != clat_p[0])");
  // The value on the left: the comparison turns round.
  CHECK(predicate_shape(0.5f < x, "float") == "(x > clat_p[0])");
  CHECK(predicate_shape(0.5f <= x, "float") == "(x >= clat_p[0])");
  CHECK(predicate_shape(0.5f > x, "float") == "(x < clat_p[0])");
  CHECK(predicate_shape(0.5f >= x, "float") == "(x <= clat_p[0])");
  CHECK(predicate_shape(7 == x, "int") == "(x == clat_p[0])");
  CHECK(predicate_shape(7 != x, "int") == "(x != clat_p[0])");
  CHECK(predicate_shape(x > 0.5f && x < 0.9f, "float") == "((x > clat_p[0]) && (x < clat_p[1]))");
  CHECK(predicate_shape(in_range(x, 10, 20), "uint") == "((clat_p[0] <= x) && (x < clat_p[1]))");
  CHECK(predicate_shape(!(x == 1) && (x != 2 || in_range(x, 3, 4)), "int") ==
        "((!(x == clat_p[0])) && ((x != clat_p[1]) || ((clat_p[2] <= x) && (x < clat_p[3]))))");
  CHECK(predicate_shape(!!(x >= 1), "float") == "(x >= clat_p[0])");
  CHECK(predicate_shape(!!!(x >= 1), "float") == "(!(x >= clat_p[0]))");
  // Tests of x: built-ins on floats, folded on integers (NumPy's answers).
  CHECK(predicate_shape(isnan(x) || !isfinite(x), "float") == "((isnan(x)) || (!(isfinite(x))))");
  CHECK(predicate_shape(isinf(x), "float") == "(isinf(x))");
  CHECK(predicate_shape(isnan(x) || !isfinite(x), "int") == "((false) || (!(true)))");
  CHECK(predicate_shape(isinf(x) && x > 3, "uint") == "((false) && (x > clat_p[0]))");
  // Found by argument-dependent lookup too.
  CHECK(predicate_shape(isnan(x), "float") == "(isnan(x))");

  // Only float, int and uint elements.
  CHECK_THROWS_WITH_AS(predicate_shape(x > 1, "double"),
                       "clatomics: predicate: elements of type 'double' are not supported (float, int or uint)", std::invalid_argument);
  CHECK_THROWS_AS(predicate_shape(x > 1, nullptr), std::invalid_argument);
}

TEST_CASE("predicate shapes: the same for other values, different for other structures") {
  using clatomics::where::in_range;
  CHECK(predicate_shape(x > 0.5f, "float") == predicate_shape(x > 0.6f, "float"));
  CHECK(predicate_shape(x > 0.5f, "float") == predicate_shape(-1e30 < x, "float"));
  CHECK(predicate_shape(x > 3, "int") == predicate_shape(x > std::uint64_t(1) << 40, "int"));
  CHECK(predicate_shape(in_range(x, 1, 2), "float") == predicate_shape(in_range(x, 1.5, 1e9f), "float"));
  CHECK(predicate_shape(x > 1 && x < 2, "int") == predicate_shape(x > -5 && x < 99, "int"));

  CHECK(predicate_shape(x > 0.5f, "float") != predicate_shape(x >= 0.5f, "float"));
  CHECK(predicate_shape(x > 1 && x < 2, "int") != predicate_shape(x > 1 || x < 2, "int"));
  CHECK(predicate_shape(x > 1 && x < 2, "int") != predicate_shape(x < 2 && x > 1, "int"));
  CHECK(predicate_shape(x > 1 && x < 2, "int") != predicate_shape(in_range(x, 1, 2), "int"));
  CHECK(predicate_shape(x > 1, "int") != predicate_shape(!(x > 1), "int"));
}

TEST_CASE("predicate values: float elements") {
  using clatomics::where::in_range;
  // In the order of the shape's parameters.
  check_floats(predicate_values<float>(!(x == 1) && (x != 2.5 || in_range(x, 3, 4.25f))), {1.0f, 2.5f, 3.0f, 4.25f});
  check_floats(predicate_values<float>(0.5f < x && x < 0.9), {0.5f, 0.9f});
  CHECK(predicate_values<float>(clatomics::where::isnan(x)).empty());

  // Doubles round to nearest, ties to even.
  check_floats(predicate_values<float>(x > 0.1), {0.1f});
  check_floats(predicate_values<float>(x > 1.0 + std::ldexp(1.0, -24)), {1.0f});                            // tie: even
  check_floats(predicate_values<float>(x > 1.0 + 3 * std::ldexp(1.0, -24)), {1.0f + std::ldexp(1.0f, -22)});  // tie: even
  check_floats(predicate_values<float>(x > 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -40)), {1.0f + std::ldexp(1.0f, -23)});
  check_floats(predicate_values<float>(x > -0.0), {-0.0f});
  check_floats(predicate_values<float>(x > 1e-40), {float(1e-40)});  // subnormal, not zero
  CHECK(predicate_values<float>(x > 1e-40)[0] > 0.0f);
  check_floats(predicate_values<float>(x > 1e-50), {0.0f});
  check_floats(predicate_values<float>(x > -1e-50), {-0.0f});
  // Beyond the float range: FLT_MAX up to halfway to 2^128, infinity from there (NumPy 2 too).
  const float fmax = std::numeric_limits<float>::max();
  const float inf = std::numeric_limits<float>::infinity();
  const double halfway = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  check_floats(predicate_values<float>(x < double(fmax)), {fmax});
  check_floats(predicate_values<float>(x < std::nextafter(halfway, 0.0)), {fmax});
  check_floats(predicate_values<float>(x < -std::nextafter(halfway, 0.0)), {-fmax});
  check_floats(predicate_values<float>(x < halfway), {inf});
  check_floats(predicate_values<float>(x < 1e300), {inf});
  check_floats(predicate_values<float>(x > -1e300), {-inf});
  check_floats(predicate_values<float>(x != std::numeric_limits<double>::infinity()), {inf});
  check_floats(predicate_values<float>(x > 1e30L), {1e30f});  // long double: through double
  const auto nan = predicate_values<float>(x == std::numeric_limits<double>::quiet_NaN());
  REQUIRE(nan.size() == 1);
  CHECK(std::isnan(nan[0]));

  // Integers: only those exactly a float.
  check_floats(predicate_values<float>(x > 16777216 && x > -16777216 && x > 3u && x > (std::int64_t(1) << 40) + (std::int64_t(1) << 20)),
               {16777216.0f, -16777216.0f, 3.0f, std::ldexp(1.0f, 40) + std::ldexp(1.0f, 20)});
  check_floats(predicate_values<float>(x > std::numeric_limits<std::int64_t>::min() && x > std::uint64_t(1) << 63 && x > 0),
               {-std::ldexp(1.0f, 63), std::ldexp(1.0f, 63), 0.0f});
  CHECK(value_refusal<float>(x > 16777217) == "clatomics: predicate: 16777217 is not exactly a float, and the elements are float");
  CHECK(value_refusal<float>(x > -16777217) == "clatomics: predicate: -16777217 is not exactly a float, and the elements are float");
  CHECK(value_refusal<float>(x < std::numeric_limits<std::uint64_t>::max()) ==
        "clatomics: predicate: 18446744073709551615 is not exactly a float, and the elements are float");
  CHECK(value_refusal<float>(x < std::numeric_limits<std::int64_t>::max()) ==
        "clatomics: predicate: 9223372036854775807 is not exactly a float, and the elements are float");
  // The first value that does not convert is named, wherever it sits.
  CHECK(value_refusal<float>(x > 1 && (x < 2 || x != 16777219u)) ==
        "clatomics: predicate: 16777219 is not exactly a float, and the elements are float");
}

TEST_CASE("predicate values: int elements") {
  using clatomics::where::in_range;
  CHECK(predicate_values<cl_int>(!(x == 1) && (x != -2 || in_range(x, 3.0, 4u))) == std::vector<cl_int>{1, -2, 3, 4});
  CHECK(predicate_values<cl_int>(x >= -2147483648.0 && x <= 2147483647.0) == std::vector<cl_int>{INT32_MIN, INT32_MAX});
  CHECK(predicate_values<cl_int>(x >= std::int64_t(INT32_MIN) && x <= std::uint64_t(INT32_MAX)) == std::vector<cl_int>{INT32_MIN, INT32_MAX});
  CHECK(predicate_values<cl_int>(x > -0.0 && x < 1e9f) == std::vector<cl_int>{0, 1000000000});
  CHECK(predicate_values<cl_int>(clatomics::where::isnan(x) || clatomics::where::isfinite(x)).empty());

  CHECK(value_refusal<cl_int>(x > 0.5) == "clatomics: predicate: 0.5 is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x > 0.5f) == "clatomics: predicate: 0.5 is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x > -2.25) == "clatomics: predicate: -2.25 is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x == std::numeric_limits<double>::quiet_NaN()) ==
        "clatomics: predicate: nan is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x < std::numeric_limits<double>::infinity()) ==
        "clatomics: predicate: inf is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x > -std::numeric_limits<float>::infinity()) ==
        "clatomics: predicate: -inf is not an integer, and the elements are int");
  CHECK(value_refusal<cl_int>(x < 2147483648.0) ==
        "clatomics: predicate: 2147483648 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(x > -2147483649.0) ==
        "clatomics: predicate: -2147483649 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(x < 1e30) ==
        "clatomics: predicate: 1e+30 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(x < std::int64_t(1) << 31) ==
        "clatomics: predicate: 2147483648 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(x > std::int64_t(INT32_MIN) - 1) ==
        "clatomics: predicate: -2147483649 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(x < 0x80000000u) ==
        "clatomics: predicate: 2147483648 is out of range (-2147483648 to 2147483647), and the elements are int");
  CHECK(value_refusal<cl_int>(clatomics::where::in_range(x, 0, 0.5)) ==
        "clatomics: predicate: 0.5 is not an integer, and the elements are int");
}

TEST_CASE("predicate values: uint elements") {
  using clatomics::where::in_range;
  CHECK(predicate_values<cl_uint>(x == 0 || in_range(x, 7.0, 0xFFFFFFFFu) || x != 4294967295.0) ==
        std::vector<cl_uint>{0u, 7u, 0xFFFFFFFFu, 0xFFFFFFFFu});
  CHECK(predicate_values<cl_uint>(x > -0.0) == std::vector<cl_uint>{0u});
  CHECK(predicate_values<cl_uint>(x > std::int64_t(5)) == std::vector<cl_uint>{5u});

  CHECK(value_refusal<cl_uint>(x > -1) == "clatomics: predicate: -1 is out of range (0 to 4294967295), and the elements are uint");
  CHECK(value_refusal<cl_uint>(x > -1.0) == "clatomics: predicate: -1 is out of range (0 to 4294967295), and the elements are uint");
  CHECK(value_refusal<cl_uint>(x < 4294967296.0) ==
        "clatomics: predicate: 4294967296 is out of range (0 to 4294967295), and the elements are uint");
  CHECK(value_refusal<cl_uint>(x < std::uint64_t(1) << 32) ==
        "clatomics: predicate: 4294967296 is out of range (0 to 4294967295), and the elements are uint");
  CHECK(value_refusal<cl_uint>(x < std::numeric_limits<std::int64_t>::min()) ==
        "clatomics: predicate: -9223372036854775808 is out of range (0 to 4294967295), and the elements are uint");
  CHECK(value_refusal<cl_uint>(x > 2.5f) == "clatomics: predicate: 2.5 is not an integer, and the elements are uint");
  CHECK(value_refusal<cl_uint>(x > 1e-300) == "clatomics: predicate: 1e-300 is not an integer, and the elements are uint");
  CHECK(value_refusal<cl_uint>(x != std::numeric_limits<double>::quiet_NaN()) ==
        "clatomics: predicate: nan is not an integer, and the elements are uint");
}

TEST_CASE("predicate size: at most 256 comparisons and tests") {
  CHECK(Predicate::max_leaves == 256);
  Predicate p = x > 0;
  for (int i = 1; i < 256; ++i) p = (i % 2 ? p && x != i : p || clatomics::where::isnan(x));
  CHECK(p.leaves() == 256);
  CHECK((!p).leaves() == 256);  // ! adds no leaf
  const std::string shape = predicate_shape(p, "float");
  // x > 0 and 128 more comparisons (odd i), 127 isnan (even i).
  CHECK(shape.find("clat_p[128]") != std::string::npos);
  CHECK(shape.find("clat_p[129]") == std::string::npos);
  CHECK(predicate_values<float>(p).size() == 129);
  CHECK(predicate_values<float>(p).back() == 255.0f);
  CHECK_THROWS_WITH_AS(p && x > 1, "clatomics: predicate: 257 comparisons and tests, more than the 256 allowed in one predicate",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(clatomics::where::isinf(x) || p,
                       "clatomics: predicate: 257 comparisons and tests, more than the 256 allowed in one predicate", std::invalid_argument);
  // in_range counts once; repeats of one subtree count every time.
  Predicate half = clatomics::where::in_range(x, 0, 1);
  for (int i = 1; i < 128; ++i) half = half && x < i;
  CHECK(half.leaves() == 128);
  CHECK((half && half).leaves() == 256);
  CHECK_THROWS_WITH_AS((half && half) || half,
                       "clatomics: predicate: 384 comparisons and tests, more than the 256 allowed in one predicate", std::invalid_argument);
  // Negations do not stack: a million of them is one or none.
  Predicate q = x > 1;
  for (int i = 0; i < 1000001; ++i) q = !q;
  CHECK(predicate_shape(q, "int") == "(!(x > clat_p[0]))");
}

TEST_CASE("predicate building blocks refuse the wrong op") {
  using Op = Predicate::Op;
  const auto v = Predicate::Value::of(1);
  CHECK(predicate_shape(Predicate::compare(Op::less_equal, v), "int") == "(x <= clat_p[0])");
  CHECK(predicate_shape(Predicate::test(Op::is_inf), "float") == "(isinf(x))");
  CHECK(predicate_shape(Predicate::range(v, v), "int") == "((clat_p[0] <= x) && (x < clat_p[1]))");
  for (const Op op : {Op::is_nan, Op::in_range, Op::all, Op::any, Op::negation})
    CHECK_THROWS_WITH_AS(Predicate::compare(op, v), "clatomics: predicate: compare takes one of the comparison ops", std::invalid_argument);
  for (const Op op : {Op::less, Op::in_range, Op::all, Op::negation})
    CHECK_THROWS_WITH_AS(Predicate::test(op), "clatomics: predicate: test takes is_nan, is_finite or is_inf", std::invalid_argument);
  // Values keep their type.
  CHECK(Predicate::Value::of(-3).kind == Predicate::Value::Kind::signed_integer);
  CHECK(Predicate::Value::of(-3).i == -3);
  CHECK(Predicate::Value::of(std::uint64_t(1) << 63).kind == Predicate::Value::Kind::unsigned_integer);
  CHECK(Predicate::Value::of(std::uint64_t(1) << 63).u == std::uint64_t(1) << 63);
  CHECK(Predicate::Value::of(0.1f).kind == Predicate::Value::Kind::floating);
  CHECK(Predicate::Value::of(0.1f).d == double(0.1f));
}

TEST_CASE("predicate text: accepted expressions") {
  const std::string accepted[] = {
      "x > 0.5f",
      "(x & 3) != 1 && x < 500000",
      "x % 3u == 0u || x >= 2000000u",
      "true",
      "false",
      "isnan(x) || fabs(x) > 1e30f",
      "x == 0xFFFFFFFFu",
      "-x < 2.5e-3f",
      "x ? 1 : 0",
      "x > 0.5",
      ".5f < x",
      "x <= 1e+3F && x > 1.",
      "0x1.8p-3f > x || x < 0X.8P+1 || x > 0x10p0",
      "x != 017 && x != 0 && x != 00",
      "x >= 10UL && x < 1lu && x > 7U && x < 9L && x != 1Ul",
      "x > 09.5 && x > 0e0 && x < 1E5",
      "fmin(x, 1.0f) == x",
      "sqrt (x) > 2.f",
      "sqrt\n(x) > 2.f",
      "x == INFINITY || x != x || x == -HUGE_VALF || x == NAN",
      "x < FLT_MAX && x > FLT_MIN && x > FLT_EPSILON && x > M_PI_F && x < M_E_F",
      "x < INT_MAX && x > INT_MIN && x < UINT_MAX",
      "clamp(x, -1.0f, 1.0f) > 0",
      "popcount(x) == 3 && clz(x) > 2 && abs(x) < 5 && abs_diff(x, 3) < 2",
      "isless(x, 1.0f) && isgreater(x, 0.0f) && !isunordered(x, x) && signbit(x) == 0 && isnormal(x)",
      "isequal(x, 1.0f) || isnotequal(x, 2.0f) || isgreaterequal(x, 1.0f) || islessequal(x, 1.0f) || islessgreater(x, 1.0f) || "
      "isordered(x, x) || isinf(x) || isfinite(x)",
      "pow(x, 2.0f) + pown(x, 3) > fmod(x, 2.0f) * copysign(1.0f, x) - hypot(x, x)",
      "exp(x) > exp2(x) && log(x) < log2(x) + log10(x) && sin(x) < cos(x) + tan(x) + atan(x) + atan2(x, 1.0f)",
      "floor(x) == ceil(x) && round(x) == trunc(x) && rint(x) == x && rsqrt(x) > cbrt(x)",
      "fma(x, 2.0f, 1.0f) > mad(x, 2.0f, 1.0f) && min(x, 1) < max(x, 2) && fmax(x, 0.0f) > 0 && sign(x) > 0",
      "(((x)))",
      "x\t>\r\n0",
      "x<<2>>1 == 4",
      "!x",
      "~x & 1 ^ 2 | 4",
      "x > 0 , x < 1",
      "x ? x : -x",
      "x >-1 && x - -1 > 0 && x<-1",
      "x / 2 * 3 % 4 + 1 > 0",
      std::string(64, '(') + "x" + std::string(64, ')'),
      "x" + std::string(4095, ' '),
  };
  for (const std::string& text : accepted) {
    INFO(text);
    CHECK(refusal(text) == "(accepted)");
  }
}

TEST_CASE("predicate text: hostile and malformed expressions are refused, naming the token") {
  const std::string big = [] {
    std::string s = "x > 0";
    while (s.size() < 256 * 1024) s += " && x > 0";
    return s.substr(0, 256 * 1024);
  }();
  // The text, and what the message must contain: the token and its position.
  const std::pair<std::string, std::string> refused[] = {
      {"(*(volatile __global int *)0x55d58436d4e0UL = 1337) != 0", "'volatile' at position 3"},
      {"(*(__global int *)0x55d58436d4e0UL = 1337) != 0", "'__global' at position 3"},
      {"x) || (1", "')' at position 1"},
      {"x > 0 ) && ( x", "')' at position 6"},
      {"x > 0); } kernel void evil(global int *p) { *p = 1; } static bool f(float x) { return (x", "')' at position 5"},
      {"#include \"/etc/passwd\"", "'#' at position 0"},
      {"\n#include \"/etc/passwd\"", "'#' at position 1"},
      {"x\n#define fabs(v) v", "'#' at position 2"},
      {"x > 0 /* ", "'/*' at position 6"},
      {"x */ 2", "'*/' at position 2"},
      {"x // c", "'//' at position 2"},
      {"x ?\?= 1", "'?\?' at position 2"},
      {"x ?\?( 1", "'?\?' at position 2"},
      {"x %: define", "'%:' at position 2"},
      {"x <% 1 %>", "'<%' at position 2"},
      {"x %> 1", "'%>' at position 2"},
      {"x <: 1", "'<:' at position 2"},
      {"x ? 1 :> 0", "':>' at position 6"},
      {"clat_atomic_add_float(0, 1)", "'clat_atomic_add_float' at position 0"},
      {"(int)x > 0", "'int' at position 1"},
      {"(float)x > 0", "'float' at position 1"},
      {"x = 1", "'=' at position 2"},
      {"x == 1 || (x = 2)", "'=' at position 13"},
      {"x += 1", "'+=' at position 2"},
      {"x -= 1", "'-=' at position 2"},
      {"x *= 1", "'*=' at position 2"},
      {"x /= 1", "'/=' at position 2"},
      {"x %= 1", "'%=' at position 2"},
      {"x &= 1", "'&=' at position 2"},
      {"x |= 1", "'|=' at position 2"},
      {"x ^= 1", "'^=' at position 2"},
      {"x <<= 1", "'<<=' at position 2"},
      {"x >>= 1", "'>>=' at position 2"},
      {"x++", "'++' at position 1"},
      {"--x", "'--' at position 0"},
      {"x-->0", "'--' at position 1"},
      {big, "262144 bytes long, more than the 4096 allowed"},
      {"x" + std::string(4096, ' '), "4097 bytes long, more than the 4096 allowed"},
      {std::string(100, '(') + "x" + std::string(100, ')'), "'(' at position 64: parentheses nested deeper than 64"},
      {std::string(65, '(') + "x" + std::string(65, ')'), "'(' at position 64: parentheses nested deeper than 64"},
      {"\"str\"", "'\"' at position 0"},
      {"'c'", "''' at position 0"},
      {"x\\\n", "'\\' at position 1"},
      {"asm(\"trap;\")", "'asm' at position 0"},
      {"__asm__(\"int3\")", "'__asm__' at position 0"},
      {"__attribute__((x))", "'__attribute__' at position 0"},
      {"_Pragma(\"once\") x", "'_Pragma' at position 0"},
      {"sizeof(x) > 2", "'sizeof' at position 0"},
      {"get_global_id(0) > 2", "'get_global_id' at position 0"},
      {"vload4(0, &x).x > 2", "'vload4' at position 0"},
      {"frexp(x, 0) > 2", "'frexp' at position 0"},
      {"x > M_PI", "'M_PI' at position 4"},
      {"xx > 1", "'xx' at position 0"},
      {"X > 1", "'X' at position 0"},
      {"fabs + x", "'fabs' at position 0: a function must be followed by '('"},
      {"x > fabs", "'fabs' at position 4: a function must be followed by '('"},
      {"x > 1 \xC3\xA9", "non-ASCII byte 0xC3 at position 6"},
      {std::string("x > 0\0 || 1", 11), "control character 0x00 at position 5"},
      {"x > 1\v", "control character 0x0B at position 5"},
      {"x ==\f1", "control character 0x0C at position 4"},
      {"x \x7F", "control character 0x7F at position 2"},
      {"x; x", "';' at position 1"},
      {"{x}", "'{' at position 0"},
      {"x[0]", "'[' at position 1"},
      {"x.y", "'.' at position 1"},
      {"x . 5", "'.' at position 2"},
      {"x->y", "'->' at position 1"},
      {"x @ 1", "'@' at position 2"},
      {"x $ 1", "'$' at position 2"},
      {"x ` 1", "'`' at position 2"},
      {"(x > 0", "'(' at position 0: never closed"},
      {"(x > (0)", "'(' at position 0: never closed"},
      {"fabs(x", "'(' at position 4: never closed"},
      {"", "the expression is empty"},
      {" \t\r\n ", "the expression is empty"},
      {"x > 1x", "'1x' at position 4: not a numeric literal"},
      {"x > 08", "'08' at position 4: not a numeric literal"},
      {"x > 1f", "'1f' at position 4: not a numeric literal"},
      {"x > 0x", "'0x' at position 4: not a numeric literal"},
      {"x > 0xg", "'0xg' at position 4: not a numeric literal"},
      {"x > 1e", "'1e' at position 4: not a numeric literal"},
      {"x > 1e+ 2", "'1e' at position 4: not a numeric literal"},
      {"x > 0x1.8", "'0x1.8' at position 4: not a numeric literal"},
      {"x > 1.2.3", "'1.2.3' at position 4: not a numeric literal"},
      {"x > 1uu", "'1uu' at position 4: not a numeric literal"},
      {"x > 1ll", "'1ll' at position 4: not a numeric literal"},
      {"x > 1.0h", "'1.0h' at position 4: not a numeric literal"},
      {"x > 1.0ff", "'1.0ff' at position 4: not a numeric literal"},
      {"x > 1.0u", "'1.0u' at position 4: not a numeric literal"},
  };
  for (const auto& entry : refused) {
    const std::string& text = entry.first;    // not structured bindings: doctest's INFO is a lambda,
    const std::string& token = entry.second;  // which cannot capture them in C++17
    INFO((text.size() > 200 ? text.substr(0, 200) + "..." : text));
    const std::string message = refusal(text);
    CHECK_MESSAGE(message.find(token) != std::string::npos, message);
    CHECK(message.rfind("clatomics: predicate: ", 0) == 0);
    CHECK_THROWS_AS(validate_predicate_expression(text), std::invalid_argument);
  }
  // A few in full.
  CHECK(refusal("(int)x > 0") ==
        "clatomics: predicate: 'int' at position 1: not an allowed name (x, true, false, and the built-in functions and constants "
        "listed in clatomics/predicate.hpp)");
  CHECK(refusal("x) || (1") == "clatomics: predicate: ')' at position 1: closes a parenthesis that was not opened");
  CHECK(refusal("x ?\?= 1") == "clatomics: predicate: '?\?' at position 2: trigraphs are not allowed");
  CHECK(refusal("x // c") == "clatomics: predicate: '//' at position 2: comments are not allowed");
  CHECK(refusal("x += 1") == "clatomics: predicate: '+=' at position 2: assignment is not allowed");
  CHECK(refusal("x++") == "clatomics: predicate: '++' at position 1: increment and decrement are not allowed");
  CHECK(refusal("#include \"/etc/passwd\"") == "clatomics: predicate: '#' at position 0: not allowed in an expression");
  CHECK(refusal(std::string(200, 'a')) == "clatomics: predicate: '" + std::string(40, 'a') +
                                              "...' at position 0: not an allowed name (x, true, false, and the built-in functions "
                                              "and constants listed in clatomics/predicate.hpp)");
  CHECK(refusal("x > 1 \xC3\xA9") == "clatomics: predicate: non-ASCII byte 0xC3 at position 6: only ASCII is allowed");
  CHECK(refusal(std::string("x > 0\0 || 1", 11)) ==
        "clatomics: predicate: control character 0x00 at position 5: only space, tab, newline and carriage return are allowed");
  CHECK(refusal(big) == "clatomics: predicate: the expression is 262144 bytes long, more than the 4096 allowed");
  CHECK(refusal("") == "clatomics: predicate: the expression is empty");
}
