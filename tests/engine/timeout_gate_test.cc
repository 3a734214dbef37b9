#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "fuzz/engine/timeout_judge.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A judge that answers `kind` after `ran`, and counts its calls.
class ScriptedJudge : public TimeoutJudge {
 public:
  ScriptedJudge(TimeoutVerdict::Kind kind, absl::Duration ran, int* calls)
      : kind_(kind), ran_(ran), calls_(calls) {}
  TimeoutVerdict Judge(const Bytes&) override {
    ++*calls_;
    TimeoutVerdict verdict;
    verdict.kind = kind_;
    verdict.ran = ran_;
    verdict.detail = "scripted";
    return verdict;
  }

 private:
  TimeoutVerdict::Kind kind_;
  absl::Duration ran_;
  int* calls_;
};

TimeoutGate GateOf(TimeoutVerdict::Kind kind, int* calls,
                   absl::Duration ran = absl::Milliseconds(5)) {
  return TimeoutGate(std::make_unique<ScriptedJudge>(kind, ran, calls));
}

Bytes Input(char c) { return Bytes(20, static_cast<uint8_t>(c)); }

TEST(TimeoutGateTest, WithoutAJudgeEverySuspectIsReported) {
  TimeoutGate gate;
  std::ostringstream out;
  EXPECT_FALSE(gate.active());
  EXPECT_FALSE(gate.Clears(Input('a'), absl::Seconds(1), out));
  EXPECT_THAT(out.str(), IsEmpty());
  EXPECT_THAT(gate.SummaryLine(), IsEmpty());
}

TEST(TimeoutGateTest, AnInputThatFinishesOnTheJudgeIsClearedOnce) {
  int calls = 0;
  TimeoutGate gate = GateOf(TimeoutVerdict::Kind::kFinished, &calls);
  std::ostringstream out;
  EXPECT_TRUE(gate.Clears(Input('a'), absl::Seconds(100), out));
  EXPECT_TRUE(gate.Clears(Input('a'), absl::Seconds(100), out));
  EXPECT_EQ(calls, 1);  // judged once, remembered by content
  EXPECT_TRUE(gate.Clears(Input('b'), absl::Seconds(100), out));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(gate.cleared(), 2u);
  EXPECT_THAT(out.str(), HasSubstr("is not a timeout: scripted"));
  EXPECT_THAT(gate.SummaryLine(), HasSubstr("INFO: 2 input(s) exhausted"));
}

TEST(TimeoutGateTest, ConfirmedAndUnjudgedTimeoutsAreReported) {
  for (const auto kind :
       {TimeoutVerdict::Kind::kTimeout, TimeoutVerdict::Kind::kUnknown}) {
    int calls = 0;
    TimeoutGate gate = GateOf(kind, &calls);
    std::ostringstream out;
    EXPECT_FALSE(gate.Clears(Input('a'), absl::Seconds(100), out));
    EXPECT_FALSE(gate.Clears(Input('a'), absl::Seconds(100), out));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(gate.cleared(), 0u);
    EXPECT_THAT(out.str(), HasSubstr("scripted"));
  }
}

TEST(TimeoutGateTest, JudgingTakesAtMostATenthOfTheCampaignPlusTenSeconds) {
  int calls = 0;
  // Each verdict costs 6 s: after two (12 s), a 10 s old campaign has no
  // share left (1 s + 10 s < 12 s); at 100 s it has (10 s + 10 s >= 12 s).
  TimeoutGate gate =
      GateOf(TimeoutVerdict::Kind::kFinished, &calls, absl::Seconds(6));
  std::ostringstream out;
  EXPECT_TRUE(gate.Clears(Input('a'), absl::Seconds(10), out));
  EXPECT_TRUE(gate.Clears(Input('b'), absl::Seconds(10), out));
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(gate.Clears(Input('c'), absl::Seconds(10), out));
  EXPECT_EQ(calls, 2);  // dropped unjudged
  EXPECT_EQ(gate.unjudged(), 1u);
  EXPECT_TRUE(gate.Clears(Input('d'), absl::Seconds(100), out));
  EXPECT_EQ(calls, 3);
  // Replaying files has no share limit.
  EXPECT_TRUE(gate.Clears(Input('e'), absl::InfiniteDuration(), out));
  EXPECT_EQ(calls, 4);
  EXPECT_THAT(gate.SummaryLine(), HasSubstr("1 more were dropped unjudged"));
}

TEST(TimeoutGateTest, ClearedLinesThinOutAfterTheFirstThree) {
  int calls = 0;
  TimeoutGate gate = GateOf(TimeoutVerdict::Kind::kFinished, &calls);
  std::ostringstream out;
  for (int i = 0; i < 120; ++i) {
    Bytes input(4, 0);
    input[0] = static_cast<uint8_t>(i);
    ASSERT_TRUE(gate.Clears(input, absl::InfiniteDuration(), out));
  }
  int lines = 0;
  for (size_t at = 0;
       (at = out.str().find("is not a timeout", at)) != std::string::npos;
       ++at) {
    ++lines;
  }
  EXPECT_EQ(lines, 5);  // 1, 2, 3, 10, 100
}

}  // namespace
}  // namespace ringfuzz
