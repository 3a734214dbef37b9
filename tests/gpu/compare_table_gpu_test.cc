// The compare table on lavapipe: many invocations record different pairs at
// one compare site at once, and every pair the host decodes, and every
// token of the recommended dictionary, comes from a comparison that ran.
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "fuzz/gpu/compare_table.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::CpuOptions;
using gpu_test::MakeExecutor;

// compare_pairs.fz: operand a of iteration i, and the operand it is
// compared with.
uint32_t Operand(uint32_t x, uint32_t i) { return x + i * 0x01000193u; }
uint32_t Partner(uint32_t a) { return a * 0x2545F491u + 0x9E3779B9u; }

// Both byte orders of `value` in 2 and 4 bytes: every token a compared
// value can give (RecommendedDictionary takes the fewest of 2 or 4).
void AddEncodings(uint32_t value, std::set<Bytes>& out) {
  for (size_t width : {2, 4}) {
    Bytes little, big;
    for (size_t k = 0; k < width; ++k) {
      little.push_back(static_cast<uint8_t>(value >> (8 * k)));
      big.push_back(static_cast<uint8_t>(value >> (8 * (width - 1 - k))));
    }
    out.insert(little);
    out.insert(big);
  }
}

TEST(CompareTableGpuTest, EveryRecordedPairIsOneComparisonsPair) {
  auto executor = MakeExecutor(CpuOptions("compare_pairs.fz", 4));
  ASSERT_NE(executor, nullptr);
  std::mt19937 rng(7);
  std::set<Bytes> real_tokens;
  for (uint32_t i = 0; i <= 16; ++i) AddEncodings(i, real_tokens);
  for (int round = 0; round < 8; ++round) {
    std::vector<Bytes> inputs;
    for (int k = 0; k < 1024; ++k) {
      const uint32_t x = rng();
      inputs.push_back(
          Bytes{static_cast<uint8_t>(x), static_cast<uint8_t>(x >> 8),
                static_cast<uint8_t>(x >> 16), static_cast<uint8_t>(x >> 24)});
      for (uint32_t i = 0; i < 16; ++i) {
        AddEncodings(Operand(x, i), real_tokens);
        AddEncodings(Partner(Operand(x, i)), real_tokens);
      }
    }
    // Calibration runs, which all record their comparisons.
    ASSERT_TRUE(executor->ExecuteEach(inputs).ok());

    std::vector<uint32_t> table(size_t{RF_CMP_ENTRIES} * RF_CMP_ENTRY_WORDS);
    std::memcpy(table.data(),
                executor->control_bytes().data() + size_t{RF_RES_CMP} * 4,
                table.size() * 4);
    int pairs_of_the_site = 0;
    for (const ComparePair& pair :
         DecodeCompareTable(table, executor->kernel().module.compare_sites)) {
      if (pair.a < 16 && pair.b == 16) continue;  // the loop's own compare
      EXPECT_EQ(pair.b, Partner(pair.a))
          << "entry " << pair.site << " holds a torn pair (" << pair.a << ", "
          << pair.b << ")";
      ++pairs_of_the_site;
    }
    EXPECT_EQ(pairs_of_the_site, 1);
    const std::vector<Bytes> tokens = executor->RecommendedDictionary();
    EXPECT_FALSE(tokens.empty());
    for (const Bytes& token : tokens) {
      EXPECT_TRUE(real_tokens.count(token))
          << "a recommended token no comparison had, of " << token.size()
          << " bytes";
    }
  }
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

}  // namespace
}  // namespace ringfuzz
