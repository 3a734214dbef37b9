#include "fuzz/scheduler.h"

#include <algorithm>
#include <cmath>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

Scheduler::Scheduler(uint64_t seed, bool use_dictionary)
    : rng_(seed), use_dictionary_(use_dictionary) {}

uint64_t Scheduler::Below(uint64_t n) { return rng_() % n; }

double Scheduler::Unit() {
  return static_cast<double>(rng_() >> 11) * 0x1.0p-53;
}

double Scheduler::Energy(const CorpusEntry& entry, uint64_t total_executions) {
  double age_fraction =
      total_executions == 0
          ? 1.0
          : std::min(1.0, static_cast<double>(entry.added_at_exec) /
                              static_cast<double>(total_executions));
  double recency = 1.0 + 3.0 * age_fraction;
  return (1.0 + entry.new_bits) * std::sqrt(1.0 + entry.finds) * recency /
         std::sqrt(1.0 + static_cast<double>(entry.executions));
}

Batch Scheduler::NextBatch(const Corpus& corpus, const BatchBudget& budget,
                           uint64_t total_executions) {
  Batch batch;
  batch.seed = rng_();
  uint64_t total = uint64_t{budget.slots} * budget.execs_per_slot;
  if (budget.remaining_runs) total = std::min(total, *budget.remaining_runs);
  if (corpus.empty() || total == 0) return batch;
  batch.requested = total;
  const uint64_t items = std::min<uint64_t>(budget.slots, total);

  // Draw a parent per item by energy.
  std::vector<double> cumulative;
  cumulative.reserve(corpus.size());
  double sum = 0;
  for (const CorpusEntry& entry : corpus.entries()) {
    sum += Energy(entry, total_executions);
    cumulative.push_back(sum);
  }
  std::vector<size_t> parents;
  parents.reserve(items);
  for (uint64_t i = 0; i < items; ++i) {
    size_t pick =
        std::upper_bound(cumulative.begin(), cumulative.end(), Unit() * sum) -
        cumulative.begin();
    parents.push_back(std::min(pick, corpus.size() - 1));
  }
  // Group a parent's items together, in order of first draw.
  std::vector<size_t> order(items);
  std::vector<int64_t> first_draw(corpus.size(), -1);
  for (uint64_t i = 0; i < items; ++i) {
    if (first_draw[parents[i]] < 0) first_draw[parents[i]] = i;
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return first_draw[parents[a]] < first_draw[parents[b]];
  });

  const uint64_t base = total / items, extra = total % items;
  uint32_t in_group = 0;
  for (uint64_t i = 0; i < items; ++i) {
    size_t parent = parents[order[i]];
    bool new_group = i == 0 || parent != parents[order[i - 1]];
    if (new_group) {
      in_group = 0;
      ++next_ticket_;
    }
    WorkItem item;
    item.parent = corpus.entry(parent).executor_index;
    item.count = static_cast<uint32_t>(base + (i < extra ? 1 : 0));
    item.ticket = next_ticket_;
    item.window_class =
        in_group < kRequiredPerParent ? RF_CLASS_REQUIRED : RF_CLASS_LOOKAHEAD;
    item.priority =
        in_group < kRequiredPerParent ? RF_PRIORITY_NORMAL : RF_PRIORITY_LOW;
    ++in_group;
    item.stack = 1u << Below(4);
    uint64_t roll = Below(8);
    if (roll == 0 && corpus.size() >= 2) {
      item.opcode = RF_OP_SPLICE;
      size_t partner = Below(corpus.size() - 1);
      if (partner >= parent) ++partner;
      item.partner = corpus.entry(partner).executor_index;
    } else if (roll == 1 && use_dictionary_) {
      item.opcode = RF_OP_DICT;
    } else {
      item.opcode = RF_OP_HAVOC;
    }
    batch.work.push_back(item);
  }
  return batch;
}

}  // namespace ringfuzz
