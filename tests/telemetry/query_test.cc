// RingTelemetry's slot and window queries: every form returns the same
// elements, and the Into forms reuse the caller's storage.
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::testing::ElementsAre;

// Slot i has status kStatuses[i % 9] and opcode 8 + i % 2.
RingTelemetry MixedRing() {
  const uint32_t kStatuses[] = {
      RF_STATUS_EMPTY,   RF_STATUS_PUBLISHED, RF_STATUS_CLAIMED,
      RF_STATUS_DONE,    RF_STATUS_WAIT_IO,   RF_STATUS_YIELD,
      RF_STATUS_REQUEUE, RF_STATUS_FAULT,     12};
  RingBuilder ring;
  for (uint32_t i = 0; i < 18; ++i) {
    // Tickets: slots 0..8 ticket 1, 9..17 ticket 2; class alternates.
    ring.Add({kStatuses[i % 9], 8 + i % 2, 0, 1 + i / 9, i % 2});
  }
  const std::vector<uint32_t> ops = {8, 9};
  return RingTelemetry::DecodeWithWindowOpcodes(ControlBuilder().bytes(),
                                                ring.bytes(), ops);
}

std::vector<uint32_t> SlotIndices(
    const std::vector<const RingSlotSnapshot*>& slots) {
  std::vector<uint32_t> indices;
  for (const RingSlotSnapshot* slot : slots) indices.push_back(slot->slot);
  return indices;
}

TEST(ActiveSlotsTest, OnlyActiveSlotsOfTheOpcodeInRingOrder) {
  const RingTelemetry t = MixedRing();
  // Opcode 8 = even slots; active statuses sit at i % 9 in {1, 2, 4, 5, 6}.
  const std::vector<uint32_t> expected = {2, 4, 6, 10, 14};
  EXPECT_EQ(SlotIndices(t.ActiveSlotsForOpcode(8)), expected);

  absl::StatusOr<std::vector<const RingSlotSnapshot*>> tried =
      t.TryActiveSlotsForOpcode(8);
  ASSERT_TRUE(tried.ok());
  EXPECT_EQ(SlotIndices(*tried), expected);

  std::vector<uint32_t> from_range;
  for (const RingSlotSnapshot& slot : t.ActiveSlotsForOpcodeRange(8)) {
    from_range.push_back(slot.slot);
  }
  EXPECT_EQ(from_range, expected);
  EXPECT_EQ(t.ActiveSlotsForOpcodeRange(8).size(), expected.size());

  std::vector<const RingSlotSnapshot*> into = {nullptr, nullptr};
  t.ActiveSlotsForOpcodeInto(8, into);
  EXPECT_EQ(SlotIndices(into), expected);
  ASSERT_TRUE(t.TryActiveSlotsForOpcodeInto(9, into).ok());
  EXPECT_EQ(SlotIndices(into), (std::vector<uint32_t>{1, 5, 11, 13, 15}));
  // Pointers point into the snapshot.
  EXPECT_EQ(into[0], &t.slots[1]);
}

TEST(ActiveSlotsTest, NoMatchGivesEmptyResults) {
  const RingTelemetry t = MixedRing();
  EXPECT_TRUE(t.ActiveSlotsForOpcode(77).empty());
  EXPECT_TRUE(t.ActiveSlotsForOpcodeRange(77).empty());
  EXPECT_EQ(t.ActiveSlotsForOpcodeRange(77).begin(),
            t.ActiveSlotsForOpcodeRange(77).end());
  EXPECT_TRUE(RingTelemetry{}.ActiveSlotsForOpcode(8).empty());
}

TEST(ActiveSlotsTest, IntoReusesCapacity) {
  const RingTelemetry t = MixedRing();
  std::vector<const RingSlotSnapshot*> out;
  t.ActiveSlotsForOpcodeInto(8, out);
  const auto* storage = out.data();
  const size_t capacity = out.capacity();
  t.ActiveSlotsForOpcodeInto(9, out);
  EXPECT_EQ(out.data(), storage);
  EXPECT_EQ(out.capacity(), capacity);
}

TEST(ActiveSlotsTest, RangeIteratorIsAForwardIterator) {
  const RingTelemetry t = MixedRing();
  const ActiveSlotRange range = t.ActiveSlotsForOpcodeRange(9);
  auto it = range.begin();
  EXPECT_EQ(it->slot, 1u);
  auto old = it++;
  EXPECT_EQ(old->slot, 1u);
  EXPECT_EQ((*it).slot, 5u);
  EXPECT_EQ(std::distance(range.begin(), range.end()), 5);
  // An iterator outlives the range object it came from.
  auto detached = t.ActiveSlotsForOpcodeRange(9).begin();
  ++detached;
  EXPECT_EQ(detached->slot, 5u);
}

TEST(ActiveWindowsTest, AllFormsAgree) {
  RingBuilder ring;
  ring.Add({RF_STATUS_DONE, 8, 0, 1, 0});  // ticket 1: finished
  ring.Add({RF_STATUS_FAULT, 8, 0, 1, 0});
  ring.Add({RF_STATUS_WAIT_IO, 8, 0, 2, 0});  // ticket 2: active
  ring.Add({RF_STATUS_EMPTY, 8, 0, 3, 0});    // ticket 3: only empty
  ring.Add({RF_STATUS_YIELD, 9, 0, 3, 0});    // (3, 9): active
  const std::vector<uint32_t> ops = {8, 9};
  const RingTelemetry t = RingTelemetry::DecodeWithWindowOpcodes(
      ControlBuilder().bytes(), ring.bytes(), ops);
  ASSERT_EQ(t.windows.size(), 4u);

  std::vector<uint32_t> tickets;
  for (const WindowTelemetry* w : t.ActiveWindows())
    tickets.push_back(w->ticket);
  EXPECT_THAT(tickets, ElementsAre(2, 3));

  absl::StatusOr<std::vector<const WindowTelemetry*>> tried =
      t.TryActiveWindows();
  ASSERT_TRUE(tried.ok());
  ASSERT_EQ(tried->size(), 2u);
  EXPECT_EQ((*tried)[1], &t.windows[3]);
  EXPECT_EQ((*tried)[1]->opcode, 9u);

  std::vector<const WindowTelemetry*> into(7, nullptr);
  t.ActiveWindowsInto(into);
  EXPECT_EQ(into, *tried);
  ASSERT_TRUE(t.TryActiveWindowsInto(into).ok());
  EXPECT_EQ(into, *tried);

  size_t count = 0;
  for (const WindowTelemetry& w : t.ActiveWindowsRange()) {
    EXPECT_TRUE(w.IsActive());
    ++count;
  }
  EXPECT_EQ(count, 2u);
}

}  // namespace
}  // namespace ringfuzz::telemetry
