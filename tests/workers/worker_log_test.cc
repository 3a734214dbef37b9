#include "fuzz/workers/worker_log.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(WorkerLogTest, StatusLinesParseBackFromFormatStatusLine) {
  StatusCounters c;
  c.runs = 123456;
  c.cov = 51;
  c.ft = 230;
  c.corpus_units = 40;
  c.corpus_bytes = 40 << 10;
  c.exec_per_sec = 9876;
  c.rss_mb = 77;
  for (StatusEvent event : {StatusEvent::kNew, StatusEvent::kPulse,
                            StatusEvent::kReload, StatusEvent::kDone}) {
    std::optional<StatusCounters> parsed =
        ParseStatusLine(FormatStatusLine(event, c) + " L: 3/4 MS: 1 havoc-");
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(parsed->runs, c.runs);
    EXPECT_EQ(parsed->cov, c.cov);
    EXPECT_EQ(parsed->ft, c.ft);
    EXPECT_EQ(parsed->corpus_units, c.corpus_units);
    EXPECT_EQ(parsed->corpus_bytes, c.corpus_bytes);
    EXPECT_EQ(parsed->exec_per_sec, c.exec_per_sec);
    EXPECT_EQ(parsed->rss_mb, c.rss_mb);
  }
  EXPECT_FALSE(ParseStatusLine("INFO: Seed: 1").has_value());
  EXPECT_FALSE(ParseStatusLine("#12").has_value());
  EXPECT_FALSE(ParseStatusLine("#x\tNEW exec/s: 1").has_value());
}

constexpr char kCrashLog[] =
    "INFO: Seed: 1\n"
    "#2\tINITED cov: 3 ft: 4 corp: 1/1b exec/s: 0 rss: 40Mb\n"
    "#900\tNEW    cov: 4 ft: 6 corp: 2/3b exec/s: 450 rss: 41Mb L: 2/2 MS: 1 "
    "havoc-\n"
    "ERROR: an earlier problem\n"
    "==123== ERROR: libFuzzer: deadly signal\n"
    "ringfuzz: fz_crash(code=7) in parse t.fz:9\n"
    "artifact_prefix='out/'; Test unit written to out/crash-abc\n"
    "Base64: QUJD\n"
    "stat::number_of_executed_units: 1000\n"
    "stat::new_units_added:          1\n";

TEST(WorkerLogTest, CrashLogGivesStatusStatsReportAndArtifact) {
  const WorkerLog log = ParseWorkerLog(kCrashLog);
  ASSERT_TRUE(log.status.has_value());
  EXPECT_EQ(log.status->runs, 900u);
  EXPECT_EQ(log.stats.at("number_of_executed_units"), 1000u);
  EXPECT_EQ(log.stats.at("new_units_added"), 1u);
  EXPECT_EQ(log.artifact, "out/crash-abc");
  EXPECT_THAT(log.artifacts, ElementsAre("out/crash-abc"));
  EXPECT_EQ(log.bug_report,
            "==123== ERROR: libFuzzer: deadly signal\n"
            "ringfuzz: fz_crash(code=7) in parse t.fz:9\n"
            "artifact_prefix='out/'; Test unit written to out/crash-abc\n"
            "Base64: QUJD\n");
  EXPECT_EQ(log.error, "an earlier problem");
}

TEST(WorkerLogTest, UbsanAndTimeoutHeadersStartAReport) {
  EXPECT_THAT(
      ParseWorkerLog("x\nt.fz:3: runtime error: index 9 out of bounds\n")
          .bug_report,
      HasSubstr("t.fz:3: runtime error: index 9"));
  EXPECT_THAT(ParseWorkerLog("==7== ERROR: libFuzzer: timeout after 10 loop "
                             "steps\n")
                  .bug_report,
              HasSubstr("timeout after 10"));
  EXPECT_EQ(ParseWorkerLog("INFO: no runtime error: here\n").bug_report, "");
}

TEST(WorkerLogTest, CutTailAndErrorsWithoutABug) {
  // A tail cut inside a status line: that line is no status.
  const WorkerLog log = ParseWorkerLog(
      "00\tpulse cov: 9 ft: 9 exec/s: 1 rss: 1Mb\nERROR: device lost\n");
  EXPECT_FALSE(log.status.has_value());
  EXPECT_EQ(log.error, "device lost");
  EXPECT_EQ(log.bug_report, "");
  EXPECT_THAT(log.artifacts, ElementsAre());
}

}  // namespace
}  // namespace ringfuzz
