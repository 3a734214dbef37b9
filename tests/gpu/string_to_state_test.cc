// String-to-state (fuzz/gpu/string_to_state.h): the rest of a constant
// string written where a comparison read one of its bytes against the
// input, and the executor trying it.
#include "fuzz/gpu/string_to_state.h"

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

std::vector<std::string> Derive(const std::string& input,
                                const std::vector<CompareRecord>& log,
                                const std::vector<std::string>& strings,
                                size_t max_len = 4096, size_t max_inputs = 16) {
  std::vector<Bytes> tables;
  tables.reserve(strings.size());
  for (const std::string& s : strings) tables.push_back(gpu_test::Str(s));
  return gpu_test::Strs(DeriveStringToState(gpu_test::Str(input), log, tables,
                                            max_len, max_inputs));
}

TEST(StringToStateTest, TheRestOfTheStringGoesWhereItsByteWasCompared) {
  // libFuzzer's MagicSeparatorTest as ported: one table holds the
  // separator and both pieces; the second piece's first byte 'F' was
  // compared with 'm'. Every 'F' of the input gets "me".
  const std::string table =
      "\xDE\xAD\xBE\xEF"
      "Fuzzme";
  EXPECT_THAT(Derive("Fuzz\xDE\xAD\xBE\xEF"
                     "Fu",
                     {{0, 'F', 'm'}}, {table}),
              ElementsAre("mezz\xDE\xAD\xBE\xEF"
                          "Fu",
                          "Fuzz\xDE\xAD\xBE\xEF"
                          "me"));
  // Either operand may be the input's byte; the rest runs past the end,
  // and what fits is written too.
  EXPECT_THAT(Derive("abc", {{0, 'x', 'b'}}, {"xyz"}),
              ElementsAre("axyz", "axy"));
}

TEST(StringToStateTest, ItsFirstFourAndEightBytesAreWrittenToo) {
  // The first piece's 'A' compared with 'F': the rest from 'F' runs over
  // the separator; its first 4 bytes keep it.
  const std::string table =
      "\xDE\xAD\xBE\xEF"
      "Fuzzme";
  EXPECT_THAT(Derive("ABCD\xDE\xAD\xBE\xEF", {{0, 'A', 'F'}}, {table}),
              ElementsAre("Fuzzme\xBE\xEF", "Fuzz\xDE\xAD\xBE\xEF"));
  // A rest of 10 bytes: 10, then 4, then 8.
  EXPECT_THAT(Derive("Q", {{0, 'Q', '0'}}, {"0123456789"}),
              ElementsAre("0123456789", "0123", "01234567"));
}

TEST(StringToStateTest, WhatFitsInTheInputIsWrittenToo) {
  // libFuzzer's CxxStringEqTest as ported: a 6-byte input compared with
  // "FooBar", then "123456", from one table. The rest from 'F' makes the
  // input 12 bytes, which the length check refuses; its first 6 do not.
  EXPECT_THAT(Derive("Qxxxxx", {{0, 'Q', 'F'}}, {"FooBar123456"}),
              ElementsAre("FooBar123456", "FooBar", "FooBxx", "FooBar12"));
  // Fewer than 2 bytes fit: nothing more.
  EXPECT_THAT(Derive("xQ", {{0, 'Q', 'a'}}, {"abc"}), ElementsAre("xabc"));
}

TEST(StringToStateTest, TheInputGrowsWhereTheRestRunsPastItsEnd) {
  EXPECT_THAT(Derive("..F", {{0, 'F', 'm'}}, {"me"}), ElementsAre("..me"));
  EXPECT_THAT(Derive("..F", {{0, 'F', 'm'}}, {"me"}, 3), IsEmpty());
}

TEST(StringToStateTest, OneByteIsLeftToInputToState) {
  // 'm' is the string's last byte: its rest is one byte.
  EXPECT_THAT(Derive("aFb", {{0, 'F', 'm'}}, {"am"}), IsEmpty());
  // Operands that are no byte, or no byte of a string, give nothing.
  EXPECT_THAT(Derive("aFb", {{0, 'F', 0x16D}}, {"me"}), IsEmpty());
  EXPECT_THAT(Derive("aFb", {{0, 'F', 'q'}}, {"me"}), IsEmpty());
  EXPECT_THAT(Derive("aFb", {{0, 'F', 'm'}}, {}), IsEmpty());
}

TEST(StringToStateTest, EveryPlaceInEveryStringInTurn) {
  EXPECT_THAT(Derive("Q", {{0, 'Q', 'e'}}, {"hello", "eel"}),
              ElementsAre("ello", "eel", "el"));
}

TEST(StringToStateTest, TheLatestComparisonsComeFirstAndTrialsAreCapped) {
  EXPECT_THAT(
      Derive("ab", {{0, 'a', 'x'}, {1, 'b', 'y'}}, {"xq", "yq"}, 4096, 1),
      ElementsAre("ayq"));
  EXPECT_THAT(Derive("ab", {{0, 'a', 'x'}, {1, 'b', 'y'}}, {"xq", "yq"}),
              ElementsAre("ayq", "xq"));
  // A trial that two comparisons name is made once.
  EXPECT_THAT(Derive("Q", {{0, 'Q', 'e'}, {1, 'Q', 'e'}}, {"eel"}),
              ElementsAre("eel", "el"));
}

// late_string.fz compares its bytes 2 and 3 with the second half of the
// table "xyme", up to the first that differs: from "abQQ" only "abme"
// (the rest "me" written at the first 'Q') crashes.
TEST(StringToStateTest, TheExecutorTriesTheStringTheLogNames) {
  EXPECT_THAT(
      gpu_test::HostTrialCrashes("late_string.fz", "abQQ", 10, RF_MUT_CMP),
      ElementsAre("abme"));
}

}  // namespace
}  // namespace ringfuzz
