// Priority aging: parents whose work the device left unfinished get the
// front of the next batch.
//
// A ring slot leaves its parent's work unfinished when the batch ends with
// the slot DONE or FAULT but fewer executions than requested (RF_ARG_EXECS <
// RF_ARG_COUNT: its workgroup ran out of loop budget, or the host stopped
// the dispatch), or still PUBLISHED, REQUEUE, YIELD, WAIT_IO or CLAIMED
// (never run to the end). Such a parent is requeued: it waits, one more
// batch of age per ring load it is still owed work, until a later batch
// finishes a slot of it completely. When the launch policy says to age
// priority work (MegakernelLaunchRecommendation::age_priority_work), the
// waiting parents, oldest first, are promoted to RF_PRIORITY_HIGH items at
// the front of the next batch. Requeues and promotions are counted in a
// PriorityRequeueAccounting that the steering exports and drains.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_PRIORITY_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_PRIORITY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "absl/types/span.h"
#include "telemetry/priority_accounting.h"

namespace ringfuzz {

class PriorityAging {
 public:
  // Records the final state of a ring load (the ring of the last epoch of a
  // batch). Slots of other opcodes than the fuzzing work kinds
  // (RF_OP_HAVOC..RF_OP_TRIM) are ignored.
  void ObserveRing(absl::Span<const uint8_t> ring);

  // Returns up to `max` waiting parents (executor corpus indices), oldest
  // first (ties: lower index first), and counts an aged promotion for each;
  // nothing unless `age_priority_work`. They keep waiting until a batch
  // finishes one of their slots.
  std::vector<uint32_t> Promote(bool age_priority_work, size_t max);

  // Parents waiting now, with their age in ring loads.
  const std::map<uint32_t, uint32_t>& waiting() const { return age_; }
  const telemetry::PriorityRequeueAccounting& accounting() const {
    return accounting_;
  }
  // Resets the accounting iff its DrainRecommendation says so (after it was
  // exported); returns whether it did.
  bool DrainIfRecommended();

 private:
  std::map<uint32_t, uint32_t> age_;  // parent -> ring loads waited
  telemetry::PriorityRequeueAccounting accounting_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_PRIORITY_H_
