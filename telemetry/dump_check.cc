#include "telemetry/dump_check.h"

#include <cstddef>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/wire_decode.h"

namespace ringfuzz::telemetry {
namespace {

constexpr char kFix[] =
    " Fix: pass the epoch-NNNNNN.control file that -dump_buffers wrote as "
    "-control and the .ring file of the same epoch as -ring.";

absl::Status NotADump(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(what, kFix));
}

}  // namespace

absl::Status CheckDump(absl::Span<const uint8_t> control,
                       absl::Span<const uint8_t> ring) {
  if (absl::Status s = ValidateTelemetryBuffers(control, ring); !s.ok()) {
    return s;
  }
  const uint32_t tenant_base = LoadWord(control, RF_CTRL_TENANT_BASE);
  if (tenant_base != RF_CTRL_TENANT_MASKS) {
    return NotADump(absl::StrCat(
        "control word ", RF_CTRL_TENANT_BASE, " (TENANT_BASE) is ", tenant_base,
        ", but ringfuzz always puts the tenant mask table at word ",
        RF_CTRL_TENANT_MASKS,
        ": this is not a control dump (are -control and -ring swapped?)."));
  }
  uint32_t partitions[RF_CTRL_PRIORITY_PARTITION_COUNT];
  for (uint32_t p = 0; p < RF_CTRL_PRIORITY_PARTITION_COUNT; ++p) {
    partitions[p] = LoadWord(control, RF_CTRL_PRIORITY_PARTITIONS + p);
    if (p > 0 && partitions[p] < partitions[p - 1]) {
      return NotADump(absl::StrCat(
          "control words ", RF_CTRL_PRIORITY_PARTITIONS, "..",
          RF_CTRL_PRIORITY_PARTITIONS + RF_CTRL_PRIORITY_PARTITION_COUNT - 1,
          " (priority partitions) are ",
          absl::StrJoin(partitions, partitions + p + 1, ","),
          ", which decrease: this is not a control dump."));
    }
  }
  const size_t slots = SlotCount(ring);
  for (size_t s = 0; s < slots; ++s) {
    const size_t base = s * RF_SLOT_WORDS;
    const uint32_t status = LoadWord(ring, base + RF_SLOT_STATUS);
    const uint32_t priority = LoadWord(ring, base + RF_SLOT_PRIORITY);
    if (status > RF_STATUS_FAULT || priority > RF_PRIORITY_IDLE) {
      return NotADump(absl::StrCat(
          "ring slot ", s, " has status ", status, " and priority ", priority,
          ", but the wire protocol's statuses are 0..", RF_STATUS_FAULT,
          " and its priorities 0..", RF_PRIORITY_IDLE,
          ": this is not a ring dump (are -control and -ring swapped?)."));
    }
  }
  const uint32_t total = partitions[RF_CTRL_PRIORITY_PARTITION_COUNT - 1];
  if (total != slots) {
    return NotADump(
        absl::StrCat("the control dump's priority partitions cover ", total,
                     " slots, but the ring dump holds ", slots,
                     ": the two files are from different epochs."));
  }
  return absl::OkStatus();
}

}  // namespace ringfuzz::telemetry
