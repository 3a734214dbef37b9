// Escape-to-state (fuzz/gpu/escape_to_state.h): a compared byte written as
// an escape in a style the input has, and the executor trying it.
#include "fuzz/gpu/escape_to_state.h"

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
                                size_t max_len = 4096, size_t max_inputs = 16) {
  return gpu_test::Strs(
      DeriveEscapeToState(gpu_test::Str(input), log, max_len, max_inputs));
}

TEST(EscapeToStateTest, AComparedByteBecomesAPercentEscape) {
  // A URL decoder compared the plain 'N' with '.' (0x2E).
  EXPECT_THAT(Derive("/%41N", {{0, 'N', '.'}}),
              ElementsAre("/%41%2e", "/%41%2d", "/%41%2f"));
  // Either operand may be the input's byte; every byte equal to it is
  // rewritten.
  EXPECT_THAT(Derive("a%20a", {{0, '/', 'a'}}, 4096, 2),
              ElementsAre("%2f%20a", "%2e%20a"));
}

TEST(EscapeToStateTest, NoEscapeInTheInputMeansNoTrial) {
  EXPECT_THAT(Derive("/abc", {{0, 'a', '.'}}), IsEmpty());
  // A '%' without two hex digits after it is no escape.
  EXPECT_THAT(Derive("/%4g a", {{0, 'a', '.'}}), IsEmpty());
}

TEST(EscapeToStateTest, BytesOfAnEscapeAreNotRewritten) {
  // '%', '4' and '1' belong to the escape; only the plain '4' after it
  // spells 0x34.
  EXPECT_THAT(Derive("%414", {{0, '4', 'z'}}, 4096, 1), ElementsAre("%41%7a"));
  EXPECT_THAT(Derive("%41", {{0, '%', 'z'}, {0, '4', 'z'}}), IsEmpty());
}

TEST(EscapeToStateTest, EachStyleSpellsInItsOwnFormAndCase) {
  EXPECT_THAT(Derive("%4A.", {{0, '.', '/'}}, 4096, 1), ElementsAre("%4A%2F"));
  EXPECT_THAT(Derive("\\x41'", {{0, '\'', 0x22}}, 4096, 1),
              ElementsAre("\\x41\\x22"));
  EXPECT_THAT(Derive("\\u0041'", {{0, '\'', 0x2028}}, 4096, 1),
              ElementsAre("\\u0041\\u2028"));
  EXPECT_THAT(Derive("&#x41;<", {{0, '<', 0x1F600}}, 4096, 1),
              ElementsAre("&#x41;&#x1f600;"));
  EXPECT_THAT(Derive("&#65;<", {{0, '<', '>'}}),
              ElementsAre("&#65;&#62;", "&#65;&#61;", "&#65;&#63;"));
}

TEST(EscapeToStateTest, ValuesAStyleCannotSpellAreLeftOut) {
  // Two hex digits hold at most 0xFF; y + 1 = 0x100 is left out too.
  EXPECT_THAT(Derive("%41a", {{0, 'a', 0x1FF}}), IsEmpty());
  EXPECT_THAT(Derive("%41a", {{0, 'a', 0xFF}}),
              ElementsAre("%41%ff", "%41%fe"));
}

TEST(EscapeToStateTest, TheLatestComparisonsComeFirst) {
  // A raw check compared every byte before the decoder compared its
  // output: the decoder's comparison (last) is tried first.
  EXPECT_THAT(
      Derive("%41ab", {{0, 'a', '.'}, {0, 'b', '.'}, {1, 'b', '/'}}, 4096, 3),
      ElementsAre("%41a%2f", "%41a%2e", "%41a%30"));
}

TEST(EscapeToStateTest, TrialsStayWithinMaxLen) {
  EXPECT_THAT(Derive("%41a", {{0, 'a', '.'}}, 5), IsEmpty());
  EXPECT_THAT(Derive("%41a", {{0, 'a', '.'}}, 6),
              ElementsAre("%41%2e", "%41%2d", "%41%2f"));
}

// escaped.fz refuses a raw '.' and crashes when its decoded second
// character is '.': from "%42A;" only the trial "%42%2e;" crashes.
TEST(EscapeToStateTest, TheExecutorTriesTheEscapeTheLogNames) {
  EXPECT_THAT(gpu_test::HostTrialCrashes("escaped.fz", "%42A;", 8, RF_MUT_TEXT),
              ElementsAre("%42%2e;"));
}

}  // namespace
}  // namespace ringfuzz
