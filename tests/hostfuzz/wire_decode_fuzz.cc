// libFuzzer harness of the word-level decoders (telemetry/wire_decode.h):
// ValidateTelemetryBuffers, then DecodeControlInto and DecodeSlotInto on
// what it accepts, and the status and snapshot printers.
//
// Input (tests/hostfuzz/fuzz_input.h): Part() control, Rest() ring.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/control_snapshot.h"
#include "telemetry/ring_slot_snapshot.h"
#include "telemetry/slot_status.h"
#include "telemetry/wire_decode.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz::telemetry {
namespace {

void CheckStatus(SlotStatus status) {
  HOSTFUZZ_CHECK(SlotStatus::FromRaw(status.raw()) == status);
  const bool unknown = status.kind() == SlotStatusKind::kUnknown;
  HOSTFUZZ_CHECK(unknown == (status.raw() > RF_STATUS_FAULT));
  if (!unknown) HOSTFUZZ_CHECK(SlotStatus::Of(status.kind()) == status);
  HOSTFUZZ_CHECK(!status.KindName().empty());
  HOSTFUZZ_CHECK(status.ToString().size() >= status.KindName().size());
}

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const std::vector<uint8_t> control = input.Part();
  const std::vector<uint8_t> ring = input.Rest();
  const absl::Status valid = ValidateTelemetryBuffers(control, ring);
  if (!valid.ok()) {
    HOSTFUZZ_CHECK(valid.code() == absl::StatusCode::kInvalidArgument);
    HOSTFUZZ_CHECK(!valid.message().empty());
    return;
  }
  HOSTFUZZ_CHECK(control.size() >= RF_CTRL_MIN_BYTES);
  HOSTFUZZ_CHECK(ring.size() % RF_SLOT_BYTES == 0);

  ControlSnapshot snapshot;
  snapshot.metrics.push_back({1, 1});  // overwritten, not appended to
  DecodeControlInto(control, snapshot);
  HOSTFUZZ_CHECK(snapshot.metrics.size() <= RF_CTRL_DISPATCH_COUNT);
  for (size_t i = 0; i < snapshot.metrics.size(); ++i) {
    HOSTFUZZ_CHECK(snapshot.metrics[i].count != 0);
    if (i > 0) {
      HOSTFUZZ_CHECK(snapshot.metrics[i - 1].opcode <
                     snapshot.metrics[i].opcode);
    }
  }
  std::ostringstream text;
  text << snapshot;

  const size_t slots = SlotCount(ring);
  for (size_t s = 0; s < slots; ++s) {
    RingSlotSnapshot slot;
    DecodeSlotInto(ring, static_cast<uint32_t>(s), slot);
    HOSTFUZZ_CHECK(slot.slot == s);
    HOSTFUZZ_CHECK(slot.status.raw() ==
                   LoadWord(ring, s * RF_SLOT_WORDS + RF_SLOT_STATUS));
    CheckStatus(slot.status);
    text << slot;
  }
  HOSTFUZZ_CHECK(!text.str().empty());
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}
