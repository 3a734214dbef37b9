#include "fuzz/gpu/find_decode.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr uint32_t kMaxLen = 8;
constexpr uint32_t kStride = RF_FIND_WORDS(kMaxLen / 4);

// A queue of `n` entries of kind NEW_COVERAGE with inputs "ABCDEFGH".
std::vector<uint32_t> Queue(uint32_t n) {
  std::vector<uint32_t> queue(n * kStride, 0);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t* e = &queue[i * kStride];
    e[RF_FIND_KIND] = RF_FIND_NEW_COVERAGE;
    e[RF_FIND_LEN] = kMaxLen;
    e[RF_FIND_PARENT] = i;
    e[RF_FIND_MUTATIONS] = RF_MUT_SEQ_EMPTY;
    e[RF_FIND_HEADER_WORDS] = 0x44434241;      // "ABCD"
    e[RF_FIND_HEADER_WORDS + 1] = 0x48474645;  // "EFGH"
  }
  return queue;
}

TEST(FindDecodeTest, UnknownKindIsSkippedWithAnErrorNotNewCoverage) {
  std::vector<uint32_t> queue = Queue(2);
  queue[RF_FIND_KIND] = 77;
  const DecodedFindQueue d = DecodeFindQueue(queue, 2, kMaxLen, {});
  ASSERT_EQ(d.finds.size(), 1u);
  EXPECT_EQ(d.finds[0].parent, 1u);
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_THAT(d.errors[0], HasSubstr("entry 0 has kind 77"));
}

TEST(FindDecodeTest, CountAndLengthAreCappedAtWhatTheQueueHolds) {
  std::vector<uint32_t> queue = Queue(2);
  queue[RF_FIND_LEN] = 0xFFFFFFFFu;
  const DecodedFindQueue d = DecodeFindQueue(queue, 1000, kMaxLen, {});
  ASSERT_EQ(d.finds.size(), 2u);
  EXPECT_EQ(d.finds[0].data.size(), kMaxLen);
  EXPECT_THAT(DecodeFindQueue(queue, 1, kMaxLen, {}).finds.size(), 1u);
  // A queue cut inside its second entry holds one.
  queue.pop_back();
  EXPECT_EQ(DecodeFindQueue(queue, 2, kMaxLen, {}).finds.size(), 1u);
}

TEST(FindDecodeTest, DeviceClockIsTheLowWordThenTheHighWord) {
  std::vector<uint32_t> queue = Queue(2);
  queue[RF_FIND_CLOCK_LO] = 0x89ABCDEFu;
  queue[RF_FIND_CLOCK_HI] = 0x01234567u;
  const DecodedFindQueue d = DecodeFindQueue(queue, 2, kMaxLen, {});
  ASSERT_EQ(d.finds.size(), 2u);
  EXPECT_EQ(d.finds[0].device_clock, 0x0123456789ABCDEFull);
  EXPECT_EQ(d.finds[1].device_clock, 0u);  // built without a device clock
  // The clock words are header words: the input is untouched.
  EXPECT_THAT(d.finds[0].data,
              ElementsAre('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'));
}

TEST(FindDecodeTest, CandidatesAreNewCoverageKeptApart) {
  std::vector<uint32_t> queue = Queue(1);
  queue[RF_FIND_KIND] = RF_FIND_CANDIDATE;
  const DecodedFindQueue d = DecodeFindQueue(queue, 1, kMaxLen, {});
  EXPECT_THAT(d.finds, IsEmpty());
  ASSERT_EQ(d.candidates.size(), 1u);
  EXPECT_EQ(d.candidates[0].kind, Find::Kind::kNewCoverage);
}

// A reduction is new-coverage kind with its flag set, among the finds (no
// judgement: its path is its parent's); other kinds do not set the flag.
TEST(FindDecodeTest, ReductionsAreFindsThatReduceTheirParent) {
  std::vector<uint32_t> queue = Queue(2);
  queue[RF_FIND_KIND] = RF_FIND_REDUCE;
  queue[kStride + RF_FIND_KIND] = RF_FIND_NEW_COVERAGE;
  const DecodedFindQueue d = DecodeFindQueue(queue, 2, kMaxLen, {});
  EXPECT_THAT(d.errors, IsEmpty());
  EXPECT_THAT(d.candidates, IsEmpty());
  ASSERT_EQ(d.finds.size(), 2u);
  EXPECT_EQ(d.finds[0].kind, Find::Kind::kNewCoverage);
  EXPECT_TRUE(d.finds[0].reduces_parent);
  EXPECT_FALSE(d.finds[1].reduces_parent);
}

TEST(FindDecodeTest, BugSitesOutsideTheTablesGiveNoLocation) {
  const std::vector<SiteLocation> locations = {{"f", "t.fz", 3, {}},
                                               {"g", "t.fz", 9, {}}};
  const std::vector<BoundsSite> bounds = {{1, 16}, {5, 32}};
  std::vector<uint32_t> queue = Queue(4);
  const uint32_t kinds[4] = {RF_FIND_CRASH, RF_FIND_CRASH,
                             RF_FIND_OUT_OF_BOUNDS, RF_FIND_OUT_OF_BOUNDS};
  const uint32_t sites[4] = {1, 2, 0, 1};  // 1: bounds site past locations
  for (int i = 0; i < 4; ++i) {
    queue[i * kStride + RF_FIND_KIND] = kinds[i];
    queue[i * kStride + RF_FIND_SITE] = sites[i];
    queue[i * kStride + RF_FIND_AUX] = 99;
  }
  const DecodedFindQueue d =
      DecodeFindQueue(queue, 4, kMaxLen, {locations, bounds});
  ASSERT_EQ(d.finds.size(), 4u);
  EXPECT_EQ(d.finds[0].line, 9u);
  EXPECT_EQ(d.finds[1].line, 0u);
  EXPECT_EQ(d.finds[2].line, 9u);
  EXPECT_EQ(d.finds[2].aux, 16u);
  EXPECT_EQ(d.finds[3].line, 0u);
  EXPECT_EQ(d.finds[3].aux, 32u);
}

TEST(FindDecodeTest, MutationsAreUnpacked) {
  std::vector<uint32_t> queue = Queue(1);
  queue[RF_FIND_MUTATIONS] = 0xFFFFFF21u;
  const DecodedFindQueue d = DecodeFindQueue(queue, 1, kMaxLen, {});
  ASSERT_EQ(d.finds.size(), 1u);
  EXPECT_THAT(d.finds[0].mutations, ElementsAre(2u, 1u));
}

}  // namespace
}  // namespace ringfuzz
