// Overlapped rounds of the GPU executor (SubmitBatch / CollectBatch).
//
// Two rounds may be in the air: one running, one queued behind it on the
// same queue. Each has its own ring and find queue (parity 0 and 1). The
// control words a round reads and leaves are shared, so its submission
// sets them on the device (vkCmdUpdateBuffer before the dispatch: claim
// cursor, counters, epoch, priority partitions) and saves them there
// (vkCmdCopyBuffer after it, into the parity's snapshot): the host never
// writes a word a queued or running round uses, and reads a round's
// results from its snapshot after its fence, whatever the next round has
// done to the live words since. The coverage maps stay shared: a round
// sees every bit the rounds before it set.
//
// A round is published and queued while the one before it runs, so the
// device goes from one round to the next without waiting for the host;
// the host reads a round's finds while the next one runs, and the round
// it plans then holds their mutants.

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu_executor.h"
#include "fuzz/ring_slots.h"
#include "fuzz/steering_wire.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

absl::Status GpuExecutor::SubmitBatch(absl::Span<const WorkItem> work,
                                      uint64_t seed) {
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (!overlap_ || work.empty() || work.size() > ring_slots_) {
    // RunBatch waits for the flights first: results stay in order.
    finished_.push_back(RunBatch(work, seed));
    return absl::OkStatus();
  }
  for (const WorkItem& item : work) {
    if (item.parent >= inputs_.size() ||
        (item.opcode == RF_OP_SPLICE && item.partner >= inputs_.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "work item names corpus entry ", std::max(item.parent, item.partner),
          " but the executor holds ", inputs_.size()));
    }
  }
  // CMP items draw from their parent's own patches: inputs added since the
  // last batch are logged first, which needs the device to itself.
  if (logged_inputs_ < inputs_.size()) {
    if (absl::Status s = Quiesce(); !s.ok()) return s;
    BatchResult between;
    if (absl::Status s = LogNewInputs(between); !s.ok()) return s;
    for (Find& find : between.finds) {
      between_batches_.push_back(std::move(find));
    }
  }
  if (flights_.size() >= 2) FinishOldest();
  const uint32_t parity = next_parity_;
  const uint32_t count = static_cast<uint32_t>(work.size());
  if (absl::Status s = PrepareToPublish(RingOf(parity).words(), count);
      !s.ok()) {
    return s;
  }
  uint32_t max_stack = 1;
  for (uint32_t s = 0; s < count; ++s) {
    PublishSlot(s, work[s], Mix(seed + s), parity);
    max_stack =
        std::max(max_stack, std::clamp<uint32_t>(work[s].stack, 1, kMaxStack));
  }
  MarkPublished(count, parity);

  const uint32_t* ctrl = control_.words();
  control_epoch_ =
      (flights_.empty() ? ctrl[RF_CTRL_EPOCH] : control_epoch_) + 1;
  vk::DispatchCommands commands;
  std::vector<uint32_t> head = {control_epoch_};
  const auto partitions = PriorityPartitions(work);
  head.insert(head.end(), partitions.begin(), partitions.end());
  commands.before.push_back({&control_, RF_CTRL_EPOCH, std::move(head)});
  // EXECS, CLAIM_CURSOR, FIND_COUNT, FIND_DROPPED, FAULTS, STOP.
  commands.before.push_back(
      {&control_, RF_RES_EXECS,
       std::vector<uint32_t>(RF_RES_STOP - RF_RES_EXECS + 1, 0u)});
  commands.before.push_back(
      {&control_, RF_RES_MUTATOR_USES,
       std::vector<uint32_t>(RF_RES_MUTATOR_USE_WORDS, 0u)});
  const uint64_t snapshot = uint64_t{parity} * kSnapshotWords;
  commands.after.push_back(
      {&control_, 0, snapshots_.get(), snapshot, RF_RES_EDGE_MAP});
  commands.after.push_back({&control_, RF_RES_MUTATOR_USES, snapshots_.get(),
                            snapshot + RF_RES_EDGE_MAP,
                            RF_RES_MUTATOR_USE_WORDS});

  const MegakernelPush push =
      MakePush(count, max_stack,
               Mix(seed * 0x9E3779B97F4A7C15ull + (uint64_t{++epoch_} << 32)));
  absl::Status submitted =
      DispatcherOf(*precise_, parity)
          .Submit(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(&push),
                                      sizeof(push)),
                  std::min(count, groups_), commands);
  if (!submitted.ok()) return submitted;
  flights_.push_back({parity, count, push.seed, false, partitions});
  next_parity_ ^= 1;
  return absl::OkStatus();
}

absl::StatusOr<BatchResult> GpuExecutor::CollectBatch() {
  if (finished_.empty()) {
    if (flights_.empty()) {
      return absl::FailedPreconditionError(
          "CollectBatch without a batch in flight; SubmitBatch first");
    }
    FinishOldest();
  }
  absl::StatusOr<BatchResult> result = std::move(finished_.front());
  finished_.pop_front();
  if (result.ok() && !between_batches_.empty()) {
    result->finds.insert(result->finds.begin(),
                         std::make_move_iterator(between_batches_.begin()),
                         std::make_move_iterator(between_batches_.end()));
    between_batches_.clear();
  }
  return result;
}

absl::Status GpuExecutor::Quiesce() {
  while (!flights_.empty()) {
    if (absl::Status s = CheckUsable(); !s.ok()) return s;
    FinishOldest();
  }
  return CheckUsable();
}

void GpuExecutor::FinishOldest() {
  const Flight flight = flights_.front();
  flights_.pop_front();
  bool unfinished = false;
  absl::StatusOr<BatchResult> result = FlightResult(flight, unfinished);
  if (!result.ok() || !unfinished) {
    finished_.push_back(std::move(result));
    return;
  }
  // Slots left published (lanes out of loop budget) run to the end on
  // their own, once the flights queued behind have ended; their results
  // keep their place behind this one.
  std::deque<absl::StatusOr<BatchResult>> later;
  while (!flights_.empty()) {
    const Flight next = flights_.front();
    flights_.pop_front();
    bool ignored = false;
    later.push_back(FlightResult(next, ignored));
  }
  BatchResult rest;
  std::vector<Find> unused;
  // The drain reads the live control words: this flight's partitions, not
  // the last flight's.
  std::copy(flight.partitions.begin(), flight.partitions.end(),
            control_.words() + RF_CTRL_PRIORITY_PARTITIONS);
  steered_ = observer_;
  stoppable_ = true;
  absl::Status drained = Drain(*precise_, flight.slot_count, kMaxStack,
                               flight.push_seed, rest, unused, flight.parity);
  stoppable_ = false;
  steered_ = nullptr;
  if (drained.ok()) {
    result->executions += rest.executions;
    for (Find& find : rest.finds) result->finds.push_back(std::move(find));
    result->dropped_finds += rest.dropped_finds;
    for (size_t id = 0; id < rest.mutator_executions.size(); ++id) {
      result->mutator_executions[id] += rest.mutator_executions[id];
    }
    result->costs.clear();
    CollectCosts(flight.slot_count, *result, flight.parity);
    if (rest.device_end) result->device_end = rest.device_end;
    result->device_time += rest.device_time;
    finished_.push_back(std::move(result));
  } else {
    finished_.push_back(drained);
  }
  for (auto& r : later) finished_.push_back(std::move(r));
}

absl::StatusOr<BatchResult> GpuExecutor::FlightResult(const Flight& flight,
                                                      bool& unfinished) {
  vk::Dispatcher& dispatcher = DispatcherOf(*precise_, flight.parity);
  BatchResult result;
  host_stopped_ = flight.stopped;
  steered_ = flight.stopped ? nullptr : observer_;
  if (steered_ != nullptr) {
    // The rounds before this one have ended: the live control words are
    // this round's, or still the last one's if it has not begun.
    steered_->OnDispatchStart(
        Wire(flight.slot_count, flight.push_seed, flight.parity));
  }
  const absl::Time waited = absl::Now();
  stoppable_ = !flight.stopped;
  absl::StatusOr<bool> finished = WaitForDispatch(
      dispatcher, flight.slot_count, flight.push_seed, flight.parity);
  stoppable_ = false;
  if (!finished.ok() || !*finished) {
    steered_ = nullptr;
    if (!finished.ok()) {
      lost_ |= finished.status().code() == absl::StatusCode::kUnavailable;
      return finished.status();
    }
    return Hung();
  }
  AddInterval(dispatcher, result);
  result.device_time = result.device_end && result.device_start
                           ? *result.device_end - *result.device_start
                           : absl::Now() - waited;
  device_time_ += result.device_time;
  const uint32_t* snapshot =
      snapshots_->words() + uint64_t{flight.parity} * kSnapshotWords;
  result.executions = snapshot[RF_RES_EXECS];
  CollectMutatorUses(snapshot + RF_RES_EDGE_MAP, result);
  std::vector<Find> candidates;  // none: the precise build reports coverage
  if (absl::Status s =
          CollectFinds(snapshot, flight.parity, result, candidates);
      !s.ok()) {
    steered_ = nullptr;
    return s;
  }
  NotifyEpochEnd(flight.slot_count, flight.push_seed, flight.parity, snapshot);
  steered_ = nullptr;
  CollectCosts(flight.slot_count, result, flight.parity);
  unfinished = !host_stopped_ && snapshot[RF_RES_STOP] == 0 &&
               PendingSlots(flight.slot_count, flight.parity) != 0;
  return result;
}

}  // namespace ringfuzz
