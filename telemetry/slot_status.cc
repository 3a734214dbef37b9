#include "telemetry/slot_status.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace ringfuzz::telemetry {

absl::string_view SlotStatus::KindName() const {
  switch (kind()) {
    case SlotStatusKind::kEmpty:
      return "empty";
    case SlotStatusKind::kPublished:
      return "published";
    case SlotStatusKind::kClaimed:
      return "claimed";
    case SlotStatusKind::kDone:
      return "done";
    case SlotStatusKind::kWaitIo:
      return "wait_io";
    case SlotStatusKind::kYield:
      return "yield";
    case SlotStatusKind::kRequeue:
      return "requeue";
    case SlotStatusKind::kFault:
      return "fault";
    case SlotStatusKind::kUnknown:
      break;
  }
  return "unknown";
}

std::string SlotStatus::ToString() const {
  if (kind() == SlotStatusKind::kUnknown) {
    return absl::StrCat("unknown(", raw_, ")");
  }
  return std::string(KindName());
}

}  // namespace ringfuzz::telemetry
