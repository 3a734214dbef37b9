// The host's ring-slot rules against wire-protocol.md's lifecycle: publish
// only from EMPTY or DONE; a broken rule is an error, never an overwrite.
#include "fuzz/gpu/ring_slots.h"

#include <vector>

#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

std::vector<uint32_t> Ring(const std::vector<uint32_t>& statuses) {
  std::vector<uint32_t> ring(statuses.size() * RF_SLOT_WORDS, 0xAB);
  for (size_t s = 0; s < statuses.size(); ++s) {
    ring[s * RF_SLOT_WORDS + RF_SLOT_STATUS] = statuses[s];
  }
  return ring;
}

uint32_t Status(const std::vector<uint32_t>& ring, size_t s) {
  return ring[s * RF_SLOT_WORDS + RF_SLOT_STATUS];
}

TEST(RingSlotsTest, LeftoversAreCancelledAndFaultsReclaimed) {
  // The spec's numbers: EMPTY 0, PUBLISHED 1, DONE 3, WAIT_IO 4, YIELD 5,
  // REQUEUE 6, FAULT 7.
  std::vector<uint32_t> ring = Ring({0, 1, 3, 4, 5, 6, 7});
  ASSERT_TRUE(PrepareToPublish(ring.data(), 7).ok());
  const uint32_t expected[] = {0, 0, 3, 0, 0, 0, 0};
  for (size_t s = 0; s < 7; ++s) EXPECT_EQ(Status(ring, s), expected[s]) << s;
  // Only the status word is touched.
  EXPECT_EQ(ring[RF_SLOT_WORDS + 1], 0xABu);
}

TEST(RingSlotsTest, AClaimedSlotIsAnErrorAndNothingChanges) {
  std::vector<uint32_t> ring = Ring({1, 2, 7});  // PUBLISHED, CLAIMED, FAULT
  const absl::Status s = PrepareToPublish(ring.data(), 3);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("ring slot 1 is CLAIMED"), absl::string_view::npos)
      << s;
  EXPECT_EQ(Status(ring, 0), 1u);
  EXPECT_EQ(Status(ring, 2), 7u);
}

TEST(RingSlotsTest, AnUnknownStatusIsAnError) {
  std::vector<uint32_t> ring = Ring({0, 8});
  const absl::Status s = PrepareToPublish(ring.data(), 2);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("unknown status 8"), absl::string_view::npos) << s;
}

TEST(RingSlotsTest, SlotsBeyondCountAreLeftAlone) {
  std::vector<uint32_t> ring = Ring({1, 2});
  ASSERT_TRUE(PrepareToPublish(ring.data(), 1).ok());
  EXPECT_EQ(Status(ring, 0), 0u);
  EXPECT_EQ(Status(ring, 1), 2u);
}

}  // namespace
}  // namespace ringfuzz
