// Varint-to-state (fuzz/gpu/varint_to_state.h): the inputs that spell a
// compared number as a LEB128 varint, and the executor trying them.
#include "fuzz/gpu/varint_to_state.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using Trials = std::vector<std::vector<uint8_t>>;

Trials Derive(const std::vector<uint8_t>& input,
              const std::vector<CompareRecord>& log, size_t max_len = 4096,
              size_t max_inputs = 16) {
  return DeriveVarintToState(input, log, max_len, max_inputs);
}

TEST(VarintToStateTest, EncodingIsMinimalLeb128) {
  // The examples of the protobuf encoding guide and the 32-bit extremes.
  EXPECT_EQ(EncodeVarint(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(EncodeVarint(1), (std::vector<uint8_t>{0x01}));
  EXPECT_EQ(EncodeVarint(127), (std::vector<uint8_t>{0x7F}));
  EXPECT_EQ(EncodeVarint(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(EncodeVarint(150), (std::vector<uint8_t>{0x96, 0x01}));
  EXPECT_EQ(EncodeVarint(300), (std::vector<uint8_t>{0xAC, 0x02}));
  EXPECT_EQ(EncodeVarint(150000), (std::vector<uint8_t>{0xF0, 0x93, 0x09}));
  EXPECT_EQ(EncodeVarint(0xFFFFFFFFu),
            (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF, 0x0F}));
}

TEST(VarintToStateTest, AVarintComparedWithAnotherIsReEncodedInPlace) {
  // Tag 08, varint 150 (96 01), then 7A: 150 compared with 300.
  EXPECT_THAT(Derive({0x08, 0x96, 0x01, 0x7A}, {{0, 150, 300}}),
              ElementsAre(std::vector<uint8_t>{0x08, 0xAC, 0x02, 0x7A},
                          std::vector<uint8_t>{0x08, 0xAB, 0x02, 0x7A},
                          std::vector<uint8_t>{0x08, 0xAD, 0x02, 0x7A}));
  // A shorter value shortens the input; either operand may be decoded.
  EXPECT_THAT(
      Derive({0xF0, 0x93, 0x09}, {{0, 5, 150000}}),
      ElementsAre(std::vector<uint8_t>{0x05}, std::vector<uint8_t>{0x04},
                  std::vector<uint8_t>{0x06}));
}

TEST(VarintToStateTest, ASingleByteGrowsIntoTwoOrThreeBytesOnly) {
  // 05 compared with 150000 becomes three bytes.
  EXPECT_THAT(Derive({0x05, 0x3B}, {{0, 5, 150000}}),
              ElementsAre(std::vector<uint8_t>{0xF0, 0x93, 0x09, 0x3B},
                          std::vector<uint8_t>{0xEF, 0x93, 0x09, 0x3B},
                          std::vector<uint8_t>{0xF1, 0x93, 0x09, 0x3B}));
  // Compared with 9 it would stay one byte, which input-to-state writes in
  // place; compared with a 32-bit magic it would take 4 or 5: no trial.
  EXPECT_THAT(Derive({0x05, 0x3B}, {{0, 5, 9}}), IsEmpty());
  EXPECT_THAT(Derive({0x05, 0x3B}, {{0, 5, 0xDDDDCCCCu}}), IsEmpty());
  // 127 + 1 needs two bytes; 2^21 - 1 and 2^21 - 2 three; 2^21 four.
  EXPECT_THAT(Derive({0x05}, {{0, 5, 127}}),
              ElementsAre(std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_THAT(Derive({0x05}, {{0, 5, (1u << 21) - 1}}),
              ElementsAre(std::vector<uint8_t>{0xFF, 0xFF, 0x7F},
                          std::vector<uint8_t>{0xFE, 0xFF, 0x7F}));
}

TEST(VarintToStateTest, RunsMayStartInsideOthersAndEndWithinFiveBytes) {
  // 96 01 spells 150 from byte 0 and 01 spells 1 from byte 1 (a short
  // run). Both are compared; the long run's trials come first.
  EXPECT_THAT(
      Derive({0x96, 0x01}, {{0, 1, 200}, {1, 150, 128}}, 4096, 4),
      ElementsAre(std::vector<uint8_t>{0x80, 0x01}, std::vector<uint8_t>{0x7F},
                  std::vector<uint8_t>{0x81, 0x01},
                  std::vector<uint8_t>{0x96, 0xC8, 0x01}));
  // From byte 0 there are 6 bytes to the first below 0x80, so the run that
  // spells 1 << 28 starts at byte 1. A run the input's end cuts short
  // spells nothing.
  EXPECT_THAT(Derive({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, {{0, 1u << 28, 7}}),
              ElementsAre(std::vector<uint8_t>{0x80, 0x07},
                          std::vector<uint8_t>{0x80, 0x06},
                          std::vector<uint8_t>{0x80, 0x08}));
  EXPECT_THAT(Derive({0x96}, {{0, 0x16, 300}}), IsEmpty());
}

TEST(VarintToStateTest, TrialsAreCappedDistinctAndWithinMaxLen) {
  EXPECT_THAT(Derive({0x96, 0x01}, {{0, 150, 300}, {1, 150, 300}}, 4096, 2),
              ElementsAre(std::vector<uint8_t>{0xAC, 0x02},
                          std::vector<uint8_t>{0xAB, 0x02}));
  EXPECT_THAT(Derive({0x96, 0x01}, {{0, 150, 150000}}, /*max_len=*/2),
              IsEmpty());
}

// varint.fz crashes on inputs that start with the varint of 150000; havoc
// changes one byte of 85 01 (133) at a time, the input's own comparison of
// its value names it.
TEST(VarintToStateTest, TheExecutorTriesTheVarintsTheLogNames) {
  EXPECT_THAT(
      gpu_test::HostTrialCrashes("varint.fz", "\x85\x01;", 7, RF_MUT_VARINT),
      ElementsAre("\xF0\x93\x09;"));
}

}  // namespace
}  // namespace ringfuzz
