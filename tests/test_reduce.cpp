// reduce: every type and op against a host reference, in both modes (one atomic per work-group,
// and the deterministic tree), at sizes 0, 1, below one vector, a prime and larger than a
// work-group's share, from aligned and unaligned offsets; streaming of host data in chunks; bad
// input refused before anything runs.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>

#include "support.hpp"

namespace {

using clatomics::ReduceOp;

const ReduceOp all_ops[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::min, ReduceOp::max};
std::string op_name(ReduceOp op) {
  return op == ReduceOp::sum ? "sum" : op == ReduceOp::prod ? "prod" : op == ReduceOp::min ? "min" : "max";
}

const std::size_t sizes[] = {0, 1, 7, 100003, (std::size_t(1) << 20) + 13};
const std::size_t offsets[] = {0, 3};

// The host reference: integer sums and products wrap; float min/max skip NaN, -0 < +0.
template <class T>
T host_reduce(const std::vector<T>& x, std::size_t first, std::size_t n, ReduceOp op) {
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    if (op == ReduceOp::min || op == ReduceOp::max) {
      if (n == 0) return op == ReduceOp::min ? L::infinity() : -L::infinity();
      T best = L::quiet_NaN();  // NaN until a number comes: NaN only when every element is NaN
      for (std::size_t i = first; i < first + n; ++i) best = op == ReduceOp::min ? test::ref_min(best, x[i]) : test::ref_max(best, x[i]);
      return best;
    }
    long double acc = op == ReduceOp::sum ? 0 : 1;  // exact for the data of the exact tests
    for (std::size_t i = first; i < first + n; ++i) acc = op == ReduceOp::sum ? acc + x[i] : acc * x[i];
    return T(acc);
  } else {
    using U = std::make_unsigned_t<T>;
    U acc = op == ReduceOp::prod ? 1 : 0;
    T best = op == ReduceOp::min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    for (std::size_t i = first; i < first + n; ++i) {
      if (op == ReduceOp::sum) acc += U(x[i]);
      if (op == ReduceOp::prod) acc *= U(x[i]);
      if (op == ReduceOp::min) best = std::min(best, x[i]);
      if (op == ReduceOp::max) best = std::max(best, x[i]);
    }
    return (op == ReduceOp::sum || op == ReduceOp::prod) ? T(acc) : best;
  }
}

template <class T>
T device_reduce(const std::vector<T>& x, std::size_t first, std::size_t n, ReduceOp op, bool deterministic) {
  auto& rt = test::runtime();
  std::vector<T> padded = x;
  if (padded.empty()) padded.push_back(T(1));  // OpenCL has no empty buffers
  const cl::Buffer buffer = test::to_device(rt, padded);
  return clatomics::reduce(rt, clatomics::view<T>(buffer, first, n), op, clatomics::ReduceOptions{deterministic});
}

// Integers: anything; products over odd numbers so that they do not become 0.
template <class T>
std::vector<T> integer_data(std::size_t n, ReduceOp op, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> x(n);
  for (auto& v : x) {
    v = T(gen());
    if (op == ReduceOp::prod) v = T(v | 1);
  }
  return x;
}

// Floats whose sums and products are exact in any order: small integers for sums (partial sums
// stay below 2^24), and for products +-1 with a few 2, 0.5 and 1.5 (every partial product is a
// power of two times a power of 3 below 3^10).
template <class T>
std::vector<T> exact_data(std::size_t n, ReduceOp op, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (op == ReduceOp::prod) {
      x[i] = (gen() & 1) ? T(1) : T(-1);
    } else {
      x[i] = T(int(gen() % 16) - 8);
    }
  }
  if (op == ReduceOp::prod)
    for (std::size_t k = 0; k < std::min<std::size_t>(n, 130); ++k) {
      const std::size_t at = gen() % n;
      x[at] = k < 60 ? T(2) : k < 120 ? T(0.5) : T(1.5);
    }
  return x;
}

template <class T>
void check_integers() {
  for (const ReduceOp op : all_ops)
    for (const std::size_t n : sizes)
      for (const std::size_t off : offsets)
        for (const bool deterministic : {false, true}) {
          const auto x = integer_data<T>(n + off, op, unsigned(n + off));
          INFO(op_name(op), " n=", n, " offset=", off, deterministic ? " deterministic" : " atomic");
          CHECK(device_reduce(x, off, n, op, deterministic) == host_reduce(x, off, n, op));
        }
}

template <class T>
void check_exact_reals() {
  for (const ReduceOp op : {ReduceOp::sum, ReduceOp::prod})
    for (const std::size_t n : sizes)
      for (const std::size_t off : offsets)
        for (const bool deterministic : {false, true}) {
          const auto x = exact_data<T>(n + off, op, unsigned(n * 7 + off));
          INFO(op_name(op), " n=", n, " offset=", off, deterministic ? " deterministic" : " atomic");
          CHECK(test::bits(device_reduce(x, off, n, op, deterministic)) == test::bits(host_reduce(x, off, n, op)));
        }
}

// min/max with NaN as missing data and signed zeros ordered.
template <class T>
void check_real_minmax() {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::mt19937 gen(5);
  std::uniform_real_distribution<T> dist(-1000, 1000);
  for (const std::size_t n : sizes)
    for (const std::size_t off : offsets) {
      std::vector<T> x(n + off);
      for (auto& v : x) v = (gen() % 10 == 0) ? nan : dist(gen);
      for (const ReduceOp op : {ReduceOp::min, ReduceOp::max})
        for (const bool deterministic : {false, true}) {
          INFO(op_name(op), " n=", n, " offset=", off, deterministic ? " deterministic" : " atomic");
          CHECK(test::bits(device_reduce(x, off, n, op, deterministic)) == test::bits(host_reduce(x, off, n, op)));
        }
    }
  // Zeros of both signs (and NaNs): min is -0, max is +0; all NaN gives NaN.
  std::vector<T> zeros(100003);
  for (std::size_t i = 0; i < zeros.size(); ++i) zeros[i] = i % 3 == 0 ? nan : (i % 7 == 0 ? T(-0.0) : T(0.0));
  std::vector<T> nans(5000, nan);
  for (const bool deterministic : {false, true}) {
    CHECK(test::bits(device_reduce(zeros, 0, zeros.size(), ReduceOp::min, deterministic)) == test::bits(T(-0.0)));
    CHECK(test::bits(device_reduce(zeros, 0, zeros.size(), ReduceOp::max, deterministic)) == test::bits(T(0.0)));
    CHECK(std::isnan(device_reduce(nans, 0, nans.size(), ReduceOp::min, deterministic)));
    CHECK(std::isnan(device_reduce(nans, 1, nans.size() - 1, ReduceOp::max, deterministic)));
  }
}

// Rounded sums of random data: |device - double reference| <= 1e-5 * sum |x| for float (about
// 170 units in the last place of sum |x|; the partial sums run in vector lanes and trees, so
// observed errors are far smaller) and 1e-13 * sum |x| for double. Lost or repeated elements are
// caught exactly by the exact-data tests.
template <class T>
void check_rounded_sums() {
  const double bound = std::is_same_v<T, float> ? 1e-5 : 1e-13;
  std::mt19937 gen(9);
  std::uniform_real_distribution<T> dist(-1, 1);
  std::vector<T> x((std::size_t(1) << 21) + 5);
  for (auto& v : x) v = dist(gen);
  double ref = 0, abs_sum = 0;
  for (std::size_t i = 1; i < x.size(); ++i) ref += double(x[i]), abs_sum += std::fabs(double(x[i]));
  std::vector<T> results;
  for (int run = 0; run < 3; ++run)
    for (const bool deterministic : {false, true}) {
      const T s = device_reduce(x, 1, x.size() - 1, ReduceOp::sum, deterministic);
      CHECK(std::fabs(double(s) - ref) <= bound * abs_sum);
      if (deterministic) results.push_back(s);
    }
  // The deterministic mode gives the same bits on every run.
  for (const T r : results) CHECK(test::bits(r) == test::bits(results[0]));
}

// The deterministic sum as kernels/reduce.cl documents its tree: tiles of 16,384 elements; in a
// tile, lane j of 256 keeps 4 accumulators, accumulator c taking elements 4 * (j + 256 r) + c for
// r = 0..15 in order, the lane's value (a0 + a1) + (a2 + a3); lanes combine as a binary tree
// (lane j takes lane j + s, s = 128 .. 1); the tiles' values are reduced by the same rule until
// one is left. Missing elements are the identity.
template <class T>
T documented_tree_sum(std::vector<T> x) {
  const std::size_t tile = clatomics::reduce_tile;
  do {
    std::vector<T> next;
    for (std::size_t t = 0; t * tile < x.size(); ++t) {
      const auto at = [&](std::size_t e) { return t * tile + e < x.size() ? x[t * tile + e] : T(0); };
      T lanes[256];
      for (std::size_t j = 0; j < 256; ++j) {
        T a[4] = {0, 0, 0, 0};
        for (std::size_t r = 0; r < 16; ++r)
          for (std::size_t c = 0; c < 4; ++c) a[c] = a[c] + at(4 * (j + 256 * r) + c);
        lanes[j] = (a[0] + a[1]) + (a[2] + a[3]);
      }
      for (std::size_t step = 128; step > 0; step /= 2)
        for (std::size_t j = 0; j < step; ++j) lanes[j] = lanes[j] + lanes[j + step];
      next.push_back(lanes[0]);
    }
    x = next;
  } while (x.size() > 1);
  return x[0];
}

template <class T>
void check_documented_tree() {
  std::mt19937 gen(5);
  std::uniform_real_distribution<T> dist(-1, 1);
  for (const std::size_t n : {std::size_t(1000), 3 * clatomics::reduce_tile + 1000}) {
    std::vector<T> x(n + 1);
    for (auto& v : x) v = dist(gen) * T(std::ldexp(1.0, int(gen() % 40) - 20));  // magnitudes that round differently by order
    const std::vector<T> range(x.begin() + 1, x.end());
    INFO("n=", n);
    CHECK(test::bits(device_reduce(x, 1, n, ReduceOp::sum, true)) == test::bits(documented_tree_sum(range)));
  }
}

}  // namespace

TEST_CASE("deterministic sums follow the documented tree bit for bit (the same bits on every device)") {
  check_documented_tree<float>();
  if (test::runtime().supports_double()) check_documented_tree<double>();
}

TEST_CASE("integer reductions are exact (sums and products wrap)") {
  check_integers<cl_int>();
  check_integers<cl_uint>();
  check_integers<cl_long>();
  check_integers<cl_ulong>();
}

TEST_CASE("float reductions") {
  check_exact_reals<float>();
  check_real_minmax<float>();
  check_rounded_sums<float>();
}

TEST_CASE("double reductions") {
  if (!test::runtime().supports_double()) return;
  check_exact_reals<double>();
  check_real_minmax<double>();
  check_rounded_sums<double>();
}

TEST_CASE("count 0 gives the identity") {
  auto& rt = test::runtime();
  const cl::Buffer buffer = test::to_device(rt, std::vector<float>(4, 1.0f));
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 4, 0), ReduceOp::sum) == 0.0f);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 4, 0), ReduceOp::prod) == 1.0f);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 0), ReduceOp::min) == std::numeric_limits<float>::infinity());
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 0), ReduceOp::max) == -std::numeric_limits<float>::infinity());
  CHECK(clatomics::reduce(rt, clatomics::view<cl_int>(buffer, 0, 0), ReduceOp::min) == std::numeric_limits<cl_int>::max());
  CHECK(clatomics::reduce(rt, clatomics::view<cl_ulong>(buffer, 0, 0), ReduceOp::max) == 0u);
  CHECK(clatomics::reduce<cl_int>(rt, std::vector<cl_int>{}, ReduceOp::prod) == 1);
}

TEST_CASE("host vectors stream through the device in chunks") {
  auto& rt = test::runtime();
  const auto ints = integer_data<cl_long>(300007, ReduceOp::sum, 3);
  const auto odd = integer_data<cl_uint>(300007, ReduceOp::prod, 4);
  const auto reals = exact_data<float>(300007, ReduceOp::sum, 5);
  for (const std::size_t chunk_bytes : {std::size_t(0), std::size_t(64) << 10}) {
    INFO("chunk bytes ", chunk_bytes);
    clatomics::testing::set_stream_limits({chunk_bytes, 0});
    for (const bool deterministic : {false, true}) {
      const clatomics::ReduceOptions options{deterministic};
      CHECK(clatomics::reduce(rt, ints, ReduceOp::sum, options) == host_reduce(ints, 0, ints.size(), ReduceOp::sum));
      CHECK(clatomics::reduce(rt, ints, ReduceOp::min, options) == host_reduce(ints, 0, ints.size(), ReduceOp::min));
      CHECK(clatomics::reduce(rt, odd, ReduceOp::prod, options) == host_reduce(odd, 0, odd.size(), ReduceOp::prod));
      CHECK(clatomics::reduce(rt, reals, ReduceOp::sum, options) == host_reduce(reals, 0, reals.size(), ReduceOp::sum));
      CHECK(clatomics::reduce(rt, reals, ReduceOp::max, options) == host_reduce(reals, 0, reals.size(), ReduceOp::max));
    }
  }
  clatomics::testing::set_stream_limits({});
}

TEST_CASE("bad input is refused before anything runs") {
  auto& rt = test::runtime();
  const cl::Buffer buffer = test::to_device(rt, std::vector<float>(100, 1.0f));
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  clatomics::ProfileScope enqueued;  // records every command the calls below enqueue
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(cl::Buffer(), 0, 1), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(cl::Buffer(), 0, 0), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 101), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, 99, 2), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, 101, 0), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<double>(buffer, 0, 51), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, max, 2), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, 2, max), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, max / 2, 2), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 4), static_cast<ReduceOp>(42)), std::invalid_argument);
  try {
    clatomics::reduce(rt, clatomics::view<float>(buffer, 90, 20), ReduceOp::sum);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("buffer") != std::string::npos);
  }
  CHECK(enqueued.commands() == 0);
  // In range: fine.
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 100), ReduceOp::sum) == 100.0f);
}

TEST_CASE("double on a device without fp64 is refused") {
  clatomics::Options options = clatomics::Options::from_env();
  options.hide_fp64 = true;
  clatomics::Runtime rt(options);
  const cl::Buffer buffer(rt.context(), CL_MEM_READ_WRITE, 64);
  CHECK_THROWS_AS(clatomics::reduce(rt, clatomics::view<double>(buffer, 0, 8), ReduceOp::sum), std::invalid_argument);
  CHECK_THROWS_AS(clatomics::reduce<double>(rt, std::vector<double>(3, 1.0), ReduceOp::sum), std::invalid_argument);
  CHECK(clatomics::reduce(rt, clatomics::view<float>(buffer, 0, 0), ReduceOp::sum) == 0.0f);
}
