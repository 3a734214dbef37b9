#include "telemetry/slot_status.h"

#include <sstream>

#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz::telemetry {
namespace {

TEST(SlotStatusTest, EveryProtocolStatusHasItsKindAndName) {
  const struct {
    uint32_t raw;
    SlotStatusKind kind;
    const char* name;
    bool active;
  } cases[] = {
      {RF_STATUS_EMPTY, SlotStatusKind::kEmpty, "empty", false},
      {RF_STATUS_PUBLISHED, SlotStatusKind::kPublished, "published", true},
      {RF_STATUS_CLAIMED, SlotStatusKind::kClaimed, "claimed", true},
      {RF_STATUS_DONE, SlotStatusKind::kDone, "done", false},
      {RF_STATUS_WAIT_IO, SlotStatusKind::kWaitIo, "wait_io", true},
      {RF_STATUS_YIELD, SlotStatusKind::kYield, "yield", true},
      {RF_STATUS_REQUEUE, SlotStatusKind::kRequeue, "requeue", true},
      {RF_STATUS_FAULT, SlotStatusKind::kFault, "fault", false},
  };
  for (const auto& c : cases) {
    const SlotStatus status = SlotStatus::FromRaw(c.raw);
    EXPECT_EQ(status.kind(), c.kind) << c.name;
    EXPECT_EQ(status.raw(), c.raw);
    EXPECT_EQ(status.ToString(), c.name);
    EXPECT_EQ(status.IsActive(), c.active) << c.name;
    EXPECT_EQ(SlotStatus::Of(c.kind), status) << c.name;
  }
}

TEST(SlotStatusTest, OtherWordsAreUnknownAndKeepTheirValue) {
  for (uint32_t raw : {8u, 9u, 0xFFFFFFFFu, 0x80000000u}) {
    const SlotStatus status = SlotStatus::FromRaw(raw);
    EXPECT_EQ(status.kind(), SlotStatusKind::kUnknown);
    EXPECT_EQ(status.raw(), raw);
    EXPECT_FALSE(status.IsActive());
    EXPECT_EQ(status.KindName(), "unknown");
  }
  EXPECT_EQ(SlotStatus::FromRaw(9).ToString(), "unknown(9)");
  EXPECT_EQ(SlotStatus::FromRaw(0xFFFFFFFFu).ToString(), "unknown(4294967295)");
  EXPECT_NE(SlotStatus::FromRaw(8), SlotStatus::FromRaw(9));
  EXPECT_EQ(SlotStatus::Of(SlotStatusKind::kUnknown).kind(),
            SlotStatusKind::kUnknown);
}

TEST(SlotStatusTest, DefaultIsEmptyAndPrints) {
  EXPECT_EQ(SlotStatus(), SlotStatus::FromRaw(RF_STATUS_EMPTY));
  std::ostringstream os;
  os << SlotStatus::FromRaw(RF_STATUS_WAIT_IO) << " "
     << SlotStatus::FromRaw(42);
  EXPECT_EQ(os.str(), "wait_io unknown(42)");
}

}  // namespace
}  // namespace ringfuzz::telemetry
