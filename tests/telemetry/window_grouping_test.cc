// The "Windows" rules of wire-protocol.md.
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

RingTelemetry DecodeWindows(const RingBuilder& ring,
                            std::vector<uint32_t> ops) {
  absl::StatusOr<RingTelemetry> t = RingTelemetry::TryDecodeWithWindowOpcodes(
      ControlBuilder().bytes(), ring.bytes(), ops);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : RingTelemetry{};
}

TEST(WindowGroupingTest, GroupsByTicketAndOpcodeAndCountsStatuses) {
  RingBuilder ring;
  // Window (5, HAVOC): tenant from its first slot (slot 0).
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 3, 5, RF_CLASS_REQUIRED});
  ring.Add({RF_STATUS_CLAIMED, RF_OP_HAVOC, 4, 5, RF_CLASS_REQUIRED});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 4, 5, RF_CLASS_LOOKAHEAD});
  ring.Add({RF_STATUS_WAIT_IO, RF_OP_HAVOC, 4, 5, 2});  // neither class
  ring.Add({RF_STATUS_YIELD, RF_OP_HAVOC, 4, 5, RF_CLASS_LOOKAHEAD});
  ring.Add({RF_STATUS_REQUEUE, RF_OP_HAVOC, 4, 5, RF_CLASS_REQUIRED});
  ring.Add({RF_STATUS_FAULT, RF_OP_HAVOC, 4, 5, RF_CLASS_REQUIRED});
  // EMPTY and unknown slots are members (class counts) but not counted.
  ring.Add({RF_STATUS_EMPTY, RF_OP_HAVOC, 4, 5, RF_CLASS_REQUIRED});
  ring.Add({99, RF_OP_HAVOC, 4, 5, RF_CLASS_LOOKAHEAD});
  // Not a window opcode: ignored.
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_TRIM, 4, 5, RF_CLASS_REQUIRED});

  const RingTelemetry t = DecodeWindows(ring, {RF_OP_HAVOC});
  ASSERT_EQ(t.windows.size(), 1u);
  WindowTelemetry expected;
  expected.ticket = 5;
  expected.tenant = 3;
  expected.opcode = RF_OP_HAVOC;
  expected.required_slots = 5;
  expected.lookahead_slots = 3;
  expected.published = 1;
  expected.claimed = 1;
  expected.done = 1;
  expected.wait_io = 1;
  expected.yield = 1;
  expected.requeue = 1;
  expected.fault = 1;
  EXPECT_EQ(t.windows[0], expected);
  EXPECT_TRUE(t.windows[0].IsActive());
}

TEST(WindowGroupingTest, SortedByTicketThenOpcodeWhateverTheRingOrder) {
  RingBuilder ring;
  ring.Add({RF_STATUS_DONE, RF_OP_SPLICE, 1, 9, 0});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 2, 9, 0});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 3, 2, 0});
  ring.Add({RF_STATUS_DONE, RF_OP_SPLICE, 4, 2, 0});
  ring.Add({RF_STATUS_DONE, RF_OP_HAVOC, 5, 9, 0});  // joins (9, HAVOC)
  const RingTelemetry t = DecodeWindows(ring, {RF_OP_HAVOC, RF_OP_SPLICE});
  ASSERT_EQ(t.windows.size(), 4u);
  const std::pair<uint32_t, uint32_t> order[] = {
      {2, RF_OP_HAVOC}, {2, RF_OP_SPLICE}, {9, RF_OP_HAVOC}, {9, RF_OP_SPLICE}};
  const uint32_t tenants[] = {3, 4, 2, 1};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.windows[i].ticket, order[i].first) << i;
    EXPECT_EQ(t.windows[i].opcode, order[i].second) << i;
    // The tenant of the window's lowest-index slot.
    EXPECT_EQ(t.windows[i].tenant, tenants[i]) << i;
  }
  EXPECT_EQ(t.windows[2].required_slots, 2u);
  EXPECT_EQ(t.windows[2].done, 2u);
  EXPECT_FALSE(t.windows[2].IsActive());
}

TEST(WindowGroupingTest, OpcodeOrderAndDuplicatesDoNotMatter) {
  RingBuilder ring;
  for (uint32_t i = 0; i < 12; ++i) {
    ring.Add({RF_STATUS_PUBLISHED + i % 3, RF_OP_HAVOC + i % 4, i % 5, i % 3,
              i % 2});
  }
  const RingTelemetry reference =
      DecodeWindows(ring, {RF_OP_HAVOC, RF_OP_SPLICE});
  EXPECT_FALSE(reference.windows.empty());
  EXPECT_EQ(DecodeWindows(ring, {RF_OP_SPLICE, RF_OP_HAVOC}), reference);
  EXPECT_EQ(DecodeWindows(ring, {RF_OP_SPLICE, RF_OP_HAVOC, RF_OP_SPLICE,
                                 RF_OP_HAVOC, RF_OP_HAVOC}),
            reference);
  // Every window has one of the asked-for opcodes.
  for (const WindowTelemetry& w : reference.windows) {
    EXPECT_TRUE(w.opcode == RF_OP_HAVOC || w.opcode == RF_OP_SPLICE);
  }
}

TEST(WindowGroupingTest, NoWindowOpcodesMeansNoWindows) {
  RingBuilder ring;
  ring.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 0, 1, 0});
  EXPECT_TRUE(DecodeWindows(ring, {}).windows.empty());
  EXPECT_TRUE(RingTelemetry::Decode(ControlBuilder().bytes(), ring.bytes())
                  .windows.empty());
  EXPECT_TRUE(DecodeWindows(ring, {RF_OP_TRIM}).windows.empty());
}

TEST(WindowGroupingTest, ScratchCarriesNothingBetweenDecodes) {
  RingBuilder first;
  first.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 0, 1, 0});
  first.Add({RF_STATUS_PUBLISHED, RF_OP_HAVOC, 0, 2, 0});
  RingBuilder second;
  second.Add({RF_STATUS_DONE, RF_OP_SPLICE, 0, 7, 1});
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  const std::vector<uint32_t> havoc = {RF_OP_HAVOC};
  const std::vector<uint32_t> splice = {RF_OP_SPLICE};
  ASSERT_TRUE(RingTelemetry::TryDecodeWithWindowOpcodesInto(
                  ControlBuilder().bytes(), first.bytes(), havoc, out, scratch)
                  .ok());
  EXPECT_EQ(out.windows.size(), 2u);
  ASSERT_TRUE(
      RingTelemetry::TryDecodeWithWindowOpcodesInto(
          ControlBuilder().bytes(), second.bytes(), splice, out, scratch)
          .ok());
  ASSERT_EQ(out.windows.size(), 1u);
  EXPECT_EQ(out.windows[0].ticket, 7u);
  EXPECT_EQ(out.windows[0].lookahead_slots, 1u);
  ASSERT_TRUE(RingTelemetry::TryDecodeWithWindowOpcodesInto(
                  ControlBuilder().bytes(), second.bytes(), {}, out, scratch)
                  .ok());
  EXPECT_TRUE(out.windows.empty());
}

}  // namespace
}  // namespace ringfuzz::telemetry
