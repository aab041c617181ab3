// Scatter-reduce and segment reductions on device buffers: the call checked, planned and run
// (scatter/device_call.hpp); the strategies' names and __local capacities.
#include "clatomics/scatter.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "scatter/device_call.hpp"

namespace clatomics {

ScatterResult detail::scatter_buffers(Runtime& rt, const ScatterCall& call) {
  Scatter scatter(rt, call, scatter_what(call));
  scatter.check();
  return scatter.run();
}

const char* strategy_name(ScatterStrategy s) {
  switch (s) {
    case ScatterStrategy::automatic:
      return "automatic";
    case ScatterStrategy::global_atomics:
      return "global_atomics";
    case ScatterStrategy::local_private:
      return "local_private";
    case ScatterStrategy::local_cache:
      return "local_cache";
  }
  throw std::invalid_argument("clatomics: scatter: options.strategy (" + std::to_string(static_cast<int>(s)) +
                              ") is not a ScatterStrategy");
}

ScatterCapacity scatter_capacity(const Runtime& rt, std::size_t value_bytes, bool deterministic) {
  const detail::LocalRoom room = detail::local_room(rt.device_info(), deterministic ? 16 : std::max<std::size_t>(4, value_bytes),
                                                    deterministic ? detail::window_item_bytes : 0);
  ScatterCapacity c;
  c.copies = room.max_copies;
  c.private_slots = room.local / room.slot_bytes;
  c.spread_slots = room.local / (room.slot_bytes * c.copies);
  c.cache_slots = room.cache_slots;
  return c;
}

}  // namespace clatomics
