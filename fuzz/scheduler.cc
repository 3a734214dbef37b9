#include "fuzz/scheduler.h"

#include <algorithm>
#include <cmath>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

Scheduler::Scheduler(uint64_t seed, bool use_dictionary, bool use_compares)
    : rng_(seed),
      use_dictionary_(use_dictionary),
      use_compares_(use_compares) {}

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

std::optional<double> Scheduler::Cost(const CorpusEntry& entry) {
  if (entry.measured_executions == 0) return std::nullopt;
  return kFixedCost + static_cast<double>(entry.measured_steps) /
                          static_cast<double>(entry.measured_executions);
}

double Scheduler::Speed(std::optional<double> cost,
                        std::optional<double> mean_cost) {
  if (!cost || !mean_cost) return 1.0;
  const double ratio = *mean_cost / *cost;
  return std::clamp(ratio * ratio, kMinSpeed, kMaxSpeed);
}

void Scheduler::DrawParents(const Corpus& corpus,
                            const std::vector<size_t>& candidates, uint64_t n,
                            uint64_t total_executions,
                            std::vector<size_t>& parents) {
  double cost_sum = 0;
  size_t measured = 0;
  for (size_t index : candidates) {
    if (std::optional<double> cost = Cost(corpus.entry(index))) {
      cost_sum += *cost;
      ++measured;
    }
  }
  std::optional<double> mean_cost;
  if (measured > 0) mean_cost = cost_sum / static_cast<double>(measured);
  std::vector<double> cumulative;
  cumulative.reserve(candidates.size());
  double sum = 0;
  for (size_t index : candidates) {
    const CorpusEntry& entry = corpus.entry(index);
    sum += Energy(entry, total_executions) * Speed(Cost(entry), mean_cost);
    cumulative.push_back(sum);
  }
  for (uint64_t i = 0; i < n; ++i) {
    size_t pick =
        std::upper_bound(cumulative.begin(), cumulative.end(), Unit() * sum) -
        cumulative.begin();
    parents.push_back(candidates[std::min(pick, candidates.size() - 1)]);
  }
}

Batch Scheduler::NextBatch(const Corpus& corpus, const BatchBudget& budget,
                           uint64_t total_executions, const BatchPlan& plan) {
  Batch batch;
  batch.seed = rng_();
  uint64_t total = uint64_t{budget.slots} * budget.execs_per_slot;
  if (budget.remaining_runs) total = std::min(total, *budget.remaining_runs);
  if (corpus.empty() || total == 0) return batch;
  batch.requested = total;
  const uint64_t items = std::min<uint64_t>(budget.slots, total);
  auto tenant_of = [&](size_t index) -> uint32_t {
    return index < plan.entry_tenant.size() ? plan.entry_tenant[index] : 0;
  };

  // Promoted parents first, then a parent per remaining item by energy.
  std::vector<size_t> parents;
  parents.reserve(items);
  const uint64_t promoted = std::min<uint64_t>(
      plan.promoted.size(), std::max<uint64_t>(items / 2, 1));
  for (uint64_t i = 0; i < promoted; ++i) {
    parents.push_back(std::min(plan.promoted[i], corpus.size() - 1));
  }
  const uint64_t rest = items - promoted;
  std::vector<std::vector<size_t>> by_tenant(plan.tenant_items.size());
  for (size_t i = 0; i < corpus.size() && !by_tenant.empty(); ++i) {
    if (tenant_of(i) < by_tenant.size()) by_tenant[tenant_of(i)].push_back(i);
  }
  uint64_t planned = 0;  // tenant_items of tenants that have entries
  for (size_t t = 0; t < by_tenant.size(); ++t) {
    if (!by_tenant[t].empty()) planned += plan.tenant_items[t];
  }
  if (planned == 0) {
    std::vector<size_t> everyone(corpus.size());
    for (size_t i = 0; i < everyone.size(); ++i) everyone[i] = i;
    DrawParents(corpus, everyone, rest, total_executions, parents);
  } else {
    // Largest remainder: the shares add up to `rest` exactly.
    std::vector<uint64_t> share(by_tenant.size(), 0);
    std::vector<std::pair<uint64_t, size_t>> remainders;
    uint64_t given = 0;
    for (size_t t = 0; t < by_tenant.size(); ++t) {
      if (by_tenant[t].empty()) continue;
      const unsigned __int128 exact =
          static_cast<unsigned __int128>(rest) * plan.tenant_items[t];
      share[t] = static_cast<uint64_t>(exact / planned);
      remainders.push_back({static_cast<uint64_t>(exact % planned), t});
      given += share[t];
    }
    std::stable_sort(
        remainders.begin(), remainders.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < rest; ++k, ++given) {
      ++share[remainders[k % remainders.size()].second];
    }
    for (size_t t = 0; t < by_tenant.size(); ++t) {
      if (share[t] > 0) {
        DrawParents(corpus, by_tenant[t], share[t], total_executions, parents);
      }
    }
  }
  // Group a parent's items together, in order of first draw.
  std::vector<size_t> order(items);
  std::vector<int64_t> first_draw(corpus.size(), -1);
  std::vector<bool> promote(corpus.size(), false);
  for (uint64_t i = 0; i < promoted; ++i) promote[parents[i]] = true;
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
    if (in_group == 0 && promote[parent]) item.priority = RF_PRIORITY_HIGH;
    item.tenant = tenant_of(parent);
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
    } else if (roll == 2 && use_compares_) {
      item.opcode = RF_OP_CMP;
    } else {
      item.opcode = RF_OP_HAVOC;
    }
    batch.work.push_back(item);
  }
  std::stable_sort(batch.work.begin(), batch.work.end(),
                   [](const WorkItem& a, const WorkItem& b) {
                     return a.priority < b.priority;
                   });
  return batch;
}

}  // namespace ringfuzz
