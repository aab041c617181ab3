// The histograms over a device group: each chunk or resident part counted on its device, the
// counts and tallies (and weight sums, in double) added on the host (merge_into).
#include "clatomics/device_group.hpp"
#include "groups/engine.hpp"
#include "histogram/numpy_bins.hpp"

namespace clatomics {
namespace {

// Bytes into 256 bins.
struct BytesOnGroup {
  using Part = std::vector<std::uint64_t>;
  using Total = std::vector<std::uint64_t>;
  const std::vector<std::uint8_t>* bytes;  // host data; null for resident data
  HistogramOptions options;

  Total start(Runtime& rt) const { return histogram(rt, std::vector<std::uint8_t>{}, options); }  // checks the options
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::histogram_buffer(rt, at[0].buffer, at[0].offset, count, options);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*bytes)}; }
  std::size_t size() const { return bytes->size(); }
  std::size_t device_bytes() const { return 0; }
};

struct KeysOnGroup {
  using Part = KeyHistogram;
  using Total = KeyHistogram;
  const std::vector<cl_uint>* keys;  // host data; null for resident data
  std::size_t nbins;
  HistogramOptions options;

  Total start(Runtime& rt) const { return histogram_keys(rt, std::vector<cl_uint>{}, nbins, options); }  // checks nbins
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t count) const {
    return detail::histogram_keys_buffer(rt, at[0].buffer, at[0].offset, count, nbins, options);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }
  std::vector<detail::HostArray> host() const { return {detail::host_array(*keys)}; }
  std::size_t size() const { return keys->size(); }
  std::size_t device_bytes() const { return 0; }
};

// An even histogram's weight channels: host data's (read in place), or only their lengths
// (resident data: their parts join the positions' arrays).
struct Channels {
  const std::vector<HostFloats>* host = nullptr;  // host data's; null for resident data
  std::vector<std::size_t> counts;                // each channel's elements

  // Each channel as long as the positions, refused as the one-device call refuses it.
  void require_length(const std::string& what, std::size_t values) const {
    for (std::size_t c = 0; c < counts.size(); ++c)
      if (counts[c] != values)
        detail::refuse(what, "weights[" + std::to_string(c) + "] has " + std::to_string(counts[c]) + " elements, values has " +
                                 std::to_string(values) + "; they must be of the same length");
  }
  // As many empty channels, for the call without data that start() makes.
  std::vector<HostFloats> none() const {
    static const std::vector<float> empty;
    return std::vector<HostFloats>(counts.size(), empty);
  }
  // A part's channels: its arrays from at[from] on.
  std::vector<detail::WeightRange> ranges(const std::vector<detail::At>& at, std::size_t from) const {
    std::vector<detail::WeightRange> weights;
    for (std::size_t c = 0; c < counts.size(); ++c) weights.push_back({at[from + c].buffer, at[from + c].offset});
    return weights;
  }
  // Host data's arrays: the positions', then each channel's.
  std::vector<detail::HostArray> host_arrays(std::vector<detail::HostArray> arrays) const {
    for (const HostFloats& w : *host) arrays.push_back({w.data(), sizeof(float)});
    return arrays;
  }
};

Channels host_channels(const std::vector<HostFloats>& weights) {
  Channels channels{&weights, {}};
  for (const HostFloats& w : weights) channels.counts.push_back(w.size());
  return channels;
}

// Resident weight channels, each laid out as the positions (refused otherwise), their parts
// appended to arrays.
template <class T>
Channels resident_channels(DeviceGroup& group, const std::string& what, const DistributedBuffer<T>& values,
                           const std::vector<DistributedBuffer<float>>& weights, std::vector<std::vector<detail::At>>& arrays) {
  Channels channels;
  for (const auto& w : weights) {
    detail::check_layout(group, w);
    channels.counts.push_back(w.size);
    channels.require_length(what, values.size);
    detail::check_same_layout((what + ": values and weights").c_str(), values, w);
    for (std::size_t d = 0; d < arrays.size(); ++d) arrays[d].push_back({w.parts[d](), 0, sizeof(float)});
  }
  return channels;
}

// Positions, then one array per weight channel.
template <class T>
struct EvenOnGroup {
  using Part = EvenHistogram;
  using Total = EvenHistogram;
  const std::vector<T>* values;  // host data; null for resident data
  std::size_t count;             // the positions
  Channels channels;
  EvenBins<T> bins;
  HistogramOptions options;

  Total start(Runtime& rt) const {
    // The same call without values checks the bins, the channels and the options, and starts
    // the totals with as many weight channels.
    Total total = histogram_even(rt, std::vector<T>{}, bins, channels.none(), options);
    channels.require_length("histogram_even", count);
    return total;
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t n) const {
    return detail::even_histogram_buffer<T>(rt, {at[0].buffer, at[0].offset}, n, bins.nbins, &bins, channels.ranges(at, 1), options);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }
  std::vector<detail::HostArray> host() const { return channels.host_arrays({detail::host_array(*values)}); }
  std::size_t size() const { return count; }
  std::size_t device_bytes() const { return 0; }
};

// x, then y, then one array per weight channel.
template <class T>
struct Even2dOnGroup {
  using Part = EvenHistogram2D;
  using Total = EvenHistogram2D;
  const std::vector<T>* x;  // host data; null for resident data
  const std::vector<T>* y;
  std::size_t count;  // the points
  Channels channels;
  EvenBins<T> xbins, ybins;
  HistogramOptions options;

  Total start(Runtime& rt) const {
    // The lengths first, as the one-device call checks them; then the same call without points
    // checks the bins, the channels and the options.
    if (y && y->size() != count)
      detail::refuse("histogram2d_even", "y has " + std::to_string(y->size()) + " elements, x has " + std::to_string(count));
    channels.require_length("histogram2d_even", count);
    return histogram2d_even(rt, std::vector<T>{}, std::vector<T>{}, xbins, ybins, channels.none(), options);
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t n) const {
    return detail::even_histogram2d_buffer<T>(rt, {at[0].buffer, at[0].offset}, {at[1].buffer, at[1].offset}, n, xbins, ybins,
                                              channels.ranges(at, 2), options);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }
  std::vector<detail::HostArray> host() const { return channels.host_arrays({detail::host_array(*x), detail::host_array(*y)}); }
  std::size_t size() const { return count; }
  std::size_t device_bytes() const { return 0; }
};

}  // namespace

std::vector<std::uint64_t> histogram(DeviceGroup& group, const std::vector<std::uint8_t>& bytes, HistogramOptions options) {
  return detail::run_spread(group, BytesOnGroup{&bytes, options});
}

std::vector<std::uint64_t> histogram(DeviceGroup& group, const DistributedBuffer<std::uint8_t>& bytes, HistogramOptions options) {
  detail::check_layout(group, bytes);
  return detail::run_resident(group, BytesOnGroup{nullptr, options}, detail::resident_arrays(bytes), bytes.first, bytes.count);
}

KeyHistogram histogram_keys(DeviceGroup& group, const std::vector<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  return detail::run_spread(group, KeysOnGroup{&keys, nbins, options});
}

KeyHistogram histogram_keys(DeviceGroup& group, const DistributedBuffer<cl_uint>& keys, std::size_t nbins, HistogramOptions options) {
  detail::check_layout(group, keys);
  return detail::run_resident(group, KeysOnGroup{nullptr, nbins, options}, detail::resident_arrays(keys), keys.first, keys.count);
}

template <class T>
EvenHistogram detail::group_histogram_even(DeviceGroup& group, const std::vector<T>& values, const EvenBins<T>& bins,
                                           const std::vector<HostFloats>& weights, HistogramOptions options) {
  return detail::run_spread(group, EvenOnGroup<T>{&values, values.size(), host_channels(weights), bins, options});
}

template <class T>
EvenHistogram histogram_even(DeviceGroup& group, const DistributedBuffer<T>& values, const EvenBins<T>& bins,
                             const std::vector<DistributedBuffer<float>>& weights, HistogramOptions options) {
  detail::check_layout(group, values);
  std::vector<std::vector<detail::At>> arrays = detail::resident_arrays(values);
  const Channels channels = resident_channels(group, "histogram_even", values, weights, arrays);
  const EvenOnGroup<T> call{nullptr, values.size, channels, bins, options};
  return detail::run_resident(group, call, arrays, values.first, values.count);
}

template <class T>
EvenHistogram2D detail::group_histogram2d_even(DeviceGroup& group, const std::vector<T>& x, const std::vector<T>& y,
                                               const EvenBins<T>& xbins, const EvenBins<T>& ybins, const std::vector<HostFloats>& weights,
                                               HistogramOptions options) {
  return detail::run_spread(group, Even2dOnGroup<T>{&x, &y, x.size(), host_channels(weights), xbins, ybins, options});
}

template <class T>
EvenHistogram2D histogram2d_even(DeviceGroup& group, const DistributedBuffer<T>& x, const DistributedBuffer<T>& y, const EvenBins<T>& xbins,
                                 const EvenBins<T>& ybins, const std::vector<DistributedBuffer<float>>& weights, HistogramOptions options) {
  detail::check_layout(group, x);
  detail::check_layout(group, y);
  detail::check_same_layout("histogram2d_even: x and y", x, y);
  std::vector<std::vector<detail::At>> arrays = detail::resident_arrays(x, y);
  const Channels channels = resident_channels(group, "histogram2d_even", x, weights, arrays);
  const Even2dOnGroup<T> call{nullptr, nullptr, x.size, channels, xbins, ybins, options};
  return detail::run_resident(group, call, arrays, x.first, x.count);
}

#define CLATOMICS_GROUP_EVEN_HISTOGRAMS(T)                                                                                                 \
  template EvenHistogram detail::group_histogram_even<T>(DeviceGroup&, const std::vector<T>&, const EvenBins<T>&,                        \
                                                         const std::vector<HostFloats>&, HistogramOptions);                             \
  template EvenHistogram histogram_even<T>(DeviceGroup&, const DistributedBuffer<T>&, const EvenBins<T>&,                                \
                                           const std::vector<DistributedBuffer<float>>&, HistogramOptions);                             \
  template EvenHistogram2D detail::group_histogram2d_even<T>(DeviceGroup&, const std::vector<T>&, const std::vector<T>&,               \
                                                             const EvenBins<T>&, const EvenBins<T>&, const std::vector<HostFloats>&,    \
                                                             HistogramOptions);                                                         \
  template EvenHistogram2D histogram2d_even<T>(DeviceGroup&, const DistributedBuffer<T>&, const DistributedBuffer<T>&, const EvenBins<T>&, \
                                               const EvenBins<T>&, const std::vector<DistributedBuffer<float>>&, HistogramOptions);
CLATOMICS_GROUP_EVEN_HISTOGRAMS(float)
CLATOMICS_GROUP_EVEN_HISTOGRAMS(double)
#undef CLATOMICS_GROUP_EVEN_HISTOGRAMS

}  // namespace clatomics
