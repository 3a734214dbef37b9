// Stall detection for a running megakernel, from polls of its wire buffers.
//
// The megakernel drains ring slots; DONE_COUNT grows by one per drained
// slot. A dispatch whose DONE_COUNT stays the same while slots are queued
// (RingTelemetry::HealthSince reports suspected_stall) for at least the stall
// interval is stalled: some workgroup is stuck in an execution that does not
// end. The slots CLAIMED at that moment are the suspects: one of them holds
// the input that hangs.
//
// No clock inside: the caller passes the time of each poll, so tests can use
// a fake clock and a zero interval.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_STALL_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_STALL_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "fuzz/steer/steering_wire.h"
#include "telemetry/ring_telemetry.h"

namespace ringfuzz {

class StallWatch {
 public:
  // A dispatch is stalled once it made no progress for `stall_interval`
  // (zero: at the first poll without progress).
  explicit StallWatch(absl::Duration stall_interval)
      : stall_interval_(stall_interval) {}

  // A dispatch starts: `wire` (decoded leniently) is the baseline, `now`
  // the time of the last progress. Forgets an earlier stall.
  void Start(const WireView& wire, absl::Duration now);

  // Returns true iff the dispatch is stalled at `now`: no slot was drained
  // since the last progress, at least one is queued and one claimed (a
  // workgroup holds it), none faulted, and the stall interval has passed. Then
  // suspects() holds the slots CLAIMED in `wire`. Progress, or a done_count
  // that went backwards (new counters), moves the baseline to `wire`.
  bool Poll(const WireView& wire, absl::Duration now);

  bool stalled() const { return stalled_; }
  // The suspects of the stall (empty unless stalled()), in ring order.
  const std::vector<SuspectSlot>& suspects() const { return suspects_; }
  // How long no slot was drained when the stall was declared.
  absl::Duration stalled_for() const { return stalled_for_; }
  // Slots queued (published, claimed, ...) when the stall was declared.
  uint64_t queue_depth() const { return queue_depth_; }
  // The health of the last poll against the baseline, if any.
  const std::optional<telemetry::MegakernelWatchdogSnapshot>& last_health()
      const {
    return last_health_;
  }
  // Forgets the stall and its suspects (after recovery).
  void Clear();

 private:
  absl::Duration stall_interval_;
  telemetry::RingTelemetry baseline_;
  absl::Duration progress_at_;
  std::optional<telemetry::MegakernelWatchdogSnapshot> last_health_;
  bool stalled_ = false;
  std::vector<SuspectSlot> suspects_;
  absl::Duration stalled_for_;
  uint64_t queue_depth_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_STALL_H_
