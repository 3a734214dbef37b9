#include "fuzz/engine/scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// Kept children of `entry`'s parent; 1 for an entry without a parent.
uint64_t Siblings(const Corpus& corpus, const CorpusEntry& entry) {
  if (!entry.parent || *entry.parent >= corpus.size()) return 1;
  return std::max<uint64_t>(corpus.entry(*entry.parent).finds, 1);
}

// Splits `total` items over the tenants in proportion to `tenant_items`
// (largest remainder: the shares add up to `total` exactly); tenants
// without candidates get none. nullopt iff no tenant with candidates has
// planned items (then the batch is not split by tenant).
std::optional<std::vector<uint64_t>> TenantShares(
    uint64_t total, const std::vector<uint32_t>& tenant_items,
    const std::vector<std::vector<size_t>>& by_tenant) {
  std::vector<uint64_t> share(by_tenant.size(), 0);
  uint64_t planned = 0;  // tenant_items of tenants that have entries
  for (size_t t = 0; t < by_tenant.size(); ++t) {
    if (!by_tenant[t].empty()) planned += tenant_items[t];
  }
  if (planned == 0) return std::nullopt;
  std::vector<std::pair<uint64_t, size_t>> remainders;
  uint64_t given = 0;
  for (size_t t = 0; t < by_tenant.size(); ++t) {
    if (by_tenant[t].empty()) continue;
    const unsigned __int128 exact =
        static_cast<unsigned __int128>(total) * tenant_items[t];
    share[t] = static_cast<uint64_t>(exact / planned);
    remainders.push_back({static_cast<uint64_t>(exact % planned), t});
    given += share[t];
  }
  std::stable_sort(
      remainders.begin(), remainders.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; given < total; ++k, ++given) {
    ++share[remainders[k % remainders.size()].second];
  }
  return share;
}

}  // namespace

Scheduler::Scheduler(uint64_t seed, bool use_dictionary, bool use_compares,
                     bool slowest_first)
    : rng_(seed),
      use_dictionary_(use_dictionary),
      use_compares_(use_compares),
      slowest_first_(slowest_first) {}

uint64_t Scheduler::Below(uint64_t n) { return rng_() % n; }

double Scheduler::Unit() {
  return static_cast<double>(rng_() >> 11) * 0x1.0p-53;
}

double Scheduler::Fade(const CorpusEntry& entry, const EnergyContext& context) {
  const double interval = std::max(
      kMinFindInterval, static_cast<double>(context.total_executions) /
                            static_cast<double>(1 + context.total_finds));
  const uint64_t stale =
      entry.executions -
      std::min(entry.executions, entry.executions_at_last_find);
  return 1.0 /
         (1.0 + static_cast<double>(stale) / (kStaleIntervals * interval));
}

double Scheduler::Energy(const CorpusEntry& entry, const EnergyContext& context,
                         uint64_t siblings) {
  const double age_fraction =
      context.total_executions == 0
          ? 1.0
          : std::min(1.0, static_cast<double>(entry.added_at_exec) /
                              static_cast<double>(context.total_executions));
  const double recency = 1.0 + 3.0 * age_fraction;
  const double gain = 1.0 + entry.new_bits;
  const double discovery =
      std::sqrt((1.0 + entry.finds + static_cast<double>(entry.child_bits)) /
                (1.0 + static_cast<double>(entry.executions)));
  const double rarity =
      1.0 / std::sqrt(static_cast<double>(std::max<uint64_t>(siblings, 1)));
  return gain * discovery * rarity * recency * Fade(entry, context);
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
                            const EnergyContext& context,
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
    // A retired entry (replaced by a shorter one) is drawn no more.
    if (!entry.retired) {
      sum += Energy(entry, context, Siblings(corpus, entry)) *
             Speed(Cost(entry), mean_cost);
    }
    cumulative.push_back(sum);
  }
  for (uint64_t i = 0; i < n; ++i) {
    size_t pick =
        std::upper_bound(cumulative.begin(), cumulative.end(), Unit() * sum) -
        cumulative.begin();
    parents.push_back(candidates[std::min(pick, candidates.size() - 1)]);
  }
}

std::vector<uint32_t> Scheduler::DealFresh(
    const Corpus& corpus, const BatchPlan& plan, uint64_t budget,
    std::optional<std::vector<uint64_t>>& shares) {
  std::vector<uint32_t> dealt(plan.fresh.size(), 0);
  for (uint32_t round = 0; round < kFreshItemsPerEntry && budget > 0; ++round) {
    for (size_t j = 0; j < plan.fresh.size() && budget > 0; ++j) {
      const size_t index = plan.fresh[j];
      if (index >= corpus.size() || corpus.entry(index).retired) continue;
      if (shares) {
        const uint32_t tenant =
            index < plan.entry_tenant.size() ? plan.entry_tenant[index] : 0;
        if (tenant >= shares->size() || (*shares)[tenant] == 0) continue;
        --(*shares)[tenant];
      }
      ++dealt[j];
      --budget;
    }
  }
  return dealt;
}

Batch Scheduler::NextBatch(const Corpus& corpus, const BatchBudget& budget,
                           uint64_t total_executions, const BatchPlan& plan) {
  Batch batch;
  batch.seed = rng_();
  uint64_t total = uint64_t{budget.slots} * budget.execs_per_slot;
  if (budget.remaining_runs) total = std::min(total, *budget.remaining_runs);
  if (corpus.empty() || total == 0) {
    for (size_t index : plan.fresh) {
      if (index < corpus.size()) batch.fresh_waiting.push_back(index);
    }
    return batch;
  }
  batch.requested = total;
  const uint64_t items = std::min<uint64_t>(budget.slots, total);
  auto tenant_of = [&](size_t index) -> uint32_t {
    return index < plan.entry_tenant.size() ? plan.entry_tenant[index] : 0;
  };
  const EnergyContext context{total_executions, corpus.total_finds()};

  // Draws, in order: promoted parents, fresh parents (both HIGH), then a
  // parent per remaining item by energy.
  std::vector<size_t> parents;
  std::vector<bool> high;
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
  std::optional<std::vector<uint64_t>> shares =
      TenantShares(rest, plan.tenant_items, by_tenant);
  const uint64_t fresh_budget =
      std::min<uint64_t>(rest, std::max<uint64_t>(items / kFreshShare, 1));
  const std::vector<uint32_t> dealt =
      DealFresh(corpus, plan, fresh_budget, shares);
  uint64_t fresh_items = 0;
  for (size_t j = 0; j < plan.fresh.size(); ++j) {
    if (dealt[j] == 0 && plan.fresh[j] < corpus.size() &&
        !corpus.entry(plan.fresh[j]).retired) {
      batch.fresh_waiting.push_back(plan.fresh[j]);
    }
    parents.insert(parents.end(), dealt[j], plan.fresh[j]);
    fresh_items += dealt[j];
  }
  high.assign(parents.size(), true);
  if (!shares) {
    std::vector<size_t> everyone(corpus.size());
    for (size_t i = 0; i < everyone.size(); ++i) everyone[i] = i;
    DrawParents(corpus, everyone, rest - fresh_items, context, parents);
  } else {
    for (size_t t = 0; t < by_tenant.size(); ++t) {
      if ((*shares)[t] > 0) {
        DrawParents(corpus, by_tenant[t], (*shares)[t], context, parents);
      }
    }
  }
  high.resize(parents.size(), false);
  // Group a parent's items together, in order of first draw (so a parent's
  // HIGH draws come first in its group): a stable counting sort by group,
  // groups numbered in order of first draw.
  std::vector<uint32_t> group_of(corpus.size(), UINT32_MAX);
  std::vector<size_t> group_start;  // items per group, then where it starts
  for (uint64_t i = 0; i < items; ++i) {
    uint32_t& group = group_of[parents[i]];
    if (group == UINT32_MAX) {
      group = static_cast<uint32_t>(group_start.size());
      group_start.push_back(0);
    }
    ++group_start[group];
  }
  size_t next_start = 0;
  for (size_t& start : group_start) {
    next_start += std::exchange(start, next_start);
  }
  std::vector<size_t> order(items);
  for (uint64_t i = 0; i < items; ++i) {
    order[group_start[group_of[parents[i]]]++] = i;
  }

  const uint64_t base = total / items, extra = total % items;
  batch.work.reserve(items);
  // The cost of each item's parent, +inf where not measured (see the file
  // comment: slowest first).
  std::vector<double> item_cost;
  item_cost.reserve(items);
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
    const bool required = high[order[i]] || in_group < kRequiredPerParent;
    item.window_class = required ? RF_CLASS_REQUIRED : RF_CLASS_LOOKAHEAD;
    item.priority = high[order[i]] ? RF_PRIORITY_HIGH
                    : required     ? RF_PRIORITY_NORMAL
                                   : RF_PRIORITY_LOW;
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
    // A fresh or promoted parent's first item is input-to-state: its own
    // comparisons were just logged, and their patches are the likeliest
    // next finds.
    if (high[order[i]] && in_group == 1 && use_compares_) {
      item.opcode = RF_OP_CMP;
      item.partner = 0;
    }
    batch.work.push_back(item);
    item_cost.push_back(Cost(corpus.entry(parent))
                            .value_or(std::numeric_limits<double>::infinity()));
  }
  // Most urgent first (these three are the only priorities set above):
  // HIGH in plan order, NORMAL and LOW in draw order or, with
  // slowest_first, slowest parent first. A parent's items share their cost,
  // so a stable sort keeps them adjacent.
  std::vector<WorkItem> by_priority;
  by_priority.reserve(batch.work.size());
  std::vector<size_t> level;
  for (uint32_t priority :
       {RF_PRIORITY_HIGH, RF_PRIORITY_NORMAL, RF_PRIORITY_LOW}) {
    level.clear();
    for (size_t i = 0; i < batch.work.size(); ++i) {
      if (batch.work[i].priority == priority) level.push_back(i);
    }
    if (slowest_first_ && priority != RF_PRIORITY_HIGH) {
      std::stable_sort(level.begin(), level.end(), [&](size_t a, size_t b) {
        return item_cost[a] > item_cost[b];
      });
    }
    for (size_t i : level) by_priority.push_back(batch.work[i]);
  }
  batch.work = std::move(by_priority);
  return batch;
}

}  // namespace ringfuzz
