// The status word of one ring slot, decoded without losing unknown values.
#ifndef RINGFUZZ_TELEMETRY_SLOT_STATUS_H_
#define RINGFUZZ_TELEMETRY_SLOT_STATUS_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/strings/string_view.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz::telemetry {

// The eight statuses of the wire protocol plus kUnknown for any other word.
enum class SlotStatusKind : uint8_t {
  kEmpty,
  kPublished,
  kClaimed,
  kDone,
  kWaitIo,
  kYield,
  kRequeue,
  kFault,
  kUnknown,
};

// A slot status keeps the raw word, so Unknown(raw) still says which value
// the GPU wrote: a corrupted or newer-protocol ring stays diagnosable.
// Default-constructs to EMPTY (the value of a zeroed slot).
class SlotStatus {
 public:
  constexpr SlotStatus() = default;

  // Any 32-bit word is a valid status; unlisted values are kUnknown.
  static constexpr SlotStatus FromRaw(uint32_t raw) { return SlotStatus(raw); }
  // The status of `kind`. Requires kind != kUnknown (use FromRaw for those);
  // kUnknown maps to the first raw value past the protocol's statuses.
  static constexpr SlotStatus Of(SlotStatusKind kind) {
    switch (kind) {
      case SlotStatusKind::kEmpty:
        return SlotStatus(RF_STATUS_EMPTY);
      case SlotStatusKind::kPublished:
        return SlotStatus(RF_STATUS_PUBLISHED);
      case SlotStatusKind::kClaimed:
        return SlotStatus(RF_STATUS_CLAIMED);
      case SlotStatusKind::kDone:
        return SlotStatus(RF_STATUS_DONE);
      case SlotStatusKind::kWaitIo:
        return SlotStatus(RF_STATUS_WAIT_IO);
      case SlotStatusKind::kYield:
        return SlotStatus(RF_STATUS_YIELD);
      case SlotStatusKind::kRequeue:
        return SlotStatus(RF_STATUS_REQUEUE);
      case SlotStatusKind::kFault:
        return SlotStatus(RF_STATUS_FAULT);
      case SlotStatusKind::kUnknown:
        break;
    }
    return SlotStatus(RF_STATUS_FAULT + 1u);
  }

  constexpr uint32_t raw() const { return raw_; }

  constexpr SlotStatusKind kind() const {
    switch (raw_) {
      case RF_STATUS_EMPTY:
        return SlotStatusKind::kEmpty;
      case RF_STATUS_PUBLISHED:
        return SlotStatusKind::kPublished;
      case RF_STATUS_CLAIMED:
        return SlotStatusKind::kClaimed;
      case RF_STATUS_DONE:
        return SlotStatusKind::kDone;
      case RF_STATUS_WAIT_IO:
        return SlotStatusKind::kWaitIo;
      case RF_STATUS_YIELD:
        return SlotStatusKind::kYield;
      case RF_STATUS_REQUEUE:
        return SlotStatusKind::kRequeue;
      case RF_STATUS_FAULT:
        return SlotStatusKind::kFault;
      default:
        return SlotStatusKind::kUnknown;
    }
  }

  // Returns true iff the slot still holds work the GPU owes: PUBLISHED,
  // CLAIMED, WAIT_IO, YIELD or REQUEUE (the wire protocol's "active").
  constexpr bool IsActive() const {
    switch (kind()) {
      case SlotStatusKind::kPublished:
      case SlotStatusKind::kClaimed:
      case SlotStatusKind::kWaitIo:
      case SlotStatusKind::kYield:
      case SlotStatusKind::kRequeue:
        return true;
      default:
        return false;
    }
  }

  // Lowercase protocol name ("empty", "wait_io", ...); "unknown" for kUnknown.
  absl::string_view KindName() const;
  // KindName(), except "unknown(N)" with the raw word N for kUnknown.
  std::string ToString() const;

  friend constexpr bool operator==(SlotStatus a, SlotStatus b) {
    return a.raw_ == b.raw_;
  }
  friend constexpr bool operator!=(SlotStatus a, SlotStatus b) {
    return !(a == b);
  }
  friend std::ostream& operator<<(std::ostream& os, SlotStatus status) {
    return os << status.ToString();
  }

 private:
  constexpr explicit SlotStatus(uint32_t raw) : raw_(raw) {}

  uint32_t raw_ = RF_STATUS_EMPTY;
};

}  // namespace ringfuzz::telemetry

#endif  // RINGFUZZ_TELEMETRY_SLOT_STATUS_H_
