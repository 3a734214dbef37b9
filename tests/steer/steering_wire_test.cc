#include "fuzz/steer/steering_wire.h"

#include "fuzz/engine/executor.h"
#include "gtest/gtest.h"
#include "tests/steer/wire_bytes.h"

namespace ringfuzz {
namespace {

TEST(SteeringWireTest, PriorityPartitionsAreStartOffsetsThenTotal) {
  std::vector<WorkItem> work(6);
  const uint32_t priorities[] = {RF_PRIORITY_HIGH,   RF_PRIORITY_HIGH,
                                 RF_PRIORITY_NORMAL, RF_PRIORITY_LOW,
                                 RF_PRIORITY_LOW,    RF_PRIORITY_LOW};
  for (size_t i = 0; i < work.size(); ++i) work[i].priority = priorities[i];
  const auto words = PriorityPartitions(work);
  EXPECT_EQ(std::vector<uint32_t>(words.begin(), words.end()),
            (std::vector<uint32_t>{0, 0, 2, 3, 6, 6}));
  EXPECT_EQ(PriorityPartitions({})[RF_CTRL_PRIORITY_COUNT], 0u);
  work.resize(1);
  work[0].priority = 99;  // counts as IDLE
  const auto idle = PriorityPartitions(work);
  EXPECT_EQ(std::vector<uint32_t>(idle.begin(), idle.end()),
            (std::vector<uint32_t>{0, 0, 0, 0, 0, 1}));
}

TEST(SteeringWireTest, SuspectKeepsTheHostWordsAndTheDispatchSeed) {
  WireBytes wire(3);
  wire.Slot(1, RF_STATUS_CLAIMED, RF_OP_SPLICE, 7, 256, 100, 1);
  wire.ring[1 * RF_SLOT_WORDS + RF_SLOT_ARG0 + RF_ARG_SEED] = 1234;
  wire.ring[1 * RF_SLOT_WORDS + RF_SLOT_ARG0 + RF_ARG_FINDS] = 5;
  const SuspectSlot suspect = SuspectFromWire(wire.View(77), 1);
  EXPECT_EQ(suspect.index, 1u);
  EXPECT_EQ(suspect.push_seed, 77u);
  EXPECT_EQ(suspect.words[RF_SLOT_STATUS], RF_STATUS_EMPTY);
  EXPECT_EQ(suspect.words[RF_SLOT_OPCODE], RF_OP_SPLICE);
  EXPECT_EQ(suspect.words[RF_SLOT_TENANT], 1u);
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_PARENT], 7u);
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_COUNT], 256u);
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_SEED], 1234u);
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_EXECS], 0u);
  EXPECT_EQ(suspect.words[RF_SLOT_ARG0 + RF_ARG_FINDS], 0u);
}

TEST(SteeringWireTest, WordsOutOfRangeReadAsZero) {
  WireBytes wire(1);
  wire.Slot(0, RF_STATUS_DONE, RF_OP_HAVOC, 3);
  EXPECT_EQ(SlotCount(wire.View().ring), 1u);
  EXPECT_EQ(SlotWord(wire.View().ring, 0, RF_SLOT_ARG0 + RF_ARG_PARENT), 3u);
  EXPECT_EQ(SlotWord(wire.View().ring, 1, RF_SLOT_STATUS), 0u);
  EXPECT_EQ(WireWord({}, 0), 0u);
}

}  // namespace
}  // namespace ringfuzz
