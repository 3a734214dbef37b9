// The corpus tools (fuzz/corpus_tools/merge.h,
// fuzz/corpus_tools/crash_minimize.h, fuzz/corpus_tools/crash_cleanse.h)
// against the fake executor, whose features follow from the bytes
// (tests/engine/fake_executor.h): an input matching k bytes of "FUZ!" has
// feature and block k, and feature 1000 + min(len, 8); "FUZ!" itself is the
// bug.
#include <sstream>
#include <string>
#include <vector>

#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "corpus/sha1.h"
#include "corpus/work_dir.h"
#include "fuzz/cli.h"
#include "fuzz/corpus_tools/crash_cleanse.h"
#include "fuzz/corpus_tools/crash_minimize.h"
#include "fuzz/corpus_tools/merge.h"
#include "fuzz/engine/interrupt.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAreArray;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

void Write(const std::string& path, const std::string& content) {
  ASSERT_TRUE(WriteFileAtomically(path, B(content)).ok()) << path;
}

std::string Read(const std::string& path) {
  absl::StatusOr<Bytes> data = ReadFile(path);
  EXPECT_TRUE(data.ok()) << data.status();
  return data.ok() ? std::string(data->begin(), data->end()) : "";
}

std::vector<std::string> Sha1Names(const std::vector<std::string>& contents) {
  std::vector<std::string> names;
  for (const std::string& c : contents) names.push_back(Sha1Hex(B(c)));
  return names;
}

// IN holds f1..f5; what each adds is worked out in the tests.
class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(MakeDirs(in_.path()).ok());
    Write(in_.Sub("f1"), "F");           // features 1, 1001
    Write(in_.Sub("f2"), "X");           // 0, 1001
    Write(in_.Sub("f3"), "FU");          // 2, 1002
    Write(in_.Sub("f4"), "FQ");          // 1, 1002: nothing new
    Write(in_.Sub("f5"), "ZZZZZZZZZZ");  // 0, 1008
  }
  int Merge(std::vector<std::string> dirs) {
    log_.str("");
    FakeExecutor executor;
    return RunMerge(config_, executor, dirs, log_);
  }

  Config config_;
  TempDir in_, out_;
  std::ostringstream log_;
};

TEST_F(MergeTest, CopiesTheInputsThatAddFeaturesNamedBySha1) {
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(
      ListDir(out_.path()),
      UnorderedElementsAreArray(Sha1Names({"F", "X", "FU", "ZZZZZZZZZZ"})));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 5 files, 0 in the initial "
                                    "corpus, 0 processed earlier\n"));
  // Features 0, 1, 2, 1001, 1002, 1008; blocks 0, 1, 2.
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 4 new files with 6 new "
                                    "features added; 3 new coverage edges\n"));
  EXPECT_EQ(Read(JoinPath(out_.path(), Sha1Hex(B("FU")))), "FU");
}

TEST_F(MergeTest, TheOutputCorpusFeaturesAreKnown) {
  Write(out_.Sub("old"), "FU");
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 3 new files with 4 new "
                                    "features added; 2 new coverage edges\n"));
  EXPECT_THAT(
      ListDir(out_.path()),
      UnorderedElementsAreArray(std::vector<std::string>{
          "old", Sha1Hex(B("F")), Sha1Hex(B("X")), Sha1Hex(B("ZZZZZZZZZZ"))}));
  // Merged again: nothing is new.
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 0 new files with 0 new "
                                    "features added; 0 new coverage edges\n"));
}

TEST_F(MergeTest, SetCoverTakesFewerInputsForTheSameFeatures) {
  config_.set_cover_merge = true;
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  // f1 (2 new, smallest), then f3 (2 new, smaller than f5), then f5.
  EXPECT_THAT(ListDir(out_.path()),
              UnorderedElementsAreArray(Sha1Names({"F", "FU", "ZZZZZZZZZZ"})));
  // COV records name the blocks an input reached first in the run (as
  // libFuzzer's): block 0 is f2's, which is not taken.
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 3 new files with 6 new "
                                    "features added; 2 new coverage edges\n"));
}

TEST_F(MergeTest, AnInputWithABugIsNotMergedAndTheMergeGoesOn) {
  Write(in_.Sub("f0"), "FUZ!");
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("/f0' hit a bug (fz_crash(code=7)); "
                                    "not merged"));
  EXPECT_THAT(ListDir(out_.path()), Not(testing::Contains(Sha1Hex(B("FUZ!")))));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 4 new files with 6 new"));
}

TEST_F(MergeTest, ResumesFromAControlFileCutAfterSomeInputs) {
  TempDir control, resumed;
  config_.merge_control_file = control.Sub("cf");
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  const std::string full = Read(config_.merge_control_file);
  // The head (7 lines) and the records of inputs 0 and 1 (3 lines each).
  size_t cut = 0;
  for (int line = 0; line < 7 + 6; ++line) cut = full.find('\n', cut) + 1;
  Write(config_.merge_control_file, full.substr(0, cut));
  ASSERT_EQ(Merge({resumed.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: control file ok, 5 files "
                                    "total, first not processed file 2\n"));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-INNER: 5 total files; 2 processed "
                                    "earlier; will process 3 files now\n"));
  EXPECT_EQ(ListDir(resumed.path()), ListDir(out_.path()));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 4 new files with 6 new "
                                    "features added; 3 new coverage edges\n"));
  // Complete, for the same number of files: nothing runs, and what it
  // decided is copied again.
  TempDir again;
  ASSERT_EQ(Merge({again.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("nothing to do, merge has been completed"));
  EXPECT_THAT(log_.str(), Not(HasSubstr("MERGE-INNER")));
  EXPECT_EQ(ListDir(again.path()), ListDir(out_.path()));
  // Other files (the output corpus grew): the recorded inputs are not run
  // again, only the new ones.
  ASSERT_EQ(Merge({resumed.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("starting merge from scratch, but reusing "
                                    "coverage information"));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 9 files, 4 in the initial "
                                    "corpus, 5 processed earlier\n"));
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: 0 new files"));
}

// A judge that gives every input the same verdict, counting its calls.
class FixedJudge final : public TimeoutJudge {
 public:
  FixedJudge(TimeoutVerdict::Kind kind, int* calls)
      : kind_(kind), calls_(calls) {}
  TimeoutVerdict Judge(const Bytes& input) override {
    ++*calls_;
    return {kind_, absl::Milliseconds(5), "fixed"};
  }

 private:
  TimeoutVerdict::Kind kind_;
  int* calls_;
};

// An input that exhausts the loop budget is not merged, unless the judge
// (-twin) sees it end within -timeout: then it is merged with its coverage.
TEST_F(MergeTest, ALoopBudgetTimeoutIsMergedOnlyWhenTheJudgeClearsIt) {
  Write(in_.Sub("f6"), "FUZ!");  // the fake's bug: a timeout here
  FakeExecutorOptions options;
  options.bug = Find::Kind::kTimeout;
  options.bug_covers = true;  // feature 4, new to the merge
  auto merge = [&](const std::string& out,
                   std::unique_ptr<TimeoutJudge> judge) {
    log_.str("");
    FakeExecutor executor(options);
    return RunMerge(config_, executor, {out, in_.path()}, log_,
                    std::move(judge));
  };
  const std::string timeout_name = Sha1Hex(B("FUZ!"));
  ASSERT_EQ(merge(out_.path(), nullptr), 0) << log_.str();
  EXPECT_THAT(ListDir(out_.path()), Not(testing::Contains(timeout_name)));
  EXPECT_THAT(log_.str(), HasSubstr("hit a bug"));

  int calls = 0;
  TempDir confirmed;
  ASSERT_EQ(
      merge(confirmed.path(), std::make_unique<FixedJudge>(
                                  TimeoutVerdict::Kind::kTimeout, &calls)),
      0)
      << log_.str();
  EXPECT_EQ(calls, 1);
  EXPECT_THAT(ListDir(confirmed.path()), Not(testing::Contains(timeout_name)));

  TempDir cleared;
  ASSERT_EQ(merge(cleared.path(), std::make_unique<FixedJudge>(
                                      TimeoutVerdict::Kind::kFinished, &calls)),
            0)
      << log_.str();
  EXPECT_EQ(calls, 2);
  EXPECT_THAT(ListDir(cleared.path()), testing::Contains(timeout_name));
  EXPECT_THAT(log_.str(), Not(HasSubstr("hit a bug")));
}

TEST_F(MergeTest, AnInterruptedMergeResumesWhereItStopped) {
  TempDir control;
  config_.merge_control_file = control.Sub("cf");
  InstallInterruptHandlers(72);
  RequestInterrupt(SIGINT);
  EXPECT_EQ(Merge({out_.path(), in_.path()}), 72);
  ResetInterrupt();
  EXPECT_THAT(log_.str(), HasSubstr("interrupted after 0 of 5 files"));
  EXPECT_THAT(ListDir(out_.path()), testing::IsEmpty());
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("first not processed file 0\n"));
  EXPECT_EQ(ListDir(out_.path()).size(), 4u);
}

TEST_F(MergeTest, ABadControlFileIsOverwritten) {
  TempDir control;
  config_.merge_control_file = control.Sub("cf");
  Write(config_.merge_control_file, "not a control file\n");
  ASSERT_EQ(Merge({out_.path(), in_.path()}), 0) << log_.str();
  EXPECT_THAT(log_.str(), HasSubstr("MERGE-OUTER: bad control file, will "
                                    "overwrite it"));
  EXPECT_EQ(ListDir(out_.path()).size(), 4u);
}

TEST_F(MergeTest, NeedsTwoDirectoriesAndNamesAMissingOne) {
  EXPECT_EQ(Merge({out_.path()}), 0);
  EXPECT_THAT(log_.str(), HasSubstr("INFO: Merge requires two or more corpus "
                                    "dirs"));
  EXPECT_EQ(Merge({out_.path(), in_.Sub("missing")}), 1);
  EXPECT_THAT(log_.str(), HasSubstr("ERROR: -merge=1 cannot list '" +
                                    in_.Sub("missing") + "'"));
}

TEST(MergeCliTest, TheFlagRunsAMergeWithoutWarnings) {
  TempDir in, out;
  Write(in.Sub("a"), "FU");
  std::ostringstream log;
  const int code = RunCommandLine(
      {"-target=t", "-merge=1", out.path(), in.path()},
      [](Config& config) -> absl::StatusOr<std::unique_ptr<Executor>> {
        return std::unique_ptr<Executor>(new FakeExecutor());
      },
      log);
  EXPECT_EQ(code, 0) << log.str();
  EXPECT_THAT(log.str(), Not(HasSubstr("WARNING")));
  EXPECT_THAT(log.str(), HasSubstr("MERGE-OUTER: 1 new files with 2 new "
                                   "features added; 1 new coverage edges"));
  EXPECT_THAT(log.str(), Not(HasSubstr("INITED")));  // nothing fuzzed
}

TEST(CrashMinimizeTest, CandidatesEraseChunksAndZeroBytes) {
  EXPECT_THAT(EraseChunkCandidates(B("abcde"), 2),
              ElementsAre(B("cde"), B("abe"), B("abcd")));
  EXPECT_THAT(ZeroByteCandidates(Bytes{1, 0, 2}),
              ElementsAre(Bytes{0, 0, 2}, Bytes{1, 0, 0}));
  EXPECT_TRUE(SmallerInput(B("zz"), B("aaa")));
  EXPECT_TRUE(SmallerInput(B("ab"), B("ba")));
  EXPECT_FALSE(SmallerInput(B("ab"), B("ab")));
}

TEST(CrashMinimizeTest, ShrinksToTheBugsBytes) {
  TempDir dir;
  Write(dir.Sub("crash"), "FUZ!tail bytes");
  Config config;
  config.runs = 10000;
  config.exact_artifact_path = dir.Sub("min");
  FakeExecutor executor;
  std::ostringstream log;
  ASSERT_EQ(RunMinimizeCrash(config, executor, {dir.Sub("crash")}, log), 0)
      << log.str();
  EXPECT_EQ(Read(dir.Sub("min")), "FUZ!");
  EXPECT_THAT(log.str(), HasSubstr("CRASH_MIN: '" + dir.Sub("crash") +
                                   "' (14 bytes) caused a crash."));
  EXPECT_THAT(log.str(), HasSubstr("CRASH_MIN: failed to minimize beyond " +
                                   dir.Sub("min") + " (4 bytes), exiting"));
}

TEST(CrashMinimizeTest, WritesMinimizedFromSha1AndStopsAtTheRunsBudget) {
  TempDir dir;
  Write(dir.Sub("crash"), "FUZ!tail bytes");
  Config config;
  config.runs = 1;
  config.artifact_prefix = dir.path() + "/";
  FakeExecutor executor;
  std::ostringstream log;
  ASSERT_EQ(RunMinimizeCrash(config, executor, {dir.Sub("crash")}, log), 0)
      << log.str();
  const std::string artifact =
      dir.Sub("minimized-from-" + Sha1Hex(B("FUZ!tail bytes")));
  EXPECT_THAT(log.str(), HasSubstr("budget is spent after 1 candidates"));
  // The first candidate (half erased) loses the bug: the original stays.
  EXPECT_EQ(Read(artifact), "FUZ!tail bytes");
}

TEST(CrashMinimizeTest, RefusesAnInputWithoutABugAndTwoInputs) {
  TempDir dir;
  Write(dir.Sub("fine"), "FUZZ");
  Config config;
  config.runs = 10;
  FakeExecutor executor;
  std::ostringstream log;
  EXPECT_EQ(RunMinimizeCrash(config, executor, {dir.Sub("fine")}, log), 1);
  EXPECT_THAT(log.str(), HasSubstr("ERROR: the input " + dir.Sub("fine") +
                                   " did not crash"));
  EXPECT_EQ(RunMinimizeCrash(config, executor,
                             {dir.Sub("fine"), dir.Sub("fine")}, log),
            1);
  EXPECT_THAT(log.str(), HasSubstr("ERROR: -minimize_crash should be given "
                                   "one input file"));
  EXPECT_EQ(RunMinimizeCrash(config, executor, {dir.Sub("missing")}, log), 1);
  EXPECT_THAT(log.str(), HasSubstr(dir.Sub("missing")));
}

// -minimize_crash and -cleanse_crash with -twin: a loop-budget timeout that
// the twin runs to the end is not a crash; one it confirms is worked on.
TEST(CrashMinimizeTest, ALoopBudgetTimeoutTheTwinClearsIsNotACrash) {
  TempDir dir;
  Write(dir.Sub("hang"), "FUZ!tail");
  FakeExecutorOptions options;
  options.bug = Find::Kind::kTimeout;
  Config config;
  config.runs = 50;
  config.artifact_prefix = dir.Sub("");
  config.exact_artifact_path = dir.Sub("out");
  int calls = 0;
  auto judge = [&calls](TimeoutVerdict::Kind kind) {
    return std::make_unique<FixedJudge>(kind, &calls);
  };
  for (const bool cleanse : {false, true}) {
    SCOPED_TRACE(cleanse ? "-cleanse_crash" : "-minimize_crash");
    auto run = [&](TimeoutVerdict::Kind kind, std::ostringstream& log) {
      FakeExecutor executor(options);
      return cleanse ? RunCleanseCrash(config, executor, {dir.Sub("hang")}, log,
                                       judge(kind))
                     : RunMinimizeCrash(config, executor, {dir.Sub("hang")},
                                        log, RealClock(), judge(kind));
    };
    std::ostringstream cleared, confirmed;
    EXPECT_EQ(run(TimeoutVerdict::Kind::kFinished, cleared), 1);
    EXPECT_THAT(cleared.str(),
                HasSubstr("ERROR: the input " + dir.Sub("hang") +
                          " did not crash: it exhausts the device's loop "
                          "budget, but the twin (-twin) runs it to the end"));
    EXPECT_EQ(run(TimeoutVerdict::Kind::kTimeout, confirmed), 0)
        << confirmed.str();
  }
  EXPECT_EQ(calls, 4);
}

TEST(CrashCleanseTest, ReplacesTheBytesTheBugDoesNotNeed) {
  TempDir dir;
  Write(dir.Sub("crash"),
        "FUZ!a\xff"
        "b");
  Config config;
  config.exact_artifact_path = dir.Sub("clean");
  FakeExecutor executor;
  std::ostringstream log;
  ASSERT_EQ(RunCleanseCrash(config, executor, {dir.Sub("crash")}, log), 0)
      << log.str();
  EXPECT_EQ(Read(dir.Sub("clean")), "FUZ! \xff ");
  EXPECT_THAT(log.str(), HasSubstr("CLEANSE: Replaced byte 4 with 0x20\n"
                                   "CLEANSE: Replaced byte 6 with 0x20\n"));
  EXPECT_THAT(log.str(), Not(HasSubstr("Replaced byte 5")));
  EXPECT_THAT(log.str(), Not(HasSubstr("Replaced byte 0")));
}

TEST(CrashCleanseTest, NeedsOneInputAndExactArtifactPath) {
  TempDir dir;
  Write(dir.Sub("crash"), "FUZ!");
  Config config;
  FakeExecutor executor;
  std::ostringstream log;
  EXPECT_EQ(RunCleanseCrash(config, executor, {dir.Sub("crash")}, log), 1);
  EXPECT_THAT(log.str(), HasSubstr("ERROR: -cleanse_crash should be given one "
                                   "input file and -exact_artifact_path"));
}

}  // namespace
}  // namespace ringfuzz
