#include "telemetry/ring_slot_snapshot.h"

#include <ostream>

#include "absl/strings/str_join.h"

namespace ringfuzz::telemetry {

std::ostream& operator<<(std::ostream& os, const RingSlotSnapshot& slot) {
  return os << "RingSlotSnapshot{slot=" << slot.slot
            << ", status=" << slot.status << ", tenant=" << slot.tenant
            << ", opcode=" << slot.opcode << ", args=["
            << absl::StrJoin(slot.args, ",") << "]}";
}

}  // namespace ringfuzz::telemetry
