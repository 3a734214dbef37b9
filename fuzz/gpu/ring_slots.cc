#include "fuzz/gpu/ring_slots.h"

#include "absl/strings/str_cat.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

absl::Status PrepareToPublish(uint32_t* ring, uint32_t count) {
  for (uint32_t s = 0; s < count; ++s) {
    const uint32_t status = ring[uint64_t{s} * RF_SLOT_WORDS + RF_SLOT_STATUS];
    if (status == RF_STATUS_CLAIMED || status > RF_STATUS_FAULT) {
      return absl::InternalError(absl::StrCat(
          "ring slot ", s, " is ",
          status == RF_STATUS_CLAIMED
              ? "CLAIMED"
              : absl::StrCat("in unknown status ", status),
          " between rounds, so it cannot be published again: the megakernel "
          "broke the ring protocol (a device fault, or a bug in ringfuzz: "
          "please report it with the target)"));
    }
  }
  for (uint32_t s = 0; s < count; ++s) {
    uint32_t& status = ring[uint64_t{s} * RF_SLOT_WORDS + RF_SLOT_STATUS];
    if (status != RF_STATUS_EMPTY && status != RF_STATUS_DONE) {
      status = RF_STATUS_EMPTY;
    }
  }
  return absl::OkStatus();
}

}  // namespace ringfuzz
