// The decoded view of one ring slot.
#ifndef RINGFUZZ_TELEMETRY_RING_SLOT_SNAPSHOT_H_
#define RINGFUZZ_TELEMETRY_RING_SLOT_SNAPSHOT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>

#include "telemetry/slot_status.h"

namespace ringfuzz::telemetry {

// How many args a snapshot keeps: arg0..arg2 (ticket, window class and, for
// ringfuzz, the parent). The protocol asks for at least these three; keeping
// only them keeps a 1M-slot snapshot at 28 MB.
inline constexpr size_t kSlotArgPrefix = 3;

struct RingSlotSnapshot {
  uint32_t slot = 0;  // index in the ring
  SlotStatus status;
  uint32_t tenant = 0;
  uint32_t opcode = 0;
  std::array<uint32_t, kSlotArgPrefix> args{};

  friend bool operator==(const RingSlotSnapshot& a, const RingSlotSnapshot& b) {
    return a.slot == b.slot && a.status == b.status && a.tenant == b.tenant &&
           a.opcode == b.opcode && a.args == b.args;
  }
  friend bool operator!=(const RingSlotSnapshot& a, const RingSlotSnapshot& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const RingSlotSnapshot& slot);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_RING_SLOT_SNAPSHOT_H_
