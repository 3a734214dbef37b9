#include "fuzz/engine/status_line.h"

#include <vector>

#include "fuzz/engine/work_kind.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

StatusCounters Counters() {
  StatusCounters c;
  c.runs = 5120;
  c.cov = 13;
  c.ft = 31;
  c.corpus_units = 8;
  c.corpus_bytes = 133;
  c.exec_per_sec = 2560;
  c.rss_mb = 40;
  return c;
}

TEST(StatusLineTest, GoldenLines) {
  StatusCounters c = Counters();
  EXPECT_EQ(FormatStatusLine(StatusEvent::kInited, c),
            "#5120\tINITED cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb");
  EXPECT_EQ(FormatStatusLine(StatusEvent::kNew, c),
            "#5120\tNEW    cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb");
  EXPECT_EQ(FormatStatusLine(StatusEvent::kReduce, c),
            "#5120\tREDUCE cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb");
  EXPECT_EQ(FormatStatusLine(StatusEvent::kPulse, c),
            "#5120\tpulse  cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb");
  EXPECT_EQ(FormatStatusLine(StatusEvent::kDone, c),
            "#5120\tDONE   cov: 13 ft: 31 corp: 8/133b exec/s: 2560 rss: 40Mb");
}

TEST(StatusLineTest, ZeroFieldsAreLeftOutAsInLibFuzzer) {
  StatusCounters c;
  c.runs = 1;
  EXPECT_EQ(FormatStatusLine(StatusEvent::kInited, c),
            "#1\tINITED exec/s: 0 rss: 0Mb");
  c.corpus_units = 1;  // one empty input
  EXPECT_EQ(FormatStatusLine(StatusEvent::kInited, c),
            "#1\tINITED corp: 1 exec/s: 0 rss: 0Mb");
  c.ft = 2;
  EXPECT_EQ(FormatStatusLine(StatusEvent::kInited, c),
            "#1\tINITED ft: 2 corp: 1 exec/s: 0 rss: 0Mb");
}

TEST(StatusLineTest, CorpusBytesUseLibFuzzerThresholds) {
  EXPECT_EQ(FormatCorpusBytes(0), "0b");
  EXPECT_EQ(FormatCorpusBytes(16383), "16383b");
  EXPECT_EQ(FormatCorpusBytes(16384), "16Kb");
  EXPECT_EQ(FormatCorpusBytes((16u << 20) - 1), "16383Kb");
  EXPECT_EQ(FormatCorpusBytes(16u << 20), "16Mb");
  EXPECT_EQ(FormatCorpusBytes(uint64_t{5} << 30), "5120Mb");
}

TEST(StatusLineTest, NewUnitSuffixNamesTheWorkKinds) {
  std::vector<uint32_t> ops = {RF_OP_HAVOC};
  EXPECT_EQ(FormatNewUnitSuffix(3, 5, ops), " L: 3/5 MS: 1 havoc-");
  ops = {RF_OP_SPLICE, RF_OP_DICT, RF_OP_CMP, RF_OP_REPLAY, RF_OP_TRIM, 99};
  EXPECT_EQ(FormatNewUnitSuffix(64, 64, ops),
            " L: 64/64 MS: 6 splice-dict-cmp-replay-trim-op99-");
  EXPECT_EQ(MutationSequence({}), "MS: 0 ");
}

// With the mutators that made the input, NEW lines name them as libFuzzer
// does; the work kind is then left out.
TEST(StatusLineTest, NewUnitSuffixNamesTheMutators) {
  const std::vector<uint32_t> ops = {RF_OP_HAVOC};
  const std::vector<uint32_t> mutations = {RF_MUT_FLIP_BIT, RF_MUT_ERASE};
  EXPECT_EQ(FormatNewUnitSuffix(3, 5, ops, mutations),
            " L: 3/5 MS: 2 ChangeBit-EraseBytes-");
  EXPECT_EQ(FormatNewUnitSuffix(7, 9, {RF_OP_SPLICE},
                                {RF_MUT_SPLICE, RF_MUT_ARITH, RF_MUT_COPY}),
            " L: 7/9 MS: 3 CrossOver-ChangeBinaryInteger-CopyPart-");
  EXPECT_EQ(FormatNewUnitSuffix(3, 5, ops, {}), " L: 3/5 MS: 1 havoc-");
}

// One "stat::mutator_<name>:" line per mutator, after the others, value
// aligned as libFuzzer's; none when the executor counts none.
TEST(StatusLineTest, MutatorStatLines) {
  FinalStats s;
  const std::string plain = FormatFinalStats(s);
  EXPECT_EQ(plain.find("mutator_"), std::string::npos);
  s.mutators = {{"flip_bit", 1000, 3}, {"insert_repeated", 12, 0}};
  EXPECT_EQ(FormatFinalStats(s),
            plain +
                "stat::mutator_flip_bit:         1000 execs, 3 finds\n"
                "stat::mutator_insert_repeated:  12 execs, 0 finds\n");
}

// The executor's own counters come after ringfuzz's lines and before the
// mutators', in the executor's order, aligned as libFuzzer aligns its own
// (a name longer than the column gets one space).
TEST(StatusLineTest, ExecutorStatLinesBeforeTheMutators) {
  FinalStats s;
  const std::string plain = FormatFinalStats(s);
  s.executor = {{"signature_candidates_judged", 2192}, {"dropped", 0}};
  s.mutators = {{"flip_bit", 5, 1}};
  EXPECT_EQ(FormatFinalStats(s),
            plain +
                "stat::signature_candidates_judged: 2192\n"
                "stat::dropped:                  0\n"
                "stat::mutator_flip_bit:         5 execs, 1 finds\n");
}

TEST(StatusLineTest, DoneAndFinalStats) {
  EXPECT_EQ(FormatDoneLine(1000, 3), "Done 1000 runs in 3 second(s)");
  FinalStats s;
  s.runs = 1000;
  s.exec_per_sec = 333;
  s.new_units = 4;
  s.peak_rss_mb = 41;
  s.latency_entries = 3;
  s.latency_p50_ms = 12;
  s.latency_p99_ms = 250;
  s.device_busy_percent = 97;
  EXPECT_EQ(FormatFinalStats(s),
            "stat::number_of_executed_units: 1000\n"
            "stat::average_exec_per_sec:     333\n"
            "stat::new_units_added:          4\n"
            "stat::slowest_unit_time_sec:    0\n"
            "stat::peak_rss_mb:              41\n"
            "stat::feedback_latency_entries: 3\n"
            "stat::feedback_latency_p50_ms:  12\n"
            "stat::feedback_latency_p99_ms:  250\n"
            "stat::device_busy_percent:      97\n");
}

TEST(StatusLineTest, LatencyAndBusyShare) {
  EXPECT_EQ(CeilMilliseconds(absl::ZeroDuration()), 0u);
  EXPECT_EQ(CeilMilliseconds(absl::Milliseconds(-3)), 0u);
  EXPECT_EQ(CeilMilliseconds(absl::Microseconds(1)), 1u);  // an upper bound
  EXPECT_EQ(CeilMilliseconds(absl::Milliseconds(20)), 20u);
  EXPECT_EQ(CeilMilliseconds(absl::Microseconds(20001)), 21u);
  EXPECT_EQ(BusyPercent(absl::Milliseconds(5), absl::ZeroDuration()), 0u);
  EXPECT_EQ(BusyPercent(absl::Milliseconds(999), absl::Seconds(1)), 99u);
  EXPECT_EQ(BusyPercent(absl::Seconds(1), absl::Seconds(1)), 100u);
  EXPECT_EQ(BusyPercent(absl::Seconds(2), absl::Seconds(1)), 100u);
  EXPECT_EQ(FormatFeedbackLine(17, absl::Microseconds(12500),
                               absl::Milliseconds(40), 93),
            "INFO: feedback latency p50 12.5 ms, p99 40.0 ms over 17 new "
            "entries (start of the batch that found an entry to the end of "
            "the first batch that ran its mutants: an upper bound); device "
            "busy 93% of the fuzzing loop");
  EXPECT_EQ(FormatFeedbackLine(3, absl::Milliseconds(4), absl::Milliseconds(9),
                               80, /*by_device_clock=*/true),
            "INFO: feedback latency p50 4.0 ms, p99 9.0 ms over 3 new "
            "entries (the execution that found an entry to the start of its "
            "first mutant, on the device's clock); device busy 80% of the "
            "fuzzing loop");
  EXPECT_EQ(
      FormatFeedbackLine(0, absl::ZeroDuration(), absl::ZeroDuration(), 0),
      "INFO: feedback latency: no new entry had mutants run; device "
      "busy 0% of the fuzzing loop");
}

TEST(StatusLineTest, ExecPerSecAndRss) {
  EXPECT_EQ(ExecPerSec(1000, 0), 0u);
  EXPECT_EQ(ExecPerSec(1000, 3), 333u);
  EXPECT_GT(PeakRssMb(), 0u);  // a running test process has resident pages
}

}  // namespace
}  // namespace ringfuzz
