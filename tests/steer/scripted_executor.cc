#include "tests/steer/scripted_executor.h"

#include <utility>

#include "absl/status/status.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

ScriptedExecutor::ScriptedExecutor(ScriptedExecutorOptions options)
    : options_(std::move(options)),
      inner_(options_.fake),
      control_(RF_CTRL_MIN_WORDS, 0) {
  control_[RF_CTRL_TENANT_BASE] = RF_CTRL_TENANT_MASKS;
  for (uint32_t t = 0; t < RF_CTRL_TENANT_MASK_COUNT; ++t) {
    control_[RF_CTRL_TENANT_MASKS + t] = 1;
  }
  if (options_.limits) groups_ = options_.limits->worker_groups;
}

WireView ScriptedExecutor::View(uint32_t slots) const {
  WireView view;
  view.control = absl::MakeConstSpan(
      reinterpret_cast<const uint8_t*>(control_.data()), control_.size() * 4);
  view.ring =
      absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(ring_.data()),
                          uint64_t{slots} * RF_SLOT_BYTES);
  view.push_seed = 1000u + static_cast<uint32_t>(batch_index_);
  return view;
}

absl::StatusOr<BatchResult> ScriptedExecutor::RunBatch(
    absl::Span<const WorkItem> work, uint64_t seed) {
  const uint32_t n = static_cast<uint32_t>(work.size());
  batches_.emplace_back(work.begin(), work.end());
  inputs_at_batch_.push_back(inner_.inputs().size());
  ring_.assign(uint64_t{n} * RF_SLOT_WORDS, 0);
  for (uint32_t s = 0; s < n; ++s) {
    uint32_t* slot = Slot(s);
    slot[RF_SLOT_OPCODE] = work[s].opcode;
    slot[RF_SLOT_TENANT] = work[s].tenant;
    slot[RF_SLOT_PRIORITY] = work[s].priority;
    uint32_t* args = slot + RF_SLOT_ARG0;
    args[RF_ARG_TICKET] = work[s].ticket;
    args[RF_ARG_CLASS] = work[s].window_class;
    args[RF_ARG_PARENT] = work[s].parent;
    args[RF_ARG_COUNT] = work[s].count;
    args[RF_ARG_SEED] = static_cast<uint32_t>(seed + s);
    args[RF_ARG_PARTNER] = work[s].partner;
    args[RF_ARG_STACK] = work[s].stack;
    slot[RF_SLOT_STATUS] = RF_STATUS_PUBLISHED;
  }
  const auto partitions = PriorityPartitions(work);
  std::copy(partitions.begin(), partitions.end(),
            control_.begin() + RF_CTRL_PRIORITY_PARTITIONS);
  partitions_.emplace_back(partitions.begin(), partitions.end());
  control_[RF_CTRL_EPOCH] += 1;
  const WireView published = View(n);
  published_.emplace_back(published.ring.begin(), published.ring.end());
  if (observer_ != nullptr) observer_->OnDispatchStart(View(n));

  std::vector<SlotFate> fates(n, SlotFate::kRun);
  bool hang = false;
  std::vector<WorkItem> run;
  for (uint32_t s = 0; s < n; ++s) {
    if (options_.fate) fates[s] = options_.fate(batch_index_, s, work[s]);
    hang |= fates[s] == SlotFate::kHang;
    if (fates[s] == SlotFate::kUnclaimed) continue;
    uint32_t* slot = Slot(s);
    slot[RF_SLOT_STATUS] = RF_STATUS_CLAIMED;
    control_[RF_CTRL_TENANT_FAIRNESS + (work[s].tenant & 31u)] += 1;
    if (work[s].priority < RF_CTRL_PRIORITY_COUNT) {
      control_[RF_CTRL_PRIORITY_FAIRNESS + work[s].priority] += 1;
    }
    if (fates[s] == SlotFate::kHang) continue;
    const uint32_t execs =
        fates[s] == SlotFate::kRun ? work[s].count : work[s].count / 2;
    slot[RF_SLOT_ARG0 + RF_ARG_EXECS] = execs;
    if (work[s].opcode < RF_CTRL_DISPATCH_COUNT) {
      control_[RF_CTRL_DISPATCH + work[s].opcode] += 1;
    }
    slot[RF_SLOT_STATUS] = RF_STATUS_DONE;
    control_[RF_CTRL_DONE_COUNT] += 1;
    if (execs > 0) {
      WorkItem item = work[s];
      item.count = execs;
      run.push_back(item);
    }
  }
  fates_.push_back(fates);
  if (hang) {
    bool stopped = false;
    for (int i = 0; i < kMaxPolls && !stopped && observer_ != nullptr; ++i) {
      if (options_.clock != nullptr)
        options_.clock->Advance(options_.poll_step);
      ++polls_;
      stopped = observer_->OnPoll(View(n));
    }
    if (!stopped) {
      return absl::DeadlineExceededError(
          "scripted hang: nobody stopped the dispatch");
    }
    control_[RF_CTRL_SHUTDOWN] = 1;
    ++shutdowns_;
    if (options_.hang_forever) {
      return absl::UnavailableError(
          "the device is hung: the megakernel did not stop after SHUTDOWN");
    }
    control_[RF_CTRL_SHUTDOWN] = 0;
  }
  absl::StatusOr<BatchResult> result =
      run.empty() ? absl::StatusOr<BatchResult>(BatchResult{})
                  : inner_.RunBatch(run, seed);
  if (observer_ != nullptr) observer_->OnEpochEnd(View(n), /*last=*/true);
  ++batch_index_;
  return result;
}

std::optional<LaunchLimits> ScriptedExecutor::launch_limits() const {
  if (!options_.limits) return std::nullopt;
  LaunchLimits limits = *options_.limits;
  limits.worker_groups = groups_;
  return limits;
}

absl::Status ScriptedExecutor::SetWorkerGroups(uint32_t groups) {
  if (!options_.limits) {
    return absl::UnimplementedError(
        "this executor has a fixed launch geometry");
  }
  groups_set_.push_back(groups);
  groups_ = groups;
  return absl::OkStatus();
}

absl::Status ScriptedExecutor::SetTenantWords(const TenantWords& words) {
  tenant_words_.push_back(words);
  std::copy(words.masks.begin(), words.masks.end(),
            control_.begin() + RF_CTRL_TENANT_MASKS);
  std::copy(words.quotas.begin(), words.quotas.end(),
            control_.begin() + RF_CTRL_TENANT_QUOTAS);
  return absl::OkStatus();
}

absl::StatusOr<BatchResult> ScriptedExecutor::ReplaySlot(
    const SuspectSlot& slot) {
  replayed_.push_back(slot);
  const uint32_t parent = slot.words[RF_SLOT_ARG0 + RF_ARG_PARENT];
  if (fates_.empty() || slot.index >= fates_.back().size() ||
      parent >= inner_.inputs().size()) {
    return absl::InvalidArgumentError("replay of a slot that never ran");
  }
  WorkItem item;
  item.opcode = slot.words[RF_SLOT_OPCODE];
  item.parent = parent;
  item.count = slot.words[RF_SLOT_ARG0 + RF_ARG_COUNT];
  if (fates_.back()[slot.index] != SlotFate::kHang ||
      !options_.replay_reproduces_hang) {
    return inner_.RunBatch(absl::MakeConstSpan(&item, 1), slot.push_seed);
  }
  BatchResult result;
  result.executions = 1;
  Find find;
  find.kind = Find::Kind::kTimeout;
  find.data = inner_.inputs()[parent];
  find.parent = parent;
  find.opcode = item.opcode;
  find.aux = 1000;
  result.finds.push_back(find);
  return result;
}

}  // namespace ringfuzz
