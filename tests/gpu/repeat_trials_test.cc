// Repetition trials (fuzz/gpu/repeat_trials.h): the repeats an input gets,
// and the executor trying them.
#include "fuzz/gpu/repeat_trials.h"

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

using gpu_test::Str;

TEST(RepeatTrialsTest, TwiceAndAsManyTimesAsFit) {
  EXPECT_THAT(DeriveRepeats(Str("abc"), 10),
              ElementsAre(Str("abcabc"), Str("abcabcabc")));
  EXPECT_THAT(DeriveRepeats(Str("ab"), 7),
              ElementsAre(Str("abab"), Str("ababab")));
}

TEST(RepeatTrialsTest, TwiceOnlyWhenNoMoreFit) {
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 8), ElementsAre(Str("abcdabcd")));
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 11), ElementsAre(Str("abcdabcd")));
}

TEST(RepeatTrialsTest, NoneForAnEmptyInputOrOneThatFitsOnce) {
  EXPECT_THAT(DeriveRepeats(Str(""), 64), IsEmpty());
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 7), IsEmpty());
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 4), IsEmpty());
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 0), IsEmpty());
}

// long_input.fz crashes on inputs of 100 bytes or more. One batch of 16
// havoc mutants of "abcd" at `max_len`, with or without repetition trials:
// the crashes its repeat trials found (the input's length-to-state trials
// find others).
std::vector<Find> RepeatCrashes(uint32_t max_len, bool repeat = true,
                                uint64_t cap = 8192,
                                const std::vector<std::string>& inputs = {
                                    "abcd"}) {
  std::vector<Find> crashes;
  GpuExecutorOptions options = gpu_test::CpuOptions("long_input.fz", max_len);
  options.repeat_trials = repeat;
  options.repeat_trial_cap = cap;
  // Every trial runs: a crash does not stop the dispatch's other inputs.
  options.keep_going = true;
  auto executor = gpu_test::MakeExecutor(options);
  if (executor == nullptr) {
    ADD_FAILURE() << "no executor";
    return crashes;
  }
  for (const std::string& input : inputs) {
    absl::Status added = executor->AddInput(gpu_test::Str(input)).status();
    EXPECT_TRUE(added.ok()) << added;
  }
  WorkItem item;
  item.opcode = RF_OP_HAVOC;
  item.count = 16;
  item.parent = 0;
  absl::StatusOr<BatchResult> r = executor->RunBatch({item}, 1);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
  if (!r.ok()) return crashes;
  for (const Find& f : r->finds) {
    if (f.kind == Find::Kind::kCrash &&
        f.mutations == std::vector<uint32_t>{RF_MUT_DUPLICATE}) {
      crashes.push_back(f);
    }
  }
  return crashes;
}

TEST(RepeatTrialsTest, TheExecutorTriesAnInputRepeatedToItsLimit) {
  std::vector<Find> crashes = RepeatCrashes(128);
  std::string expected;
  for (int i = 0; i < 32; ++i) expected += "abcd";
  ASSERT_EQ(crashes.size(), 1u);
  EXPECT_EQ(crashes[0].code, 3u);
  EXPECT_EQ(crashes[0].parent, 0u);
  EXPECT_EQ(crashes[0].data, Str(expected));
}

// At 64 bytes the longest repeat (16 copies) stays under 100.
TEST(RepeatTrialsTest, NoRepeatBeyondMaxLen) {
  EXPECT_THAT(RepeatCrashes(64), IsEmpty());
}

// The cap counts trials over the executor's life, in the order its inputs
// are logged: with two inputs of two trials each, a cap of 2 leaves the
// second input's out.
TEST(RepeatTrialsTest, TheCapKeepsTheFirstInputsTrials) {
  std::vector<uint32_t> parents;
  for (const Find& f : RepeatCrashes(128, true, 2, {"abcd", "wxyz"})) {
    parents.push_back(f.parent);
  }
  EXPECT_THAT(parents, ElementsAre(0u));
  parents.clear();
  for (const Find& f : RepeatCrashes(128, true, 4, {"abcd", "wxyz"})) {
    parents.push_back(f.parent);
  }
  EXPECT_THAT(parents, ::testing::UnorderedElementsAre(0u, 1u));
}

// GpuExecutorOptions::repeat_trials is off by default: nothing repeated.
TEST(RepeatTrialsTest, NoRepeatWhenOff) {
  EXPECT_THAT(RepeatCrashes(128, /*repeat=*/false), IsEmpty());
}

}  // namespace
}  // namespace ringfuzz
