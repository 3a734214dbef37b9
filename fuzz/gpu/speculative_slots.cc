#include "fuzz/gpu/speculative_slots.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

std::vector<uint32_t> SpeculativeSlots(absl::Span<const WorkItem> items,
                                       uint32_t service_slots, uint32_t n) {
  const auto size = static_cast<uint32_t>(items.size());
  if (service_slots >= size) return {};
  n = std::min(n, (size - service_slots) / 2);
  uint32_t low = service_slots;
  while (low < size && items[low].priority < RF_PRIORITY_LOW) ++low;
  const uint32_t span = size - low;
  std::vector<uint32_t> slots(n);
  for (uint32_t i = 0; i < n; ++i) {
    // The middle of the i-th of n equal parts of the LOW items: steps of
    // span / n >= 1, so the indices are distinct.
    slots[i] = span >= n ? low + static_cast<uint32_t>((uint64_t{2} * i + 1) *
                                                       span / (uint64_t{2} * n))
                         : size - n + i;
  }
  return slots;
}

}  // namespace ringfuzz
