#include "fuzz/scheduler.h"

#include <map>
#include <set>
#include <string>

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
  Scheduler a(42, true), b(42, true), c(43, true);
  for (int round = 0; round < 3; ++round) {
    Batch x = a.NextBatch(corpus, {16, 3, std::nullopt}, 100);
    Batch y = b.NextBatch(corpus, {16, 3, std::nullopt}, 100);
    Batch z = c.NextBatch(corpus, {16, 3, std::nullopt}, 100);
    EXPECT_EQ(x.seed, y.seed);
    EXPECT_NE(x.seed, z.seed);
    ASSERT_EQ(x.work.size(), y.work.size());
    for (size_t i = 0; i < x.work.size(); ++i) {
      EXPECT_EQ(x.work[i].parent, y.work[i].parent);
      EXPECT_EQ(x.work[i].opcode, y.work[i].opcode);
      EXPECT_EQ(x.work[i].partner, y.work[i].partner);
      EXPECT_EQ(x.work[i].stack, y.work[i].stack);
      EXPECT_EQ(x.work[i].ticket, y.work[i].ticket);
    }
  }
}

TEST(SchedulerTest, EnergyFavoursFindsRecencyAndFreshness) {
  CorpusEntry base;
  base.added_at_exec = 500;
  double e = Scheduler::Energy(base, 1000);
  EXPECT_GT(e, 0.0);

  CorpusEntry more_bits = base;
  more_bits.new_bits = 5;
  EXPECT_GT(Scheduler::Energy(more_bits, 1000), e);

  CorpusEntry fertile = base;
  fertile.finds = 3;
  EXPECT_GT(Scheduler::Energy(fertile, 1000), e);

  CorpusEntry recent = base;
  recent.added_at_exec = 1000;
  EXPECT_GT(Scheduler::Energy(recent, 1000), e);

  CorpusEntry worn = base;
  worn.executions = 1000000;
  EXPECT_LT(Scheduler::Energy(worn, 1000), e);
  EXPECT_GT(Scheduler::Energy(worn, 1000), 0.0);
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

}  // namespace
}  // namespace ringfuzz
