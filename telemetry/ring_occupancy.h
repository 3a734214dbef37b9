// How many ring slots are in each status.
#ifndef RINGFUZZ_TELEMETRY_RING_OCCUPANCY_H_
#define RINGFUZZ_TELEMETRY_RING_OCCUPANCY_H_

#include <cstdint>
#include <ostream>

#include "telemetry/slot_status.h"

namespace ringfuzz::telemetry {

// One counter per status (unknown included). Totals are derived, never
// stored, so they cannot disagree with the counters.
struct RingOccupancy {
  uint32_t empty = 0;
  uint32_t published = 0;
  uint32_t claimed = 0;
  uint32_t done = 0;
  uint32_t wait_io = 0;
  uint32_t yield = 0;
  uint32_t requeue = 0;
  uint32_t fault = 0;
  uint32_t unknown = 0;

  // Adds one slot of `status`.
  void Count(SlotStatus status);

  // The sum of all nine counters.
  uint64_t total_slots() const;
  // Slots not yet settled: every status but EMPTY and DONE (FAULT and unknown
  // included, because the host has to look at them).
  uint64_t queue_depth() const;

  friend bool operator==(const RingOccupancy& a, const RingOccupancy& b);
  friend bool operator!=(const RingOccupancy& a, const RingOccupancy& b) {
    return !(a == b);
  }
};
std::ostream& operator<<(std::ostream& os, const RingOccupancy& occupancy);

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_RING_OCCUPANCY_H_
