// Every algorithm over data resident on a device group (DistributedBuffer): dot, compact, the key
// and even histograms give what one device gives over the same data (exactly: integer counts,
// kept elements in order; dot's float sum as the parts' sums added in order), and arrays of one
// call laid out differently are refused before anything runs. reduce and the byte histogram over
// resident data are tested with the other group forms (test_device_group). CTest runs it with
// POCL_DEVICES="pthread pthread": two PoCL devices on this machine.
#include <doctest/doctest.h>

#include <algorithm>

#include "device_group_harness.hpp"

namespace {

using clatomics::DeviceGroup;
using group_test::group_of_all;

std::vector<float> quarters(std::size_t n, unsigned salt) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(test::mix(std::uint32_t(i) ^ salt) % 2001) / 4.0f - 250.0f;  // exact sums
  return x;
}

}  // namespace

TEST_CASE("dot over resident parts: exact where the sum is, laid out alike or refused") {
  DeviceGroup& group = group_of_all();
  const std::vector<float> a = quarters(300001, 1), b = quarters(300001, 2);
  double exact = 0;
  for (std::size_t i = 0; i < a.size(); ++i) exact += double(a[i]) * double(b[i]);
  const float got = clatomics::dot(group, clatomics::distribute(group, a), clatomics::distribute(group, b));
  CHECK(double(got) == doctest::Approx(exact).epsilon(1e-6));
  CHECK(clatomics::dot(group, clatomics::distribute(group, std::vector<float>{}), clatomics::distribute(group, std::vector<float>{})) == 0.0f);
  // 8 ones by 8 twos: 16, on whichever device holds them.
  CHECK(clatomics::dot(group, clatomics::distribute(group, std::vector<float>(8, 1.0f)), clatomics::distribute(group, std::vector<float>(8, 2.0f))) ==
        16.0f);
  const auto shorter = clatomics::distribute(group, std::vector<float>(a.begin(), a.begin() + 1000));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { (void)clatomics::dot(group, clatomics::distribute(group, a), shorter); }),
                       "laid out alike"));
}

TEST_CASE("compact over resident parts keeps what one device keeps, in order when stable") {
  using clatomics::where::x;
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  const std::vector<float> in = quarters(400003, 3);
  const auto parts = clatomics::distribute(group, in);
  std::vector<float> expect;
  for (const float v : in)
    if (v > 100.0f) expect.push_back(v);
  CHECK(clatomics::compact(group, parts, x > 100.0f, {true}) == expect);
  std::vector<float> unstable = clatomics::compact(group, parts, x > 100.0f, {false});
  std::sort(unstable.begin(), unstable.end());
  std::sort(expect.begin(), expect.end());
  CHECK(unstable == expect);
  const std::vector<cl_uint> u(70000, 6);
  CHECK(clatomics::compact(group, clatomics::distribute(group, u), x == 6u, {true}) == clatomics::compact(rt, u, x == 6u, {true}));
}

TEST_CASE("key and even histograms over resident parts equal one device's, weights laid out alike or refused") {
  DeviceGroup& group = group_of_all();
  auto& rt = test::runtime();
  std::vector<cl_uint> keys(500000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = test::mix(std::uint32_t(i)) % 1100;
  const clatomics::KeyHistogram one = clatomics::histogram_keys(rt, keys, 1000);
  const clatomics::KeyHistogram many = clatomics::histogram_keys(group, clatomics::distribute(group, keys), 1000);
  CHECK(many.counts == one.counts);
  CHECK(many.out_of_range == one.out_of_range);
  CHECK(many.out_of_range > 0);

  const std::vector<float> x = quarters(300000, 4), w = quarters(300000, 5);
  const clatomics::EvenBins<float> bins{64, -200.0f, 200.0f};
  const clatomics::EvenHistogram ref = clatomics::histogram_even(rt, x, bins, {w});
  const clatomics::EvenHistogram got = clatomics::histogram_even(group, clatomics::distribute(group, x), bins, {clatomics::distribute(group, w)});
  CHECK(got.counts == ref.counts);
  CHECK(got.below == ref.below);
  CHECK(got.above == ref.above);
  REQUIRE(got.sums.size() == 1);
  CHECK(got.sums[0] == ref.sums[0]);  // quarters: every partial sum is exact
  if (rt.supports_double()) {
    const std::vector<double> d(x.begin(), x.end());
    const clatomics::EvenHistogram dd = clatomics::histogram_even(group, clatomics::distribute(group, d), clatomics::EvenBins<double>{64, -200.0, 200.0});
    CHECK(dd.counts == clatomics::histogram_even(rt, d, clatomics::EvenBins<double>{64, -200.0, 200.0}).counts);
  }
  const auto short_weights = clatomics::distribute(group, std::vector<float>(1000, 1.0f));
  CHECK(test::contains(test::message_of<std::invalid_argument>(
                           [&] { (void)clatomics::histogram_even(group, clatomics::distribute(group, x), bins, {short_weights}); }),
                       "weights[0] has 1000 elements"));
  CHECK(test::contains(test::message_of<std::invalid_argument>([&] { (void)clatomics::histogram_keys(group, clatomics::DistributedBuffer<cl_uint>{}, 10); }),
                       "empty DistributedBuffer"));
}
