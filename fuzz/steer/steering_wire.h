// What an executor with megakernel wire buffers (shaders/ringfuzz_wire.h)
// and the engine's steering (fuzz/steer/steering.h) exchange: views of the
// control and ring bytes while and after a dispatch runs, the hook through
// which the steering watches them, the launch limits it plans with, and ring
// slots to run again on their own.
//
// The executor owns the buffers and the dispatch loop; the steering only
// reads the views and answers. Everything here is plain data so that fake
// executors in tests can script the bytes.
#ifndef RINGFUZZ_FUZZ_STEER_STEERING_WIRE_H_
#define RINGFUZZ_FUZZ_STEER_STEERING_WIRE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

struct WorkItem;

// The wire buffers as the device left them (OnEpochEnd) or as it is writing
// them (OnPoll: the bytes change under the reader, so a view is a sample,
// not a consistent snapshot). Valid only during the observer call.
struct WireView {
  absl::Span<const uint8_t> control;  // the whole control buffer
  absl::Span<const uint8_t> ring;  // the slots of this dispatch, slot 0 first
  uint32_t push_seed = 0;          // the dispatch's seed (rf_pc.seed)
};

// Watches the dispatches of fuzzing batches. Calls come from the thread that
// called Executor::RunBatch, in this order per dispatch: OnDispatchStart,
// OnPoll zero or more times, OnEpochEnd (unless the device failed).
class DispatchObserver {
 public:
  virtual ~DispatchObserver() = default;

  // How long the executor waits for a running dispatch between two polls.
  virtual absl::Duration poll_interval() const = 0;
  // The slots are published and the dispatch is about to be submitted.
  virtual void OnDispatchStart(const WireView& wire) = 0;
  // The dispatch is still running. Returns true iff it must be stopped: the
  // executor then sets the SHUTDOWN control word, waits (bounded) for the
  // dispatch to end, clears SHUTDOWN, calls OnEpochEnd and ends the batch
  // early with what was run so far.
  virtual bool OnPoll(const WireView& wire) = 0;
  // The dispatch has ended (one epoch); `last` is true iff no further
  // dispatch of this ring load follows (every slot is drained, or the batch
  // was stopped).
  virtual void OnEpochEnd(const WireView& wire, bool last) = 0;
};

// What the launch policy needs to know about an executor's device, and the
// geometry it runs now.
struct LaunchLimits {
  uint32_t workgroup_size_x = 0;  // invocations per workgroup (compiled in)
  uint32_t max_workgroup_size_x = 0;
  uint32_t max_workgroups_per_dimension = 0;
  uint32_t max_invocations_per_workgroup = 0;
  uint32_t ring_slots = 0;                  // most slots one ring load holds
  uint32_t worker_groups = 0;               // workgroups per dispatch, now
  uint64_t resident_device_bytes = 0;       // buffers the executor holds
  uint64_t device_memory_budget_bytes = 0;  // 0 = unknown
};

// A ring slot to run again on its own, exactly as it ran: its words as the
// host published them (args the device writes are cleared) and the seed of
// the dispatch it ran in, so that the device makes the same mutants.
struct SuspectSlot {
  uint32_t index = 0;  // position in the ring
  std::array<uint32_t, RF_SLOT_WORDS> words{};
  uint32_t push_seed = 0;
};

// Host-owned tenant words of the control buffer: masks (non-zero = tenant t
// may run) and quotas (slots granted to tenant t in this batch).
struct TenantWords {
  std::array<uint32_t, RF_CTRL_TENANT_MASK_COUNT> masks{};
  std::array<uint32_t, RF_CTRL_TENANT_FAIRNESS_COUNT> quotas{};
};

// Returns control words RF_CTRL_PRIORITY_PARTITIONS.. for a ring load of
// `work`: the start offset of each priority 0..4, then the total. `work`
// should be sorted by priority (the scheduler's batches are); priorities
// above RF_PRIORITY_IDLE count as IDLE.
std::array<uint32_t, RF_CTRL_PRIORITY_PARTITION_COUNT> PriorityPartitions(
    absl::Span<const WorkItem> work);

// Little-endian word `w` of `bytes`; 0 when out of range.
uint32_t WireWord(absl::Span<const uint8_t> bytes, uint64_t w);

// Number of whole slots in `ring`.
inline uint32_t SlotCount(absl::Span<const uint8_t> ring) {
  return static_cast<uint32_t>(ring.size() / RF_SLOT_BYTES);
}

// Word `w` (RF_SLOT_*, or RF_SLOT_ARG0 + RF_ARG_*) of slot `s` of `ring`.
inline uint32_t SlotWord(absl::Span<const uint8_t> ring, uint32_t s,
                         uint32_t w) {
  return WireWord(ring, uint64_t{s} * RF_SLOT_WORDS + w);
}

// Slot `s` of `wire` as a SuspectSlot (device-written args cleared).
SuspectSlot SuspectFromWire(const WireView& wire, uint32_t s);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_STEER_STEERING_WIRE_H_
