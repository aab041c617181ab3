// The histograms over a device group: each chunk or resident part counted on its device, the
// counts (and weight sums) added on the host (merge_into).
#include "clatomics/device_group.hpp"
#include "groups/engine.hpp"

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

void require_weight_length(std::size_t channel, std::size_t weights, std::size_t values) {
  if (weights != values)
    throw std::invalid_argument("clatomics: histogram_even: weights[" + std::to_string(channel) + "] has " + std::to_string(weights) +
                                " elements, values has " + std::to_string(values) + "; they must be of the same length");
}

// Positions, then one array per weight channel.
template <class T>
struct EvenOnGroup {
  using Part = EvenHistogram;
  using Total = EvenHistogram;
  const std::vector<T>* values;                 // host data, with host weights; null for resident data
  const std::vector<HostFloats>* host_weights;  // host data's channels
  std::size_t count;                            // the positions
  std::vector<std::size_t> channel_counts;      // each weight channel's elements
  EvenBins<T> bins;
  HistogramOptions options;

  Total start(Runtime& rt) const {
    // The same call without values checks the bins, the channels and the options, and starts
    // the totals with as many weight channels.
    const std::vector<float> none;
    Total total = histogram_even(rt, std::vector<T>{}, bins, std::vector<HostFloats>(channel_counts.size(), none), options);
    for (std::size_t c = 0; c < channel_counts.size(); ++c) require_weight_length(c, channel_counts[c], count);
    return total;
  }
  Part part(Runtime& rt, const std::vector<detail::At>& at, std::uint64_t, std::size_t n) const {
    std::vector<detail::WeightRange> weights;
    for (std::size_t c = 0; c < channel_counts.size(); ++c) weights.push_back({at[1 + c].buffer, at[1 + c].offset});
    const T range[2] = {bins.lo, bins.hi};
    return detail::even_histogram_buffer<T>(rt, {at[0].buffer, at[0].offset}, n, bins.nbins, range, weights, options);
  }
  void merge(Total& total, Part&& part) const { merge_into(total, part); }
  std::vector<detail::HostArray> host() const {
    std::vector<detail::HostArray> arrays{detail::host_array(*values)};
    for (const HostFloats& w : *host_weights) arrays.push_back({w.data(), sizeof(float)});
    return arrays;
  }
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
  std::vector<std::size_t> counts;
  for (const HostFloats& w : weights) counts.push_back(w.size());
  return detail::run_spread(group, EvenOnGroup<T>{&values, &weights, values.size(), counts, bins, options});
}

template <class T>
EvenHistogram histogram_even(DeviceGroup& group, const DistributedBuffer<T>& values, const EvenBins<T>& bins,
                             const std::vector<DistributedBuffer<float>>& weights, HistogramOptions options) {
  detail::check_layout(group, values);
  std::vector<std::size_t> counts;
  std::vector<std::vector<detail::At>> arrays = detail::resident_arrays(values);
  for (const auto& w : weights) {
    detail::check_layout(group, w);
    require_weight_length(counts.size(), w.size, values.size);
    counts.push_back(w.size);
    detail::check_same_layout("histogram_even: values and weights", values, w);
    for (std::size_t d = 0; d < arrays.size(); ++d) arrays[d].push_back({w.parts[d](), 0, sizeof(float)});
  }
  const EvenOnGroup<T> call{nullptr, nullptr, values.size, counts, bins, options};
  return detail::run_resident(group, call, arrays, values.first, values.count);
}

template EvenHistogram detail::group_histogram_even<float>(DeviceGroup&, const std::vector<float>&, const EvenBins<float>&,
                                                           const std::vector<HostFloats>&, HistogramOptions);
template EvenHistogram detail::group_histogram_even<double>(DeviceGroup&, const std::vector<double>&, const EvenBins<double>&,
                                                            const std::vector<HostFloats>&, HistogramOptions);
template EvenHistogram histogram_even<float>(DeviceGroup&, const DistributedBuffer<float>&, const EvenBins<float>&,
                                             const std::vector<DistributedBuffer<float>>&, HistogramOptions);
template EvenHistogram histogram_even<double>(DeviceGroup&, const DistributedBuffer<double>&, const EvenBins<double>&,
                                              const std::vector<DistributedBuffer<float>>&, HistogramOptions);

}  // namespace clatomics
