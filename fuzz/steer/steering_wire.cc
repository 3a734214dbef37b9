#include "fuzz/steer/steering_wire.h"

#include <algorithm>
#include <cstring>

#include "fuzz/engine/executor.h"

namespace ringfuzz {

std::array<uint32_t, RF_CTRL_PRIORITY_PARTITION_COUNT> PriorityPartitions(
    absl::Span<const WorkItem> work) {
  std::array<uint32_t, RF_CTRL_PRIORITY_PARTITION_COUNT> words{};
  std::array<uint32_t, RF_CTRL_PRIORITY_COUNT> counts{};
  for (const WorkItem& item : work) {
    ++counts[std::min<uint32_t>(item.priority, RF_PRIORITY_IDLE)];
  }
  uint32_t start = 0;
  for (uint32_t p = 0; p < RF_CTRL_PRIORITY_COUNT; ++p) {
    words[p] = start;
    start += counts[p];
  }
  words[RF_CTRL_PRIORITY_COUNT] = start;
  return words;
}

uint32_t WireWord(absl::Span<const uint8_t> bytes, uint64_t w) {
  if ((w + 1) * 4 > bytes.size()) return 0;
  uint32_t value;
  std::memcpy(&value, bytes.data() + w * 4, 4);
  return value;  // little-endian hosts only, as the whole project
}

SuspectSlot SuspectFromWire(const WireView& wire, uint32_t s) {
  SuspectSlot suspect;
  suspect.index = s;
  suspect.push_seed = wire.push_seed;
  for (uint32_t w = 0; w < RF_SLOT_WORDS; ++w) {
    suspect.words[w] = SlotWord(wire.ring, s, w);
  }
  for (uint32_t a = RF_ARG_EXECS; a < RF_SLOT_ARG_COUNT; ++a) {
    suspect.words[RF_SLOT_ARG0 + a] = 0;
  }
  suspect.words[RF_SLOT_STATUS] = RF_STATUS_EMPTY;
  return suspect;
}

}  // namespace ringfuzz
