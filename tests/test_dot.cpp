// dot: float and double against a host reference, with a and b at the same and at different
// alignments; exact on data whose products and sums are exact in any order, within a stated
// bound on random data; streaming of host data; bad input refused before anything runs.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "support.hpp"

namespace {

const std::size_t sizes[] = {0, 1, 7, 100003, (std::size_t(1) << 18) - 5};
// (a offset, b offset): aligned alike, and b misaligned against a.
const std::pair<std::size_t, std::size_t> offsets[] = {{0, 0}, {3, 3}, {1, 2}, {4, 1}};

// Small integers: products in [-16, 16], so every partial sum stays below 2^24 for n < 2^18.
template <class T>
std::vector<T> exact_data(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> x(std::max<std::size_t>(n, 1));
  for (auto& v : x) v = T(int(gen() % 9) - 4);
  return x;
}

template <class T>
void check_exact() {
  auto& rt = test::runtime();
  for (const std::size_t n : sizes)
    for (const auto& [ao, bo] : offsets) {
      const auto a = exact_data<T>(n + ao, unsigned(n + 1));
      const auto b = exact_data<T>(n + bo, unsigned(n + 2));
      double ref = 0;
      for (std::size_t i = 0; i < n; ++i) ref += double(a[ao + i]) * double(b[bo + i]);
      const cl::Buffer da = test::to_device(rt, a), db = test::to_device(rt, b);
      INFO("n=", n, " a offset=", ao, " b offset=", bo);
      CHECK(clatomics::dot(rt, clatomics::view<T>(da, ao, n), clatomics::view<T>(db, bo, n)) == T(ref));
    }
}

// Random data in [-1, 1): |device - double reference| <= bound * sum |a b|, bound 1e-5 for float
// (about 170 units in the last place) and 1e-13 for double.
template <class T>
void check_rounded() {
  auto& rt = test::runtime();
  const double bound = std::is_same_v<T, float> ? 1e-5 : 1e-13;
  std::mt19937 gen(11);
  std::uniform_real_distribution<T> dist(-1, 1);
  std::vector<T> a((std::size_t(1) << 20) + 3), b(a.size());
  for (auto& v : a) v = dist(gen);
  for (auto& v : b) v = dist(gen);
  double ref = 0, abs_sum = 0;
  for (std::size_t i = 0; i + 2 < a.size(); ++i) {
    ref += double(a[i + 1]) * double(b[i + 2]);
    abs_sum += std::fabs(double(a[i + 1]) * double(b[i + 2]));
  }
  const cl::Buffer da = test::to_device(rt, a), db = test::to_device(rt, b);
  const T d = clatomics::dot(rt, clatomics::view<T>(da, 1, a.size() - 2), clatomics::view<T>(db, 2, a.size() - 2));
  CHECK(std::fabs(double(d) - ref) <= bound * abs_sum);
}

}  // namespace

TEST_CASE("float dot products") {
  check_exact<float>();
  check_rounded<float>();
}

TEST_CASE("double dot products") {
  if (!test::runtime().supports_double()) return;
  check_exact<double>();
  check_rounded<double>();
}

TEST_CASE("host vectors stream through the device in chunks") {
  auto& rt = test::runtime();
  const auto a = exact_data<float>(200003, 1), b = exact_data<float>(200003, 2);
  double ref = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ref += double(a[i]) * double(b[i]);
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(64) << 10}) {
    INFO("chunk bytes ", chunk_bytes);
    clatomics::testing::set_stream_limits({chunk_bytes, 0});
    CHECK(clatomics::dot(rt, a, b) == float(ref));
  }
  clatomics::testing::set_stream_limits({});
  CHECK(clatomics::dot(rt, std::vector<float>{}, std::vector<float>{}) == 0.0f);
  CHECK_THROWS_AS(clatomics::dot(rt, a, std::vector<float>(a.size() - 1)), std::invalid_argument);
}

TEST_CASE("bad input is refused before anything runs") {
  auto& rt = test::runtime();
  const cl::Buffer a = test::to_device(rt, std::vector<float>(100, 1.0f));
  const cl::Buffer b = test::to_device(rt, std::vector<float>(50, 2.0f));
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  clatomics::ProfileScope enqueued;  // records every command the calls below enqueue
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(cl::Buffer(), 0, 1), clatomics::view<float>(b, 0, 1)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(a, 0, 1), clatomics::view<float>(cl::Buffer(), 0, 1)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(a, 0, 51), clatomics::view<float>(b, 0, 51)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(a, 0, 50), clatomics::view<float>(b, 1, 50)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(a, 60, 41), clatomics::view<float>(b, 0, 41)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<float>(a, max, 1), clatomics::view<float>(b, 0, 1)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<double>(a, 0, 26), clatomics::view<double>(b, 0, 26)), std::invalid_argument);
  try {
    clatomics::dot(rt, clatomics::view<float>(a, 0, 45), clatomics::view<float>(b, 10, 45));
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("dot: b") != std::string::npos);
  }
  CHECK(enqueued.commands() == 0);
  CHECK(clatomics::dot(rt, clatomics::view<float>(a, 50, 50), clatomics::view<float>(b, 0, 50)) == 100.0f);
  CHECK(clatomics::dot(rt, clatomics::view<float>(a, 7, 0), clatomics::view<float>(b, 50, 0)) == 0.0f);
}

TEST_CASE("double on a device without fp64 is refused") {
  clatomics::Options options = clatomics::Options::from_env();
  options.hide_fp64 = true;
  clatomics::Runtime rt(options);
  const cl::Buffer buffer(rt.context(), CL_MEM_READ_WRITE, 64);
  CHECK_THROWS_AS(clatomics::dot(rt, clatomics::view<double>(buffer, 0, 8), clatomics::view<double>(buffer, 0, 8)), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::dot<double>(rt, std::vector<double>(2), std::vector<double>(2)), std::invalid_argument);
}
