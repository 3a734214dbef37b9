// Text-to-state (fuzz/gpu/text_to_state.h): the inputs that spell a
// compared number in decimal or hex, and the executor trying them.
#include "fuzz/gpu/text_to_state.h"

#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Derive(const std::string& input,
                                const std::vector<CompareRecord>& log,
                                size_t max_len = 4096, size_t max_inputs = 16) {
  return gpu_test::Strs(
      DeriveTextToState(gpu_test::Str(input), log, max_len, max_inputs));
}

TEST(TextToStateTest, ANumberComparedWithAnotherIsRewrittenInPlace) {
  // `length == 219359` after parsing "Length: 12;".
  EXPECT_THAT(
      Derive("Length: 12;", {{0, 12, 219359}}),
      ElementsAre("Length: 219359;", "Length: 219358;", "Length: 219360;"));
  // Either operand may be the parsed one; a shorter number shortens the
  // input.
  EXPECT_THAT(Derive("w=4096,h=2", {{3, 7, 4096}}),
              ElementsAre("w=7,h=2", "w=6,h=2", "w=8,h=2"));
}

TEST(TextToStateTest, SignsFollowTheRunAndSmallNegatives) {
  // "-5" spells 0xFFFFFFFB; compared with 100 it becomes "100", "99", "101"
  // and the '-' goes with the run.
  EXPECT_THAT(Derive("x-5y", {{0, 0xFFFFFFFBu, 100}}),
              ElementsAre("x100y", "x99y", "x101y"));
  // A small negative value is written with a '-' (-1 and its neighbours);
  // a large 32-bit value unsigned.
  EXPECT_THAT(Derive("7", {{0, 7, 0xFFFFFFFFu}}), ElementsAre("-1", "-2", "0"));
  EXPECT_THAT(Derive("7", {{0, 7, 0xDEADBEEFu}}),
              ElementsAre("3735928559", "3735928558", "3735928560"));
  // Within a negative run, a negative value keeps its '-'.
  EXPECT_THAT(Derive("-5", {{0, 0xFFFFFFFBu, 0x80000000u}}),
              ElementsAre("-2147483648", "2147483647", "-2147483647"));
}

TEST(TextToStateTest, OnlyRunsThatSpellAnOperandAreRewritten) {
  // Neither 12 nor 34 is compared; equal operands decide nothing; a run of
  // 11 digits and one past 2^32 - 1 spell no value.
  EXPECT_THAT(Derive("12 34", {{0, 5, 9}, {1, 12, 12}}), IsEmpty());
  EXPECT_THAT(Derive("12345678901", {{0, 12345678901ull & 0xFFFFFFFFu, 1}}),
              IsEmpty());
  EXPECT_THAT(Derive("4294967296", {{0, 0, 1}}), IsEmpty());
  // The run is maximal: "123" spells 123 only, not 12 or 23.
  EXPECT_THAT(Derive("123", {{0, 12, 5}, {1, 23, 5}}), IsEmpty());
  // Both runs that spell the operand are rewritten, one at a time.
  EXPECT_THAT(Derive("3,3", {{0, 3, 40}}),
              ElementsAre("40,3", "39,3", "41,3", "3,40", "3,39", "3,41"));
}

// A run of several digits comes before a one-digit run that a comparison
// happens to equal (the '5' of a "P5" magic and a loop's `i < len`).
TEST(TextToStateTest, LongerRunsComeFirst) {
  EXPECT_THAT(Derive("P5 12", {{0, 5, 33}, {1, 12, 1920}}, 4096, 4),
              ElementsAre("P5 1920", "P5 1919", "P5 1921", "P33 12"));
}

TEST(TextToStateTest, TrialsAreCappedDistinctAndWithinMaxLen) {
  // y + 1 equals the input: left out; a repeated record adds nothing.
  EXPECT_THAT(Derive("9", {{0, 9, 8}, {1, 9, 8}}), ElementsAre("8", "7"));
  EXPECT_THAT(Derive("1;", {{0, 1, 100000}}, /*max_len=*/6),
              ElementsAre("99999;"));
  EXPECT_THAT(Derive("1", {{0, 1, 50}, {1, 1, 60}}, 4096, /*max_inputs=*/4),
              ElementsAre("50", "49", "51", "60"));
}

TEST(TextToStateTest, HexRunsAreRewrittenInHexInTheirCase) {
  // An HTTP chunk size "1f4" (500) compared with 4096: lower case.
  EXPECT_THAT(Derive("1f4\r\n", {{0, 0x1F4, 4096}}),
              ElementsAre("1000\r\n", "fff\r\n", "1001\r\n"));
  // Upper-case letters give upper-case digits; after "0x" a run of decimal
  // digits is hex too (and also decimal, first).
  EXPECT_THAT(Derive("#FF;", {{0, 0xFF, 0xABC}}),
              ElementsAre("#ABC;", "#ABB;", "#ABD;"));
  EXPECT_THAT(Derive("0x10", {{0, 16, 0x7FFFFFF0u}}),
              ElementsAre("0x7ffffff0", "0x7fffffef", "0x7ffffff1"));
  EXPECT_THAT(Derive("0x10", {{0, 10, 300}}),
              ElementsAre("0x300", "0x299", "0x301"));
  // A run that starts with 0 keeps its width.
  EXPECT_THAT(Derive("%0a", {{0, 10, 0x41}}), ElementsAre("%41", "%40", "%42"));
  EXPECT_THAT(Derive("00ff", {{0, 0xFF, 0x12}}),
              ElementsAre("0012", "0011", "0013"));
}

TEST(TextToStateTest, DigitsWithoutLettersOrPrefixAreNotHex) {
  // "10" is ten, not sixteen; "face" is hex (a word of hex letters), but
  // nine digits are too many for 32 bits.
  EXPECT_THAT(Derive("10", {{0, 16, 5}}), IsEmpty());
  EXPECT_THAT(Derive("face", {{0, 0xFACE, 1}}), ElementsAre("1", "0", "2"));
  EXPECT_THAT(Derive("fffffffff", {{0, 0xFFFFFFFFu, 1}}), IsEmpty());
}

// decimal.fz and late_decimal.fz crash on inputs that start with 219359;
// havoc changes one digit of "12;" at a time, the input's own comparison
// of its number names it.
std::vector<std::string> CrashesFromTwelve(const std::string& target,
                                           uint32_t code) {
  return gpu_test::HostTrialCrashes(target, "12;", code, RF_MUT_TEXT);
}

TEST(TextToStateTest, TheExecutorTriesTheNumbersTheLogNames) {
  EXPECT_THAT(CrashesFromTwelve("decimal.fz", 5), ElementsAre("219359;"));
}

// late_decimal.fz compares its number after more comparisons than a log
// entry holds: the entry keeps a run's last comparisons, so the number is
// still named.
TEST(TextToStateTest, ANumberComparedAfterALongLoopIsStillNamed) {
  EXPECT_THAT(CrashesFromTwelve("late_decimal.fz", 6), ElementsAre("219359;"));
}

}  // namespace
}  // namespace ringfuzz
