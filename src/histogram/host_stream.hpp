// Host data streamed through the device: positions (and a second axis', and weights) copied in
// chunks that fit the device beside each other, each counted into the run as it arrives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "clatomics/histogram.hpp"
#include "core/launch.hpp"
#include "histogram/run.hpp"

namespace clatomics::detail::hist {

// T as written, not deduced from the argument (a null y says nothing of T).
template <class T>
struct Written {
  using type = T;
};

// Streams host positions (and a second axis', and weights) through the device into run.
template <class T>
void add_host(Runtime& rt, Run& run, const std::vector<T>& values, const typename Written<std::vector<T>>::type* y,
              const std::vector<HostFloats>& weights) {
  if (values.empty()) return;  // nothing to run: the totals are zeros (Run::totals_later)
  run.start();
  const std::size_t buffers = 1 + (y ? 1 : 0) + weights.size();
  const std::size_t chunk = chunk_elements(rt, values.size(), sizeof(T), buffers);
  const auto staging = [&](std::size_t bytes) { return make_buffer(rt, chunk * bytes, CL_MEM_READ_ONLY); };
  const Mem buffer = staging(sizeof(T));
  const Mem ybuffer = y ? staging(sizeof(T)) : Mem();
  std::vector<Mem> wbuffers;
  for (std::size_t c = 0; c < weights.size(); ++c) wbuffers.push_back(staging(sizeof(float)));
  Inputs in;
  in.values = buffer.get();
  in.y = ybuffer.get();
  for (const auto& w : wbuffers) in.weights.push_back({w.get(), 0});
  for (std::size_t first = 0; first < values.size(); first += chunk) {
    const std::size_t n = std::min(chunk, values.size() - first);
    run.write(buffer.get(), n * sizeof(T), values.data() + first);
    if (y) run.write(ybuffer.get(), n * sizeof(T), y->data() + first);
    for (std::size_t c = 0; c < weights.size(); ++c) run.write(wbuffers[c].get(), n * sizeof(float), weights[c].data() + first);
    run.add(in, n);
  }
}

}  // namespace clatomics::detail::hist
