#include "fuzz/gpu/seen_clears.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

TEST(SeenClearsTest, EachWordLosesExactlyTheDroppedBits) {
  // Words 0..3 of a table, all bits set but those written here.
  std::vector<uint32_t> seen = {0xFFFFFFFFu, 0xF0F0F0F0u, 0xFFFFFFFFu,
                                0x00000001u};
  // Bits 0 and 31 of word 0; bit 4 of word 1 (36); bit 0 of word 3 (96)
  // twice; given out of order.
  std::vector<uint32_t> bits = {96, 31, 36, 0, 96};
  std::vector<SeenWordWrite> writes = TakeSeenClears(bits, seen, 8);
  EXPECT_EQ(writes, (std::vector<SeenWordWrite>{
                        {0, 0x7FFFFFFEu}, {1, 0xF0F0F0E0u}, {3, 0u}}));
  EXPECT_TRUE(bits.empty());
}

TEST(SeenClearsTest, WordsPastTheLimitWaitForTheNextCall) {
  std::vector<uint32_t> seen(4, 0xFFFFFFFFu);
  std::vector<uint32_t> bits = {100, 5, 70, 33};  // words 3, 0, 2, 1
  std::vector<SeenWordWrite> first = TakeSeenClears(bits, seen, 2);
  EXPECT_EQ(first,
            (std::vector<SeenWordWrite>{{0, 0xFFFFFFDFu}, {1, 0xFFFFFFFDu}}));
  EXPECT_EQ(bits, (std::vector<uint32_t>{70, 100}));
  std::vector<SeenWordWrite> second = TakeSeenClears(bits, seen, 2);
  EXPECT_EQ(second,
            (std::vector<SeenWordWrite>{{2, 0xFFFFFFBFu}, {3, 0xFFFFFFEFu}}));
  EXPECT_TRUE(bits.empty());
}

TEST(SeenClearsTest, BitsPastTheTableAreDropped) {
  std::vector<uint32_t> seen(2, 0xFFFFFFFFu);
  std::vector<uint32_t> bits = {64, 1000, 1};
  std::vector<SeenWordWrite> writes = TakeSeenClears(bits, seen, 8);
  EXPECT_EQ(writes, (std::vector<SeenWordWrite>{{0, 0xFFFFFFFDu}}));
  EXPECT_TRUE(bits.empty());
}

}  // namespace
}  // namespace ringfuzz
