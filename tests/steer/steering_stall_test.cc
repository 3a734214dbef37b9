#include "fuzz/steer/steering_stall.h"

#include "gtest/gtest.h"
#include "tests/steer/wire_bytes.h"

namespace ringfuzz {
namespace {

using absl::Seconds;

TEST(StallWatchTest, ProgressIsNeverAStall) {
  StallWatch watch(Seconds(5));
  WireBytes wire(2);
  wire.Slot(0, RF_STATUS_CLAIMED);
  wire.Slot(1, RF_STATUS_PUBLISHED);
  watch.Start(wire.View(), Seconds(0));
  for (int i = 1; i <= 20; ++i) {
    wire.control[RF_CTRL_DONE_COUNT] += 1;  // a slot drained every poll
    EXPECT_FALSE(watch.Poll(wire.View(), Seconds(10 * i)));
  }
  EXPECT_FALSE(watch.stalled());
  EXPECT_EQ(watch.last_health()->done_delta, 1u);
}

TEST(StallWatchTest, NoDrainForTheIntervalWithClaimedWorkIsAStall) {
  StallWatch watch(Seconds(5));
  WireBytes wire(4);
  wire.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 0, 64, 64);
  wire.Slot(1, RF_STATUS_CLAIMED, RF_OP_HAVOC, 9);
  wire.Slot(2, RF_STATUS_PUBLISHED);
  wire.Slot(3, RF_STATUS_CLAIMED, RF_OP_DICT, 4);
  wire.control[RF_CTRL_DONE_COUNT] = 10;
  watch.Start(wire.View(42), Seconds(0));
  EXPECT_FALSE(watch.Poll(wire.View(42), Seconds(1)));
  EXPECT_TRUE(watch.last_health()->suspected_stall);
  EXPECT_FALSE(watch.Poll(wire.View(42), Seconds(4)));
  EXPECT_TRUE(watch.Poll(wire.View(42), Seconds(5)));
  EXPECT_TRUE(watch.stalled());
  EXPECT_EQ(watch.stalled_for(), Seconds(5));
  EXPECT_EQ(watch.queue_depth(), 3u);
  ASSERT_EQ(watch.suspects().size(), 2u);
  EXPECT_EQ(watch.suspects()[0].index, 1u);
  EXPECT_EQ(watch.suspects()[0].words[RF_SLOT_ARG0 + RF_ARG_PARENT], 9u);
  EXPECT_EQ(watch.suspects()[0].push_seed, 42u);
  EXPECT_EQ(watch.suspects()[1].index, 3u);
  EXPECT_EQ(watch.suspects()[1].words[RF_SLOT_OPCODE], RF_OP_DICT);
  watch.Clear();
  EXPECT_FALSE(watch.stalled());
  EXPECT_TRUE(watch.suspects().empty());
}

TEST(StallWatchTest, TheIntervalCountsFromTheLastProgress) {
  StallWatch watch(Seconds(5));
  WireBytes wire(2);
  wire.Slot(0, RF_STATUS_CLAIMED);
  wire.Slot(1, RF_STATUS_CLAIMED);
  watch.Start(wire.View(), Seconds(0));
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(4)));
  wire.control[RF_CTRL_DONE_COUNT] = 1;
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(6)));  // progress at 6 s
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(10)));
  EXPECT_TRUE(watch.Poll(wire.View(), Seconds(11)));
}

TEST(StallWatchTest, NothingClaimedOrFaultsOrNewCountersAreNoStall) {
  StallWatch watch(absl::ZeroDuration());
  WireBytes wire(2);
  wire.Slot(0, RF_STATUS_PUBLISHED);
  wire.Slot(1, RF_STATUS_PUBLISHED);
  wire.control[RF_CTRL_DONE_COUNT] = 5;
  watch.Start(wire.View(), Seconds(0));
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(100)));  // not started
  wire.Slot(0, RF_STATUS_FAULT);
  wire.Slot(1, RF_STATUS_CLAIMED);
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(200)));  // a fault is news
  wire.Slot(0, RF_STATUS_DONE);
  wire.control[RF_CTRL_DONE_COUNT] = 1;  // went backwards: new counters
  EXPECT_FALSE(watch.Poll(wire.View(), Seconds(300)));
  EXPECT_TRUE(watch.Poll(wire.View(), Seconds(301)));  // then a stall
  ASSERT_EQ(watch.suspects().size(), 1u);
  EXPECT_EQ(watch.suspects()[0].index, 1u);
}

TEST(StallWatchTest, StartForgetsTheLastStall) {
  StallWatch watch(absl::ZeroDuration());
  WireBytes wire(1);
  wire.Slot(0, RF_STATUS_CLAIMED);
  watch.Start(wire.View(), Seconds(0));
  EXPECT_TRUE(watch.Poll(wire.View(), Seconds(0)));
  watch.Start(wire.View(), Seconds(1));
  EXPECT_FALSE(watch.stalled());
}

}  // namespace
}  // namespace ringfuzz
