#include "fuzz/steer/steering_priority.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "fuzz/steer/steering_wire.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

bool IsFuzzingWork(uint32_t opcode) {
  return opcode >= RF_OP_FIRST_WORK && opcode <= RF_OP_TRIM;
}

// Returns true iff slot `s` of `ring` ran all of its requested executions.
bool Finished(absl::Span<const uint8_t> ring, uint32_t s) {
  const uint32_t status = SlotWord(ring, s, RF_SLOT_STATUS);
  if (status != RF_STATUS_DONE && status != RF_STATUS_FAULT) return false;
  return SlotWord(ring, s, RF_SLOT_ARG0 + RF_ARG_EXECS) >=
         SlotWord(ring, s, RF_SLOT_ARG0 + RF_ARG_COUNT);
}

}  // namespace

void PriorityAging::ObserveRing(absl::Span<const uint8_t> ring) {
  // Sorted, duplicate-free parent lists. A ring holds thousands of slots
  // of a few hundred parents, mostly in runs of one parent (the scheduler
  // groups a parent's items): a run adds its parent once.
  std::vector<uint32_t> unfinished, finished;
  auto add = [](std::vector<uint32_t>& parents, uint32_t parent) {
    if (parents.empty() || parents.back() != parent) parents.push_back(parent);
  };
  for (uint32_t s = 0; s < SlotCount(ring); ++s) {
    const uint32_t status = SlotWord(ring, s, RF_SLOT_STATUS);
    if (status == RF_STATUS_EMPTY ||
        !IsFuzzingWork(SlotWord(ring, s, RF_SLOT_OPCODE))) {
      continue;
    }
    const uint32_t parent = SlotWord(ring, s, RF_SLOT_ARG0 + RF_ARG_PARENT);
    if (Finished(ring, s)) {
      add(finished, parent);
    } else {
      add(unfinished, parent);
      const auto waited = age_.find(parent);
      accounting_.RecordRequeue(waited != age_.end() ? waited->second + 1 : 1);
    }
  }
  for (std::vector<uint32_t>* parents : {&unfinished, &finished}) {
    std::sort(parents->begin(), parents->end());
    parents->erase(std::unique(parents->begin(), parents->end()),
                   parents->end());
  }
  auto waits = [&](uint32_t parent) {
    return std::binary_search(unfinished.begin(), unfinished.end(), parent);
  };
  for (uint32_t parent : finished) {
    if (!waits(parent)) age_.erase(parent);
  }
  for (auto& [parent, age] : age_) {
    if (!waits(parent) && age < UINT32_MAX) ++age;  // still waits
  }
  for (uint32_t parent : unfinished) {
    uint32_t& age = age_[parent];
    if (age < UINT32_MAX) ++age;
  }
}

std::vector<uint32_t> PriorityAging::Promote(bool age_priority_work,
                                             size_t max) {
  std::vector<uint32_t> promoted;
  if (!age_priority_work || max == 0) return promoted;
  std::vector<std::pair<uint32_t, uint32_t>> by_age;  // (age, parent)
  for (const auto& [parent, age] : age_) by_age.push_back({age, parent});
  std::stable_sort(
      by_age.begin(), by_age.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < by_age.size() && i < max; ++i) {
    promoted.push_back(by_age[i].second);
    accounting_.RecordAgedPromotion(by_age[i].first);
  }
  return promoted;
}

bool PriorityAging::DrainIfRecommended() {
  if (!accounting_.DrainRecommendation().should_drain) return false;
  accounting_ = telemetry::PriorityRequeueAccounting{};
  return true;
}

}  // namespace ringfuzz
