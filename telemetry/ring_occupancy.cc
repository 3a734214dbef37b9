#include "telemetry/ring_occupancy.h"

#include <cstdint>
#include <ostream>

namespace ringfuzz::telemetry {

void RingOccupancy::Count(SlotStatus status) {
  switch (status.kind()) {
    case SlotStatusKind::kEmpty:
      ++empty;
      break;
    case SlotStatusKind::kPublished:
      ++published;
      break;
    case SlotStatusKind::kClaimed:
      ++claimed;
      break;
    case SlotStatusKind::kDone:
      ++done;
      break;
    case SlotStatusKind::kWaitIo:
      ++wait_io;
      break;
    case SlotStatusKind::kYield:
      ++yield;
      break;
    case SlotStatusKind::kRequeue:
      ++requeue;
      break;
    case SlotStatusKind::kFault:
      ++fault;
      break;
    case SlotStatusKind::kUnknown:
      ++unknown;
      break;
  }
}

uint64_t RingOccupancy::total_slots() const {
  return uint64_t{empty} + done + queue_depth();
}

uint64_t RingOccupancy::queue_depth() const {
  return uint64_t{published} + claimed + wait_io + yield + requeue + fault +
         unknown;
}

bool operator==(const RingOccupancy& a, const RingOccupancy& b) {
  return a.empty == b.empty && a.published == b.published &&
         a.claimed == b.claimed && a.done == b.done && a.wait_io == b.wait_io &&
         a.yield == b.yield && a.requeue == b.requeue && a.fault == b.fault &&
         a.unknown == b.unknown;
}

std::ostream& operator<<(std::ostream& os, const RingOccupancy& occupancy) {
  return os << "RingOccupancy{empty=" << occupancy.empty
            << ", published=" << occupancy.published
            << ", claimed=" << occupancy.claimed << ", done=" << occupancy.done
            << ", wait_io=" << occupancy.wait_io
            << ", yield=" << occupancy.yield
            << ", requeue=" << occupancy.requeue
            << ", fault=" << occupancy.fault
            << ", unknown=" << occupancy.unknown << "}";
}

}  // namespace ringfuzz::telemetry
