// Every kind of ringfuzz bug report (fuzz/engine/bug_report.h), read the way
// ClusterFuzz reads crash logs (clusterfuzz_patterns.h): a crash has a crash
// type and a state naming its function, an out-of-bounds access and an
// overread are Index-out-of-bounds and a security bug, a timeout is a
// Timeout, and a run that reports one (a replay included) is a crash.
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/engine/bug_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"
#include "tests/triage/clusterfuzz_patterns.h"

namespace ringfuzz {
namespace {

using ::ringfuzz::testing::ClassifyLikeClusterFuzz;
using ::ringfuzz::testing::IsCrashLikeClusterFuzz;
using ::ringfuzz::testing::Triage;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Find Bug(Find::Kind kind, bool located) {
  Find find;
  find.kind = kind;
  find.data = {'F', 'U', 'Z'};
  find.code = kind == Find::Kind::kCrash ? 7 : 70;
  find.aux = 64;
  if (located) {
    find.function = "decode_block";
    find.file = "shaders/targets/lz_block.fz";
    find.line = 88;
  }
  return find;
}

// The report of `find` as a fuzzing run prints it (artifact written) or,
// with `replay`, as running the input as a file prints it.
std::string Report(const Find& find, bool replay) {
  TempDir dir;
  BugReportRequest request;
  request.find = &find;
  request.pid = 4242;
  request.save_artifact = !replay;
  std::ostringstream out;
  EXPECT_TRUE(ReportBug(request, WorkDir("", dir.path() + "/", ""), out));
  return out.str();
}

// The exit codes of ringfuzz's runs that found a bug (fuzz/engine/flags.def:
// -error_exitcode, -timeout_exitcode defaults).
constexpr int kErrorExitCode = 77;
constexpr int kTimeoutExitCode = 70;

TEST(ReportTriageTest, CrashIsAFatalSignalWithItsFunctionAsState) {
  for (bool replay : {false, true}) {
    const std::string log = Report(Bug(Find::Kind::kCrash, true), replay);
    Triage t = ClassifyLikeClusterFuzz(log, "lz_block_fuzzer");
    EXPECT_EQ(t.crash_type, "Fatal-signal") << log;
    EXPECT_THAT(t.state, ElementsAre("fz_crash", "decode_block")) << log;
    EXPECT_FALSE(t.security);
    EXPECT_TRUE(IsCrashLikeClusterFuzz(kErrorExitCode, t));
    // ringfuzz's own detail stays greppable, with the file:line.
    EXPECT_THAT(log, HasSubstr("\nringfuzz: fz_crash(code=7) in decode_block "
                               "shaders/targets/lz_block.fz:88\n"));
    EXPECT_THAT(log, HasSubstr("#1 0x00000058 in decode_block "
                               "shaders/targets/lz_block.fz:88\n"));
  }
}

TEST(ReportTriageTest, CrashWithoutLocationNamesFzTarget) {
  const std::string log = Report(Bug(Find::Kind::kCrash, false), true);
  Triage t = ClassifyLikeClusterFuzz(log, "");
  EXPECT_EQ(t.crash_type, "Fatal-signal") << log;
  EXPECT_THAT(t.state, ElementsAre("fz_crash", "fz_target")) << log;
  EXPECT_TRUE(IsCrashLikeClusterFuzz(kErrorExitCode, t));
}

TEST(ReportTriageTest, OutOfBoundsAndOverreadAreSecurityIndexOutOfBounds) {
  for (Find::Kind kind : {Find::Kind::kOutOfBounds, Find::Kind::kOverread}) {
    for (bool located : {false, true}) {
      const std::string log = Report(Bug(kind, located), located);
      Triage t = ClassifyLikeClusterFuzz(log, "lz_block_fuzzer");
      EXPECT_EQ(t.crash_type, "Index-out-of-bounds") << log;
      EXPECT_TRUE(t.security) << log;
      // An overread is reported by fz_byte, called from the function.
      std::vector<std::string> state;
      if (kind == Find::Kind::kOverread) state.push_back("fz_byte");
      state.push_back(located ? "decode_block" : "fz_target");
      EXPECT_EQ(t.state, state) << log;
      EXPECT_TRUE(IsCrashLikeClusterFuzz(kErrorExitCode, t));
      EXPECT_THAT(log, HasSubstr("\nringfuzz: "));
    }
  }
}

TEST(ReportTriageTest, TimeoutIsATimeoutOfTheFuzzTarget) {
  for (bool replay : {false, true}) {
    const std::string log = Report(Bug(Find::Kind::kTimeout, true), replay);
    Triage t = ClassifyLikeClusterFuzz(log, "lz_block_fuzzer");
    EXPECT_EQ(t.crash_type, "Timeout") << log;
    EXPECT_THAT(t.state, ElementsAre("lz_block_fuzzer"));
    EXPECT_FALSE(t.security);
    EXPECT_TRUE(IsCrashLikeClusterFuzz(kTimeoutExitCode, t));
    EXPECT_THAT(log,
                HasSubstr("\nringfuzz: timeout after 64 loop steps in "
                          "decode_block shaders/targets/lz_block.fz:88\n"));
  }
}

// The patterns themselves: the old "ERROR: ringfuzz:" report was nothing to
// ClusterFuzz, and a clean exit is no crash whatever the log says.
TEST(ReportTriageTest, PatternsRejectWhatClusterFuzzRejects) {
  Triage old = ClassifyLikeClusterFuzz(
      "==1==ERROR: ringfuzz: fz_crash(code=7)\n"
      "SUMMARY: ringfuzz: fz_crash(code=7)\n",
      "x_fuzzer");
  EXPECT_EQ(old.crash_type, "");
  EXPECT_FALSE(IsCrashLikeClusterFuzz(kErrorExitCode, old));
  Triage crash = ClassifyLikeClusterFuzz(
      "==1== ERROR: libFuzzer: deadly signal\n    #0 0x1 in f a.fz:1\n", "");
  EXPECT_FALSE(IsCrashLikeClusterFuzz(0, crash));
  // A deadly signal after a UBSan report takes over, a timeout does not.
  Triage later = ClassifyLikeClusterFuzz(
      "a.fz:1: runtime error: index 9 out of bounds for type 'uint[8]'\n"
      "==1== ERROR: libFuzzer: deadly signal\n",
      "x_fuzzer");
  EXPECT_EQ(later.crash_type, "Fatal-signal");
  Triage timeout = ClassifyLikeClusterFuzz(
      "==1== ERROR: libFuzzer: timeout after 9 loop steps\n"
      "==1== ERROR: libFuzzer: deadly signal\n",
      "x_fuzzer");
  EXPECT_EQ(timeout.crash_type, "Timeout");
}

// ClusterFuzz's merge stats: libFuzzer's line as it prints it, the last
// one wins, and lines that only look alike are not read.
TEST(ReportTriageTest, MergeStatsAreReadFromTheLastMergeOuterLine) {
  const testing::MergeStats stats = testing::ParseMergeStatsLikeClusterFuzz(
      "MERGE-OUTER: 3 files, 0 in the initial corpus, 0 processed earlier\n"
      "MERGE-OUTER: 2 new files with 10 new features added; 4 new coverage "
      "edges\n"
      "MERGE-OUTER: 3 new files with 89 new features added; 46 new coverage "
      "edges\n");
  EXPECT_TRUE(stats.matched);
  EXPECT_EQ(stats.feature_coverage, 89u);
  EXPECT_EQ(stats.edge_coverage, 46u);
  for (const char* other :
       {"MERGE-OUTER: 3 new files with 89 new features added\n",
        "INFO: MERGE-OUTER: 3 new files with 89 new features added; 46 new "
        "coverage edges\n",
        "MERGE-OUTER: 3 files, 0 in the initial corpus, 0 processed "
        "earlier\n"}) {
    EXPECT_FALSE(testing::ParseMergeStatsLikeClusterFuzz(other).matched)
        << other;
  }
}

}  // namespace
}  // namespace ringfuzz
