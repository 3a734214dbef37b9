#include "fuzz/steer/steering_priority.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/steer/wire_bytes.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(PriorityAgingTest, UnfinishedSlotsRequeueTheirParents) {
  PriorityAging aging;
  WireBytes wire(7);
  wire.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 10, 64, 64);    // finished
  wire.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 11, 64, 30);    // ran 30 of 64
  wire.Slot(2, RF_STATUS_PUBLISHED, RF_OP_SPLICE, 12);      // never claimed
  wire.Slot(3, RF_STATUS_CLAIMED, RF_OP_DICT, 13);          // never completed
  wire.Slot(4, RF_STATUS_FAULT, RF_OP_HAVOC, 14, 64, 64);   // finished
  wire.Slot(5, RF_STATUS_DONE, RF_OP_CALIBRATE, 15, 8, 1);  // not fuzzing work
  wire.Slot(6, RF_STATUS_EMPTY, RF_OP_HAVOC, 16);
  aging.ObserveRing(wire.View().ring);
  EXPECT_THAT(aging.waiting(),
              ElementsAre(Pair(11u, 1u), Pair(12u, 1u), Pair(13u, 1u)));
  EXPECT_EQ(aging.accounting().requeue_count, 3u);
  EXPECT_EQ(aging.accounting().max_priority_age, 1u);
}

TEST(PriorityAgingTest, WaitingParentsAgeUntilASlotOfThemFinishes) {
  PriorityAging aging;
  WireBytes first(2);
  first.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 1, 64, 10);
  first.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 2, 64, 10);
  aging.ObserveRing(first.View().ring);
  WireBytes second(2);
  second.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 1, 64, 64);  // 1 is served
  second.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 3, 64, 64);  // 2 not scheduled
  aging.ObserveRing(second.View().ring);
  EXPECT_THAT(aging.waiting(), ElementsAre(Pair(2u, 2u)));
  WireBytes third(1);
  third.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 2, 64, 5);  // unfinished again
  aging.ObserveRing(third.View().ring);
  EXPECT_THAT(aging.waiting(), ElementsAre(Pair(2u, 3u)));
  EXPECT_EQ(aging.accounting().max_priority_age, 3u);
}

// A parent whose slots come in several runs, finished and unfinished
// mixed, waits once: every unfinished slot is a requeue, and its age grows
// by one per ring, not per slot.
TEST(PriorityAgingTest, AParentInSeveralRunsWaitsOnce) {
  PriorityAging aging;
  WireBytes wire(6);
  wire.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 5, 64, 10);  // unfinished
  wire.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 5, 64, 64);  // finished
  wire.Slot(2, RF_STATUS_DONE, RF_OP_HAVOC, 9, 64, 64);  // finished
  wire.Slot(3, RF_STATUS_PUBLISHED, RF_OP_HAVOC, 5);     // never claimed
  wire.Slot(4, RF_STATUS_DONE, RF_OP_HAVOC, 9, 64, 64);  // finished
  wire.Slot(5, RF_STATUS_DONE, RF_OP_HAVOC, 2, 64, 64);  // finished
  aging.ObserveRing(wire.View().ring);
  EXPECT_THAT(aging.waiting(), ElementsAre(Pair(5u, 1u)));
  EXPECT_EQ(aging.accounting().requeue_count, 2u);
  aging.ObserveRing(wire.View().ring);
  EXPECT_THAT(aging.waiting(), ElementsAre(Pair(5u, 2u)));
  EXPECT_EQ(aging.accounting().requeue_count, 4u);
  EXPECT_EQ(aging.accounting().max_priority_age, 2u);
}

TEST(PriorityAgingTest, PromotesOldestFirstOnlyWhenAgingIsRecommended) {
  PriorityAging aging;
  WireBytes old_ones(1);
  old_ones.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 5, 64, 1);
  aging.ObserveRing(old_ones.View().ring);
  WireBytes newer(2);
  newer.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 8, 64, 1);
  newer.Slot(1, RF_STATUS_DONE, RF_OP_HAVOC, 3, 64, 1);
  aging.ObserveRing(newer.View().ring);  // ages: 5 -> 2, 8 -> 1, 3 -> 1
  EXPECT_TRUE(aging.Promote(false, 10).empty());
  EXPECT_EQ(aging.accounting().aged_promotions, 0u);
  EXPECT_THAT(aging.Promote(true, 2), ElementsAre(5u, 3u));
  EXPECT_EQ(aging.accounting().aged_promotions, 2u);
  EXPECT_EQ(aging.waiting().size(), 3u);  // promoted, not yet served
}

TEST(PriorityAgingTest, AccountingIsDrainedWhenItHasSomethingToReport) {
  PriorityAging aging;
  EXPECT_FALSE(aging.DrainIfRecommended());  // nothing pending
  WireBytes wire(1);
  wire.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 5, 64, 1);
  aging.ObserveRing(wire.View().ring);
  EXPECT_EQ(aging.accounting().DrainRecommendation().reason,
            telemetry::PriorityDrainReason::kPendingTelemetry);
  EXPECT_TRUE(aging.DrainIfRecommended());
  EXPECT_EQ(aging.accounting(), telemetry::PriorityRequeueAccounting{});
  EXPECT_EQ(aging.waiting().size(), 1u);  // the parents still wait
}

}  // namespace
}  // namespace ringfuzz
