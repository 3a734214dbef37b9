#include "fuzz/engine/engine.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/engine/bug_report.h"
#include "fuzz/engine/interrupt.h"
#include "fuzz/engine/scheduler.h"
#include "fuzz/steer/steerable.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/corpus/temp_dir.h"
#include "tests/engine/engine_run.h"
#include "tests/engine/fake_clock.h"
#include "tests/engine/fake_executor.h"

namespace ringfuzz {
namespace {

using ::testing::AnyOf;
using ::testing::ContainsRegex;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

Config TestConfig() {
  Config config;
  config.seed = 1;
  config.batch_slots = 16;
  config.slot_execs = 64;
  config.runs = 2000000;
  // Artifacts of tests that do not look at them go to the test temp dir,
  // never into the directory the tests run from.
  config.artifact_prefix = ::testing::TempDir();
  return config;
}

// TestConfig with rounds sized by time toward a 10 ms target (-round_ms),
// each of 16 slots of at most `slot_execs` mutants; `runs` executions in all.
Config AdaptiveConfig(int64_t slot_execs, int64_t runs) {
  Config config = TestConfig();
  config.adaptive_rounds = true;
  config.round_ms = 10;
  config.batch_slots = 16;
  config.slot_execs = slot_execs;
  config.runs = runs;
  return config;
}

EngineRun RunEngine(const Config& config, FakeExecutor& executor,
                    const std::vector<std::string>& positional,
                    Clock* clock = nullptr) {
  FakeClock frozen;
  return RunEngineOn(config, executor, positional,
                     clock != nullptr ? *clock : frozen);
}

std::vector<std::string> Lines(const std::string& log) {
  return absl::StrSplit(log, '\n', absl::SkipEmpty());
}

std::string MaskRss(const std::string& text) {
  std::string masked =
      std::regex_replace(text, std::regex("rss: [0-9]+Mb"), "rss: RMb");
  return std::regex_replace(masked, std::regex("peak_rss_mb: +[0-9]+"),
                            "peak_rss_mb:              R");
}

uint64_t BatchedExecutionsRequested(const FakeExecutor& executor) {
  uint64_t sum = 0;
  for (const auto& batch : executor.batches()) {
    for (const WorkItem& item : batch) sum += item.count;
  }
  return sum;
}

// A FakeExecutor on a simulated device whose speed the test sets: every
// RunBatch advances `clock` by overhead + per_exec * executions, and every
// AddInput (host work between batches) by host_time.
struct DeviceSpeed {
  absl::Duration per_exec = absl::Microseconds(1);
  absl::Duration overhead = absl::ZeroDuration();
  absl::Duration host_time = absl::ZeroDuration();
  // Of each batch's time, how much the executor reports as device time
  // (BatchResult::device_time); the rest is host work inside RunBatch.
  double device_share = 0;
  // Report a device clock of 10 ns ticks (Find::device_clock,
  // ParentCost::first_clock): every work item's first mutant starts 1 ms
  // after its batch does, and every find ends 2 ms before its batch ends.
  bool device_clock = false;
  // With device_clock: every find also says its first mutant started
  // 0.5 ms after it, in its own batch (Find::first_mutant_clock), as a
  // signature executor's precise flights report the candidates they judge.
  bool first_mutants_with_finds = false;
  // The device clock's reading at the fake clock's zero (in ticks).
  uint64_t tick_base = 1000000000;
  // Every off_pace_every-th batch (0: none) runs off_pace_slowdown times
  // slower per execution and says so (BatchResult::off_pace), as a
  // signature executor's precise flights do.
  uint32_t off_pace_every = 0;
  int64_t off_pace_slowdown = 1;
  // Nonzero: an off-pace batch takes this long instead, however little it
  // runs, as a precise flight bound by its slowest execution does.
  absl::Duration off_pace_time;
};

class TimedExecutor final : public Executor, public Steerable {
 public:
  TimedExecutor(FakeExecutorOptions options, FakeClock& clock,
                DeviceSpeed speed)
      : inner_(std::move(options)), clock_(clock), speed_(speed) {}

  absl::StatusOr<uint32_t> AddInput(ByteSpan input) override {
    clock_.Advance(speed_.host_time);
    return inner_.AddInput(input);
  }
  absl::Status SetDictionary(const std::vector<Bytes>& tokens) override {
    return inner_.SetDictionary(tokens);
  }
  absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem> work,
                                       uint64_t seed) override {
    inputs_at_batch_.push_back(inner_.inputs().size());
    const absl::Duration start = clock_.Now();
    absl::StatusOr<BatchResult> result = inner_.RunBatch(work, seed);
    if (!result.ok()) return result;
    const bool off_pace = speed_.off_pace_every != 0 &&
                          durations_.size() % speed_.off_pace_every == 0;
    result->off_pace = off_pace;
    const absl::Duration took =
        off_pace && speed_.off_pace_time > absl::ZeroDuration()
            ? speed_.off_pace_time
            : speed_.overhead + speed_.per_exec *
                                    static_cast<int64_t>(result->executions) *
                                    (off_pace ? speed_.off_pace_slowdown : 1);
    if (speed_.device_clock) {
      auto tick = [base = speed_.tick_base](absl::Duration t) {
        return base + static_cast<uint64_t>(absl::ToInt64Nanoseconds(t) / 10);
      };
      result->costs.clear();
      for (const WorkItem& item : work) {
        result->costs.push_back(
            {item.parent, item.count, 0, tick(start + absl::Milliseconds(1))});
      }
      for (Find& find : result->finds) {
        find.device_clock = tick(start + took - absl::Milliseconds(2));
        if (speed_.first_mutants_with_finds) {
          find.first_mutant_clock =
              tick(start + took - absl::Microseconds(1500));
        }
      }
      result->clock_tick_ns = 10;
    }
    clock_.Advance(took);
    durations_.push_back(took);
    result->device_time = took * speed_.device_share;
    return result;
  }
  absl::StatusOr<BatchResult> Execute(ByteSpan input) override {
    return inner_.Execute(input);
  }
  CoverageSummary Coverage() const override { return inner_.Coverage(); }
  size_t max_len() const override { return inner_.max_len(); }
  // A steering side with launch limits and nothing else.
  Steerable* steerable() override { return this; }
  void SetDispatchObserver(DispatchObserver* observer) override {}
  std::optional<LaunchLimits> launch_limits() const override { return limits_; }
  absl::Status SetWorkerGroups(uint32_t groups) override {
    return absl::OkStatus();
  }
  absl::Status SetTenantWords(const TenantWords& words) override {
    return absl::OkStatus();
  }
  absl::StatusOr<BatchResult> ReplaySlot(const SuspectSlot& slot) override {
    return absl::UnimplementedError("no ring slots");
  }

  void set_limits(LaunchLimits limits) { limits_ = limits; }
  void set_per_exec(absl::Duration d) { speed_.per_exec = d; }
  const std::vector<std::vector<WorkItem>>& batches() const {
    return inner_.batches();
  }
  // Corpus inputs the executor had when each batch started.
  const std::vector<size_t>& inputs_at_batch() const {
    return inputs_at_batch_;
  }
  const std::vector<absl::Duration>& durations() const { return durations_; }

 private:
  FakeExecutor inner_;
  FakeClock& clock_;
  DeviceSpeed speed_;
  std::optional<LaunchLimits> limits_;
  std::vector<size_t> inputs_at_batch_;
  std::vector<absl::Duration> durations_;
};

// Whether `batch` carries the first mutants of new entries (their items are
// HIGH priority; no steering promotes parents in these runs): then it is
// urgent (RoundSizer::ExecsPerSlot): sized for kUrgentShare of the target,
// and a probe (twice the size) due then waits for a batch that is not
// urgent, or for kMaxProbeDeferrals urgent ones.
bool Urgent(const std::vector<WorkItem>& batch) {
  return std::any_of(batch.begin(), batch.end(), [](const WorkItem& item) {
    return item.priority == RF_PRIORITY_HIGH;
  });
}

FakeExecutorOptions NoBug() {
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";  // not found in these runs
  return options;
}

TEST(EngineTest, FindsTheMagicWritesTheArtifactAndExitsWithErrorCode) {
  TempDir dir;
  Config config = TestConfig();
  config.artifact_prefix = dir.path() + "/";
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 77);
  EXPECT_LT(run.executions, 2000000u);
  std::string pid = std::to_string(getpid());
  EXPECT_THAT(run.log, HasSubstr("==" + pid +
                                 "== ERROR: libFuzzer: deadly signal\n"
                                 "ringfuzz: fz_crash(code=7) in fz_target\n"));
  EXPECT_THAT(run.log, HasSubstr("\nSUMMARY: libFuzzer: deadly signal\n"));
  EXPECT_THAT(run.log, ContainsRegex("MS: 1 (havoc|splice)-; base unit: "
                                     "[0-9a-f]{40}\n"));
  // Where it came from, work kind by name.
  EXPECT_THAT(run.log,
              ContainsRegex("\nINFO: found in epoch [0-9]+, ring slot [0-9]+, "
                            "by a (havoc|splice) mutant of corpus entry "
                            "[0-9a-f]{40} \\(executor index [0-9]+\\), "
                            "MS: 1 (havoc|splice)-\n"));
  // The artifact is named by the SHA-1 of its content, which is the bug.
  std::vector<std::string> files = ListDir(dir.path());
  ASSERT_EQ(files.size(), 1u);
  ASSERT_THAT(files[0], StartsWith("crash-"));
  Bytes crash = *ReadFile(dir.Sub(files[0]));
  EXPECT_EQ(files[0], "crash-" + Sha1Hex(crash));
  EXPECT_THAT(std::string(crash.begin(), crash.end()), StartsWith("FUZ!"));
  EXPECT_THAT(run.log, HasSubstr("artifact_prefix='" + dir.path() +
                                 "/'; Test unit written to " +
                                 dir.Sub(files[0]) + "\n"));
  EXPECT_THAT(run.log, HasSubstr("Base64: " + Base64(crash) + "\n"));
  // The base unit is the corpus entry the crash was mutated from.
  std::smatch base;
  ASSERT_TRUE(std::regex_search(run.log, base,
                                std::regex("base unit: ([0-9a-f]{40})")));
  EXPECT_THAT(run.log, Not(HasSubstr("DONE")));
}

TEST(EngineTest, SameSeedSameRun) {
  Config config = TestConfig();
  TempDir a, b;
  config.artifact_prefix = a.path() + "/";
  FakeExecutor first;
  EngineRun one = RunEngine(config, first, {});
  config.artifact_prefix = b.path() + "/";
  FakeExecutor second;
  EngineRun two = RunEngine(config, second, {});
  EXPECT_EQ(one.executions, two.executions);
  EXPECT_EQ(ListDir(a.path()), ListDir(b.path()));
  EXPECT_EQ(one.corpus.size(), two.corpus.size());
}

TEST(EngineTest, GoldenLogOfAShortRun) {
  Config config = TestConfig();
  config.runs = 5000;
  config.print_final_stats = true;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";  // not found in 5000 runs
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 0);
  std::vector<std::string> lines = Lines(MaskRss(run.log));
  ASSERT_GE(lines.size(), 10u);
  EXPECT_EQ(lines[0], "INFO: Seed: 1");
  EXPECT_EQ(lines[1],
            "INFO: A corpus is not provided, starting from an empty corpus");
  // The seed "\n": prefix 0 and length bucket 1 are new.
  EXPECT_EQ(lines[2], "#1\tINITED cov: 1 ft: 2 corp: 1/1b exec/s: 0 rss: RMb");
  size_t i = 3;
  int new_lines = 0;
  for (; i < lines.size() && lines[i].find("\tNEW ") != std::string::npos;
       ++i, ++new_lines) {
    EXPECT_THAT(lines[i],
                ContainsRegex("^#[0-9]+\tNEW    cov: [0-9]+ ft: [0-9]+ corp: "
                              "[0-9]+/[0-9]+b exec/s: 0 rss: RMb L: [0-9]+/"
                              "[0-9]+ MS: 1 (havoc|splice)-$"));
  }
  EXPECT_GT(new_lines, 0);
  EXPECT_EQ(run.corpus.size(), 1u + new_lines);
  ASSERT_EQ(lines.size(), i + 13);
  EXPECT_THAT(lines[i], StartsWith("#5000\tDONE   cov: "));
  EXPECT_EQ(lines[i + 1], "Done 5000 runs in 0 second(s)");
  // The frozen clock: every latency and the loop's wall time are zero.
  EXPECT_THAT(lines[i + 2],
              ContainsRegex("^INFO: feedback latency p50 0.0 ms, p99 0.0 ms "
                            "over [0-9]+ new entries \\(start of the batch "
                            "that found an entry to the end of the first "
                            "batch that ran its mutants: an upper bound\\); "
                            "device busy 0% of the fuzzing loop$"));
  // The fake executor reports no device time: only the rounds' mean.
  EXPECT_THAT(lines[i + 3], ContainsRegex("^INFO: [0-9]+ rounds of 0 on "
                                          "average$"));
  ++i;
  EXPECT_EQ(lines[i + 3], "stat::number_of_executed_units: 5000");
  EXPECT_EQ(lines[i + 4], "stat::average_exec_per_sec:     0");
  EXPECT_EQ(lines[i + 5],
            "stat::new_units_added:          " + std::to_string(new_lines));
  EXPECT_EQ(lines[i + 6], "stat::slowest_unit_time_sec:    0");
  EXPECT_EQ(lines[i + 7], "stat::peak_rss_mb:              R");
  EXPECT_THAT(lines[i + 8],
              ContainsRegex("^stat::feedback_latency_entries: [0-9]+$"));
  EXPECT_EQ(lines[i + 9], "stat::feedback_latency_p50_ms:  0");
  EXPECT_EQ(lines[i + 10], "stat::feedback_latency_p99_ms:  0");
  EXPECT_EQ(lines[i + 11], "stat::device_busy_percent:      0");
}

// An executor that names the mutators of its finds and counts executions
// per mutator: NEW lines and the bug report print libFuzzer's mutator
// names, and -print_final_stats=1 adds one line per mutator whose
// executions add up to the batches' and whose finds credit every mutator
// of each new input's sequence.
TEST(EngineTest, NamedMutatorsInNewLinesBugReportsAndStats) {
  TempDir dir;
  Config config = TestConfig();
  config.print_final_stats = true;
  config.artifact_prefix = dir.path() + "/";
  FakeExecutorOptions options;
  options.name_mutators = true;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 77);
  const std::string names =
      "((ChangeByte|InsertByte|EraseBytes|CrossOver|AddFromManualDict)-)+";
  int new_lines = 0;
  uint64_t credited = 0;
  for (const std::string& line : Lines(run.log)) {
    if (line.find("\tNEW ") == std::string::npos) continue;
    ++new_lines;
    EXPECT_THAT(line, ContainsRegex(" MS: [0-9]+ " + names + "$"));
    std::smatch count;
    ASSERT_TRUE(std::regex_search(line, count, std::regex("MS: ([0-9]+) ")));
    credited += std::stoul(count[1]);
  }
  EXPECT_GT(new_lines, 0);
  EXPECT_THAT(run.log, ContainsRegex("\nMS: [0-9]+ " + names +
                                     "; base unit: [0-9a-f]{40}\n"));
  uint64_t executions = 0, finds = 0;
  int stat_lines = 0;
  std::regex stat("stat::mutator_([a-z_]+): +([0-9]+) execs, ([0-9]+) finds");
  for (const std::string& line : Lines(run.log)) {
    std::smatch m;
    if (!std::regex_match(line, m, stat)) continue;
    ++stat_lines;
    executions += std::stoull(m[2]);
    finds += std::stoull(m[3]);
  }
  EXPECT_EQ(stat_lines, static_cast<int>(RF_MUT_NAMED));
  // Every execution but the seed's ran in a batch, with mutations.
  EXPECT_EQ(executions, run.executions - executor.executed_unmutated().size());
  EXPECT_EQ(finds, credited);
}

// -runs counts every execution, seeds included, and is exact even when the
// executor runs fewer mutants than asked.
TEST(EngineTest, RunsIsExact) {
  for (uint32_t bound : {UINT32_MAX, 3u}) {
    Config config = TestConfig();
    config.runs = 12345;
    config.batch_slots = 7;
    config.slot_execs = 100;
    FakeExecutorOptions options;
    options.magic = "0123456789abcdef";
    options.max_execs_per_item = bound;
    FakeExecutor executor(options);
    EngineRun run = RunEngine(config, executor, {});
    EXPECT_EQ(run.code, 0) << run.log;
    EXPECT_EQ(run.executions, 12345u);
    EXPECT_EQ(executor.executions(), 12345u);
    if (bound == UINT32_MAX) {
      EXPECT_EQ(1 + BatchedExecutionsRequested(executor), 12345u);
    }
    for (const auto& batch : executor.batches()) {
      EXPECT_LE(batch.size(), 7u);
      for (const WorkItem& item : batch) {
        EXPECT_LE(item.count, 100u);
        EXPECT_NE(item.opcode, RF_OP_REPLAY);
      }
    }
    EXPECT_THAT(run.log, HasSubstr("Done 12345 runs in 0 second(s)\n"));
  }
}

TEST(EngineTest, OverlappedBatchesKeepTwoInFlightAndFindTheMagic) {
  Config config = TestConfig();
  FakeExecutorOptions options;
  options.overlap = 2;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 77) << run.log;  // libFuzzer.s -error_exitcode
  EXPECT_EQ(executor.most_in_flight(), 2u);
  EXPECT_THAT(run.log, HasSubstr("fz_crash"));
}

TEST(EngineTest, RunsIsExactWithOverlappedBatches) {
  Config config = TestConfig();
  config.runs = 12345;
  config.batch_slots = 7;
  config.slot_execs = 100;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.overlap = 2;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_EQ(run.executions, 12345u);
  EXPECT_EQ(executor.executions(), 12345u);
  EXPECT_EQ(executor.most_in_flight(), 2u);
  EXPECT_EQ(1 + BatchedExecutionsRequested(executor), 12345u);
}

// New entries' first mutants need not wait for the rounds queued before
// theirs: right after submitting such a batch the engine asks the executor
// to cut the earlier ones (Executor::CutEarlierRounds), and only then.
TEST(EngineTest, ABatchWithFirstMutantsCutsTheBatchesQueuedBeforeIt) {
  Config config = TestConfig();
  config.batch_slots = 8;
  config.slot_execs = 50;
  config.runs = 200000;
  FakeExecutorOptions options;
  options.magic = "0123456789ab";
  options.overlap = 2;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  ASSERT_TRUE(run.code == 0 || run.code == 77) << run.log;
  // (The campaign's first batch gives the seeds their first mutants with
  // nothing queued before it.)
  size_t with_earlier = 0;
  for (const FakeExecutor::Cut& cut : executor.cuts()) {
    if (cut.in_flight < 2) continue;
    ++with_earlier;
    EXPECT_TRUE(cut.last_has_high);
  }
  EXPECT_GT(with_earlier, 0u) << "a campaign with finds";
  // Not after every batch: most give no new entry its first mutants.
  EXPECT_LT(executor.cuts().size(), executor.in_flight_at_submit().size());
}

// Runs an overlapped campaign (two batches in flight at most) whose
// rounds each take `device_time` on the device against a 3 ms target.
FakeExecutor RunOverlapped(absl::Duration device_time) {
  Config config = TestConfig();
  config.batch_slots = 64;
  config.slot_execs = 4;
  config.runs = 20000;
  config.round_ms = 3;
  config.verbosity = 0;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.overlap = 2;
  options.device_time = device_time;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_EQ(executor.batches().size(), executor.in_flight_at_submit().size());
  return executor;
}

// Rounds far over their target (30 ms against 3): no batch is queued
// behind the first one nor behind one that gives new entries their first
// mutants, so their finds' mutants come in the very next batch.
TEST(EngineTest, LongRoundsWithFirstMutantsAreNotQueuedBehind) {
  const FakeExecutor executor = RunOverlapped(absl::Milliseconds(30));
  const auto& batches = executor.batches();
  const auto& in_flight = executor.in_flight_at_submit();
  ASSERT_GT(batches.size(), 4u);
  EXPECT_EQ(in_flight[1], 0u);  // the first batch was alone
  size_t held = 0, queued = 0;
  for (size_t b = 1; b + 1 < batches.size(); ++b) {
    if (Urgent(batches[b])) {
      EXPECT_EQ(in_flight[b + 1], 0u) << "batch " << b + 1;
      ++held;
    } else {
      queued += in_flight[b + 1] == 1;
    }
  }
  EXPECT_GT(held, 0u);
  // Batches without new entries still overlap.
  EXPECT_GT(queued, 0u);
  EXPECT_EQ(executor.most_in_flight(), 2u);
}

// Rounds within their target (1 ms against 3) are queued behind whatever
// the round in flight holds: the device never waits for the host.
TEST(EngineTest, ShortRoundsAreQueuedBehindNewEntriesToo) {
  const FakeExecutor executor = RunOverlapped(absl::Milliseconds(1));
  const auto& batches = executor.batches();
  const auto& in_flight = executor.in_flight_at_submit();
  size_t queued_behind_fresh = 0;
  for (size_t b = 1; b + 1 < batches.size(); ++b) {
    if (Urgent(batches[b])) queued_behind_fresh += in_flight[b + 1];
  }
  EXPECT_GT(queued_behind_fresh, 0u);
}

// Runs an overlapped campaign from the seed "FUZ" until it finds the bug
// ("FUZ!"); `bugs_only`: its batches add no inputs (FakeExecutorOptions).
FakeExecutor RunToTheBug(bool bugs_only) {
  Config config = TestConfig();
  config.batch_slots = 8;
  config.slot_execs = 16;
  config.verbosity = 0;
  TempDir dir;
  EXPECT_TRUE(WriteFileAtomically(dir.Sub("seed"), B("FUZ")).ok());
  FakeExecutorOptions options;
  options.overlap = 2;
  options.bugs_only = bugs_only;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {dir.path()});
  EXPECT_EQ(run.code, 77) << run.log;  // the bug ends the run
  EXPECT_THAT(run.log, HasSubstr("fz_crash"));
  return executor;
}

// A round whose collection cannot add inputs (Executor::
// OldestBatchAddsNoInputs: an overlapped signature round) is not waited
// for to plan the next one: that one is submitted right after the
// collection, before the round's finds are handled. So the round that
// found the bug, which ends the run, still had a round submitted after it
// was collected.
TEST(EngineTest, NextRoundIsQueuedBeforeTheFindsOfARoundThatAddsNoInputs) {
  const FakeExecutor executor = RunToTheBug(/*bugs_only=*/true);
  ASSERT_FALSE(executor.collected_at_submit().empty());
  EXPECT_EQ(executor.collected_at_submit().back(), executor.batches().size());
  EXPECT_EQ(executor.most_in_flight(), 2u);
}

// A round that may add inputs is handled before the next one is planned:
// no round was submitted after the one that found the bug was collected.
TEST(EngineTest, NextRoundIsPlannedAfterTheFindsOfARoundThatMayAddInputs) {
  const FakeExecutor executor = RunToTheBug(/*bugs_only=*/false);
  ASSERT_FALSE(executor.collected_at_submit().empty());
  EXPECT_LT(executor.collected_at_submit().back(), executor.batches().size());
}

// A batch is planned before the results of the one in flight are read:
// an entry found in batch N gets its fresh items in batch N + 2, and in
// no batch planned before it was found.
TEST(EngineTest, OverlappedBatchesGiveNewEntriesTheNextBatchPlanned) {
  Config config = TestConfig();
  config.batch_slots = 256;
  config.slot_execs = 4;
  config.runs = 20000;
  config.verbosity = 0;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.overlap = 2;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  ASSERT_EQ(run.code, 0) << run.log;
  const auto& batches = executor.batches();
  const auto& inputs = executor.inputs_at_submit();
  ASSERT_EQ(batches.size(), inputs.size());
  ASSERT_GT(batches.size(), 4u);
  size_t fresh_seen = 0;
  for (size_t b = 1; b < batches.size(); ++b) {
    // Entries added since the last batch was submitted are fresh here.
    for (size_t i = inputs[b - 1]; i < inputs[b]; ++i) {
      size_t high = 0;
      for (const WorkItem& item : batches[b]) {
        high += item.parent == i && item.priority == RF_PRIORITY_HIGH;
      }
      EXPECT_EQ(high, Scheduler::kFreshItemsPerEntry)
          << "entry " << i << " in batch " << b;
      ++fresh_seen;
    }
    for (const WorkItem& item : batches[b]) {
      EXPECT_LT(item.parent, inputs[b]) << "batch " << b;
    }
  }
  EXPECT_GT(fresh_seen, 3u);
}

TEST(EngineTest, SeedsAlwaysRunEvenBeyondRuns) {
  TempDir dir;
  for (const char* name : {"a", "b", "c"}) {
    ASSERT_TRUE(WriteFileAtomically(dir.Sub(name), B(name)).ok());
  }
  Config config = TestConfig();
  config.runs = 0;
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {dir.path()});
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.executions, 3u);
  EXPECT_THAT(executor.batches(), IsEmpty());
  EXPECT_THAT(run.log, HasSubstr("INFO: Loaded 3 files from " + dir.path()));
  EXPECT_THAT(run.log, HasSubstr("Done 3 runs in 0 second(s)"));
}

// New inputs go into the FIRST corpus directory, named by their SHA-1;
// other directories are only read. Seeds are not copied.
TEST(EngineTest, NewInputsAreSavedBySha1InTheFirstDirectory) {
  TempDir root;
  std::string out = root.Sub("out"), seeds = root.Sub("seeds");
  ASSERT_EQ(mkdir(seeds.c_str(), 0755), 0);
  ASSERT_TRUE(WriteFileAtomically(seeds + "/s1", B("F")).ok());
  ASSERT_TRUE(WriteFileAtomically(seeds + "/s2", B("xyz")).ok());
  Config config = TestConfig();
  config.runs = 20000;
  FakeExecutorOptions options;
  options.magic = "FUZZING-IS-FUN-!";
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {out, seeds});
  ASSERT_EQ(run.code, 0) << run.log;
  EXPECT_THAT(run.log, HasSubstr("INFO: created corpus directory " + out));
  EXPECT_THAT(run.log, HasSubstr("INFO: Loaded 0 files from " + out));
  EXPECT_THAT(run.log, HasSubstr("INFO: Loaded 2 files from " + seeds));
  EXPECT_THAT(ListDir(seeds), ElementsAre("s1", "s2"));

  std::vector<std::string> saved = ListDir(out);
  size_t new_lines = 0;
  for (const std::string& line : Lines(run.log)) {
    new_lines += line.find("\tNEW ") != std::string::npos;
  }
  EXPECT_GT(saved.size(), 0u);
  EXPECT_EQ(saved.size(), new_lines);
  EXPECT_EQ(run.corpus.size(), 2 + new_lines);  // both seeds added coverage
  for (const std::string& name : saved) {
    EXPECT_EQ(name, Sha1Hex(*ReadFile(JoinPath(out, name))));
  }
}

TEST(EngineTest, RunningFilesReportsAndExits) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("ok1"), B("hello")).ok());
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("ok2"), B("")).ok());
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("crash"), B("FUZ!x")).ok());
  Config config = TestConfig();
  config.runs = -1;
  config.artifact_prefix = dir.Sub("artifacts/");  // must stay unused

  FakeExecutor ok;
  EngineRun good = RunEngine(config, ok, {dir.Sub("ok1"), dir.Sub("ok2")});
  EXPECT_EQ(good.code, 0);
  EXPECT_EQ(good.log,
            "INFO: Seed: 1\n"
            "ringfuzz: Running 2 inputs 1 time(s) each.\n"
            "Running: " +
                dir.Sub("ok1") +
                "\n"
                "Executed " +
                dir.Sub("ok1") +
                " in 0 ms\n"
                "Running: " +
                dir.Sub("ok2") +
                "\n"
                "Executed " +
                dir.Sub("ok2") +
                " in 0 ms\n"
                "***\n"
                "*** NOTE: fuzzing was not performed, you have only\n"
                "***       executed the target code on a fixed set of inputs.\n"
                "***\n");
  EXPECT_THAT(ok.executed_unmutated(), ElementsAre(B("hello"), B("")));
  EXPECT_THAT(ok.batches(), IsEmpty());

  FakeExecutor bad;
  EngineRun crash = RunEngine(config, bad, {dir.Sub("ok1"), dir.Sub("crash")});
  EXPECT_EQ(crash.code, 77);
  EXPECT_THAT(crash.log,
              HasSubstr("Running: " + dir.Sub("crash") +
                        "\n==" + std::to_string(getpid()) +
                        "== ERROR: libFuzzer: deadly signal\n"
                        "ringfuzz: fz_crash(code=7) in fz_target\n"));
  EXPECT_THAT(crash.log, Not(HasSubstr("Executed " + dir.Sub("crash"))));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("crash", "ok1", "ok2"));

  config.runs = 3;  // each file runs max(1, runs) times
  FakeExecutorOptions timeout_options;
  timeout_options.bug = Find::Kind::kTimeout;
  FakeExecutor slow(timeout_options);
  EngineRun timeout =
      RunEngine(config, slow, {dir.Sub("ok1"), dir.Sub("crash")});
  EXPECT_EQ(timeout.code, 70);
  EXPECT_EQ(slow.executed_unmutated().size(), 4u);
  EXPECT_THAT(timeout.log,
              HasSubstr("== ERROR: libFuzzer: timeout after 1000 "
                        "loop steps\n"
                        "ringfuzz: timeout after 1000 loop steps"));
}

TEST(EngineTest, OverreadAndTimeoutArtifacts) {
  TempDir dir;
  Config config = TestConfig();
  config.artifact_prefix = dir.path() + "/";

  FakeExecutorOptions overread;
  overread.bug = Find::Kind::kOverread;
  FakeExecutor a(overread);
  EngineRun o = RunEngine(config, a, {});
  EXPECT_EQ(o.code, 77);
  EXPECT_THAT(o.log, ContainsRegex("runtime error: index [0-9]+ out of bounds "
                                   "for type 'const uint8_t\\[[0-9]+\\]'\n"
                                   "ringfuzz: input overread: "
                                   "fz_byte\\([0-9]+\\) with len [0-9]+"));
  EXPECT_THAT(o.log, HasSubstr("SUMMARY: UndefinedBehaviorSanitizer: "
                               "undefined-behavior "));
  ASSERT_EQ(ListDir(dir.path()).size(), 1u);
  EXPECT_THAT(ListDir(dir.path())[0], StartsWith("crash-"));

  TempDir dir2;
  config.artifact_prefix = dir2.path() + "/";
  config.timeout_exitcode = 42;
  FakeExecutorOptions timeout;
  timeout.bug = Find::Kind::kTimeout;
  FakeExecutor b(timeout);
  EngineRun t = RunEngine(config, b, {});
  EXPECT_EQ(t.code, 42);
  ASSERT_EQ(ListDir(dir2.path()).size(), 1u);
  EXPECT_THAT(ListDir(dir2.path())[0], StartsWith("timeout-"));
}

TEST(EngineTest, ExactArtifactPathAndCustomErrorExitCode) {
  TempDir dir;
  Config config = TestConfig();
  config.exact_artifact_path = dir.Sub("the_crash");
  config.artifact_prefix = dir.Sub("ignored-");
  config.error_exitcode = 3;
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 3);
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("the_crash"));
  EXPECT_THAT(run.log,
              HasSubstr("Test unit written to " + dir.Sub("the_crash") + "\n"));
}

// An artifact that cannot be written must not lose the finding.
TEST(EngineTest, ArtifactWriteFailureKeepsTheInputInTheLog) {
  TempDir dir;
  // A seed that crashes and is too long to be printed inline normally.
  std::string big = "FUZ!" + std::string(400, 'k');
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("big"), B(big)).ok());
  Config config = TestConfig();
  config.artifact_prefix = dir.Sub("no/such/dir/");
  FakeExecutorOptions options;
  options.max_len = 1024;
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {dir.path()});
  EXPECT_EQ(run.code, 77);  // the bug was found; that is what the code says
  EXPECT_THAT(run.log,
              HasSubstr("MS: 0 ; base unit: " + std::string(40, '0') + "\n"));
  EXPECT_THAT(run.log, HasSubstr("ERROR: the artifact could not be written: "
                                 "cannot write '" +
                                 dir.Sub("no/such/dir/")));
  EXPECT_THAT(run.log, HasSubstr("Hex: " + PlainHex(B(big)) + "\n"));
  EXPECT_THAT(ListDir(dir.path()), ElementsAre("big"));
}

// Sets TMPDIR for the life of the object.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    const char* old = getenv("TMPDIR");
    if (old != nullptr) old_ = old;
    setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

// The number of NEW lines in `log`.
size_t NewLines(const std::string& log) {
  size_t n = 0;
  for (size_t at = log.find("\tNEW "); at != std::string::npos;
       at = log.find("\tNEW ", at + 1)) {
    ++n;
  }
  return n;
}

TEST(EngineTest, CorpusWriteFailureKeepsEveryInputInAFallbackDirectory) {
  TempDir root;
  std::string out = root.Sub("out");
  ScopedTmpdir tmpdir(root.path());
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  // After the seeds, the output directory disappears.
  options.before_batch = [out] { std::filesystem::remove_all(out); };
  FakeExecutor executor(options);
  Config config = TestConfig();
  config.runs = 20000;
  EngineRun run = RunEngine(config, executor, {out});
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.log, HasSubstr("WARNING: a new input could not be saved to "
                                 "the corpus directory: cannot write '" +
                                 out + "/"));
  const std::string fallback =
      root.Sub("ringfuzz-unsaved-" + std::to_string(getpid()));
  EXPECT_THAT(run.log, HasSubstr("saved to " + fallback + " instead"));
  // Every input reported NEW is in the fallback directory, by its SHA-1.
  const size_t reported = NewLines(run.log);
  ASSERT_GT(reported, 0u);
  std::vector<std::string> saved = ListDir(fallback);
  EXPECT_EQ(saved.size(), reported);
  for (const std::string& name : saved) {
    absl::StatusOr<Bytes> data = ReadFile(absl::StrCat(fallback, "/", name));
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(Sha1Hex(*data), name);
  }
  EXPECT_THAT(run.log, HasSubstr("WARNING: " + std::to_string(reported) +
                                 " new inputs could not be saved to " + out +
                                 ": " + std::to_string(reported) +
                                 " were saved to " + fallback));
}

TEST(EngineTest, InputsNoDirectoryTakesArePrintedInTheLog) {
  TempDir root;
  std::string out = root.Sub("out");
  ScopedTmpdir tmpdir(root.Sub("no/such/dir"));
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.before_batch = [out] { std::filesystem::remove_all(out); };
  FakeExecutor executor(options);
  Config config = TestConfig();
  config.runs = 20000;
  EngineRun run = RunEngine(config, executor, {out});
  EXPECT_EQ(run.code, 0);
  const size_t reported = NewLines(run.log);
  ASSERT_GT(reported, 0u);
  // One UNSAVED-INPUT line per NEW line, whose hex is the input named.
  std::regex line("UNSAVED-INPUT ([0-9a-f]{40}) ([0-9a-f]*)\n");
  size_t printed = 0;
  for (std::sregex_iterator it(run.log.begin(), run.log.end(), line), end;
       it != end; ++it) {
    const std::string hex = (*it)[2];
    Bytes data;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      data.push_back(
          static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    EXPECT_EQ(Sha1Hex(data), (*it)[1]);
    ++printed;
  }
  EXPECT_EQ(printed, reported);
}

// SIGINT/SIGTERM: the loop stops, what was found is saved, and the run
// ends as libFuzzer's does (its line, the final stats, exit 72).
TEST(EngineTest, InterruptStopsLikeLibFuzzer) {
  for (bool overlap : {false, true}) {
    TempDir root;
    std::string out = root.Sub("out");
    FakeExecutorOptions options;
    options.magic = "0123456789abcdef";
    options.overlap = overlap ? 2 : 1;
    int batches = 0;
    options.before_batch = [&batches] {
      if (++batches == 5) RequestInterrupt(SIGINT);
    };
    FakeExecutor executor(options);
    Config config = TestConfig();
    config.print_final_stats = true;
    EngineRun run = RunEngine(config, executor, {out});
    ResetInterrupt();
    EXPECT_EQ(run.code, 72) << run.log;
    EXPECT_THAT(run.log, HasSubstr("==" + std::to_string(getpid()) +
                                   "== libFuzzer: run interrupted; exiting\n"));
    EXPECT_THAT(run.log, HasSubstr("stat::number_of_executed_units:"));
    EXPECT_THAT(run.log, Not(HasSubstr("\nDone ")));
    // Nothing after the batches in flight ran.
    EXPECT_LE(batches, overlap ? 6 : 5);
    EXPECT_EQ(ListDir(out).size(), NewLines(run.log));
  }
}

// The engine's executor (a FakeExecutor) holds the engine's whole corpus,
// in order, first.
void ExpectExecutorHoldsTheCorpus(Engine& engine) {
  const auto& now = static_cast<FakeExecutor&>(engine.executor()).inputs();
  ASSERT_GE(now.size(), engine.corpus().size());
  for (size_t i = 0; i < engine.corpus().size(); ++i) {
    EXPECT_EQ(now[i], engine.corpus().entry(i).data) << i;
  }
}

// A lost device: the engine makes a new executor, gives it the corpus and
// the dictionary, runs the lost batches again and goes on to the bug.
TEST(EngineTest, LostDeviceIsRecreatedAndTheCampaignGoesOn) {
  for (uint32_t overlap : {1u, 2u}) {
    TempDir root;
    std::string out = root.Sub("out");
    FakeExecutorOptions options;
    options.overlap = overlap;
    options.lose_device_at = {3, 6};
    FakeExecutor first(options);
    std::vector<std::unique_ptr<FakeExecutor>> made;
    Config config = TestConfig();
    FakeClock clock;
    std::ostringstream log;
    Engine engine(config, first, log, clock);
    engine.SetExecutorFactory(
        [&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
          FakeExecutorOptions again = options;
          again.lose_device_at = {2};  // once more, on the new device
          if (made.size() >= 1) again.lose_device_at.clear();
          auto executor = std::make_unique<FakeExecutor>(again);
          made.push_back(nullptr);
          return std::unique_ptr<Executor>(std::move(executor));
        });
    const int code = engine.Run({out});
    EXPECT_EQ(code, 77) << log.str();
    EXPECT_THAT(log.str(), HasSubstr("fz_crash"));
    // Two losses, each after a batch that completed: neither is "in a row".
    const std::string warning =
        "WARNING: the device was lost (VK_ERROR_DEVICE_LOST (fake)); "
        "recreating it (1 of at most 3 losses in a row)";
    const size_t first_warning = log.str().find(warning);
    ASSERT_NE(first_warning, std::string::npos) << log.str();
    EXPECT_NE(log.str().find(warning, first_warning + 1), std::string::npos);
    EXPECT_EQ(made.size(), 2u);
    // The new executor holds the whole corpus, in order.
    ExpectExecutorHoldsTheCorpus(engine);
  }
}

// Lost devices while the engine plans rounds before collecting the ones
// that add no inputs (FakeExecutorOptions::bugs_only): the recovery keeps
// at most overlap() batches in flight, and -runs stays exact.
TEST(EngineTest, LostDeviceUnderEarlyPlannedRoundsKeepsRunsExact) {
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.overlap = 2;
  options.bugs_only = true;
  options.lose_device_at = {3, 6};
  FakeExecutor first(options);
  int made = 0;
  Config config = TestConfig();
  config.runs = 12345;
  config.batch_slots = 7;
  config.slot_execs = 100;
  FakeClock clock;
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  engine.SetExecutorFactory([&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
    FakeExecutorOptions again = options;
    again.lose_device_at = {2};  // once more, on the new device
    if (made++ >= 1) again.lose_device_at.clear();
    return std::unique_ptr<Executor>(std::make_unique<FakeExecutor>(again));
  });
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(made, 2);
  EXPECT_EQ(engine.total_executions(), 12345u);
  const auto& last = static_cast<FakeExecutor&>(engine.executor());
  EXPECT_EQ(last.most_in_flight(), 2u);
}

// TestConfig for campaigns that stall: inputs of at most `max_len` bytes
// (0: TestConfig's), a 5 s quiet time, `runs` executions.
Config StallConfig(int64_t max_len, int64_t runs) {
  Config config = TestConfig();
  config.max_len = max_len;
  config.auto_value_profile = 5;
  config.runs = runs;
  return config;
}

// A length factory that makes FakeExecutors like `options` for the length
// asked, and records each call (length, value profile) in `made`.
Engine::LengthFactory FakeLengthFactory(
    const FakeExecutorOptions& options,
    std::vector<std::pair<size_t, bool>>& made) {
  return [options, &made](
             size_t max_len,
             bool value_profile) -> absl::StatusOr<std::unique_ptr<Executor>> {
    made.emplace_back(max_len, value_profile);
    FakeExecutorOptions longer = options;
    longer.max_len = max_len;
    return std::unique_ptr<Executor>(std::make_unique<FakeExecutor>(longer));
  };
}

// A value-profile factory that calls `made` and then makes a FakeExecutor
// like `options` whose executions report coverage (the features value
// profile adds).
Engine::ExecutorFactory FakeValueProfileFactory(
    const FakeExecutorOptions& options, std::function<void()> made) {
  return [options, made = std::move(
                       made)]() -> absl::StatusOr<std::unique_ptr<Executor>> {
    made();
    FakeExecutorOptions with = options;
    with.coverage = true;
    return std::unique_ptr<Executor>(std::make_unique<FakeExecutor>(with));
  };
}

// A campaign that replaced `first` after the stall `info` names went on to
// the bug, on a new executor that holds the whole corpus, in order.
void ExpectANewExecutorFoundTheBug(Engine& engine, const Executor& first,
                                   const std::string& log,
                                   const std::string& info) {
  EXPECT_THAT(log, HasSubstr(info));
  EXPECT_THAT(log, HasSubstr("fz_crash"));
  EXPECT_NE(&engine.executor(), &first);
  ExpectExecutorHoldsTheCorpus(engine);
}

// -auto_value_profile: an executor whose executions bring no new coverage
// (FakeExecutorOptions::coverage = false, as a target whose comparisons no
// edge leads to) stalls; after the quiet time the engine makes the
// value-profile executor, gives it the corpus in order, and the campaign
// goes on to the bug that executor's features lead to.
TEST(EngineTest, ValueProfileIsTurnedOnAfterTheQuietTime) {
  for (uint32_t overlap : {1u, 2u}) {
    TempDir root;
    FakeExecutorOptions options;
    options.overlap = overlap;
    options.coverage = false;
    FakeExecutor first(options);
    int made = 0;
    const Config config = StallConfig(0, TestConfig().runs);
    FakeClock clock(absl::Milliseconds(100));
    std::ostringstream log;
    Engine engine(config, first, log, clock);
    engine.SetValueProfileFactory(
        FakeValueProfileFactory(options, [&] { ++made; }));
    EXPECT_EQ(engine.Run({root.Sub("out")}), 77) << log.str();
    EXPECT_EQ(made, 1);
    EXPECT_TRUE(engine.value_profile_switched());
    // The first executor never saw the bug's prefix.
    ExpectANewExecutorFoundTheBug(
        engine, first, log.str(),
        "INFO: no new input for 5 s: turning value profile on");
  }
}

// -repeat_trials=1 (the default): after 0.5 s without a new input the
// executor is told to try its corpus repeated, once, with an INFO line, long
// before the value-profile switch (5 s); 0 and 2 never tell it (2 is the
// executor's from the start), nor does -reproducible.
// -reduce_inputs: a reduction takes its parent's place in the corpus (a
// REDUCE line and its own file; the parent's file stays), the parent is
// drawn no more, and the corpus count stays. The fake reports each input
// without its last byte as its reduction; a campaign without coverage
// starts from "\n", whose reduction is the empty input.
TEST(EngineTest, AReductionTakesItsParentsPlace) {
  TempDir root;
  const std::string out = root.Sub("out");
  FakeExecutorOptions options;
  options.coverage = false;
  options.reduce = true;
  FakeExecutor executor(options);
  Config config = TestConfig();
  config.runs = 200000;
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, executor, log, clock);
  EXPECT_EQ(engine.Run({out}), 0) << log.str();
  const Corpus& corpus = engine.corpus();
  ASSERT_EQ(corpus.size(), 2u) << log.str();
  EXPECT_EQ(corpus.active_size(), 1u);
  EXPECT_EQ(corpus.entry(0).data, B("\n"));
  EXPECT_TRUE(corpus.entry(0).retired);
  EXPECT_TRUE(corpus.entry(1).data.empty());
  EXPECT_FALSE(corpus.entry(1).retired);
  EXPECT_EQ(corpus.total_bytes(), 0u);
  // The items of the last batch name the active entry only.
  const std::vector<WorkItem>& last = executor.batches().back();
  ASSERT_FALSE(last.empty());
  for (const WorkItem& item : last) {
    EXPECT_EQ(item.parent, corpus.entry(1).executor_index);
  }
  // libFuzzer's line (without coverage, and with an empty corpus, it
  // prints neither cov/ft nor the bytes).
  EXPECT_THAT(log.str(),
              ContainsRegex("#[0-9]+\tREDUCE corp: 1 exec/s: [0-9]+ rss: "
                            "[0-9]+Mb L: 0/1 MS: 1 EraseBytes-"));
  // The reduction has its file (the "\n" an empty campaign starts from
  // has none).
  EXPECT_TRUE(std::filesystem::exists(out + "/" + corpus.entry(1).sha1));
}

// With the clock stopped, waiting reductions join the corpus only after
// Engine::kReductionExecs executions: a fast device's batches get there,
// a slow one's do not.
TEST(EngineTest, ReductionsJoinAfterAsManyExecutionsAsTheirInterval) {
  for (const bool fast : {false, true}) {
    TempDir root;
    FakeExecutorOptions options;
    options.coverage = false;
    options.reduce = true;
    options.execs_per_mutant = fast ? 1u << 20 : 1u;
    FakeExecutor executor(options);
    Config config = TestConfig();
    config.slot_execs = fast ? int64_t{1} << 24 : 64;
    config.runs = fast ? int64_t{1} << 29 : 200000;
    FakeClock clock;  // never moves
    std::ostringstream log;
    Engine engine(config, executor, log, clock);
    EXPECT_EQ(engine.Run({root.Sub("out")}), 0) << log.str();
    EXPECT_EQ(engine.corpus().active_size(), 1u);
    EXPECT_EQ(engine.corpus().size(), fast ? 2u : 1u) << log.str();
    EXPECT_EQ(log.str().find("REDUCE") != std::string::npos, fast);
  }
}

// On a device that runs 2^28 executions in well under a second, the
// trials start after as many executions without a new input.
TEST(EngineTest, RepeatTrialsStartAfterQuietExecutionsOnAFastDevice) {
  TempDir root;
  FakeExecutorOptions options;
  options.coverage = false;
  options.execs_per_mutant = 1u << 20;
  FakeExecutor first(options);
  Config config = TestConfig();
  config.slot_execs = int64_t{1} << 24;  // 2^28 executions a batch
  config.runs = int64_t{1} << 31;
  FakeClock clock(absl::Microseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  EXPECT_EQ(engine.Run({root.Sub("out")}), 0) << log.str();
  ASSERT_EQ(first.repeat_starts().size(), 1u) << log.str();
  // Two batches, far less than a second of the clock: the executions
  // started them, and the line says so.
  EXPECT_THAT(log.str(),
              ContainsRegex("INFO: no new input in [0-9]+ executions: trying "
                            "each of the corpus's 1 inputs"));
  EXPECT_LT(clock.Now(), Engine::kRepeatQuietTime);
}

TEST(EngineTest, RepeatTrialsStartAfterOneQuietSecond) {
  for (uint32_t overlap : {1u, 2u}) {
    TempDir root;
    FakeExecutorOptions options;
    options.overlap = overlap;
    options.coverage = false;
    FakeExecutor first(options);
    const Config config = StallConfig(0, TestConfig().runs);
    ASSERT_EQ(config.repeat_trials, kRepeatTrialsAfterStall);
    FakeClock clock(absl::Milliseconds(100));
    std::ostringstream log;
    Engine engine(config, first, log, clock);
    engine.SetValueProfileFactory(FakeValueProfileFactory(options, [] {}));
    EXPECT_EQ(engine.Run({root.Sub("out")}), 77) << log.str();
    ASSERT_EQ(first.repeat_starts().size(), 1u) << log.str();
    EXPECT_GT(first.repeat_starts()[0], 0u);
    const std::string text = log.str();
    const size_t repeat =
        text.find("INFO: no new input for 0.5 s: trying each of the corpus's " +
                  std::to_string(first.repeat_starts()[0]) +
                  " inputs followed by copies of itself");
    const size_t switched = text.find("turning value profile on");
    ASSERT_NE(repeat, std::string::npos) << text;
    ASSERT_NE(switched, std::string::npos) << text;
    EXPECT_LT(repeat, switched);
  }
}

TEST(EngineTest, RepeatTrialsAreNotStartedByTheEngineOtherwise) {
  for (int mode : {0, 2, 3}) {
    TempDir root;
    FakeExecutorOptions options;
    options.coverage = false;
    FakeExecutor first(options);
    Config config = StallConfig(0, TestConfig().runs);
    config.repeat_trials = mode == 0   ? kRepeatTrialsOff
                           : mode == 2 ? kRepeatTrialsOn
                                       : kRepeatTrialsAfterStall;
    config.reproducible = mode == 3;
    FakeClock clock(absl::Milliseconds(100));
    std::ostringstream log;
    Engine engine(config, first, log, clock);
    engine.SetValueProfileFactory(FakeValueProfileFactory(options, [] {}));
    engine.Run({root.Sub("out")});
    EXPECT_THAT(first.repeat_starts(), IsEmpty()) << "mode " << mode;
    EXPECT_THAT(log.str(), Not(HasSubstr("followed by copies of itself")));
  }
}

// StallConfig(0, runs) whose quiet time in seconds (1000 s) never comes,
// with -quiet_execs=`quiet_execs`.
Config QuietExecsConfig(int64_t quiet_execs, int64_t runs) {
  Config config = StallConfig(0, runs);
  config.auto_value_profile = 1000;
  config.quiet_execs = quiet_execs;
  return config;
}

// The executions and the time of the first stall that -quiet_execs made,
// read from the log's "no new input in N executions (T, -quiet_execs)".
struct QuietExecsStall {
  uint64_t executions = 0;
  absl::Duration quiet;
};
std::optional<QuietExecsStall> FindQuietExecsStall(const std::string& log) {
  std::smatch m;
  if (!std::regex_search(
          log, m,
          std::regex("INFO: no new input in ([0-9]+) "
                     "executions \\(([^,]+), -quiet_execs\\)"))) {
    return std::nullopt;
  }
  QuietExecsStall stall;
  stall.executions = std::stoull(m[1].str());
  if (!absl::ParseDuration(m[2].str(), &stall.quiet)) return std::nullopt;
  return stall;
}

// The quiet time in executions (-quiet_execs): with a quiet time in
// seconds that the campaign never reaches, value profile comes once that
// many executions in a row brought no new input, and the INFO line says so.
TEST(EngineTest, ValueProfileIsTurnedOnAfterTheQuietExecutions) {
  TempDir root;
  FakeExecutorOptions options;
  options.coverage = false;
  FakeExecutor first(options);
  int made = 0;
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  const Config config = QuietExecsConfig(20000, TestConfig().runs);
  Engine engine(config, first, log, clock);
  engine.SetValueProfileFactory(
      FakeValueProfileFactory(options, [&] { ++made; }));
  EXPECT_EQ(engine.Run({root.Sub("out")}), 77) << log.str();
  EXPECT_EQ(made, 1);
  const std::optional<QuietExecsStall> stall = FindQuietExecsStall(log.str());
  ASSERT_TRUE(stall.has_value()) << log.str();
  EXPECT_GE(stall->executions, 20000u);
  EXPECT_GE(stall->quiet, Engine::kMinQuietTime);
  EXPECT_LT(stall->quiet, absl::Seconds(1000));
  EXPECT_THAT(log.str(), ContainsRegex("-quiet_execs\\): turning value "
                                       "profile on"));
  ExpectANewExecutorFoundTheBug(engine, first, log.str(),
                                "turning value profile");
}

// However few executions -quiet_execs asks for, a stall takes at least
// Engine::kMinQuietTime: a fast device runs them within moments.
TEST(EngineTest, QuietExecutionsWaitForTheLeastQuietTime) {
  FakeExecutorOptions options;
  options.coverage = false;
  FakeExecutor first(options);
  FakeClock clock(absl::Milliseconds(1));
  std::ostringstream log;
  const Config config = QuietExecsConfig(1, 400000);
  Engine engine(config, first, log, clock);
  engine.SetValueProfileFactory(FakeValueProfileFactory(options, [] {}));
  EXPECT_EQ(engine.Run({}), 77) << log.str();  // value profile finds it
  const std::optional<QuietExecsStall> stall = FindQuietExecsStall(log.str());
  ASSERT_TRUE(stall.has_value()) << log.str();
  EXPECT_GE(stall->quiet, Engine::kMinQuietTime);
}

// -quiet_execs=0: only the quiet time in seconds makes a stall.
TEST(EngineTest, QuietExecutionsZeroCountsWallTimeOnly) {
  FakeExecutorOptions options;
  options.coverage = false;
  FakeExecutor first(options);
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  const Config config = QuietExecsConfig(0, 400000);
  Engine engine(config, first, log, clock);
  int made = 0;
  engine.SetValueProfileFactory(
      FakeValueProfileFactory(options, [&] { ++made; }));
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(made, 0);
  EXPECT_THAT(log.str(), HasSubstr("Done 400000 runs"));
}

// An engine that owns its executor destroys it when value profile replaces
// it: the first executor's memory (on a GPU, its device buffers) is not
// held for the rest of the campaign.
TEST(EngineTest, TheExecutorReplacedForValueProfileIsReleased) {
  TempDir root;
  FakeExecutorOptions options;
  options.coverage = false;
  auto lifetime = std::make_shared<int>(0);
  const std::weak_ptr<int> first_alive = lifetime;
  FakeExecutorOptions first_options = options;
  first_options.lifetime = std::move(lifetime);
  const Config config = StallConfig(0, TestConfig().runs);
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  bool alive_when_made = false;
  Engine engine(config,
                std::make_unique<FakeExecutor>(std::move(first_options)), log,
                clock);
  engine.SetValueProfileFactory(FakeValueProfileFactory(
      options, [&] { alive_when_made = !first_alive.expired(); }));
  EXPECT_EQ(engine.Run({root.Sub("out")}), 77) << log.str();
  EXPECT_TRUE(engine.value_profile_switched());
  // Alive while its replacement was made, destroyed once it took over.
  EXPECT_TRUE(alive_when_made);
  EXPECT_TRUE(first_alive.expired());
  ExpectExecutorHoldsTheCorpus(engine);
}

// A value-profile executor that cannot be made (a build that fails or runs
// out of memory) leaves the campaign going on the executor it had.
TEST(EngineTest, AValueProfileExecutorThatCannotBeMadeLeavesTheCampaignGoing) {
  FakeExecutorOptions options;
  options.coverage = false;
  FakeExecutor first(options);
  const Config config = StallConfig(0, 200000);
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  int made = 0;
  engine.SetValueProfileFactory(
      [&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
        ++made;
        return absl::ResourceExhaustedError("no room for the maps");
      });
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(made, 1);  // tried once, not every round after
  EXPECT_FALSE(engine.value_profile_switched());
  EXPECT_EQ(&engine.executor(), &first);
  EXPECT_EQ(engine.total_executions(), 200000u);
  EXPECT_THAT(log.str(),
              HasSubstr("WARNING: could not turn value profile on (no room "
                        "for the maps); fuzzing on without it"));
  EXPECT_THAT(log.str(), HasSubstr("Done 200000 runs"));
}

// A target whose bug needs a longer input than the length limit: its
// coverage stalls at the limit; after the quiet time the engine makes the
// executor again for 4x the length (SetLengthFactory) and the campaign goes
// on to the bug.
TEST(EngineTest, InputsGrowLongerAfterTheQuietTime) {
  for (uint32_t overlap : {1u, 2u}) {
    TempDir root;
    FakeExecutorOptions options;
    options.overlap = overlap;
    options.max_len = 4;
    options.magic = "FUZ!?";  // one byte past the first limit
    FakeExecutor first(options);
    const Config config = StallConfig(4, TestConfig().runs);
    FakeClock clock(absl::Milliseconds(100));
    std::ostringstream log;
    Engine engine(config, first, log, clock);
    std::vector<std::pair<size_t, bool>> made;
    engine.SetLengthFactory(FakeLengthFactory(options, made), 4, 4096);
    EXPECT_EQ(engine.Run({root.Sub("out")}), 77) << log.str();
    ASSERT_FALSE(made.empty()) << log.str();
    EXPECT_EQ(made[0], std::make_pair(size_t{16}, false));
    EXPECT_EQ(engine.max_len(), made.back().first);
    ExpectANewExecutorFoundTheBug(engine, first, log.str(),
                                  "INFO: no new input for 5 s: raising "
                                  "-max_len from 4 to 16 bytes");
  }
}

// Value profile comes first; the next stall grows the length, with value
// profile kept on; growth stops at the cap; and the quiet time starts again
// after each new executor.
TEST(EngineTest, ValueProfileFirstThenLongerInputsUpToTheCap) {
  FakeExecutorOptions options;
  options.coverage = false;  // stalls from the start
  options.max_len = 8;
  FakeExecutor first(options);
  const Config config = StallConfig(8, 400000);
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  int value_profile_made = 0;
  engine.SetValueProfileFactory(
      [&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
        ++value_profile_made;
        return std::unique_ptr<Executor>(
            std::make_unique<FakeExecutor>(options));
      });
  std::vector<std::pair<size_t, bool>> made;
  engine.SetLengthFactory(FakeLengthFactory(options, made), 8, 100);
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(value_profile_made, 1);
  EXPECT_THAT(made, ElementsAre(std::make_pair(size_t{32}, true),
                                std::make_pair(size_t{100}, true)));
  // Value profile came first.
  EXPECT_LT(log.str().find("turning value profile on"),
            log.str().find("raising -max_len"));
  EXPECT_EQ(engine.max_len(), 100u);
  EXPECT_EQ(engine.executor().max_len(), 100u);
}

// A length factory that fails leaves the campaign going at the length it
// had, and is not tried again.
TEST(EngineTest, ALongerExecutorThatCannotBeMadeLeavesTheLength) {
  FakeExecutorOptions options;
  options.coverage = false;
  options.max_len = 8;
  FakeExecutor first(options);
  Config config = StallConfig(8, 400000);
  config.auto_value_profile = 0;  // no value profile: the default quiet time
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  int made = 0;
  engine.SetLengthFactory(
      [&](size_t, bool) -> absl::StatusOr<std::unique_ptr<Executor>> {
        ++made;
        return absl::ResourceExhaustedError("no room for the rings");
      },
      8, 4096);
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(made, 1);
  EXPECT_EQ(&engine.executor(), &first);
  EXPECT_EQ(engine.max_len(), 8u);
  EXPECT_THAT(log.str(), HasSubstr("INFO: no new input for 10 s: raising "
                                   "-max_len from 8 to 32 bytes"));
  EXPECT_THAT(log.str(), HasSubstr("WARNING: could not raise -max_len to 32 "
                                   "(no room for the rings); fuzzing on at 8"));
}

// After a value-profile build that failed, a later stall still grows the
// length, without value profile.
TEST(EngineTest, LongerInputsAfterAFailedValueProfileSwitchGoWithoutIt) {
  FakeExecutorOptions options;
  options.coverage = false;
  options.max_len = 8;
  FakeExecutor first(options);
  const Config config = StallConfig(8, 400000);
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  engine.SetValueProfileFactory(
      []() -> absl::StatusOr<std::unique_ptr<Executor>> {
        return absl::ResourceExhaustedError("no room for the maps");
      });
  std::vector<std::pair<size_t, bool>> made;
  engine.SetLengthFactory(FakeLengthFactory(options, made), 8, 32);
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_FALSE(engine.value_profile_switched());
  EXPECT_THAT(made, ElementsAre(std::make_pair(size_t{32}, false)));
}

// No new executor in the last quiet time of -max_total_time: it would cost
// its build and have no time to pay off.
TEST(EngineTest, NoNewExecutorNearTheEndOfTheTimeBudget) {
  FakeExecutorOptions options;
  options.coverage = false;
  options.max_len = 8;
  FakeExecutor first(options);
  Config config = StallConfig(8, -1);
  config.max_total_time = 8;  // stalls at 5 s, with 3 s left
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  std::vector<std::pair<size_t, bool>> made;
  engine.SetLengthFactory(FakeLengthFactory(options, made), 8, 4096);
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_THAT(made, IsEmpty());
  EXPECT_THAT(log.str(), Not(HasSubstr("raising -max_len")));
}

// With -auto_value_profile=0 the factory is never used, however long the
// campaign stalls.
TEST(EngineTest, AutoValueProfileZeroNeverSwitches) {
  FakeExecutorOptions options;
  options.coverage = false;
  FakeExecutor first(options);
  int made = 0;
  Config config = TestConfig();
  config.auto_value_profile = 0;
  config.runs = 200000;
  FakeClock clock(absl::Milliseconds(100));
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  engine.SetValueProfileFactory(
      [&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
        ++made;
        return std::unique_ptr<Executor>(std::make_unique<FakeExecutor>());
      });
  EXPECT_EQ(engine.Run({}), 0) << log.str();
  EXPECT_EQ(made, 0);
  EXPECT_FALSE(engine.value_profile_switched());
  EXPECT_EQ(&engine.executor(), &first);
  EXPECT_THAT(log.str(), Not(HasSubstr("value profile on")));
}

TEST(EngineTest, DeviceLostTooOftenInARowEndsTheRunWithTheCorpusSaved) {
  TempDir root;
  std::string out = root.Sub("out");
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  options.lose_device_at = {4};
  FakeExecutor first(options);
  Config config = TestConfig();
  FakeClock clock;
  std::ostringstream log;
  Engine engine(config, first, log, clock);
  engine.SetExecutorFactory([&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
    FakeExecutorOptions again = options;
    again.lose_device_at = {1};  // every new device is lost at once
    return std::unique_ptr<Executor>(std::make_unique<FakeExecutor>(again));
  });
  EXPECT_EQ(engine.Run({out}), 1);
  EXPECT_THAT(log.str(), HasSubstr("ERROR: the device was lost 4 times in a "
                                   "row"));
  EXPECT_THAT(log.str(),
              HasSubstr("every input found so far is saved in " + out));
  EXPECT_EQ(ListDir(out).size(), NewLines(log.str()));
  EXPECT_GT(NewLines(log.str()), 0u);
}

TEST(EngineTest, SeedThatCrashesStopsBeforeFuzzing) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("seed"), B("FUZ!")).ok());
  Config config = TestConfig();
  config.artifact_prefix = dir.path() + "/";
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {dir.path()});
  EXPECT_EQ(run.code, 77);
  EXPECT_THAT(executor.batches(), IsEmpty());
  EXPECT_THAT(run.log, Not(HasSubstr("INITED")));
  EXPECT_THAT(ListDir(dir.path()),
              ElementsAre("crash-" + Sha1Hex(B("FUZ!")), "seed"));
}

TEST(EngineTest, DictionaryIsLoadedAndUsed) {
  TempDir dir;
  ASSERT_TRUE(
      WriteFileAtomically(dir.Sub("good.dict"), B("# tokens\nm=\"FUZ!\"\n"))
          .ok());
  Config config = TestConfig();
  config.dict = dir.Sub("good.dict");
  config.artifact_prefix = dir.path() + "/";
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 77);
  EXPECT_THAT(run.log, HasSubstr("Dictionary: 1 entries\n"));
  EXPECT_THAT(executor.dictionary(), ElementsAre(B("FUZ!")));
  bool dict_work = false;
  for (const auto& batch : executor.batches()) {
    for (const WorkItem& item : batch) dict_work |= item.opcode == RF_OP_DICT;
  }
  EXPECT_TRUE(dict_work);
}

TEST(EngineTest, DictionaryErrorsNameFileAndLine) {
  TempDir dir;
  ASSERT_TRUE(
      WriteFileAtomically(dir.Sub("bad.dict"), B("a=\"x\"\nb=\"y\n")).ok());
  Config config = TestConfig();
  config.dict = dir.Sub("bad.dict");
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.log,
            "INFO: Seed: 1\nERROR: cannot use -dict: " + dir.Sub("bad.dict") +
                ": line 2: missing closing quote\n");
}

TEST(EngineTest, UnreadableCorpusEntriesAreWarningsAndLongSeedsTruncated) {
  TempDir dir;
  ASSERT_EQ(symlink(dir.Sub("gone").c_str(), dir.Sub("dangling").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomically(dir.Sub("long"), Bytes(100, 'x')).ok());
  Config config = TestConfig();
  config.runs = 100;
  FakeExecutorOptions options;
  options.max_len = 32;
  options.magic = "0123456789abcdef";
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {dir.path()});
  EXPECT_EQ(run.code, 0) << run.log;
  EXPECT_THAT(run.log, HasSubstr("WARNING: skipped '" + dir.Sub("dangling") +
                                 "': No such file or directory\n"));
  EXPECT_THAT(run.log, HasSubstr("INFO: Loaded 1 files from " + dir.path()));
  EXPECT_THAT(run.log, HasSubstr("INFO: 1 inputs were longer than 32 bytes"));
  ASSERT_FALSE(executor.executed_unmutated().empty());
  EXPECT_EQ(executor.executed_unmutated()[0], Bytes(32, 'x'));
}

TEST(EngineTest, MissingSecondCorpusDirectoryIsAnError) {
  TempDir dir;
  Config config = TestConfig();
  FakeExecutor executor;
  EngineRun run = RunEngine(config, executor, {dir.path(), dir.Sub("nope")});
  EXPECT_EQ(run.code, 1);
  EXPECT_THAT(run.log, HasSubstr("ERROR: corpus directory '" + dir.Sub("nope") +
                                 "' does not exist"));
  EXPECT_TRUE(executor.executed_unmutated().empty());
}

TEST(EngineTest, UninstrumentedTargetStillFuzzes) {
  Config config = TestConfig();
  config.runs = 500;
  FakeExecutorOptions options;
  options.coverage = false;
  options.magic = "0123456789abcdef";
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.log, HasSubstr("WARNING: no interesting inputs were found"));
  EXPECT_THAT(executor.inputs(), ElementsAre(B("\n")));
  EXPECT_EQ(run.executions, 500u);
}

TEST(EngineTest, MaxTotalTimeStopsTheLoop) {
  Config config = TestConfig();
  config.runs = -1;
  config.max_total_time = 5;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  FakeExecutor executor(options);
  FakeClock clock(absl::Milliseconds(100));  // every reading is 0.1 s later
  EngineRun run = RunEngine(config, executor, {}, &clock);
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.log,
              ContainsRegex("Done [0-9]+ runs in [5-6] second\\(s\\)"));
  EXPECT_FALSE(executor.batches().empty());
}

// Pulse lines when the count passes a power of two (after 2 s) and every
// -report_interval seconds.
TEST(EngineTest, PulseLines) {
  Config config = TestConfig();
  config.runs = 1 << 16;
  config.batch_slots = 4;
  config.slot_execs = 256;  // 1024 per batch
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  FakeExecutor executor(options);
  FakeClock clock(absl::Seconds(1));
  EngineRun run = RunEngine(config, executor, {}, &clock);
  std::vector<uint64_t> pulses;
  for (const std::string& line : Lines(run.log)) {
    if (line.find("\tpulse  ") == std::string::npos) continue;
    pulses.push_back(std::stoull(line.substr(1)));
  }
  // 1025 passes 1024, 2049 passes 2048, ... 65536.
  EXPECT_THAT(pulses, ElementsAre(1025, 2049, 4097, 8193, 16385, 32769, 65536));

  config.report_interval = 3;
  FakeExecutor again(options);
  FakeClock clock2(absl::Seconds(1));
  EngineRun interval = RunEngine(config, again, {}, &clock2);
  size_t count = 0;
  for (const std::string& line : Lines(interval.log)) {
    count += line.find("\tpulse  ") != std::string::npos;
  }
  EXPECT_GT(count, pulses.size() + 5);
}

TEST(EngineTest, ExecutorErrorsEndTheRun) {
  Config config = TestConfig();
  FakeExecutorOptions failing;
  failing.batch_error = "device lost; reboot the GPU";
  FakeExecutor a(failing);
  EngineRun run = RunEngine(config, a, {});
  EXPECT_EQ(run.code, 1);
  EXPECT_THAT(run.log, HasSubstr("ERROR: the executor failed to run a batch: "
                                 "device lost; reboot the GPU\n"));

  FakeExecutorOptions idle;
  idle.max_execs_per_item = 0;
  FakeExecutor b(idle);
  EngineRun stuck = RunEngine(config, b, {});
  EXPECT_EQ(stuck.code, 1);
  EXPECT_THAT(stuck.log, HasSubstr("ERROR: the executor ran no executions in 3 "
                                   "batches in a row"));
  EXPECT_EQ(b.batches().size(), 3u);
}

// libFuzzer prints "Dictionary: N entries" for a -dict file only; the
// tokens taken from the target have their own line, which ClusterFuzz's
// "dictionary used" pattern does not match.
TEST(EngineTest, DictionaryLineCountsTheDictFileOnly) {
  Config config = TestConfig();
  config.runs = 10;
  FakeExecutorOptions options;
  options.auto_dictionary = {B("AB"), B("CDEF")};
  FakeExecutor automatic(options);
  EngineRun run = RunEngine(config, automatic, {});
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.log, Not(HasSubstr("Dictionary:")));
  EXPECT_THAT(run.log, HasSubstr("INFO: automatic dictionary: 2 tokens from "
                                 "the target's comparisons and constants\n"));
  EXPECT_THAT(automatic.dictionary(), ElementsAre(B("AB"), B("CDEF")));

  TempDir dir;
  ASSERT_TRUE(
      WriteFileAtomically(dir.Sub("d.dict"), B("a=\"AB\"\nb=\"XY\"\n")).ok());
  config.dict = dir.Sub("d.dict");
  FakeExecutor both(options);
  run = RunEngine(config, both, {});
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.log, HasSubstr("\nDictionary: 2 entries\nINFO: automatic "
                                 "dictionary: 1 tokens from"));
  EXPECT_THAT(both.dictionary(), ElementsAre(B("AB"), B("XY"), B("CDEF")));
}

TEST(EngineTest, VerbosityZeroPrintsNoStatusLines) {
  Config config = TestConfig();
  config.runs = 3000;
  config.verbosity = 0;
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef";
  FakeExecutor executor(options);
  EngineRun run = RunEngine(config, executor, {});
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.log, "INFO: Seed: 1\n");
}

// --- Fresh entries, rounds sized by time, feedback latency. ---

// Every entry found by a batch has kFreshItemsPerEntry items at HIGH
// priority in the next batch, before all other work; nothing else is HIGH.
TEST(EngineTest, NewEntriesRunInTheNextBatchAtHighPriority) {
  FakeClock clock;
  TimedExecutor executor(NoBug(), clock, DeviceSpeed{});
  Config config = TestConfig();
  config.batch_slots = 256;  // fresh share: 64 items
  config.slot_execs = 4;
  config.runs = 20000;
  config.verbosity = 0;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& batches = executor.batches();
  const auto& inputs = executor.inputs_at_batch();
  ASSERT_GT(batches.size(), 3u);
  size_t fresh_seen = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    std::set<uint32_t> fresh;
    for (size_t i = b > 0 ? inputs[b - 1] : inputs[0]; i < inputs[b]; ++i) {
      fresh.insert(static_cast<uint32_t>(i));
    }
    ASSERT_LE(fresh.size() * Scheduler::kFreshItemsPerEntry, 64u) << b;
    std::map<uint32_t, uint32_t> high;
    bool other_work = false;
    for (const WorkItem& item : batches[b]) {
      if (item.priority == RF_PRIORITY_HIGH) {
        EXPECT_FALSE(other_work) << "HIGH after other work in batch " << b;
        EXPECT_TRUE(fresh.count(item.parent)) << "batch " << b;
        ++high[item.parent];
      } else {
        other_work = true;
      }
    }
    for (uint32_t parent : fresh) {
      EXPECT_EQ(high[parent], Scheduler::kFreshItemsPerEntry)
          << "entry " << parent << " in batch " << b;
    }
    fresh_seen += fresh.size();
  }
  EXPECT_GT(fresh_seen, 3u);
}

// With the device's speed fixed, rounds converge to the target duration
// from one mutant per slot, never above the configured shape.
TEST(EngineTest, AdaptiveRoundsConvergeToTheTargetDuration) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Microseconds(1);
  speed.overhead = absl::Milliseconds(1);  // fixed cost of a round
  TimedExecutor executor(NoBug(), clock, speed);
  Config config = AdaptiveConfig(4096, 300000);  // the ceiling: 65 ms per batch
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& batches = executor.batches();
  const auto& durations = executor.durations();
  ASSERT_GT(batches.size(), 20u);
  EXPECT_EQ(batches[0][0].count, 1u);  // nothing measured yet: the floor
  for (const auto& batch : batches) {
    ASSERT_EQ(batch.size(), 16u);  // the geometry is left alone
    for (const WorkItem& item : batch) {
      EXPECT_GE(item.count, 1u);
      EXPECT_LE(item.count, 4096u);
    }
  }
  // 1 ms + 16 * n us = 10 ms: n = 563 (rounded up). From batch 8 on every
  // full batch is one of: plain, within 5% of the target; a probe of twice
  // the mutants; urgent, aiming at 5 ms: 1 ms + 16 * n us = 5 ms, n = 250.
  size_t plain = 0, probes = 0, urgent = 0;
  for (size_t b = 8; b + 1 < batches.size(); ++b) {
    const uint32_t count = batches[b][0].count;
    if (count == 2 * 563u) {
      ++probes;
    } else if (Urgent(batches[b])) {
      EXPECT_EQ(count, 250u) << b;
      ++urgent;
    } else {
      EXPECT_EQ(count, 563u) << b;
      EXPECT_GE(durations[b], absl::Microseconds(9500)) << b;
      EXPECT_LE(durations[b], absl::Microseconds(10500)) << b;
      ++plain;
    }
  }
  EXPECT_GT(plain, 0u);
  EXPECT_GT(probes, 0u);
  EXPECT_GT(urgent, 0u);
  EXPECT_EQ(engine.total_executions(), 300000u);  // -runs stays exact
  EXPECT_THAT(out.str(), HasSubstr("INFO: rounds sized for 10ms (-round_ms): "
                                   "the last batch ran "));
}

// Off-pace batches (a slower build's, BatchResult::off_pace) do not move
// the rounds' size: the others still converge to the target duration.
TEST(EngineTest, OffPaceBatchesDoNotSizeRounds) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Microseconds(1);
  speed.overhead = absl::Milliseconds(1);
  speed.off_pace_every = 3;
  speed.off_pace_slowdown = 10;
  TimedExecutor executor(NoBug(), clock, speed);
  Config config = AdaptiveConfig(4096, 400000);
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& batches = executor.batches();
  ASSERT_GT(batches.size(), 30u);
  // As in AdaptiveRoundsConvergeToTheTargetDuration: 563 mutants per slot
  // (a probe twice that, an urgent batch 250), whatever the slow batches
  // between them took.
  size_t plain = 0;
  for (size_t b = 12; b + 1 < batches.size(); ++b) {
    const uint32_t count = batches[b][0].count;
    if (count == 2 * 563u || Urgent(batches[b])) continue;
    EXPECT_EQ(count, 563u) << b;
    ++plain;
  }
  EXPECT_GT(plain, 5u);
}

// Paced rounds (Config::paced_rounds): while the off-pace batches (a
// signature executor's precise flights) last long, the other rounds aim at
// kRoundsPerPreciseFlight times their length, within [the target,
// kMaxPacedRound times the target]; short ones leave the target alone.
// The device of AdaptiveRoundsConvergeToTheTargetDuration (1 ms + 16 * n
// us per round, 10 ms target) with every third batch taking `off_pace`.
struct PacedRun {
  uint32_t plain_count = 0;  // mutants per slot of the plain rounds
  size_t plain = 0;          // plain rounds from batch 12 on
  std::string log;
};
PacedRun RunPaced(absl::Duration off_pace, bool paced) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Microseconds(1);
  speed.overhead = absl::Milliseconds(1);
  speed.device_share = 1;
  speed.off_pace_every = 3;
  speed.off_pace_time = off_pace;
  TimedExecutor executor(NoBug(), clock, speed);
  Config config = AdaptiveConfig(4096, 600000);
  config.paced_rounds = paced;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  PacedRun run;
  EXPECT_EQ(engine.Run({}), 0) << out.str();
  run.log = out.str();
  const auto& batches = executor.batches();
  EXPECT_GT(batches.size(), 30u);
  // The plain rounds (not urgent, not off pace) from batch 12 on, when the
  // fit has settled: one size (the most common), or a probe of twice it.
  std::map<uint32_t, size_t> counts;
  for (size_t b = 12; b + 1 < batches.size(); ++b) {
    if (b % 3 == 0 || Urgent(batches[b])) continue;
    ++counts[batches[b][0].count];
  }
  for (const auto& [count, n] : counts) {
    if (n > run.plain) run = {count, n, run.log};
  }
  for (const auto& [count, n] : counts) {
    if (count != run.plain_count) EXPECT_EQ(count, 2 * run.plain_count);
  }
  return run;
}

TEST(EngineTest, PacedRoundsLengthenWhilePreciseFlightsLastLong) {
  // 8 ms flights: rounds of 16 ms, 1 ms + 16 * n us: n = 938.
  PacedRun run = RunPaced(absl::Milliseconds(8), /*paced=*/true);
  EXPECT_EQ(run.plain_count, 938u);
  EXPECT_GT(run.plain, 5u);
  EXPECT_THAT(run.log, HasSubstr("INFO: rounds sized for 16ms (paced to "
                                 "precise flights)"));
  // 30 ms flights: at most twice the target, 20 ms: n = 1188.
  run = RunPaced(absl::Milliseconds(30), /*paced=*/true);
  EXPECT_EQ(run.plain_count, 1188u);
  EXPECT_GT(run.plain, 5u);
}

TEST(EngineTest, PacedRoundsKeepTheTargetWhilePreciseFlightsAreShort) {
  // 3 ms flights: twice that is under the 10 ms target: n = 563.
  PacedRun run = RunPaced(absl::Milliseconds(3), /*paced=*/true);
  EXPECT_EQ(run.plain_count, 563u);
  EXPECT_GT(run.plain, 5u);
  EXPECT_THAT(run.log, HasSubstr("INFO: rounds sized for 10ms (-round_ms)"));
}

TEST(EngineTest, RoundsAreNotPacedWhereTheUserSetTheTarget) {
  // Config::paced_rounds is false where -round_ms came from the user.
  PacedRun run = RunPaced(absl::Milliseconds(30), /*paced=*/false);
  EXPECT_EQ(run.plain_count, 563u);
  EXPECT_GT(run.plain, 5u);
}

// A round whose fixed part alone exceeds the target settles at
// kMinRoundPerFixed times the fixed part (the device keeps 2/3 of its
// rate) instead of collapsing to one mutant per slot.
TEST(EngineTest, AdaptiveRoundsKeepTheDeviceBusyWhenTheFixedCostDominates) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Microseconds(1);
  speed.overhead = absl::Milliseconds(30);  // three times the target
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef0123456789abcdef";  // never found
  TimedExecutor executor(options, clock, speed);
  Config config = AdaptiveConfig(65536, 2000000);
  config.verbosity = 0;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& batches = executor.batches();
  ASSERT_GT(batches.size(), 20u);
  // 30 ms fixed + 16 * n us = 90 ms: n = 3750, urgent batches too (their
  // half target is below the floor of three times the fixed part); a probe
  // runs twice as many, 150 ms. (The fit has settled by batch 12: the
  // second batch's probe may wait behind urgent ones.)
  for (size_t b = 12; b + 1 < batches.size(); ++b) {
    const bool probe = batches[b][0].count == 2 * 3750u;
    if (!probe) EXPECT_EQ(batches[b][0].count, 3750u) << b;
    EXPECT_EQ(executor.durations()[b], absl::Milliseconds(probe ? 150 : 90))
        << b;
  }
}

// Overlapped rounds, sized by their device time, settle at
// kOverlappedMinRoundPerFixed (two) times the fixed part instead: the
// same device as above, 30 ms fixed + 16 * n us = 60 ms, n = 1875.
TEST(EngineTest, OverlappedAdaptiveRoundsSettleAtTwiceTheFixedCost) {
  FakeExecutorOptions options;
  options.magic = "0123456789abcdef0123456789abcdef";  // never found
  options.overlap = 2;
  options.device_time = absl::Milliseconds(30);
  options.device_time_per_exec = absl::Microseconds(1);
  FakeExecutor executor(options);
  Config config = AdaptiveConfig(65536, 2000000);
  config.verbosity = 0;
  FakeClock clock;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& batches = executor.batches();
  ASSERT_GT(batches.size(), 40u);
  // From the floor, sizes grow by at most kMaxGrowth a batch, each decided
  // with a batch still in flight: settled by batch 24.
  size_t plain = 0;
  for (size_t b = 24; b + 1 < batches.size(); ++b) {
    const bool probe = batches[b][0].count == 2 * 1875u;
    if (!probe) {
      EXPECT_EQ(batches[b][0].count, 1875u) << b;
      ++plain;
    }
  }
  EXPECT_GT(plain, 10u);
}

// A device fast enough for the whole shape gets exactly the ceiling; one
// too slow for a mutant per slot gets exactly one (the floor).
TEST(EngineTest, AdaptiveRoundsStayWithinOneAndThePreferredShape) {
  for (bool fast : {true, false}) {
    FakeClock clock;
    DeviceSpeed speed;
    speed.per_exec = fast ? absl::Nanoseconds(1) : absl::Milliseconds(5);
    TimedExecutor executor(NoBug(), clock, speed);
    Config config = AdaptiveConfig(256, fast ? 60000 : 600);
    config.batch_slots = 8;
    config.verbosity = 0;
    std::ostringstream out;
    Engine engine(config, executor, out, clock);
    ASSERT_EQ(engine.Run({}), 0) << out.str();
    const auto& batches = executor.batches();
    ASSERT_GT(batches.size(), 6u);
    for (size_t b = 0; b < batches.size(); ++b) {
      for (const WorkItem& item : batches[b]) {
        EXPECT_GE(item.count, 1u);
        EXPECT_LE(item.count, 256u);
        if (!fast) EXPECT_THAT(item.count, AnyOf(1u, 2u)) << b;  // probe: 2
      }
    }
    if (fast) {
      EXPECT_EQ(batches[5][0].count, 256u);  // 1, 4, 16, 64, 256
      EXPECT_EQ(batches[4][0].count, 256u);
      EXPECT_EQ(batches[3][0].count, 64u);
    }
  }
}

// On a device whose workgroup lanes all run mutants of one slot, the floor
// is a mutant per lane; the steering's geometry (slots) stays.
TEST(EngineTest, AdaptiveRoundsKeepAMutantPerLane) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Milliseconds(1);  // far too slow for the target
  TimedExecutor executor(NoBug(), clock, speed);
  LaunchLimits limits;
  limits.workgroup_size_x = 8;
  limits.max_workgroup_size_x = 1024;
  limits.max_workgroups_per_dimension = 65535;
  limits.max_invocations_per_workgroup = 1024;
  limits.ring_slots = 16;
  limits.worker_groups = 16;
  executor.set_limits(limits);
  Config config = AdaptiveConfig(64, 5000);
  config.verbosity = 0;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  ASSERT_GT(executor.batches().size(), 3u);
  for (size_t b = 0; b + 1 < executor.batches().size(); ++b) {
    const auto& batch = executor.batches()[b];
    EXPECT_EQ(batch.size(), 16u);
    for (const WorkItem& item : batch) {
      EXPECT_THAT(item.count, AnyOf(8u, 16u)) << b;  // a probe runs 16
    }
  }
}

// Without Config::adaptive_rounds (an explicit -slot_execs) the shape is
// fixed whatever the speed.
TEST(EngineTest, FixedRoundsWithoutAdaptiveRounds) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::Milliseconds(1);
  TimedExecutor executor(NoBug(), clock, speed);
  Config config = TestConfig();
  config.round_ms = 10;
  config.batch_slots = 8;
  config.slot_execs = 32;
  config.runs = 3000;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  for (size_t b = 0; b + 1 < executor.batches().size(); ++b) {
    for (const WorkItem& item : executor.batches()[b]) {
      EXPECT_EQ(item.count, 32u);
    }
  }
  EXPECT_THAT(out.str(), HasSubstr("INFO: -round_ms is ignored: "
                                   "-slot_execs=32 fixes the mutants per "
                                   "slot\n"));
  EXPECT_THAT(out.str(), Not(HasSubstr("rounds sized for")));
}

TEST(EngineTest, SameSeedSameAdaptiveRun) {
  auto run = [](std::vector<std::vector<WorkItem>>& batches) {
    FakeClock clock;
    DeviceSpeed speed;
    speed.per_exec = absl::Microseconds(3);
    speed.overhead = absl::Microseconds(700);
    speed.host_time = absl::Microseconds(300);
    TimedExecutor executor(NoBug(), clock, speed);
    Config config = TestConfig();
    config.adaptive_rounds = true;
    config.round_ms = 5;
    config.runs = 50000;
    config.verbosity = 0;
    std::ostringstream out;
    Engine engine(config, executor, out, clock);
    EXPECT_EQ(engine.Run({}), 0);
    batches = executor.batches();
    return engine.feedback_latency().Quantile(0.5);
  };
  std::vector<std::vector<WorkItem>> a, b;
  EXPECT_EQ(run(a), run(b));
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 5u);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].size(), b[i].size()) << i;
    for (size_t j = 0; j < a[i].size(); ++j) {
      EXPECT_EQ(a[i][j].parent, b[i][j].parent);
      EXPECT_EQ(a[i][j].count, b[i][j].count);
      EXPECT_EQ(a[i][j].priority, b[i][j].priority);
      EXPECT_EQ(a[i][j].opcode, b[i][j].opcode);
    }
  }
}

// A scripted sequence: the samples are batch start of the find to the end
// of the first batch that ran the entry's work; quantiles by nearest rank.
TEST(FeedbackLatencyTest, ScriptedSequence) {
  FeedbackLatency latency;
  EXPECT_EQ(latency.Quantile(0.5), absl::ZeroDuration());
  latency.Found(1, absl::Milliseconds(0));
  latency.Found(2, absl::Milliseconds(0));
  latency.Found(3, absl::Milliseconds(10));
  EXPECT_EQ(latency.pending(), 3u);
  const std::vector<size_t> first = {2, 5, 2};
  latency.BatchRan(first, absl::Milliseconds(20));  // 2: 20 ms
  EXPECT_EQ(latency.samples(), 1u);
  const std::vector<size_t> second = {3, 1, 3};
  const std::vector<FeedbackLatency::Sample> taken =
      latency.BatchRan(second, absl::Milliseconds(35));  // 1: 35, 3: 25 ms
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].index, 3u);
  EXPECT_EQ(taken[0].latency, absl::Milliseconds(25));
  EXPECT_EQ(taken[1].index, 1u);
  EXPECT_EQ(taken[1].latency, absl::Milliseconds(35));
  EXPECT_TRUE(latency.BatchRan(second, absl::Milliseconds(99))
                  .empty());  // nothing pending
  EXPECT_EQ(latency.samples(), 3u);
  EXPECT_EQ(latency.pending(), 0u);
  EXPECT_EQ(latency.Quantile(0.5), absl::Milliseconds(25));
  EXPECT_EQ(latency.Quantile(0.99), absl::Milliseconds(35));
  EXPECT_EQ(latency.Quantile(0.01), absl::Milliseconds(20));

  FeedbackLatency hundred;
  for (size_t i = 1; i <= 100; ++i) {
    hundred.Found(i, absl::ZeroDuration());
    const std::vector<size_t> ran = {i};
    hundred.BatchRan(ran, absl::Milliseconds(static_cast<int64_t>(101 - i)));
  }
  EXPECT_EQ(hundred.Quantile(0.5), absl::Milliseconds(50));
  EXPECT_EQ(hundred.Quantile(0.99), absl::Milliseconds(99));
}

// Through the engine: batches of 10 ms on the device and 3 ms of host work
// per new entry. An entry found by batch b runs in batch b + 1: its latency
// is 10 ms + the host work after batch b + 10 ms. The device is busy for
// the batches' time out of the loop's.
// An executor that measures its device's time (BatchResult::device_time):
// the device is busy for that time only, not for all of RunBatch.
TEST(FeedbackLatencyTest, DeviceTicksScaleByTheLatestTickLength) {
  FeedbackLatency latency;
  latency.FoundAtTick(1, 1000);
  latency.FoundAtTick(2, 1500);
  latency.FoundAtTick(1, 1800);  // found again: keeps its first tick
  EXPECT_FALSE(latency.RanAtTick(7, 2000).has_value());  // never found
  std::optional<FeedbackLatency::Sample> one = latency.RanAtTick(1, 3000);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->latency, absl::Nanoseconds(2000));      // 1 ns per tick so far
  EXPECT_FALSE(latency.RanAtTick(1, 9000).has_value());  // taken already
  latency.set_tick_ns(2.5);
  std::optional<FeedbackLatency::Sample> two = latency.RanAtTick(2, 1900);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->latency, absl::Nanoseconds(1000));  // 400 ticks
  // Every sample is scaled by the latest tick length.
  EXPECT_EQ(latency.Quantile(0.5), absl::Nanoseconds(1000));
  EXPECT_EQ(latency.Quantile(1.0), absl::Nanoseconds(5000));
  EXPECT_EQ(latency.pending(), 0u);
}

TEST(EngineTest, DeviceBusyIsTheReportedDeviceTime) {
  FakeClock clock;
  DeviceSpeed speed;
  speed.per_exec = absl::ZeroDuration();
  speed.overhead = absl::Milliseconds(10);
  speed.device_share = 0.75;
  TimedExecutor executor(NoBug(), clock, speed);
  Config config = TestConfig();
  config.batch_slots = 64;
  config.slot_execs = 16;
  config.runs = 5000;
  config.print_final_stats = true;
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const int64_t batches =
      static_cast<int64_t>(executor.inputs_at_batch().size());
  ASSERT_GT(batches, 1);
  EXPECT_EQ(engine.device_busy(), absl::Microseconds(7500) * batches);
  EXPECT_THAT(out.str(),
              HasSubstr("rounds of 10ms on average: 7.5ms on the device, "
                        "2.5ms host work inside the executor"));
}

// Batches of 10 ms on the device and 3 ms of host work per new entry
// (the feedback latency tests), 20,000 runs of 64 slots of 16 mutants.
DeviceSpeed LatencySpeed(bool device_clock) {
  DeviceSpeed speed;
  speed.per_exec = absl::ZeroDuration();
  speed.overhead = absl::Milliseconds(10);
  speed.host_time = absl::Milliseconds(3);
  speed.device_clock = device_clock;
  return speed;
}

Config LatencyConfig() {
  Config config = TestConfig();
  config.batch_slots = 64;
  config.slot_execs = 16;
  config.runs = 20000;
  config.print_final_stats = true;
  return config;
}

// Each entry found by batch b waits `fixed_ms` + 3 ms per entry b found,
// in ms, sorted; `inputs`: the executor's inputs at each batch.
std::vector<int64_t> ExpectedLatencies(const std::vector<size_t>& inputs,
                                       int64_t fixed_ms) {
  std::vector<int64_t> expected;
  for (size_t b = 0; b + 1 < inputs.size(); ++b) {
    const size_t found = inputs[b + 1] - inputs[b];
    for (size_t i = 0; i < found; ++i) {
      expected.push_back(fixed_ms + 3 * static_cast<int64_t>(found));
    }
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

// A campaign of LatencyConfig() on a simulated device of `speed`: its
// output, its feedback latency, and the samples expected of a device clock
// (ExpectedLatencies with 3 ms fixed).
struct LatencyRun {
  std::string out;
  FeedbackLatency latency;
  std::vector<int64_t> expected;
};

LatencyRun RunLatency(const DeviceSpeed& speed) {
  FakeClock clock;
  TimedExecutor executor(NoBug(), clock, speed);
  const Config config = LatencyConfig();  // the engine keeps a reference
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  EXPECT_EQ(engine.Run({}), 0) << out.str();
  return {out.str(), engine.feedback_latency(),
          ExpectedLatencies(executor.inputs_at_batch(), 3)};
}

// With a device clock, the latency is from the finding execution to the
// entry's first mutant: an entry found 2 ms before the end of batch b (10
// ms) runs 1 ms into batch b + 1, which starts after 3 ms of host work per
// entry of b: 2 + 3 * found + 1 ms.
TEST(EngineTest, FeedbackLatencyByTheDeviceClock) {
  const LatencyRun run = RunLatency(LatencySpeed(/*device_clock=*/true));
  const std::vector<int64_t>& expected = run.expected;
  ASSERT_GT(expected.size(), 3u);
  const FeedbackLatency& latency = run.latency;
  EXPECT_EQ(latency.samples(), expected.size());
  EXPECT_EQ(latency.Quantile(0.5),
            absl::Milliseconds(expected[(expected.size() + 1) / 2 - 1]));
  EXPECT_EQ(
      latency.Quantile(0.99),
      absl::Milliseconds(
          expected[static_cast<size_t>(std::ceil(0.99 * expected.size())) -
                   1]));
  EXPECT_THAT(run.out, HasSubstr("(the execution that found an entry to "
                                 "the start of its first mutant, on the "
                                 "device's clock)"));
  // By rounds, each entry waits from its batch's start to the end of the
  // next, 10 + 3 * found + 10 ms: 17 ms more than by the clock.
  EXPECT_THAT(run.out,
              HasSubstr(absl::StrCat(
                  "INFO: by rounds (an upper bound) the same latency is p50 ",
                  expected[(expected.size() + 1) / 2 - 1] + 17, ".0 ms")));
}

// An executor that ran an entry's first mutants before reporting the entry
// (Find::first_mutant_clock) gives its sample: 0.5 ms each here, not the
// 1 ms into the next batch that the batch's costs would give.
TEST(EngineTest, FeedbackLatencyTakesFirstMutantsReportedWithTheFind) {
  DeviceSpeed speed = LatencySpeed(/*device_clock=*/true);
  speed.first_mutants_with_finds = true;
  const LatencyRun run = RunLatency(speed);
  ASSERT_GT(run.expected.size(), 3u);
  EXPECT_EQ(run.latency.samples(), run.expected.size());
  EXPECT_EQ(run.latency.Quantile(1e-9), absl::Microseconds(500));
  EXPECT_EQ(run.latency.Quantile(1.0), absl::Microseconds(500));
}

// A device lost with entries waiting for their first mutants: the new
// device's clock starts elsewhere (here, 10 s of ticks earlier), so those
// entries give no sample; every sample is from one device's clock, at
// least the 1 ms + 2 ms each batch puts between a find and a first mutant.
TEST(EngineTest, FeedbackLatencyIgnoresEntriesPendingWhenTheDeviceWasLost) {
  FakeClock clock;
  FakeExecutorOptions options = NoBug();
  // Lost in the third batch, which runs the second one's finds' first
  // mutants.
  options.lose_device_at = {3};
  TimedExecutor first(options, clock, LatencySpeed(/*device_clock=*/true));
  const Config config = LatencyConfig();  // the engine keeps a reference
  std::ostringstream out;
  Engine engine(config, first, out, clock);
  int remade = 0;
  engine.SetExecutorFactory([&]() -> absl::StatusOr<std::unique_ptr<Executor>> {
    ++remade;
    DeviceSpeed speed = LatencySpeed(/*device_clock=*/true);
    speed.tick_base = 1000;
    return std::unique_ptr<Executor>(
        std::make_unique<TimedExecutor>(NoBug(), clock, speed));
  });
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  ASSERT_EQ(remade, 1);
  const FeedbackLatency& latency = engine.feedback_latency();
  ASSERT_GT(latency.samples(), 3u);
  EXPECT_GE(latency.Quantile(1e-9), absl::Milliseconds(3));
  EXPECT_LT(latency.Quantile(1.0), absl::Seconds(1));
}

TEST(EngineTest, FeedbackLatencyAndDeviceBusyShare) {
  FakeClock clock;
  TimedExecutor executor(NoBug(), clock, LatencySpeed(/*device_clock=*/false));
  const Config config = LatencyConfig();  // the engine keeps a reference
  std::ostringstream out;
  Engine engine(config, executor, out, clock);
  ASSERT_EQ(engine.Run({}), 0) << out.str();
  const auto& inputs = executor.inputs_at_batch();
  const size_t batches = inputs.size();
  ASSERT_GT(batches, 3u);
  const std::vector<int64_t> expected = ExpectedLatencies(inputs, 20);
  ASSERT_GT(expected.size(), 3u);
  const FeedbackLatency& latency = engine.feedback_latency();
  EXPECT_EQ(latency.samples(), expected.size());
  const int64_t p50 = expected[(expected.size() + 1) / 2 - 1];
  const int64_t p99 =
      expected[static_cast<size_t>(std::ceil(0.99 * expected.size())) - 1];
  EXPECT_EQ(latency.Quantile(0.5), absl::Milliseconds(p50));
  EXPECT_EQ(latency.Quantile(0.99), absl::Milliseconds(p99));
  // The last batch's finds never ran.
  EXPECT_EQ(latency.pending(), engine.corpus().size() - inputs.back());
  const uint64_t finds = engine.corpus().size() - inputs[0];
  const int64_t busy_ms = 10 * static_cast<int64_t>(batches);
  EXPECT_EQ(engine.device_busy(), absl::Milliseconds(busy_ms));
  EXPECT_EQ(engine.LoopTime(),
            absl::Milliseconds(busy_ms + 3 * static_cast<int64_t>(finds)));
  const uint64_t percent = 100 * busy_ms / (busy_ms + 3 * finds);
  EXPECT_LT(percent, 100u);
  const std::string log = out.str();
  EXPECT_THAT(log, HasSubstr("stat::feedback_latency_entries: " +
                             std::to_string(expected.size()) + "\n"));
  EXPECT_THAT(log, HasSubstr("stat::feedback_latency_p50_ms:  " +
                             std::to_string(p50) + "\n"));
  EXPECT_THAT(log, HasSubstr("stat::feedback_latency_p99_ms:  " +
                             std::to_string(p99) + "\n"));
  EXPECT_THAT(log, HasSubstr("stat::device_busy_percent:      " +
                             std::to_string(percent) + "\n"));
  EXPECT_THAT(log,
              ContainsRegex("INFO: feedback latency p50 [0-9]+\\.0 ms, "
                            "p99 [0-9]+\\.0 ms over " +
                            std::to_string(expected.size()) + " new entries"));
}

}  // namespace
}  // namespace ringfuzz
