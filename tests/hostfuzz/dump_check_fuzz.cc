// libFuzzer harness of the dump checks of `telemetry decode`
// (telemetry/dump_check.h): CheckDump never reads past either buffer, and
// what it accepts decodes strictly into a snapshot that keeps its rules
// (every slot's status a protocol one, the slot count the partitions'
// total).
//
// Input (tests/hostfuzz/fuzz_input.h): Part() control, Rest() ring.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/dump_check.h"
#include "telemetry/ring_telemetry.h"
#include "telemetry/wire_decode.h"
#include "tests/hostfuzz/fuzz_input.h"

namespace ringfuzz::telemetry {
namespace {

void RunOne(const uint8_t* data, size_t size) {
  hostfuzz::FuzzInput input(data, size);
  const std::vector<uint8_t> control = input.Part();
  const std::vector<uint8_t> ring = input.Rest();
  const absl::Status checked = CheckDump(control, ring);
  const absl::Status valid = ValidateTelemetryBuffers(control, ring);
  if (!valid.ok()) {
    HOSTFUZZ_CHECK(checked == valid);
    return;
  }
  if (!checked.ok()) {
    HOSTFUZZ_CHECK(checked.code() == absl::StatusCode::kInvalidArgument);
    HOSTFUZZ_CHECK(checked.message().find("Fix: ") != absl::string_view::npos);
    return;
  }
  absl::StatusOr<RingTelemetry> decoded =
      RingTelemetry::TryDecode(control, ring);
  HOSTFUZZ_CHECK(decoded.ok());
  HOSTFUZZ_CHECK(LoadWord(control, RF_CTRL_TENANT_BASE) ==
                 RF_CTRL_TENANT_MASKS);
  HOSTFUZZ_CHECK(LoadWord(control, RF_CTRL_PRIORITY_PARTITIONS +
                                       RF_CTRL_PRIORITY_PARTITION_COUNT - 1) ==
                 decoded->slots.size());
  for (const RingSlotSnapshot& slot : decoded->slots) {
    HOSTFUZZ_CHECK(slot.status.kind() != SlotStatusKind::kUnknown);
  }
  HOSTFUZZ_CHECK(decoded->occupancy.total_slots() == decoded->slots.size());
}

}  // namespace
}  // namespace ringfuzz::telemetry

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ringfuzz::telemetry::RunOne(data, size);
  return 0;
}
