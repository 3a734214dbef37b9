#include "fuzz/engine/scheduler.h"

#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "corpus/sha1.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// Adds entries "0", "1", ... with executor indices 100, 101, ...
void Fill(Corpus& corpus, int n) {
  for (int i = 0; i < n; ++i) {
    CorpusEntry entry;
    std::string text = std::to_string(i);
    entry.data = Bytes(text.begin(), text.end());
    entry.sha1 = Sha1Hex(entry.data);
    entry.executor_index = 100 + i;
    ASSERT_TRUE(corpus.Add(std::move(entry)).has_value());
  }
}

uint64_t Sum(const std::vector<WorkItem>& work) {
  uint64_t sum = 0;
  for (const WorkItem& item : work) sum += item.count;
  return sum;
}

TEST(SchedulerTest, EmptyCorpusOrNoRunsLeftGivesNoWork) {
  Scheduler scheduler(1, false);
  Corpus corpus;
  EXPECT_TRUE(
      scheduler.NextBatch(corpus, {4, 10, std::nullopt}, 0).work.empty());
  Fill(corpus, 1);
  Batch none = scheduler.NextBatch(corpus, {4, 10, 0}, 0);
  EXPECT_TRUE(none.work.empty());
  EXPECT_EQ(none.requested, 0u);
}

TEST(SchedulerTest, FullBatchUsesEverySlot) {
  Scheduler scheduler(1, false);
  Corpus corpus;
  Fill(corpus, 3);
  Batch batch = scheduler.NextBatch(corpus, {8, 50, std::nullopt}, 0);
  ASSERT_EQ(batch.work.size(), 8u);
  EXPECT_EQ(batch.requested, 400u);
  for (const WorkItem& item : batch.work) EXPECT_EQ(item.count, 50u);
}

// -runs is exact: the last batch asks for exactly what is left, spread
// over the slots with counts that differ by at most one.
TEST(SchedulerTest, RemainingRunsAreDistributedExactly) {
  Scheduler scheduler(1, false);
  Corpus corpus;
  Fill(corpus, 3);
  for (uint64_t remaining : {1u, 7u, 8u, 9u, 399u, 401u}) {
    Batch batch = scheduler.NextBatch(corpus, {8, 50, remaining}, 0);
    uint64_t expected = std::min<uint64_t>(remaining, 400);
    EXPECT_EQ(Sum(batch.work), expected) << remaining;
    EXPECT_EQ(batch.requested, expected);
    EXPECT_EQ(batch.work.size(), std::min<uint64_t>(8, expected));
    uint32_t lo = UINT32_MAX, hi = 0;
    for (const WorkItem& item : batch.work) {
      lo = std::min(lo, item.count);
      hi = std::max(hi, item.count);
      EXPECT_GE(item.count, 1u);
      EXPECT_LE(item.count, 50u);
    }
    EXPECT_LE(hi - lo, 1u) << remaining;
  }
}

// Items are sorted by priority (the device claims in ring order); within a
// priority the items of one parent are adjacent.
TEST(SchedulerTest, ItemsOfAParentShareATicketAndAreAdjacentPerPriority) {
  Scheduler scheduler(7, false);
  Corpus corpus;
  Fill(corpus, 4);
  Batch batch = scheduler.NextBatch(corpus, {64, 1, std::nullopt}, 0);
  std::map<uint32_t, uint32_t> ticket_of_parent;
  std::set<uint32_t> tickets;
  std::map<uint32_t, int> position_in_group;
  std::set<std::pair<uint32_t, uint32_t>> seen_at_priority;
  for (size_t i = 0; i < batch.work.size(); ++i) {
    const WorkItem& item = batch.work[i];
    EXPECT_GE(item.parent, 100u);
    EXPECT_LT(item.parent, 104u);
    auto [it, inserted] = ticket_of_parent.emplace(item.parent, item.ticket);
    EXPECT_EQ(it->second, item.ticket);
    if (inserted) {
      EXPECT_TRUE(tickets.insert(item.ticket).second) << "ticket reused";
    }
    if (!seen_at_priority.insert({item.parent, item.priority}).second) {
      EXPECT_EQ(batch.work[i - 1].parent, item.parent) << "not adjacent";
    }
    if (i > 0) EXPECT_LE(batch.work[i - 1].priority, item.priority);
    EXPECT_EQ(item.tenant, 0u);  // no plan: one tenant
    int pos = position_in_group[item.parent]++;
    EXPECT_EQ(item.window_class,
              pos < 2 ? RF_CLASS_REQUIRED : RF_CLASS_LOOKAHEAD);
    EXPECT_EQ(item.priority, pos < 2 ? RF_PRIORITY_NORMAL : RF_PRIORITY_LOW);
  }
  // Tickets are fresh in the next batch too.
  Batch next = scheduler.NextBatch(corpus, {64, 1, std::nullopt}, 0);
  for (const WorkItem& item : next.work)
    EXPECT_FALSE(tickets.count(item.ticket));
}

// The same grouping on a ring-sized batch with promoted and fresh parents
// (HIGH items beside NORMAL and LOW ones): priorities never fall back, a
// parent's items are one run per priority and one ticket, and the first
// item of each HIGH run is a fresh or promoted parent's.
TEST(SchedulerTest, RingSizedBatchesKeepEachParentsItemsTogether) {
  Corpus corpus;
  Fill(corpus, 300);
  Scheduler scheduler(11, true, true);
  BatchPlan plan;
  plan.promoted = {7, 250};
  plan.fresh = {3, 299, 120};
  Batch batch = scheduler.NextBatch(corpus, {4096, 3, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 4096u);
  EXPECT_EQ(Sum(batch.work), 4096u * 3);
  std::map<uint32_t, uint32_t> ticket_of_parent;
  std::set<std::pair<uint32_t, uint32_t>> runs;  // (parent, priority)
  std::set<uint32_t> high_parents;
  for (size_t i = 0; i < batch.work.size(); ++i) {
    const WorkItem& item = batch.work[i];
    auto [it, inserted] = ticket_of_parent.emplace(item.parent, item.ticket);
    EXPECT_EQ(it->second, item.ticket) << i;
    const bool starts_run = i == 0 || batch.work[i - 1].parent != item.parent ||
                            batch.work[i - 1].priority != item.priority;
    if (starts_run) {
      EXPECT_TRUE(runs.insert({item.parent, item.priority}).second)
          << "parent " << item.parent << " has two runs at priority "
          << item.priority;
    }
    if (i > 0) EXPECT_LE(batch.work[i - 1].priority, item.priority) << i;
    if (item.priority == RF_PRIORITY_HIGH) high_parents.insert(item.parent);
  }
  EXPECT_EQ(high_parents, (std::set<uint32_t>{103, 107, 220, 350, 399}));
  EXPECT_EQ(batch.work[0].parent, 107u);  // promoted first
}

TEST(SchedulerTest, PromotedParentsComeFirstAtHighPriority) {
  Corpus corpus;
  Fill(corpus, 6);
  Scheduler scheduler(11, false);
  BatchPlan plan;
  plan.promoted = {4, 2};
  Batch batch = scheduler.NextBatch(corpus, {16, 10, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 16u);
  EXPECT_EQ(batch.requested, 160u);
  EXPECT_EQ(Sum(batch.work), 160u);
  ASSERT_GE(batch.work.size(), 2u);
  EXPECT_EQ(batch.work[0].parent, 104u);
  EXPECT_EQ(batch.work[0].priority, RF_PRIORITY_HIGH);
  EXPECT_EQ(batch.work[1].parent, 102u);
  EXPECT_EQ(batch.work[1].priority, RF_PRIORITY_HIGH);
  for (size_t i = 2; i < batch.work.size(); ++i) {
    EXPECT_GT(batch.work[i].priority, RF_PRIORITY_HIGH);
  }
  // Without the plan, the same scheduler state gives no HIGH work.
  Scheduler plain(11, false);
  for (const WorkItem& item :
       plain.NextBatch(corpus, {16, 10, std::nullopt}, 0).work) {
    EXPECT_NE(item.priority, RF_PRIORITY_HIGH);
  }
}

TEST(SchedulerTest, PromotionsTakeAtMostHalfTheBatch) {
  Corpus corpus;
  Fill(corpus, 8);
  Scheduler scheduler(2, false);
  BatchPlan plan;
  plan.promoted = {0, 1, 2, 3, 4, 5, 6, 7};
  Batch batch = scheduler.NextBatch(corpus, {6, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 6u);
  int high = 0;
  for (const WorkItem& item : batch.work) {
    high += item.priority == RF_PRIORITY_HIGH;
  }
  EXPECT_EQ(high, 3);
}

// Fresh entries (found by the last batch) get kFreshItemsPerEntry items at
// HIGH priority right after the promoted ones, before any energy draw.
TEST(SchedulerTest, FreshEntriesComeFirstAtHighPriority) {
  Corpus corpus;
  Fill(corpus, 8);
  Scheduler scheduler(5, false);
  BatchPlan plan;
  plan.promoted = {6};
  plan.fresh = {3, 5};
  Batch batch = scheduler.NextBatch(corpus, {32, 10, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 32u);
  EXPECT_EQ(Sum(batch.work), 320u);
  EXPECT_TRUE(batch.fresh_waiting.empty());
  EXPECT_EQ(batch.work[0].parent, 106u);
  EXPECT_EQ(batch.work[0].priority, RF_PRIORITY_HIGH);
  const uint32_t k = Scheduler::kFreshItemsPerEntry;
  for (uint32_t i = 0; i < 2 * k; ++i) {
    const WorkItem& item = batch.work[1 + i];
    EXPECT_EQ(item.parent, i < k ? 103u : 105u) << i;
    EXPECT_EQ(item.priority, RF_PRIORITY_HIGH) << i;
    EXPECT_EQ(item.window_class, RF_CLASS_REQUIRED) << i;
    EXPECT_EQ(item.ticket, batch.work[i < k ? 1 : 1 + k].ticket) << i;
  }
  for (size_t i = 1 + 2 * k; i < batch.work.size(); ++i) {
    EXPECT_NE(batch.work[i].priority, RF_PRIORITY_HIGH) << i;
  }
  // The same scheduler state without fresh entries schedules no HIGH work.
  Scheduler plain(5, false);
  for (const WorkItem& item :
       plain.NextBatch(corpus, {32, 10, std::nullopt}, 0).work) {
    EXPECT_NE(item.priority, RF_PRIORITY_HIGH);
  }
}

// Fresh items take at most 1/kFreshShare of the batch, dealt round robin
// (oldest first); entries that got none wait for the next batch.
TEST(SchedulerTest, FreshShareIsCappedAndTheRestWaits) {
  Corpus corpus;
  Fill(corpus, 8);
  Scheduler scheduler(6, false);
  BatchPlan plan;
  plan.fresh = {7, 6, 5, 4, 3, 2};
  Batch batch = scheduler.NextBatch(corpus, {16, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 16u);
  std::vector<uint32_t> high;
  for (const WorkItem& item : batch.work) {
    if (item.priority == RF_PRIORITY_HIGH) high.push_back(item.parent);
  }
  EXPECT_EQ(high, (std::vector<uint32_t>{107, 106, 105, 104}));
  EXPECT_EQ(batch.fresh_waiting, (std::vector<size_t>{3, 2}));

  // Few fresh entries share the cap: 2 entries in a batch of 16 get 2 each.
  plan.fresh = {1, 2};
  Batch two = scheduler.NextBatch(corpus, {16, 1, std::nullopt}, 0, plan);
  high.clear();
  for (const WorkItem& item : two.work) {
    if (item.priority == RF_PRIORITY_HIGH) high.push_back(item.parent);
  }
  EXPECT_EQ(high, (std::vector<uint32_t>{101, 101, 102, 102}));

  // A batch of one item still serves one fresh entry; unknown indices are
  // dropped; with no runs left, every fresh entry waits.
  plan.fresh = {99, 4, 5};
  Batch one = scheduler.NextBatch(corpus, {1, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(one.work.size(), 1u);
  EXPECT_EQ(one.work[0].parent, 104u);
  EXPECT_EQ(one.work[0].priority, RF_PRIORITY_HIGH);
  EXPECT_EQ(one.fresh_waiting, (std::vector<size_t>{5}));
  Batch none = scheduler.NextBatch(corpus, {8, 1, 0}, 0, plan);
  EXPECT_TRUE(none.work.empty());
  EXPECT_EQ(none.fresh_waiting, (std::vector<size_t>{4, 5}));
}

// In a batch split by tenant, fresh items come out of their tenant's
// share, so the items per tenant still follow the plan.
TEST(SchedulerTest, FreshItemsCountAgainstTheirTenant) {
  Corpus corpus;
  Fill(corpus, 6);
  BatchPlan plan;
  plan.entry_tenant = {0, 0, 0, 1, 1, 1};
  plan.tenant_items = {1, 1};
  plan.fresh = {4};
  Scheduler scheduler(8, false);
  Batch batch = scheduler.NextBatch(corpus, {32, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 32u);
  int per_tenant[2] = {0, 0};
  int high = 0;
  for (const WorkItem& item : batch.work) {
    ++per_tenant[item.tenant];
    if (item.priority == RF_PRIORITY_HIGH) {
      ++high;
      EXPECT_EQ(item.parent, 104u);
    }
  }
  EXPECT_EQ(high, static_cast<int>(Scheduler::kFreshItemsPerEntry));
  EXPECT_EQ(per_tenant[0], 16);
  EXPECT_EQ(per_tenant[1], 16);
}

// A plan that splits the batch by tenant: each tenant's items come from its
// own entries, in the planned proportion, and carry its tenant id.
TEST(SchedulerTest, TenantItemsSplitTheBatch) {
  Corpus corpus;
  Fill(corpus, 6);  // entries 0..2: tenant 0, 3..5: tenant 1
  BatchPlan plan;
  plan.entry_tenant = {0, 0, 0, 1, 1, 1};
  plan.tenant_items = {1, 3};
  Scheduler scheduler(9, false);
  Batch batch = scheduler.NextBatch(corpus, {64, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(batch.work.size(), 64u);
  int per_tenant[2] = {0, 0};
  for (const WorkItem& item : batch.work) {
    ASSERT_LT(item.tenant, 2u);
    ++per_tenant[item.tenant];
    EXPECT_EQ(item.tenant, item.parent >= 103u ? 1u : 0u);
  }
  EXPECT_EQ(per_tenant[0], 16);
  EXPECT_EQ(per_tenant[1], 48);

  // A tenant without entries gives its share to the others.
  plan.entry_tenant = {0, 0, 0, 0, 0, 0};
  Batch solo = scheduler.NextBatch(corpus, {64, 1, std::nullopt}, 0, plan);
  ASSERT_EQ(solo.work.size(), 64u);
  for (const WorkItem& item : solo.work) EXPECT_EQ(item.tenant, 0u);
}

TEST(SchedulerTest, WorkKindMix) {
  Corpus one;
  Fill(one, 1);
  Scheduler plain(3, false);
  for (const WorkItem& item :
       plain.NextBatch(one, {512, 1, std::nullopt}, 0).work) {
    EXPECT_EQ(item.opcode, RF_OP_HAVOC);  // no partner, no dictionary
    EXPECT_TRUE(item.stack == 1 || item.stack == 2 || item.stack == 4 ||
                item.stack == 8);
  }

  Corpus many;
  Fill(many, 5);
  Scheduler with_dict(3, true);
  std::map<uint32_t, int> kinds;
  for (const WorkItem& item :
       with_dict.NextBatch(many, {4096, 1, std::nullopt}, 0).work) {
    ++kinds[item.opcode];
    if (item.opcode == RF_OP_SPLICE) {
      EXPECT_NE(item.partner, item.parent);
      EXPECT_GE(item.partner, 100u);
      EXPECT_LT(item.partner, 105u);
    }
  }
  EXPECT_EQ(kinds.count(RF_OP_REPLAY), 0u);
  EXPECT_GT(kinds[RF_OP_HAVOC], 4096 * 5 / 8);  // about 3/4
  EXPECT_GT(kinds[RF_OP_SPLICE], 4096 / 16);    // about 1/8
  EXPECT_GT(kinds[RF_OP_DICT], 4096 / 16);      // about 1/8
}

TEST(SchedulerTest, SameSeedSameBatches) {
  Corpus corpus;
  Fill(corpus, 6);
  corpus.RecordExecutions(2, 5000);
  corpus.RecordFind(2, 3);
  Scheduler a(42, true), b(42, true), c(43, true);
  BatchPlan plan;
  plan.fresh = {5, 1};
  for (int round = 0; round < 3; ++round) {
    Batch x = a.NextBatch(corpus, {16, 3, std::nullopt}, 10000, plan);
    Batch y = b.NextBatch(corpus, {16, 3, std::nullopt}, 10000, plan);
    Batch z = c.NextBatch(corpus, {16, 3, std::nullopt}, 10000, plan);
    EXPECT_EQ(x.seed, y.seed);
    EXPECT_NE(x.seed, z.seed);
    ASSERT_EQ(x.work.size(), y.work.size());
    for (size_t i = 0; i < x.work.size(); ++i) {
      EXPECT_EQ(x.work[i].parent, y.work[i].parent);
      EXPECT_EQ(x.work[i].opcode, y.work[i].opcode);
      EXPECT_EQ(x.work[i].partner, y.work[i].partner);
      EXPECT_EQ(x.work[i].stack, y.work[i].stack);
      EXPECT_EQ(x.work[i].ticket, y.work[i].ticket);
      EXPECT_EQ(x.work[i].priority, y.work[i].priority);
    }
  }
}

TEST(SchedulerTest, EnergyFavoursFindsRecencyAndFreshness) {
  CorpusEntry base;
  base.added_at_exec = 500;
  const EnergyContext at{1000, 0};
  double e = Scheduler::Energy(base, at);
  EXPECT_GT(e, 0.0);

  CorpusEntry more_bits = base;
  more_bits.new_bits = 5;
  EXPECT_GT(Scheduler::Energy(more_bits, at), e);

  CorpusEntry fertile = base;
  fertile.finds = 3;
  EXPECT_GT(Scheduler::Energy(fertile, at), e);
  // Children that added more coverage count for more.
  CorpusEntry richer = fertile;
  richer.child_bits = 12;
  EXPECT_GT(Scheduler::Energy(richer, at), Scheduler::Energy(fertile, at));

  CorpusEntry recent = base;
  recent.added_at_exec = 1000;
  EXPECT_GT(Scheduler::Energy(recent, at), e);

  CorpusEntry worn = base;
  worn.executions = 1000000;
  EXPECT_LT(Scheduler::Energy(worn, at), e);
  EXPECT_GT(Scheduler::Energy(worn, at), 0.0);
}

// Rarity: an entry from a crowded family (its parent has many kept
// children) has less energy than one of an only child.
TEST(SchedulerTest, EnergyFavoursRareLineages) {
  CorpusEntry entry;
  const EnergyContext at{1000, 10};
  const double only_child = Scheduler::Energy(entry, at, 1);
  EXPECT_DOUBLE_EQ(Scheduler::Energy(entry, at, 0), only_child);
  EXPECT_DOUBLE_EQ(Scheduler::Energy(entry, at, 16), only_child / 4);
}

// Staleness: of two entries with the same history of finds and
// executions, the one whose last kept child was long ago has less energy,
// by the fade 1 / (1 + stale / (kStaleIntervals * interval)).
TEST(SchedulerTest, StaleEntriesFade) {
  // 1,000,000 executions and 99 finds: one find per 10,000 executions.
  const EnergyContext at{1000000, 99};
  CorpusEntry productive;
  productive.finds = 5;
  productive.executions = 100000;
  productive.executions_at_last_find = 100000;  // its last batch found one
  CorpusEntry stale = productive;
  stale.executions_at_last_find = 20000;  // 80,000 = 8 intervals ago
  EXPECT_DOUBLE_EQ(Scheduler::Fade(productive, at), 1.0);
  EXPECT_DOUBLE_EQ(Scheduler::Fade(stale, at), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(Scheduler::Energy(stale, at),
                   Scheduler::Energy(productive, at) / 3.0);
  // An entry that never had a kept child is stale by all its executions.
  CorpusEntry barren;
  barren.executions = 40000;
  EXPECT_DOUBLE_EQ(Scheduler::Fade(barren, at), 0.5);
  // Early in a campaign the interval has a floor: a few executions without
  // a find are no staleness.
  CorpusEntry young;
  young.executions = 100;
  EXPECT_GT(Scheduler::Fade(young, EnergyContext{200, 50}), 0.97);
}

// In the draw, a stale entry loses slots to a productive one with the same
// totals (executions, finds, child bits), and keeps a chance.
TEST(SchedulerTest, StaleEntriesLoseSlotsToProductiveOnes) {
  Corpus corpus;
  Fill(corpus, 2);
  // Entry 0 had its 5 kept children at the end of its 450,000 executions,
  // entry 1 at the start: it spent 400,000 since without one.
  corpus.RecordExecutions(0, 450000);
  corpus.RecordExecutions(1, 50000);
  for (size_t i : {0, 1}) {
    for (int f = 0; f < 5; ++f) corpus.RecordFind(i, 2);
  }
  corpus.RecordExecutions(1, 400000);
  ASSERT_EQ(corpus.entry(0).executions, corpus.entry(1).executions);
  // 500,000 executions and 10 finds: an interval of 45,454 executions;
  // entry 1 is 2.2 stale periods (4 intervals) old: fade 1 / 3.2.
  const EnergyContext at{500000, corpus.total_finds()};
  EXPECT_NEAR(Scheduler::Energy(corpus.entry(1), at) /
                  Scheduler::Energy(corpus.entry(0), at),
              1 / 3.2, 1e-3);
  Scheduler scheduler(4, false);
  Batch batch = scheduler.NextBatch(corpus, {1000, 1, std::nullopt}, 500000);
  int stale_items = 0;
  for (const WorkItem& item : batch.work) stale_items += item.parent == 101;
  EXPECT_GT(stale_items, 160);  // about 1000 / 4.2 = 238
  EXPECT_LT(stale_items, 320);
}

// An entry with much more energy gets most of the slots.
TEST(SchedulerTest, ParentsAreDrawnByEnergy) {
  Corpus corpus;
  Fill(corpus, 1);
  CorpusEntry strong;
  strong.data = {'s'};
  strong.sha1 = Sha1Hex(strong.data);
  strong.executor_index = 7;
  strong.new_bits = 49;  // 50x the energy of the other entry
  ASSERT_TRUE(corpus.Add(strong).has_value());

  Scheduler scheduler(5, false);
  int strong_items = 0;
  Batch batch = scheduler.NextBatch(corpus, {1000, 1, std::nullopt}, 0);
  for (const WorkItem& item : batch.work) strong_items += item.parent == 7;
  EXPECT_GT(strong_items, 950);
  EXPECT_LT(strong_items, 1000);  // the weak entry keeps a chance
}

TEST(SchedulerTest, CostIsFixedPartPlusMeasuredStepsPerExecution) {
  CorpusEntry entry;
  EXPECT_FALSE(Scheduler::Cost(entry).has_value());  // not measured
  entry.measured_executions = 4;
  entry.measured_steps = 40;
  ASSERT_TRUE(Scheduler::Cost(entry).has_value());
  EXPECT_DOUBLE_EQ(*Scheduler::Cost(entry), Scheduler::kFixedCost + 10);
}

TEST(SchedulerTest, SpeedFavoursCheapEntriesWithinBounds) {
  EXPECT_DOUBLE_EQ(Scheduler::Speed(std::nullopt, 10.0), 1.0);
  EXPECT_DOUBLE_EQ(Scheduler::Speed(10.0, std::nullopt), 1.0);
  EXPECT_DOUBLE_EQ(Scheduler::Speed(10.0, 10.0), 1.0);
  EXPECT_DOUBLE_EQ(Scheduler::Speed(10.0, 15.0), 2.25);  // (15 / 10)^2
  EXPECT_DOUBLE_EQ(Scheduler::Speed(20.0, 10.0), 0.25);
  EXPECT_DOUBLE_EQ(Scheduler::Speed(1.0, 1000.0), Scheduler::kMaxSpeed);
  EXPECT_DOUBLE_EQ(Scheduler::Speed(1000.0, 1.0), Scheduler::kMinSpeed);
}

// Two entries of equal energy: the one whose mutants run 10x the loop
// iterations of the other's gets few slots, but keeps a chance; before any
// measurement they share the slots evenly.
TEST(SchedulerTest, ParentsAreDrawnBySpeed) {
  Corpus corpus;
  Fill(corpus, 2);
  auto slow_items = [&](uint64_t seed) {
    Scheduler scheduler(seed, false);
    int n = 0;
    Batch batch = scheduler.NextBatch(corpus, {1000, 1, std::nullopt}, 0);
    for (const WorkItem& item : batch.work) n += item.parent == 101;
    return n;
  };
  const int unmeasured = slow_items(3);
  EXPECT_GT(unmeasured, 400);
  EXPECT_LT(unmeasured, 600);

  corpus.RecordCost(0, 1000, 4000);    // cost 16 + 4
  corpus.RecordCost(1, 1000, 184000);  // cost 16 + 184: 10x
  const int slow = slow_items(3);
  EXPECT_LT(slow, 100);
  EXPECT_GT(slow, 0);
}

// Slowest first: NORMAL and LOW items run their parents' dearest first
// (unmeasured entries ahead of every measured one), HIGH items keep plan
// order, and the batch holds the same items as one in draw order.
TEST(SchedulerTest, SlowestParentsRunFirstWithinNormalAndLowPriority) {
  Corpus corpus;
  Fill(corpus, 40);
  // Entry i's mutants ran i * 37 % 40 loop iterations each, entries 5 and
  // 17 were not measured.
  std::map<uint32_t, double> steps_of;  // by executor index
  for (int i = 0; i < 40; ++i) {
    if (i == 5 || i == 17) continue;
    const uint64_t steps = static_cast<uint64_t>(i) * 37 % 40;
    corpus.RecordCost(i, 100, steps * 100);
    steps_of[100 + i] = static_cast<double>(steps);
  }
  BatchPlan plan;
  plan.promoted = {30};
  plan.fresh = {2, 9};
  auto steps = [&](const WorkItem& item) {
    auto it = steps_of.find(item.parent);
    return it == steps_of.end() ? std::numeric_limits<double>::infinity()
                                : it->second;
  };
  Scheduler sorted(21, true, true, /*slowest_first=*/true);
  Scheduler drawn(21, true, true, /*slowest_first=*/false);
  for (int b = 0; b < 3; ++b) {
    Batch batch = sorted.NextBatch(corpus, {512, 3, std::nullopt}, 0, plan);
    Batch reference = drawn.NextBatch(corpus, {512, 3, std::nullopt}, 0, plan);
    ASSERT_EQ(batch.work.size(), reference.work.size());
    std::multiset<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> got, want;
    for (const WorkItem& item : batch.work) {
      got.insert({item.parent, item.priority, item.opcode, item.count});
    }
    for (const WorkItem& item : reference.work) {
      want.insert({item.parent, item.priority, item.opcode, item.count});
    }
    EXPECT_EQ(got, want) << "batch " << b;
    std::set<std::pair<uint32_t, uint32_t>> runs;  // (parent, priority)
    size_t high = 0;
    for (size_t i = 0; i < batch.work.size(); ++i) {
      const WorkItem& item = batch.work[i];
      if (item.priority == RF_PRIORITY_HIGH) {
        // Plan order: the same HIGH items at the same places.
        EXPECT_EQ(item.parent, reference.work[i].parent) << i;
        ++high;
        continue;
      }
      const WorkItem& before = batch.work[i - 1];
      if (before.priority == item.priority) {
        EXPECT_GE(steps(before), steps(item)) << "batch " << b << " item " << i;
      }
      if (i == high || before.parent != item.parent ||
          before.priority != item.priority) {
        EXPECT_TRUE(runs.insert({item.parent, item.priority}).second)
            << "parent " << item.parent << " split at priority "
            << item.priority;
      }
    }
    EXPECT_GT(high, 0u);
  }
}

}  // namespace
}  // namespace ringfuzz
