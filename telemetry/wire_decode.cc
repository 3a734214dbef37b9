#include "telemetry/wire_decode.h"

#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace ringfuzz::telemetry {

absl::Status ValidateTelemetryBuffers(absl::Span<const uint8_t> control,
                                      absl::Span<const uint8_t> ring) {
  if (control.size() < RF_CTRL_MIN_BYTES) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "control buffer has %u bytes, but the telemetry words need at least "
        "%u (RF_CTRL_MIN_BYTES). Fix: pass the whole control buffer the "
        "megakernel wrote, not a prefix of it.",
        control.size(), RF_CTRL_MIN_BYTES));
  }
  if (control.size() % kWordBytes != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "control buffer has %u bytes, which is not a whole number of %u-byte "
        "words (%u bytes left over). Fix: pass the buffer exactly as read "
        "back, without trimming or appending bytes.",
        control.size(), kWordBytes, control.size() % kWordBytes));
  }
  if (ring.size() % RF_SLOT_BYTES != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ring buffer has %u bytes, which is not a whole number of %u-byte "
        "slots (%u slots and %u bytes left over). Fix: pass the whole ring, "
        "RF_SLOT_BYTES bytes per slot, as read back from the GPU.",
        ring.size(), RF_SLOT_BYTES, SlotCount(ring),
        ring.size() % RF_SLOT_BYTES));
  }
  if (SlotCount(ring) > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ring buffer holds %u slots, more than a u32 slot index can name "
        "(%u). Fix: decode the ring in parts of at most %u slots.",
        SlotCount(ring), std::numeric_limits<uint32_t>::max(),
        std::numeric_limits<uint32_t>::max()));
  }
  return absl::OkStatus();
}

void DecodeControlInto(absl::Span<const uint8_t> control,
                       ControlSnapshot& out) {
  out.shutdown = LoadWord(control, RF_CTRL_SHUTDOWN) != 0;
  out.done_count = LoadWord(control, RF_CTRL_DONE_COUNT);
  out.epoch = LoadWord(control, RF_CTRL_EPOCH);
  out.metrics.clear();
  for (uint32_t opcode = 0; opcode < RF_CTRL_DISPATCH_COUNT; ++opcode) {
    const uint32_t count = LoadWord(control, RF_CTRL_DISPATCH + opcode);
    if (count != 0) out.metrics.push_back({opcode, count});
  }
  for (size_t t = 0; t < out.tenant_fairness.size(); ++t) {
    out.tenant_fairness[t] = LoadWord(control, RF_CTRL_TENANT_FAIRNESS + t);
  }
  for (size_t p = 0; p < out.priority_fairness.size(); ++p) {
    out.priority_fairness[p] = LoadWord(control, RF_CTRL_PRIORITY_FAIRNESS + p);
  }
}

}  // namespace ringfuzz::telemetry
