// The "Decoding" rules of wire-protocol.md: strict validation, lenient
// fallback, control and slot decoding, occupancy.
#include "telemetry/wire_decode.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "telemetry/ring_telemetry.h"
#include "tests/telemetry/wire_builder.h"

namespace ringfuzz::telemetry {
namespace {

using ::ringfuzz::telemetry::testing::ControlBuilder;
using ::ringfuzz::telemetry::testing::RingBuilder;
using ::ringfuzz::telemetry::testing::SlotWords;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A decoded snapshot that differs from RingTelemetry{} everywhere, to show
// that failed strict decodes leave it alone.
RingTelemetry NonEmptySnapshot() {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, 77).Set(RF_CTRL_DISPATCH + 8, 5);
  RingBuilder ring;
  ring.Add({RF_STATUS_PUBLISHED, 8, 1, 3, 0});
  return RingTelemetry::DecodeWithWindowOpcodes(control.bytes(), ring.bytes(),
                                                std::vector<uint32_t>{8});
}

struct BadBuffers {
  const char* name;
  size_t control_bytes;
  size_t ring_bytes;
  const char* message;
};

class StrictRejectsTest : public ::testing::TestWithParam<BadBuffers> {};

TEST_P(StrictRejectsTest, ErrorsBeforeTouchingOutAndLenientGivesEmpty) {
  const BadBuffers& c = GetParam();
  const std::vector<uint8_t> control(c.control_bytes, 0x11);
  const std::vector<uint8_t> ring(c.ring_bytes, 0x01);

  const absl::Status validation = ValidateTelemetryBuffers(control, ring);
  EXPECT_EQ(validation.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(validation.message(), HasSubstr(c.message));
  EXPECT_THAT(validation.message(), HasSubstr("Fix:"));

  EXPECT_EQ(RingTelemetry::TryDecode(control, ring).status(), validation);
  const std::vector<uint32_t> ops = {8};
  EXPECT_EQ(
      RingTelemetry::TryDecodeWithWindowOpcodes(control, ring, ops).status(),
      validation);

  const RingTelemetry before = NonEmptySnapshot();
  RingTelemetry out = before;
  TelemetryDecodeScratch scratch;
  EXPECT_EQ(RingTelemetry::TryDecodeWithWindowOpcodesInto(control, ring, ops,
                                                          out, scratch),
            validation);
  EXPECT_EQ(out, before);

  EXPECT_EQ(RingTelemetry::Decode(control, ring), RingTelemetry{});
  EXPECT_EQ(RingTelemetry::DecodeWithWindowOpcodes(control, ring, ops),
            RingTelemetry{});
  RingTelemetry lenient = before;
  RingTelemetry::DecodeWithWindowOpcodesInto(control, ring, ops, lenient,
                                             scratch);
  EXPECT_EQ(lenient, RingTelemetry{});
}

INSTANTIATE_TEST_SUITE_P(
    Truncated, StrictRejectsTest,
    ::testing::Values(
        BadBuffers{"EmptyControl", 0, 64, "control buffer has 0 bytes"},
        BadBuffers{"ControlOneWordShort", RF_CTRL_MIN_BYTES - 4, 64,
                   "at least 640"},
        BadBuffers{"ControlNotWords", RF_CTRL_MIN_BYTES + 2, 64,
                   "not a whole number of 4-byte words"},
        BadBuffers{"RingPartialSlot", RF_CTRL_MIN_BYTES, 63,
                   "ring buffer has 63 bytes"},
        BadBuffers{"RingSlotAndAByte", RF_CTRL_MIN_BYTES, RF_SLOT_BYTES + 1,
                   "1 slots and 1 bytes left over"}),
    [](const ::testing::TestParamInfo<BadBuffers>& info) {
      return info.param.name;
    });

TEST(StrictDecodeTest, ZeroByteRingIsZeroSlots) {
  const std::vector<uint8_t> control(RF_CTRL_MIN_BYTES, 0);
  absl::StatusOr<RingTelemetry> decoded = RingTelemetry::TryDecode(control, {});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(decoded->slots.empty());
  EXPECT_EQ(decoded->occupancy.total_slots(), 0u);
}

TEST(StrictDecodeTest, LongerControlBuffersAreAccepted) {
  ControlBuilder control(RF_CTRL_WORDS);
  control.Set(RF_CTRL_EPOCH, 4);
  absl::StatusOr<RingTelemetry> decoded =
      RingTelemetry::TryDecode(control.bytes(), {});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->control.epoch, 4u);
}

TEST(StrictDecodeTest, SlotCountMustFitU32) {
  const std::vector<uint8_t> control(RF_CTRL_MIN_BYTES, 0);
  uint8_t byte = 0;
  // The span is never read: validation looks only at its size.
  const absl::Span<const uint8_t> huge(
      &byte,
      (uint64_t{std::numeric_limits<uint32_t>::max()} + 1) * RF_SLOT_BYTES);
  const absl::Status status = ValidateTelemetryBuffers(control, huge);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("4294967296 slots"));
  EXPECT_EQ(RingTelemetry::Decode(control, huge), RingTelemetry{});
}

TEST(ControlDecodeTest, DecodesEveryTelemetryWord) {
  ControlBuilder control;
  control.Set(RF_CTRL_SHUTDOWN, 2)
      .Set(RF_CTRL_DONE_COUNT, 1234)
      .Set(RF_CTRL_EPOCH, 9)
      .Set(RF_CTRL_DISPATCH + 31, 7)
      .Set(RF_CTRL_DISPATCH + 9, 3)
      .Set(RF_CTRL_DISPATCH + 0, 1);
  for (uint32_t t = 0; t < RF_CTRL_TENANT_FAIRNESS_COUNT; ++t) {
    control.Set(RF_CTRL_TENANT_FAIRNESS + t, 100 + t);
  }
  for (uint32_t p = 0; p < RF_CTRL_PRIORITY_COUNT; ++p) {
    control.Set(RF_CTRL_PRIORITY_FAIRNESS + p, 10 * p);
  }
  // Words the snapshot does not read must not leak into it.
  control.Set(RF_CTRL_TENANT_QUOTAS, 99).Set(RF_CTRL_STARVATION, 99);

  absl::StatusOr<RingTelemetry> decoded =
      RingTelemetry::TryDecode(control.bytes(), {});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  const ControlSnapshot& snapshot = decoded->control;
  EXPECT_TRUE(snapshot.shutdown);
  EXPECT_EQ(snapshot.done_count, 1234u);
  EXPECT_EQ(snapshot.epoch, 9u);
  // Non-zero counters only, ascending opcode.
  EXPECT_THAT(snapshot.metrics,
              ElementsAre(DispatchMetric{0, 1}, DispatchMetric{9, 3},
                          DispatchMetric{31, 7}));
  for (uint32_t t = 0; t < RF_CTRL_TENANT_FAIRNESS_COUNT; ++t) {
    EXPECT_EQ(snapshot.tenant_fairness[t], 100 + t);
  }
  EXPECT_THAT(snapshot.priority_fairness, ElementsAre(0, 10, 20, 30, 40));
}

TEST(ControlDecodeTest, ShutdownIsAnyNonZeroWord) {
  ControlBuilder control;
  EXPECT_FALSE(RingTelemetry::Decode(control.bytes(), {}).control.shutdown);
  control.Set(RF_CTRL_SHUTDOWN, 0x80000000u);
  EXPECT_TRUE(RingTelemetry::Decode(control.bytes(), {}).control.shutdown);
}

TEST(SlotDecodeTest, DecodesStatusOpcodeTenantAndArgPrefix) {
  RingBuilder ring;
  ring.Add({RF_STATUS_CLAIMED, RF_OP_SPLICE, 6, 41, RF_CLASS_LOOKAHEAD, 17});
  ring.AddStatus(RF_STATUS_DONE, RF_OP_HAVOC);
  const RingTelemetry t =
      RingTelemetry::Decode(ControlBuilder().bytes(), ring.bytes());
  ASSERT_EQ(t.slots.size(), 2u);
  EXPECT_EQ(t.slots[0].slot, 0u);
  EXPECT_EQ(t.slots[0].status, SlotStatus::FromRaw(RF_STATUS_CLAIMED));
  EXPECT_EQ(t.slots[0].opcode, RF_OP_SPLICE);
  EXPECT_EQ(t.slots[0].tenant, 6u);
  EXPECT_THAT(t.slots[0].args, ElementsAre(41, RF_CLASS_LOOKAHEAD, 17));
  EXPECT_EQ(t.slots[1].slot, 1u);
  EXPECT_EQ(t.slots[1].status.kind(), SlotStatusKind::kDone);
}

TEST(SlotDecodeTest, WordsAreLittleEndian) {
  std::vector<uint8_t> ring(RF_SLOT_BYTES, 0);
  const uint8_t opcode_bytes[4] = {0x01, 0x02, 0x03, 0x04};
  std::memcpy(&ring[RF_SLOT_OPCODE * 4], opcode_bytes, 4);
  ring[RF_SLOT_STATUS * 4] = RF_STATUS_PUBLISHED;
  std::vector<uint8_t> control(RF_CTRL_MIN_BYTES, 0);
  control[RF_CTRL_DONE_COUNT * 4 + 1] = 0x01;  // 256
  const RingTelemetry t = RingTelemetry::Decode(control, ring);
  EXPECT_EQ(t.slots.at(0).opcode, 0x04030201u);
  EXPECT_EQ(t.slots.at(0).status.kind(), SlotStatusKind::kPublished);
  EXPECT_EQ(t.control.done_count, 256u);
}

TEST(SlotDecodeTest, MisalignedBuffersDecodeLikeAlignedOnes) {
  ControlBuilder control;
  control.Set(RF_CTRL_DONE_COUNT, 0xDEADBEEF).Set(RF_CTRL_DISPATCH + 8, 3);
  RingBuilder ring;
  ring.Add({RF_STATUS_YIELD, 0x12345678u, 0x9ABCDEF0u, 1, 0, 2});
  ring.Add({RF_STATUS_REQUEUE, 8, 1, 1, 1, 0});
  const RingTelemetry aligned =
      RingTelemetry::Decode(control.bytes(), ring.bytes());
  for (size_t offset = 1; offset < 4; ++offset) {
    std::vector<uint8_t> storage(offset + control.bytes().size() +
                                 ring.bytes().size());
    uint8_t* c = storage.data() + offset;
    std::memcpy(c, control.bytes().data(), control.bytes().size());
    uint8_t* r = c + control.bytes().size();
    std::memcpy(r, ring.bytes().data(), ring.bytes().size());
    absl::StatusOr<RingTelemetry> decoded =
        RingTelemetry::TryDecode(absl::MakeConstSpan(c, control.bytes().size()),
                                 absl::MakeConstSpan(r, ring.bytes().size()));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, aligned) << "offset " << offset;
  }
  EXPECT_EQ(aligned.control.done_count, 0xDEADBEEFu);
  EXPECT_EQ(aligned.slots[0].opcode, 0x12345678u);
}

TEST(OccupancyTest, CountsEveryStatusAndDerivesTotals) {
  RingBuilder ring;
  const uint32_t statuses[] = {
      RF_STATUS_EMPTY,   RF_STATUS_EMPTY,   RF_STATUS_PUBLISHED,
      RF_STATUS_CLAIMED, RF_STATUS_DONE,    RF_STATUS_DONE,
      RF_STATUS_DONE,    RF_STATUS_WAIT_IO, RF_STATUS_YIELD,
      RF_STATUS_REQUEUE, RF_STATUS_FAULT,   8,
      0xFFFFFFFFu};
  for (uint32_t status : statuses) ring.AddStatus(status);
  const RingTelemetry t =
      RingTelemetry::Decode(ControlBuilder().bytes(), ring.bytes());
  const RingOccupancy& o = t.occupancy;
  EXPECT_EQ(o.empty, 2u);
  EXPECT_EQ(o.published, 1u);
  EXPECT_EQ(o.claimed, 1u);
  EXPECT_EQ(o.done, 3u);
  EXPECT_EQ(o.wait_io, 1u);
  EXPECT_EQ(o.yield, 1u);
  EXPECT_EQ(o.requeue, 1u);
  EXPECT_EQ(o.fault, 1u);
  EXPECT_EQ(o.unknown, 2u);
  EXPECT_EQ(o.total_slots(), 13u);
  // published + claimed + wait_io + yield + requeue + fault + unknown.
  EXPECT_EQ(o.queue_depth(), 8u);
  EXPECT_EQ(t.slots[11].status.ToString(), "unknown(8)");
  EXPECT_EQ(t.slots[12].status.raw(), 0xFFFFFFFFu);
}

TEST(DecodeIntoTest, ReusedOutputMatchesFreshDecode) {
  RingBuilder big;
  for (uint32_t i = 0; i < 50; ++i) {
    big.Add({RF_STATUS_PUBLISHED, 8 + i % 3, i % 4, i / 10, i % 2});
  }
  RingBuilder small;
  small.Add({RF_STATUS_DONE, 9, 1, 7, 0});
  const std::vector<uint32_t> ops = {8, 9};
  RingTelemetry out;
  TelemetryDecodeScratch scratch;
  for (const RingBuilder* ring : {&big, &small, &big}) {
    ASSERT_TRUE(RingTelemetry::TryDecodeWithWindowOpcodesInto(
                    ControlBuilder().bytes(), ring->bytes(), ops, out, scratch)
                    .ok());
    EXPECT_EQ(out, RingTelemetry::DecodeWithWindowOpcodes(
                       ControlBuilder().bytes(), ring->bytes(), ops));
  }
}

TEST(RingTelemetryTest, IsCopyableComparableAndPrintable) {
  const RingTelemetry a = NonEmptySnapshot();
  RingTelemetry b = a;
  EXPECT_EQ(a, b);
  b.slots[0].tenant = 2;
  EXPECT_NE(a, b);
  std::ostringstream os;
  os << a;
  EXPECT_THAT(os.str(), HasSubstr("done_count=77"));
  EXPECT_THAT(os.str(), HasSubstr("metrics=[(8,5)]"));
  EXPECT_THAT(os.str(), HasSubstr("status=published"));
  EXPECT_THAT(os.str(), HasSubstr("WindowTelemetry{ticket=3"));
}

}  // namespace
}  // namespace ringfuzz::telemetry
