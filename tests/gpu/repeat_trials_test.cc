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
  // Then "a" kept once and "bc" 4 times: (10 - 1) / 2.
  EXPECT_THAT(DeriveRepeats(Str("abc"), 10),
              ElementsAre(Str("abcabc"), Str("abcabcabc"), Str("abcbcbcbc")));
  // Too short for a header before 2 bytes.
  EXPECT_THAT(DeriveRepeats(Str("ab"), 7),
              ElementsAre(Str("abab"), Str("ababab")));
}

TEST(RepeatTrialsTest, TwiceOnlyWhenNoMoreFit) {
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 8),
              ElementsAre(Str("abcdabcd"), Str("abcdbcd"), Str("abcdcdcd")));
  EXPECT_THAT(
      DeriveRepeats(Str("abcd"), 11),
      ElementsAre(Str("abcdabcd"), Str("abcdbcdbcd"), Str("abcdcdcdcd")));
}

// A record stream behind a 2-byte header: the header once, the records as
// many times as fit, beside the whole repeats that put the header between
// them.
TEST(RepeatTrialsTest, AHeaderKeptOnceBeforeTheRepeatedRecords) {
  EXPECT_THAT(DeriveRepeats(Str("HDab"), 12),
              ElementsAre(Str("HDabHDab"), Str("HDabHDabHDab"),
                          Str("HDabDabDab"), Str("HDababababab")));
}

// Headers up to kMaxRepeatHeader (32) bytes, each before at least 2 bytes.
TEST(RepeatTrialsTest, HeadersUpTo32Bytes) {
  std::string input(40, 'h');
  input[38] = 'r';
  input[39] = 's';  // distinct from the header bytes: no two repeats alike
  const std::vector<std::vector<uint8_t>> repeats =
      DeriveRepeats(Str(input), 80);
  // Twice (80 bytes), then h = 1 .. 32: (80 - h) / (40 - h) >= 2 for all.
  ASSERT_EQ(repeats.size(), 1u + 32u);
  std::string h32 = input.substr(0, 32);
  for (int i = 0; i < 6; ++i) h32 += input.substr(32);  // (80 - 32) / 8
  EXPECT_EQ(repeats.back(), Str(h32));
}

// A periodic input repeats the same way from several headers: each repeat
// once.
TEST(RepeatTrialsTest, NoTwoRepeatsAlike) {
  EXPECT_THAT(DeriveRepeats(Str("aaaa"), 12),
              ElementsAre(Str(std::string(8, 'a')), Str(std::string(12, 'a')),
                          Str(std::string(10, 'a'))));
}

TEST(RepeatTrialsTest, NoneForAnEmptyInputOrOneThatFitsOnce) {
  EXPECT_THAT(DeriveRepeats(Str(""), 64), IsEmpty());
  EXPECT_THAT(DeriveRepeats(Str("abcd"), 5), IsEmpty());
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
      EXPECT_TRUE(f.host_trial);
      crashes.push_back(f);
    }
  }
  return crashes;
}

// "abcd" at 128 bytes: 32 copies, "a" then 42 of "bcd" (127 bytes), "ab"
// then 63 of "cd"; twice (8 bytes) does not crash.
TEST(RepeatTrialsTest, TheExecutorTriesAnInputRepeatedToItsLimit) {
  std::vector<Find> crashes = RepeatCrashes(128);
  std::string whole, after_a = "a", after_ab = "ab";
  for (int i = 0; i < 32; ++i) whole += "abcd";
  for (int i = 0; i < 42; ++i) after_a += "bcd";
  for (int i = 0; i < 63; ++i) after_ab += "cd";
  std::vector<Bytes> inputs;
  for (const Find& crash : crashes) {
    EXPECT_EQ(crash.code, 3u);
    EXPECT_EQ(crash.parent, 0u);
    inputs.push_back(crash.data);
  }
  EXPECT_THAT(inputs, ::testing::UnorderedElementsAre(Str(whole), Str(after_a),
                                                      Str(after_ab)));
}

// At 64 bytes the longest repeat (16 copies) stays under 100.
TEST(RepeatTrialsTest, NoRepeatBeyondMaxLen) {
  EXPECT_THAT(RepeatCrashes(64), IsEmpty());
}

// The cap counts trials over the executor's life, in the order its inputs
// are logged and its trials are made: "abcd" and "wxyz" at 128 bytes have
// four each (twice, 32 times, and two after a header), and the last three
// crash. A cap of 2 keeps the first input's first two; 6, all four of the
// first and the second's first two.
TEST(RepeatTrialsTest, TheCapKeepsTheFirstInputsTrials) {
  std::string abcd32, wxyz32;
  for (int i = 0; i < 32; ++i) abcd32 += "abcd", wxyz32 += "wxyz";
  std::vector<Bytes> crashed;
  for (const Find& f : RepeatCrashes(128, true, 2, {"abcd", "wxyz"})) {
    crashed.push_back(f.data);
  }
  EXPECT_THAT(crashed, ElementsAre(Str(abcd32)));
  std::vector<uint32_t> parents;
  crashed.clear();
  for (const Find& f : RepeatCrashes(128, true, 6, {"abcd", "wxyz"})) {
    parents.push_back(f.parent);
    if (f.parent == 1) crashed.push_back(f.data);
  }
  EXPECT_THAT(parents, ::testing::UnorderedElementsAre(0u, 0u, 0u, 1u));
  EXPECT_THAT(crashed, ElementsAre(Str(wxyz32)));
}

// One batch of 16 havoc mutants of input 0, run or submitted and
// collected: the crashes its repetition trials found.
std::vector<Bytes> RepeatCrashesOfABatch(GpuExecutor& executor, bool overlap,
                                         uint64_t seed) {
  WorkItem item;
  item.opcode = RF_OP_HAVOC;
  item.count = 16;
  item.parent = 0;
  absl::StatusOr<BatchResult> r;
  if (overlap) {
    absl::Status submitted = executor.SubmitBatch({item}, seed);
    EXPECT_TRUE(submitted.ok()) << submitted;
    r = executor.CollectBatch();
  } else {
    r = executor.RunBatch({item}, seed);
  }
  EXPECT_TRUE(r.ok()) << r.status();
  std::vector<Bytes> crashes;
  if (!r.ok()) return crashes;
  for (const Find& f : r->finds) {
    if (f.kind == Find::Kind::kCrash &&
        f.mutations == std::vector<uint32_t>{RF_MUT_DUPLICATE}) {
      EXPECT_EQ(f.parent, 0u);
      EXPECT_TRUE(f.host_trial);
      crashes.push_back(f.data);
    }
  }
  return crashes;
}

// StartRepeatTrials (the engine's call once coverage stalls) turns the
// trials on for the inputs already logged: theirs run in the next batch,
// by RunBatch and by overlapped rounds alike; a second call does nothing.
TEST(RepeatTrialsTest, StartedLaterTheLoggedInputsGetTheirs) {
  std::string whole, after_a = "a", after_ab = "ab";
  for (int i = 0; i < 32; ++i) whole += "abcd";
  for (int i = 0; i < 42; ++i) after_a += "bcd";
  for (int i = 0; i < 63; ++i) after_ab += "cd";
  for (bool overlap : {false, true}) {
    GpuExecutorOptions options = gpu_test::CpuOptions("long_input.fz", 128);
    options.keep_going = true;
    options.overlap = overlap ? GpuExecutorOptions::Overlap::kOn
                              : GpuExecutorOptions::Overlap::kOff;
    auto executor = gpu_test::MakeExecutor(options);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->AddInput(Str("abcd")).ok());
    EXPECT_THAT(RepeatCrashesOfABatch(*executor, overlap, 1), IsEmpty());
    EXPECT_EQ(executor->logged_inputs(), 1u);
    EXPECT_TRUE(executor->StartRepeatTrials());
    EXPECT_FALSE(executor->StartRepeatTrials());
    std::vector<Bytes> crashes;
    for (uint64_t seed = 2; seed <= 4; ++seed) {
      for (Bytes& crash : RepeatCrashesOfABatch(*executor, overlap, seed)) {
        crashes.push_back(std::move(crash));
      }
    }
    EXPECT_THAT(crashes, ::testing::UnorderedElementsAre(
                             Str(whole), Str(after_a), Str(after_ab)))
        << (overlap ? "overlapped" : "RunBatch");
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

// GpuExecutorOptions::repeat_trials is off by default: nothing repeated.
TEST(RepeatTrialsTest, NoRepeatWhenOff) {
  EXPECT_THAT(RepeatCrashes(128, /*repeat=*/false), IsEmpty());
}

}  // namespace
}  // namespace ringfuzz
