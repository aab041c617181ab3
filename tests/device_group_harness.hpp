// What the device group suites share: the group under test, floats whose sums round differently
// by order, small chunks, and points for the 2-D even histograms with the host's histogram of them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "clatomics/device_group.hpp"
#include "support.hpp"

namespace group_test {

using clatomics::DeviceGroup;
using clatomics::ReduceOp;
using clatomics::ReduceOptions;
using test::bits;

inline std::vector<float> mixed_floats(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t h = test::mix(std::uint32_t(i));
    x[i] = float(h % 100000) * (h % 7 == 0 ? 1e3f : 1e-3f) * (h % 3 == 0 ? -1.0f : 1.0f);  // sums that round differently by order
  }
  return x;
}

// Small chunks, so that a few hundred thousand elements make many chunks for the devices to share.
struct SmallChunks {
  explicit SmallChunks(std::size_t bytes) { clatomics::testing::set_stream_limits({bytes, 0, false}); }
  ~SmallChunks() { clatomics::testing::set_stream_limits({}); }
};

// Points (x[i], y[i]) of whole numbers, some below, above and NaN on each axis, with two weight
// channels of whole numbers and quarters (every sum exact in any order), and the host's
// histogram of them over xbins and ybins: whole-number edges, so a point in range falls in the
// bin of its integer part (the last bin holds hi too).
struct Points2d {
  static constexpr std::size_t nx = 16, ny = 10;
  clatomics::EvenBins<float> xbins{nx, 0.0f, float(nx)}, ybins{ny, 0.0f, float(ny)};
  std::vector<float> x, y, w, w2;
  explicit Points2d(std::size_t n) : x(n), y(n), w(n), w2(n) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t h = test::mix(std::uint32_t(i) + 11u);
      x[i] = i % 1000 == 7 ? std::numeric_limits<float>::quiet_NaN() : float(int(h % 21) - 2);        // -2 .. 18
      y[i] = i % 777 == 5 ? std::numeric_limits<float>::quiet_NaN() : float(int((h >> 8) % 13) - 1);  // -1 .. 11
      w[i] = float((h >> 16) % 4), w2[i] = float((h >> 20) % 8) * 0.25f - 1.0f;
    }
  }
  // The host's histogram, with the first `channels` weight channels.
  clatomics::EvenHistogram2D expect(std::size_t channels) const {
    clatomics::EvenHistogram2D h;
    h.nx = nx, h.ny = ny;
    h.counts.assign(nx * ny, 0);
    h.sums.assign(channels, std::vector<double>(nx * ny, 0.0));
    // 0 in range (its bin in at), 1 below, 2 above, 3 NaN.
    const auto place = [](float v, std::size_t bins, std::size_t& at) {
      if (std::isnan(v)) return 3;
      if (v < 0.0f) return 1;
      if (v > float(bins)) return 2;
      at = std::min(std::size_t(v), bins - 1);
      return 0;
    };
    const auto tally = [](int where, clatomics::AxisTallies& t) {
      if (where == 1) ++t.below;
      if (where == 2) ++t.above;
      if (where == 3) ++t.nan;
    };
    for (std::size_t i = 0; i < x.size(); ++i) {
      std::size_t ix = 0, iy = 0;
      const int cx = place(x[i], nx, ix), cy = place(y[i], ny, iy);
      if (!cx && !cy) {
        ++h.counts[ix * ny + iy];
        for (std::size_t c = 0; c < channels; ++c) h.sums[c][ix * ny + iy] += (c ? w2 : w)[i];
        continue;
      }
      tally(cx, h.x), tally(cy, h.y);
      ++h.outside;
    }
    return h;
  }
};

// Two 2-D even histograms alike in every count, tally and weight sum.
inline bool same_histogram2d(const clatomics::EvenHistogram2D& a, const clatomics::EvenHistogram2D& b) {
  const auto tallies = [](const clatomics::AxisTallies& t) { return std::make_tuple(t.below, t.above, t.nan); };
  return a.nx == b.nx && a.ny == b.ny && a.counts == b.counts && tallies(a.x) == tallies(b.x) && tallies(a.y) == tallies(b.y) &&
         a.outside == b.outside && a.sums == b.sums;
}

// f(self, op, rule, same) for every NaN case of min and max: with and without out's own values,
// both ops, both NaN rules; same(a, b): the same bits, or both NaN where NanRule::missing leaves
// the bits of a NaN result open.
template <class F>
void each_nan_case(F&& f) {
  using clatomics::NanRule;
  using clatomics::ScatterOp;
  for (const bool self : {true, false})
    for (const ScatterOp op : {ScatterOp::min, ScatterOp::max})
      for (const NanRule rule : {NanRule::propagate, NanRule::missing}) {
        CAPTURE(self);
        CAPTURE(int(op));
        CAPTURE(int(rule));
        const auto same = [rule](float a, float b) {
          return test::bits(a) == test::bits(b) || (rule == NanRule::missing && std::isnan(a) && std::isnan(b));
        };
        f(self, op, rule, same);
      }
}

// The group under test: CLATOMICS_TEST_GROUP (a group selector, e.g. "gpu:all" on a machine with
// two GPUs), else the CLATOMICS_DEVICE of a run per device (scripts/device-matrix.sh), else every
// device.
inline std::string group_selector() {
  const char* group = std::getenv("CLATOMICS_TEST_GROUP");
  const char* device = std::getenv("CLATOMICS_DEVICE");
  return group ? group : device && *device ? device : "all";
}

inline DeviceGroup& group_of_all() {
  static DeviceGroup group(group_selector());
  return group;
}

// The group's first device alone (its queue adopted): what "one device's bits" compares with, on
// a device the group itself runs, so that a run on one platform's devices loads no other.
inline DeviceGroup& first_device_alone() {
  static DeviceGroup alone(std::vector<cl::CommandQueue>{group_of_all().runtime(0).queue()});
  return alone;
}

}  // namespace group_test
