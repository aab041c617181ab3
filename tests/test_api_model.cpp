// Generated calls of the host API against a host model: random algorithms, sizes, offsets,
// buffers (device memory, host memory at any 4-byte alignment, sub-buffers, read-only,
// write-only, null, another context's), queues (in order, out of order), bins and ranges, valid
// and not. Each call must either give the model's exact result or throw std::invalid_argument
// before anything is enqueued, with the poisoned output untouched.
// CLATOMICS_MODEL_CALLS sets how many calls (default 200); CLATOMICS_MODEL_SEED the first seed.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

#include "support.hpp"

namespace {

using clatomics::ReduceOp;
using clatomics::where::x;
using Counts = std::vector<std::uint64_t>;

std::size_t env_number(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::size_t(std::strtoull(v, nullptr, 10)) : fallback;
}

constexpr float poison = -12345.5f;

// One buffer as the generator made it, with what the model needs to know about it.
struct Made {
  cl::Buffer buffer;
  std::size_t elements = 0;   // floats the buffer holds (its size / 4)
  bool readable = true, writable = true, usable = true;  // usable: null or foreign -> refused
  std::vector<unsigned char> host;  // backing memory of CL_MEM_USE_HOST_PTR buffers
};

class Generator {
 public:
  Generator(clatomics::Runtime& rt, unsigned seed) : rt_(rt), gen_(seed) {}

  std::size_t pick(std::size_t n) { return std::size_t(gen_() % n); }
  bool chance(unsigned percent) { return pick(100) < percent; }

  // Small integers as floats: every sum, dot and weighted bin is exact in any order.
  std::vector<float> data(std::size_t n) {
    std::vector<float> v(n);
    for (auto& e : v) e = float(int(pick(9)) - 4);
    return v;
  }

  // A buffer holding values, made one of the ways a user makes buffers.
  Made buffer(const std::vector<float>& values, bool output) {
    Made m;
    m.elements = std::max<std::size_t>(values.size(), 1);
    std::vector<float> init = values;
    if (init.empty()) init.push_back(output ? poison : 0.0f);
    const std::size_t bytes = init.size() * 4;
    switch (pick(output ? 5 : 7)) {
      case 0:
      case 1:
        m.buffer = test::to_device(rt_, init);
        break;
      case 2: {  // the user's host memory at a random 4-byte alignment
        m.host.resize(bytes + 128);
        unsigned char* at = m.host.data() + (64 - reinterpret_cast<std::uintptr_t>(m.host.data()) % 64) % 64 + 4 * pick(16);
        std::memcpy(at, init.data(), bytes);
        m.buffer = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, at);
        break;
      }
      case 3: {  // a sub-buffer at the device's base alignment
        const std::size_t align = rt_.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
        std::vector<float> padded(align / 4, poison);
        padded.insert(padded.end(), init.begin(), init.end());
        cl::Buffer parent = test::to_device(rt_, padded);
        const cl_buffer_region region{align, bytes};
        m.buffer = parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
        break;
      }
      case 4: {  // flags that forbid one role
        const bool read_only = chance(50);
        m.buffer = cl::Buffer(rt_.context(), (read_only ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY) | CL_MEM_COPY_HOST_PTR, bytes,
                              init.data());
        (read_only ? m.writable : m.readable) = false;
        break;
      }
      case 5:  // null
        m.buffer = cl::Buffer();
        m.usable = false;
        break;
      default: {  // another context's
        static const cl::Context other(rt_.device());
        m.buffer = cl::Buffer(other, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, init.data());
        m.usable = false;
      }
    }
    return m;
  }

  // An offset and count: in range most of the time, else beyond the buffer or wrapping.
  std::pair<std::size_t, std::size_t> range(std::size_t elements, bool& valid) {
    const std::size_t max = std::numeric_limits<std::size_t>::max();
    valid = true;
    switch (pick(10)) {
      case 0:
        valid = false;
        return {elements, 1};
      case 1:
        valid = false;
        return {max - 1, 3};
      case 2:
        valid = false;
        return {1, elements};
      default: {
        const std::size_t offset = pick(std::min<std::size_t>(elements, 40) + 1);
        return {offset, pick(elements - offset + 1)};
      }
    }
  }

 private:
  clatomics::Runtime& rt_;
  std::mt19937_64 gen_;
};

// The model's even bins (NumPy's rule; sums exact for the small integers the generator makes).
Counts even_bins(const std::vector<float>& v, std::size_t first, std::size_t n, std::size_t nbins, float lo, float hi,
                 const std::vector<float>* w, std::size_t w_first, std::vector<float>* sums, Counts& tallies) {
  const auto edges = test::numpy_edges(nbins, lo, hi);
  Counts counts(nbins, 0);
  tallies.assign(3, 0);
  if (sums) sums->assign(nbins, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t slot = test::even_slot(v[first + i], edges);
    if (slot >= nbins) {
      ++tallies[slot - nbins];
      continue;
    }
    ++counts[slot];
    if (sums) (*sums)[slot] += (*w)[w_first + i];
  }
  return counts;
}

}  // namespace

TEST_CASE("generated calls: the model's exact result, or refused before anything runs") {
  auto& rt = test::runtime();
  std::optional<clatomics::Runtime> ooo;
  if (rt.device().getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    ooo.emplace(rt.context(), rt.device(), cl::CommandQueue(rt.context(), rt.device(), CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  const std::size_t calls = env_number("CLATOMICS_MODEL_CALLS", 200);
  const unsigned seed0 = unsigned(env_number("CLATOMICS_MODEL_SEED", 1));
  std::size_t refused = 0, exact = 0;
  for (unsigned seed = seed0; seed < seed0 + calls; ++seed) {
    Generator g(rt, seed);
    clatomics::Runtime& on = ooo && g.chance(50) ? *ooo : rt;
    const std::size_t n = 1 + (g.pick(4) == 0 ? g.pick(8) : g.pick(6000));
    const auto values = g.data(n), other = g.data(n);
    Made a = g.buffer(values, false), b = g.buffer(other, false);
    bool in_range = true;
    const auto [offset, count] = g.range(a.elements, in_range);
    const std::size_t algorithm = g.pick(6);
    CAPTURE(seed);
    CAPTURE(algorithm);
    CAPTURE(offset);
    CAPTURE(count);
    const bool a_ok = a.usable && a.readable && in_range && offset + count <= values.size();
    const bool b_ok = b.usable && b.readable && offset + count <= other.size();
    clatomics::ProfileScope enqueued;
    const auto refused_here = [&](auto&& call) {
      CHECK_THROWS_AS(call(), std::invalid_argument);
      CHECK(enqueued.commands() == 0);
      ++refused;
    };
    if (algorithm == 0) {  // reduce: sum, min, max (products of many small integers overflow float)
      const ReduceOp ops[] = {ReduceOp::sum, ReduceOp::min, ReduceOp::max};
      const ReduceOp op = ops[g.pick(3)];
      const bool deterministic = g.chance(50);
      if (!a_ok) {
        refused_here([&] { clatomics::reduce(on, clatomics::view<float>(a.buffer, offset, count), op, {deterministic}); });
        continue;
      }
      float want = op == ReduceOp::sum ? 0.0f : op == ReduceOp::min ? INFINITY : -INFINITY;
      for (std::size_t i = offset; i < offset + count; ++i)
        want = op == ReduceOp::sum ? want + values[i] : op == ReduceOp::min ? std::min(want, values[i]) : std::max(want, values[i]);
      CHECK(clatomics::reduce(on, clatomics::view<float>(a.buffer, offset, count), op, {deterministic}) == want);
    } else if (algorithm == 1) {  // dot
      if (!a_ok || !b_ok) {
        refused_here([&] { clatomics::dot(on, clatomics::view<float>(a.buffer, offset, count), clatomics::view<float>(b.buffer, offset, count)); });
        continue;
      }
      float want = 0;
      for (std::size_t i = offset; i < offset + count; ++i) want += values[i] * other[i];
      CHECK(clatomics::dot(on, clatomics::view<float>(a.buffer, offset, count), clatomics::view<float>(b.buffer, offset, count)) == want);
    } else if (algorithm == 2) {  // bytes
      const std::size_t boff = offset * 4 + g.pick(4), bcount = count * 4 > 3 ? count * 4 - 3 : 0;
      const bool ok = a.usable && a.readable && in_range && boff + bcount <= values.size() * 4;
      if (!ok) {
        refused_here([&] { clatomics::histogram(on, clatomics::view<cl_uchar>(a.buffer, boff, bcount)); });
        continue;
      }
      Counts want(256, 0);
      const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
      for (std::size_t i = boff; i < boff + bcount; ++i) ++want[bytes[i]];
      CHECK(clatomics::histogram(on, clatomics::view<cl_uchar>(a.buffer, boff, bcount)) == want);
    } else if (algorithm == 3) {  // keys
      const std::size_t nbins = g.pick(5) == 0 ? g.pick(2) * ((std::size_t(1) << 32) - 3) : 1 + g.pick(300);
      if (!a_ok || nbins > (std::size_t(1) << 32) - 4) {  // nbins 0: no bins, every key out of range
        refused_here([&] { clatomics::histogram_keys(on, clatomics::view<cl_uint>(a.buffer, offset, count), nbins); });
        continue;
      }
      Counts want(nbins, 0);
      std::uint64_t out = 0;
      for (std::size_t i = offset; i < offset + count; ++i) {
        cl_uint key;
        std::memcpy(&key, &values[i], 4);
        key < nbins ? ++want[key] : ++out;
      }
      const auto got = clatomics::histogram_keys(on, clatomics::view<cl_uint>(a.buffer, offset, count), nbins);
      CHECK(got.counts == want);
      CHECK(got.out_of_range == out);
    } else if (algorithm == 4) {  // even bins, with weights or not
      const std::size_t nbins = g.pick(8) == 0 ? 0 : 1 + g.pick(64);
      const float ranges[][2] = {{-4.0f, 4.0f}, {-2.5f, 3.0f}, {0.0f, 0.0f}, {3.0f, -3.0f}, {NAN, 1.0f}, {-INFINITY, 0.0f}};
      const auto& r = ranges[g.pick(6)];
      const bool weighted = g.chance(50);
      const bool range_ok = nbins > 0 && std::isfinite(r[0]) && std::isfinite(r[1]) && r[0] <= r[1];
      const bool widened = r[0] == r[1];  // NumPy's empty range: half a unit on each side
      CAPTURE(nbins);
      CAPTURE(r[0]);
      CAPTURE(r[1]);
      CAPTURE(weighted);
      CAPTURE(a_ok);
      CAPTURE(b_ok);
      const clatomics::EvenBins<float> bins{nbins, r[0], r[1]};
      std::vector<clatomics::View<float>> weights;
      if (weighted) weights.push_back(clatomics::view<float>(b.buffer, offset, count));
      const auto values_view = clatomics::view<float>(a.buffer, offset, count);
      if (!a_ok || !range_ok || (weighted && !b_ok)) {
        refused_here([&] { clatomics::histogram_even(on, values_view, bins, weights); });
        continue;
      }
      Counts tallies;
      std::vector<float> sums;
      const float lo = widened ? r[0] - 0.5f : r[0], hi = widened ? r[1] + 0.5f : r[1];
      const Counts want = even_bins(values, offset, count, nbins, lo, hi, &other, offset, weighted ? &sums : nullptr, tallies);
      const auto got = clatomics::histogram_even(on, values_view, bins, weights);
      CHECK(got.counts == want);
      CHECK(got.below == tallies[0]);
      CHECK(got.above == tallies[1]);
      if (weighted)
        CHECK(got.sums == std::vector<std::vector<double>>{std::vector<double>(sums.begin(), sums.end())});
      else
        CHECK(got.sums.empty());
    } else {  // compact into a poisoned output
      Made out = g.buffer(std::vector<float>(std::max<std::size_t>(count, 1), poison), true);
      const bool ok = a_ok && out.usable && out.writable && count <= out.elements;
      const float threshold = float(int(g.pick(9)) - 4);
      if (!ok) {
        refused_here([&] { clatomics::compact(on, clatomics::view<float>(a.buffer, offset, count), clatomics::view<float>(out.buffer, 0, count), x > threshold, {true}); });
        if (out.usable && out.readable)
          for (const float v : test::to_host<float>(rt, out.buffer, out.elements)) REQUIRE(test::bits(v) == test::bits(poison));
        continue;
      }
      std::vector<float> want;
      for (std::size_t i = offset; i < offset + count; ++i)
        if (values[i] > threshold) want.push_back(values[i]);
      const std::size_t kept = clatomics::compact(on, clatomics::view<float>(a.buffer, offset, count), clatomics::view<float>(out.buffer, 0, count), x > threshold, {true});
      CHECK(kept == want.size());
      if (out.readable) {
        auto got = test::to_host<float>(rt, out.buffer, out.elements);
        for (std::size_t i = kept; i < got.size(); ++i) REQUIRE(test::bits(got[i]) == test::bits(poison));
        got.resize(kept);
        CHECK(got == want);
      }
    }
    ++exact;
  }
  MESSAGE(exact << " exact results, " << refused << " refusals");
  CHECK(refused > calls / 10);
  CHECK(exact > calls / 4);
}
