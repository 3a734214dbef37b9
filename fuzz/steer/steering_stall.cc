#include "fuzz/steer/steering_stall.h"

namespace ringfuzz {

void StallWatch::Start(const WireView& wire, absl::Duration now) {
  baseline_ = telemetry::RingTelemetry::Decode(wire.control, wire.ring);
  progress_at_ = now;
  last_health_.reset();
  Clear();
}

bool StallWatch::Poll(const WireView& wire, absl::Duration now) {
  if (stalled_) return true;
  telemetry::RingTelemetry snapshot =
      telemetry::RingTelemetry::Decode(wire.control, wire.ring);
  absl::StatusOr<telemetry::MegakernelWatchdogSnapshot> health =
      snapshot.HealthSince(baseline_);
  if (!health.ok()) {  // new counters: a new baseline, not a stall
    baseline_ = std::move(snapshot);
    progress_at_ = now;
    last_health_.reset();
    return false;
  }
  last_health_ = *health;
  if (!health->suspected_stall) {
    if (health->done_delta > 0) {
      baseline_ = std::move(snapshot);
      progress_at_ = now;
    }
    return false;
  }
  // Queued but nothing claimed: the device has not started on this ring
  // (or every queued tenant is paused), which no replay can isolate.
  if (snapshot.occupancy.claimed == 0) return false;
  if (now - progress_at_ < stall_interval_) return false;
  stalled_ = true;
  stalled_for_ = now - progress_at_;
  queue_depth_ = health->queue_depth;
  for (const telemetry::RingSlotSnapshot& slot : snapshot.slots) {
    if (slot.status.raw() == RF_STATUS_CLAIMED) {
      suspects_.push_back(SuspectFromWire(wire, slot.slot));
    }
  }
  return true;
}

void StallWatch::Clear() {
  stalled_ = false;
  suspects_.clear();
  stalled_for_ = absl::ZeroDuration();
  queue_depth_ = 0;
}

}  // namespace ringfuzz
