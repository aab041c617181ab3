// Every algorithm over resident data (reduce, histogram, histogram_keys, histogram_even,
// histogram2d_even, dot, compact, scatter_reduce, segment_reduce, reduce_by_key) meets DistributedBuffers whose parts the user made: buffers over the
// user's host memory (CL_MEM_USE_HOST_PTR) at odd 4-byte alignments, sub-buffers of a larger
// buffer per device, sub-buffers of one buffer for all the parts in a context the devices share,
// and buffers the host may not read; in distribute()'s layout and in a split of the user's own
// that cuts the deterministic reduction's tiles. Each call gives the host's exact result (and
// deterministic sums their bits), or is refused (host memory not aligned to its elements) by the
// parts' checks, before any device runs. CTest runs it with POCL_DEVICES="pthread pthread": two
// PoCL devices on this machine.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_group_harness.hpp"

namespace {

using clatomics::DistributedBuffer;
using clatomics::ReduceOp;
using clatomics::ScatterOp;
using clatomics::where::x;
using group_test::DeviceGroup;
using group_test::group_of_all;

constexpr std::size_t n = 50021;  // a prime: two tiles and a partial one on two devices
constexpr std::size_t key_bins = 300, nbins = 37;
const float lo = -8.0f, hi = 8.0f;

// Small integers: sums, dots and weighted bins are exact in any order.
std::vector<float> exact_floats(std::size_t count, unsigned salt) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = float(int(test::mix(std::uint32_t(i) * 3u + salt) % 17) - 8);
  return v;
}

// The data every check reads, and the host's answers.
struct Data {
  std::vector<float> a = exact_floats(n, 1), b = exact_floats(n, 2), rows = exact_floats(2 * n, 3);
  std::vector<float> mixed = group_test::mixed_floats(n);  // sums that round differently by order
  std::vector<cl_uint> keys, offsets;  // offsets: segments of 0 .. 12 rows of `rows`
  std::vector<std::uint8_t> bytes;
  std::vector<double> d;
  float sum = 0, min = 1e9f, max = -1e9f, dot = 0;
  std::vector<std::uint64_t> byte_counts = std::vector<std::uint64_t>(256), key_counts = std::vector<std::uint64_t>(key_bins);
  std::uint64_t keys_out = 0;
  std::vector<float> kept, scattered = std::vector<float>(key_bins * 2, 0.0f);
  Data() : keys(n), offsets{0}, bytes(n), d(a.begin(), a.end()) {
    while (offsets.back() < n) offsets.push_back(cl_uint(std::min<std::size_t>(n, offsets.back() + test::mix(cl_uint(offsets.size())) % 13)));
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = test::mix(std::uint32_t(i) + 7u) % (key_bins + 20);  // some out of range
      bytes[i] = std::uint8_t(test::mix(std::uint32_t(i) + 9u));
      sum += a[i], min = std::min(min, a[i]), max = std::max(max, a[i]), dot += a[i] * b[i];
      ++byte_counts[bytes[i]];
      if (keys[i] < key_bins) {
        ++key_counts[keys[i]];
        for (std::size_t c = 0; c < 2; ++c) scattered[keys[i] * 2 + c] += rows[i * 2 + c];
      } else {
        ++keys_out;
      }
      if (a[i] > 2.5f) kept.push_back(a[i]);
    }
  }
};

const Data& data() {
  static const Data d;
  return d;
}

// One device's piece of an array: its bytes.
struct Piece {
  const void* from;
  std::size_t bytes;
};
// Makes every device's part (pieces[d] holds device d's bytes); keeps what the parts need.
using MakeParts = std::function<std::vector<cl::Buffer>(const std::vector<Piece>& pieces)>;

// Where each device's rows start: distribute()'s layout, or the user's own split (for two
// devices at 2/5 of the rows: not a multiple of the deterministic reduction's tile).
std::vector<std::size_t> row_starts(DeviceGroup& group, std::size_t rows, bool own) {
  if (!own) return clatomics::distribute(group, std::vector<std::uint8_t>(rows)).first;
  std::vector<std::size_t> first;
  for (std::size_t d = 0; d < group.size(); ++d) first.push_back(rows * 2 * d / (2 * group.size() + 1));
  return first;
}

template <class T>
DistributedBuffer<T> user_parts(DeviceGroup& group, const std::vector<T>& values, std::size_t width, bool own, const MakeParts& make) {
  const std::size_t rows = values.size() / width;
  const std::vector<std::size_t> starts = row_starts(group, rows, own);
  DistributedBuffer<T> out;
  out.size = values.size();
  std::vector<Piece> pieces;
  for (std::size_t d = 0; d < group.size(); ++d) {
    const std::size_t first = starts[d] * width, end = (d + 1 < group.size() ? starts[d + 1] : rows) * width;
    pieces.push_back({values.data() + first, (end - first) * sizeof(T)});
    out.first.push_back(first), out.count.push_back(end - first);
  }
  out.parts = make(pieces);
  return out;
}

// Parts made one device at a time: make(d, piece).
MakeParts each_device(const std::function<cl::Buffer(std::size_t, const Piece&)>& make) {
  return [make](const std::vector<Piece>& pieces) {
    std::vector<cl::Buffer> parts;
    for (std::size_t d = 0; d < pieces.size(); ++d) parts.push_back(make(d, pieces[d]));
    return parts;
  };
}

// Every resident algorithm over parts make() gives, against the host.
void check_all(DeviceGroup& group, bool own, const MakeParts& make) {
  const Data& e = data();
  CAPTURE(own);
  const auto a = user_parts(group, e.a, 1, own, make), b = user_parts(group, e.b, 1, own, make);
  CHECK(clatomics::reduce(group, a, ReduceOp::sum) == e.sum);
  CHECK(clatomics::reduce(group, a, ReduceOp::sum, {true}) == e.sum);
  CHECK(clatomics::reduce(group, a, ReduceOp::min) == e.min);
  CHECK(clatomics::reduce(group, a, ReduceOp::max) == e.max);
  CHECK(clatomics::dot(group, a, b) == e.dot);
  CHECK(clatomics::compact(group, a, x > 2.5f, {true}) == e.kept);
  CHECK(clatomics::histogram(group, user_parts(group, e.bytes, 1, own, make)) == e.byte_counts);
  const auto keys = user_parts(group, e.keys, 1, own, make);
  const clatomics::KeyHistogram k = clatomics::histogram_keys(group, keys, key_bins);
  CHECK(k.counts == e.key_counts);
  CHECK(k.out_of_range == e.keys_out);
  const clatomics::EvenBins<float> bins{nbins, lo, hi};
  const clatomics::EvenHistogram one = clatomics::histogram_even(test::runtime(), e.a, bins, {e.b});
  const clatomics::EvenHistogram even = clatomics::histogram_even(group, a, bins, {b});
  CHECK(even.counts == one.counts);
  REQUIRE(even.sums.size() == 1);
  CHECK(even.sums[0] == one.sums[0]);  // small integers: exact
  const clatomics::EvenHistogram2D one2d = clatomics::histogram2d_even(test::runtime(), e.a, e.b, bins, {4, -2.0f, 2.0f}, {e.b});
  CHECK(group_test::same_histogram2d(clatomics::histogram2d_even(group, a, b, bins, {4, -2.0f, 2.0f}, {b}), one2d));
  CHECK(one2d.outside > 0);
  const auto rows = user_parts(group, e.rows, 2, own, make);
  clatomics::ScatterOptions fresh;
  fresh.include_self = false;
  for (const bool deterministic : {false, true}) {
    if (deterministic && !group.runtime(0).supports_double()) continue;
    CAPTURE(deterministic);
    fresh.deterministic = deterministic;
    std::vector<float> out(key_bins * 2, 0.0f);
    const auto r = clatomics::scatter_reduce<float, cl_uint>(group, out, keys, rows, ScatterOp::sum, fresh, 2);
    CHECK(r.out_of_range == e.keys_out);
    CHECK(out == e.scattered);
  }
  // segment_reduce (rows of 2, the offsets on the host) and reduce_by_key (runs of the keys as
  // they come): one device's results over the host data.
  for (const ScatterOp op : {ScatterOp::sum, ScatterOp::max}) {
    CAPTURE(int(op));
    std::vector<float> one(2 * (e.offsets.size() - 1), 0.5f), got = one;
    clatomics::segment_reduce<float, cl_uint>(test::runtime(), one, e.offsets, e.rows, op, {}, 2);
    clatomics::segment_reduce<float, cl_uint>(group, got, e.offsets, rows, op, {}, 2);
    CHECK(got == one);
    CHECK(clatomics::reduce_by_key<cl_uint, float>(group, keys, a, op) == clatomics::reduce_by_key<cl_uint, float>(test::runtime(), e.keys, e.a, op));
  }
  // Deterministic sums of data that rounds by order: one device's bits for reduce, the host-data
  // group form's for scatter_reduce, segment_reduce and reduce_by_key, whatever the parts' layout.
  if (!group.runtime(0).supports_double()) return;
  const auto mixed = user_parts(group, e.mixed, 1, own, make);
  CHECK(test::bits(clatomics::reduce(group, mixed, ReduceOp::sum, {true})) == test::bits(clatomics::reduce(test::runtime(), e.mixed, ReduceOp::sum, {true})));
  clatomics::ScatterOptions det;
  det.deterministic = true;
  std::vector<float> host(key_bins, 0.5f), resident(key_bins, 0.5f);
  clatomics::scatter_reduce<float, cl_uint>(group, host, e.keys, e.mixed, ScatterOp::sum, det);
  clatomics::scatter_reduce<float, cl_uint>(group, resident, keys, mixed, ScatterOp::sum, det);
  CHECK(std::memcmp(host.data(), resident.data(), host.size() * sizeof(float)) == 0);
  std::vector<float> segments_host(e.offsets.size() - 1, 0.5f), segments_resident = segments_host;
  clatomics::segment_reduce<float, cl_uint>(group, segments_host, e.offsets, e.mixed, ScatterOp::mean, det);
  clatomics::segment_reduce<float, cl_uint>(group, segments_resident, e.offsets, mixed, ScatterOp::mean, det);
  CHECK(std::memcmp(segments_host.data(), segments_resident.data(), segments_host.size() * sizeof(float)) == 0);
  const auto by_key_host = clatomics::reduce_by_key<cl_uint, float>(group, e.keys, e.mixed, ScatterOp::sum, det);
  const auto by_key_resident = clatomics::reduce_by_key<cl_uint, float>(group, keys, mixed, ScatterOp::sum, det);
  REQUIRE(by_key_resident.second.size() == by_key_host.second.size());
  CHECK(std::memcmp(by_key_host.second.data(), by_key_resident.second.data(), by_key_host.second.size() * sizeof(float)) == 0);
}

// The same for doubles, on parts make() places at multiples of 8 bytes.
void check_doubles(DeviceGroup& group, bool own, const MakeParts& make) {
  if (!group.runtime(0).supports_double()) return;
  const Data& e = data();
  const auto d = user_parts(group, e.d, 1, own, make);
  CHECK(clatomics::reduce(group, d, ReduceOp::sum, {true}) == double(e.sum));
  double squares = 0;
  for (const double v : e.d) squares += v * v;  // exact
  CHECK(clatomics::dot(group, d, d) == squares);
  const clatomics::EvenBins<double> bins{nbins, lo, hi};
  CHECK(clatomics::histogram_even(group, d, bins).counts == clatomics::histogram_even(test::runtime(), e.d, bins).counts);
  CHECK(clatomics::histogram2d_even(group, d, d, bins, bins).counts == clatomics::histogram2d_even(test::runtime(), e.d, e.d, bins, bins).counts);
}

// The parts over the user's host memory, device d's at base + align(d).
MakeParts host_parts(DeviceGroup& group, std::vector<std::unique_ptr<test::HostMemory>>& keep, const std::function<std::size_t(std::size_t)>& align) {
  return each_device([&group, &keep, align](std::size_t d, const Piece& piece) {
    keep.push_back(std::make_unique<test::HostMemory>(piece.bytes + 64));
    unsigned char* at = keep.back()->base + align(d);
    std::memcpy(at, piece.from, piece.bytes);
    return cl::Buffer(group.runtime(d).context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, std::max<std::size_t>(piece.bytes, 1), at);
  });
}

std::size_t base_align(const clatomics::Runtime& rt) { return rt.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8; }  // bits

// What the parts' checks refuse, before any device runs: their message comes from
// "DistributedBuffer part d", never from a device's call.
bool refused_by_parts(const std::function<void()>& call, const std::string& why) {
  const std::string what = test::message_of<std::invalid_argument>(call);
  CAPTURE(what);
  return test::contains(what, "DistributedBuffer part") && test::contains(what, why) && !test::contains(what, "DeviceGroup: device");
}

}  // namespace

TEST_CASE("resident parts over the user's host memory (CL_MEM_USE_HOST_PTR) at odd 4-byte alignments: every algorithm exact") {
  DeviceGroup& group = group_of_all();
  const Data& e = data();
  for (const std::size_t shift : {std::size_t(4), std::size_t(12), std::size_t(28), std::size_t(60)}) {
    CAPTURE(shift);
    std::vector<std::unique_ptr<test::HostMemory>> keep;
    // Each device's part at another odd multiple of 4 bytes (doubles at the multiple of 8 below it).
    const auto align = [shift](std::size_t d) { return (shift + 16 * d) % 64; };
    check_all(group, shift == 28, host_parts(group, keep, align));
    check_doubles(group, shift == 12, host_parts(group, keep, [align](std::size_t d) { return align(d) - 4; }));
    const auto bytes_at = [shift](std::size_t d) { return (shift + 16 * d + 1) % 64; };  // bytes: any address
    CHECK(clatomics::histogram(group, user_parts(group, e.bytes, 1, true, host_parts(group, keep, bytes_at))) == e.byte_counts);
  }
}

TEST_CASE("resident parts whose host memory is not aligned to their elements are refused before any device runs") {
  DeviceGroup& group = group_of_all();
  const Data& e = data();
  std::vector<std::unique_ptr<test::HostMemory>> keep;
  const auto last = [&group](std::size_t d) { return d + 1 == group.size(); };
  // The last device's part 4 bytes past an 8-byte boundary (doubles), or 2 past a 4-byte one.
  const MakeParts eights = host_parts(group, keep, [&](std::size_t d) { return last(d) ? std::size_t(4) : std::size_t(0); });
  const MakeParts fours = host_parts(group, keep, [&](std::size_t d) { return last(d) ? std::size_t(2) : std::size_t(0); });
  const auto a = user_parts(group, e.a, 1, false, fours), b = user_parts(group, e.b, 1, false, host_parts(group, keep, [](std::size_t) { return 0; }));
  const auto keys = user_parts(group, e.keys, 1, false, fours);
  const auto rows = user_parts(group, e.rows, 2, false, fours);
  const std::string four = "not a multiple of its 4-byte elements";
  CHECK(refused_by_parts([&] { (void)clatomics::reduce(group, a, ReduceOp::sum); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::dot(group, b, a); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::compact(group, a, x > 1.0f); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::histogram_keys(group, keys, key_bins); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::histogram_even(group, b, {nbins, lo, hi}, {a}); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::histogram2d_even(group, b, a, {nbins, lo, hi}, {nbins, lo, hi}); }, four));
  std::vector<float> out(key_bins * 2, 5.0f);
  const auto good_keys = user_parts(group, e.keys, 1, false, host_parts(group, keep, [](std::size_t) { return 0; }));
  CHECK(refused_by_parts([&] { (void)clatomics::scatter_reduce<float, cl_uint>(group, out, good_keys, rows, ScatterOp::sum, {}, 2); }, four));
  CHECK(refused_by_parts([&] { (void)clatomics::scatter_reduce<float, cl_uint>(group, out, keys, rows, ScatterOp::max, {}, 2); }, four));
  CHECK(out == std::vector<float>(key_bins * 2, 5.0f));
  std::vector<float> segments(2 * (e.offsets.size() - 1), 5.0f);
  CHECK(refused_by_parts([&] { (void)clatomics::segment_reduce<float, cl_uint>(group, segments, e.offsets, rows, ScatterOp::sum, {}, 2); }, four));
  CHECK(segments == std::vector<float>(2 * (e.offsets.size() - 1), 5.0f));
  CHECK(refused_by_parts([&] { (void)clatomics::reduce_by_key<cl_uint, float>(group, good_keys, a, ScatterOp::sum); }, four));
  const std::vector<cl_ulong> wide_keys(e.keys.begin(), e.keys.end());
  CHECK(refused_by_parts(
      [&] {
        (void)clatomics::scatter_reduce<float, cl_ulong>(group, out, user_parts(group, wide_keys, 1, false, eights),
                                                         user_parts(group, e.rows, 2, false, host_parts(group, keep, [](std::size_t) { return 0; })),
                                                         ScatterOp::sum, {}, 2);
      },
      "not a multiple of its 8-byte elements"));
  CHECK(out == std::vector<float>(key_bins * 2, 5.0f));
  if (group.runtime(0).supports_double()) {
    const auto d = user_parts(group, e.d, 1, true, eights);
    const std::string eight = "not a multiple of its 8-byte elements";
    CHECK(refused_by_parts([&] { (void)clatomics::reduce(group, d, ReduceOp::sum, {true}); }, eight));
    CHECK(refused_by_parts([&] { (void)clatomics::dot(group, d, d); }, eight));
    CHECK(refused_by_parts([&] { (void)clatomics::histogram_even(group, d, clatomics::EvenBins<double>{nbins, lo, hi}); }, eight));
    CHECK(refused_by_parts([&] { (void)clatomics::histogram2d_even(group, d, d, clatomics::EvenBins<double>{nbins, lo, hi},
                                                                   clatomics::EvenBins<double>{nbins, lo, hi}); },
                           eight));
  }
}

TEST_CASE("resident parts that are sub-buffers of a larger buffer per device: every algorithm exact") {
  DeviceGroup& group = group_of_all();
  std::vector<cl::Buffer> parents;  // kept as long as their sub-buffers (DEVICES.md: NVIDIA reads zeros otherwise)
  // Each part at the first allowed origin past the start of its parent, 0x44 bytes before and
  // after it (what a wrong origin or offset would read).
  const MakeParts subs = each_device([&](std::size_t d, const Piece& piece) {
    const clatomics::Runtime& rt = group.runtime(d);
    const std::size_t align = base_align(rt);
    std::vector<unsigned char> padded(align + piece.bytes + 64, 0x44);
    std::memcpy(padded.data() + align, piece.from, piece.bytes);
    parents.emplace_back(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, padded.size(), padded.data());
    const cl_buffer_region region{align, std::max<std::size_t>(piece.bytes, 1)};
    return parents.back().createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
  });
  for (const bool own : {false, true}) check_all(group, own, subs), check_doubles(group, own, subs);
  // Sub-buffers of the user's host memory: the alignment rule holds through them.
  std::vector<std::unique_ptr<test::HostMemory>> keep;
  const MakeParts host_subs = each_device([&](std::size_t d, const Piece& piece) {
    const clatomics::Runtime& rt = group.runtime(d);
    const std::size_t align = base_align(rt);
    keep.push_back(std::make_unique<test::HostMemory>(align + piece.bytes + 64));
    std::memcpy(keep.back()->base + 4 + align, piece.from, piece.bytes);  // the parent's memory starts 4 bytes past a 64-byte boundary
    parents.emplace_back(rt.context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, align + piece.bytes + 4, keep.back()->base + 4);
    const cl_buffer_region region{align, std::max<std::size_t>(piece.bytes, 1)};
    return parents.back().createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region);
  });
  const Data& e = data();
  CHECK(clatomics::reduce(group, user_parts(group, e.a, 1, true, host_subs), ReduceOp::sum) == e.sum);
  std::vector<float> out(key_bins * 2, 0.0f);
  clatomics::scatter_reduce<float, cl_uint>(group, out, user_parts(group, e.keys, 1, true, host_subs), user_parts(group, e.rows, 2, true, host_subs),
                                            ScatterOp::sum, {}, 2);
  CHECK(out == e.scattered);
  if (group.runtime(0).supports_double())
    CHECK(refused_by_parts([&] { (void)clatomics::reduce(group, user_parts(group, e.d, 1, true, host_subs), ReduceOp::sum); },
                           "not a multiple of its 8-byte elements"));
}

TEST_CASE("resident parts that are sub-buffers of one buffer in a context the devices share: every algorithm exact") {
  DeviceGroup& all = group_of_all();
  std::vector<cl::Device> devices;
  for (std::size_t d = 0; d < all.size(); ++d) devices.push_back(all.runtime(d).device());
  const cl::Context context(devices);
  std::vector<cl::CommandQueue> queues;
  for (const cl::Device& device : devices) queues.emplace_back(context, device);
  DeviceGroup group(queues);
  std::size_t align = 0;
  for (std::size_t d = 0; d < group.size(); ++d) align = std::max(align, base_align(group.runtime(d)));
  std::vector<cl::Buffer> parents;  // kept as long as their sub-buffers
  // One parent per array, each part at the next allowed origin past the one before, 0x44 bytes
  // in the gaps (what a part read at a wrong origin would see).
  const MakeParts shared = [&](const std::vector<Piece>& pieces) {
    std::vector<unsigned char> bytes;
    std::vector<cl_buffer_region> regions;
    for (const Piece& piece : pieces) {
      const std::size_t at = (bytes.size() + align - 1) / align * align + align;
      bytes.resize(at + piece.bytes + 64, 0x44);
      std::memcpy(bytes.data() + at, piece.from, piece.bytes);
      regions.push_back({at, std::max<std::size_t>(piece.bytes, 1)});
    }
    parents.emplace_back(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
    std::vector<cl::Buffer> parts;
    for (const cl_buffer_region& region : regions)
      parts.push_back(parents.back().createSubBuffer(CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region));
    return parts;
  };
  for (const bool own : {false, true}) check_all(group, own, shared), check_doubles(group, own, shared);
  // A part of the shared context handed to a group of other contexts is refused.
  const Data& e = data();
  CHECK(refused_by_parts([&] { (void)clatomics::reduce(all, user_parts(group, e.a, 1, false, shared), ReduceOp::sum); }, "another OpenCL context"));
}

TEST_CASE("resident parts the host may not read (CL_MEM_HOST_NO_ACCESS): every algorithm exact, chunks that span them included") {
  // The deterministic sums' chunks that span two parts are copied through the host: from such
  // parts by way of a copy on their device (PoCL refuses to read them: CL_INVALID_OPERATION).
  DeviceGroup& group = group_of_all();
  const MakeParts sealed = each_device([&](std::size_t d, const Piece& piece) {
    std::vector<unsigned char> bytes(std::max<std::size_t>(piece.bytes, 1));
    std::memcpy(bytes.data(), piece.from, piece.bytes);
    return cl::Buffer(group.runtime(d).context(), CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
  });
  for (const bool own : {false, true}) check_all(group, own, sealed), check_doubles(group, own, sealed);
}
