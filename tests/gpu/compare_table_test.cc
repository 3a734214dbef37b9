// The compare-table decoder on fabricated tables: entries that executions
// recording at once left torn are dropped, whole ones kept.
#include "fuzz/gpu/compare_table.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The words one execution that compared (a, b) leaves in its entry.
std::vector<uint32_t> Entry(uint32_t a, uint32_t b) {
  std::vector<uint32_t> words(RF_CMP_ENTRY_WORDS);
  words[RF_CMP_A] = a;
  words[RF_CMP_B] = b;
  words[RF_CMP_CHECK] = RF_CMP_CHECK_OF(a, b);
  return words;
}

std::vector<uint32_t> Table(const std::vector<std::vector<uint32_t>>& entries) {
  std::vector<uint32_t> table;
  for (const std::vector<uint32_t>& entry : entries) {
    table.insert(table.end(), entry.begin(), entry.end());
  }
  return table;
}

TEST(CompareTableTest, WholeEntriesAreKeptWithTheirSites) {
  const std::vector<uint32_t> table =
      Table({Entry(0x41424344u, 0x1234u), Entry(7u, 0xCAFEBABEu)});
  EXPECT_THAT(DecodeCompareTable(table, 2),
              ElementsAre(ComparePair{0, 0x41424344u, 0x1234u},
                          ComparePair{1, 7u, 0xCAFEBABEu}));
}

TEST(CompareTableTest, EntriesNeverWrittenAndEqualOperandsAreDropped) {
  const std::vector<uint32_t> table =
      Table({std::vector<uint32_t>(RF_CMP_ENTRY_WORDS, 0u), Entry(5u, 5u),
             Entry(0u, 1u)});
  EXPECT_THAT(DecodeCompareTable(table, 3), ElementsAre(ComparePair{2, 0, 1}));
}

// Two executions X and Y record into one entry at once: whichever of the
// three words each wins, an entry with words of both is dropped.
TEST(CompareTableTest, EveryEntryTornBetweenTwoExecutionsIsDropped) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 2000; ++trial) {
    // Near operands too: loop counters and their bounds are what targets
    // compare.
    const uint32_t ax = rng(), bx = trial % 2 ? rng() : ax + 1;
    const uint32_t ay = trial % 3 ? rng() : ax + 1, by = trial % 5 ? rng() : bx;
    const std::vector<uint32_t> x = Entry(ax, bx), y = Entry(ay, by);
    for (uint32_t from_y = 1; from_y < (1u << RF_CMP_ENTRY_WORDS) - 1;
         ++from_y) {
      std::vector<uint32_t> torn = x;
      for (uint32_t w = 0; w < RF_CMP_ENTRY_WORDS; ++w) {
        if (from_y & (1u << w)) torn[w] = y[w];
      }
      // A mix that equals one execution's words is that execution's pair.
      if (torn == x || torn == y) continue;
      EXPECT_THAT(DecodeCompareTable(torn, 1), IsEmpty())
          << "x=(" << ax << "," << bx << ") y=(" << ay << "," << by
          << ") words from y: " << from_y;
    }
  }
}

TEST(CompareTableTest, TornEntriesAreDroppedAndTheirNeighboursKept) {
  std::vector<uint32_t> torn = Entry(0x11111111u, 0x22222222u);
  torn[RF_CMP_B] = 0x33333333u;  // another execution's operand b
  const std::vector<uint32_t> table =
      Table({Entry(1u, 2u), torn, Entry(3u, 4u)});
  EXPECT_THAT(DecodeCompareTable(table, 3),
              ElementsAre(ComparePair{0, 1, 2}, ComparePair{2, 3, 4}));
}

TEST(CompareTableTest, NeverReadsPastTheTable) {
  std::vector<uint32_t> table = Table({Entry(1u, 2u), Entry(3u, 4u)});
  table.push_back(0u);  // part of an entry: not decoded
  EXPECT_THAT(DecodeCompareTable(table, 1000),
              ElementsAre(ComparePair{0, 1, 2}, ComparePair{1, 3, 4}));
  EXPECT_THAT(DecodeCompareTable({}, 5), IsEmpty());
}

}  // namespace
}  // namespace ringfuzz
