#include "fuzz/gpu/gpu_executor.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

std::string Data(const std::string& name) {
  return std::string(RF_TEST_DATA) + "/" + name;
}

std::unique_ptr<GpuExecutor> MakeExecutor(
    const std::string& target, uint32_t max_len = 64,
    bool value_profile = false,
    GpuExecutorOptions::CoverageMode mode =
        GpuExecutorOptions::CoverageMode::kAuto) {
  GpuExecutorOptions options;
  options.target_path = Data(target);
  options.device = "cpu";
  options.validation = true;
  options.max_len = max_len;
  options.value_profile = value_profile;
  options.coverage_mode = mode;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return executor.ok() ? *std::move(executor) : nullptr;
}

Bytes Str(const std::string& s) { return Bytes(s.begin(), s.end()); }

// `items` havoc work items on corpus entry 0, `count` mutants each, with up
// to `stack` stacked mutations.
std::vector<WorkItem> HavocWork(size_t items, uint32_t count, uint32_t stack) {
  std::vector<WorkItem> work(items);
  for (WorkItem& item : work) {
    item.opcode = RF_OP_HAVOC;
    item.parent = 0;
    item.count = count;
    item.stack = stack;
  }
  return work;
}

TEST(GpuExecutorTest, ExecuteReportsCrashAndCoverage) {
  auto executor = MakeExecutor("magic.fz");
  ASSERT_NE(executor, nullptr);
  absl::StatusOr<BatchResult> benign = executor->Execute(Str("FUZ_"));
  ASSERT_TRUE(benign.ok()) << benign.status();
  EXPECT_EQ(benign->executions, 1u);
  ASSERT_EQ(benign->finds.size(), 1u);  // first input: new coverage
  EXPECT_EQ(benign->finds[0].kind, Find::Kind::kNewCoverage);
  EXPECT_EQ(benign->finds[0].data, Str("FUZ_"));
  CoverageSummary cov = executor->Coverage();
  EXPECT_GT(cov.blocks, 3u);
  EXPECT_GT(cov.features, 3u);

  absl::StatusOr<BatchResult> again = executor->Execute(Str("FUZ_"));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->finds.empty());  // nothing new the second time

  absl::StatusOr<BatchResult> crash = executor->Execute(Str("FUZ!"));
  ASSERT_TRUE(crash.ok());
  ASSERT_EQ(crash->finds.size(), 1u);
  EXPECT_EQ(crash->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(crash->finds[0].code, 7u);
  EXPECT_EQ(crash->finds[0].data, Str("FUZ!"));
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuExecutorTest, OverreadIsReportedWithIndexAndLength) {
  auto executor = MakeExecutor("overread.fz");
  ASSERT_NE(executor, nullptr);
  Bytes input = {0xAB, 1, 2, 3};
  absl::StatusOr<BatchResult> r = executor->Execute(input);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->finds.size(), 1u);
  EXPECT_EQ(r->finds[0].kind, Find::Kind::kOverread);
  EXPECT_EQ(r->finds[0].code, 4u);  // fz_byte(4) with len 4
  EXPECT_EQ(r->finds[0].aux, 4u);
}

TEST(GpuExecutorTest, OutOfBoundsLocalArrayIsAFaultWithSourceLocation) {
  auto executor = MakeExecutor("oob.fz");
  ASSERT_NE(executor, nullptr);
  EXPECT_GT(executor->kernel().module.bounds_checks, 0u);
  absl::StatusOr<BatchResult> fine = executor->Execute(Bytes{7});
  ASSERT_TRUE(fine.ok()) << fine.status();
  for (const Find& f : fine->finds) EXPECT_FALSE(IsBug(f.kind));
  absl::StatusOr<BatchResult> r = executor->Execute(Bytes{200});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->finds.size(), 1u);
  EXPECT_EQ(r->finds[0].kind, Find::Kind::kOutOfBounds);
  EXPECT_EQ(r->finds[0].code, 200u);  // the index
  EXPECT_EQ(r->finds[0].aux, 8u);     // the array's length
  EXPECT_EQ(r->finds[0].function, "fill");
  EXPECT_EQ(r->finds[0].line, 7u);
  EXPECT_NE(r->finds[0].file.find("oob.fz"), std::string::npos);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuExecutorTest, FirstBugOfAnExecutionWins) {
  auto executor = MakeExecutor("fault_order.fz");
  ASSERT_NE(executor, nullptr);
  absl::StatusOr<BatchResult> oob = executor->Execute(Bytes{'o', 9});
  ASSERT_TRUE(oob.ok()) << oob.status();
  ASSERT_EQ(oob->finds.size(), 1u);
  EXPECT_EQ(oob->finds[0].kind, Find::Kind::kOutOfBounds);
  EXPECT_EQ(oob->finds[0].code, 9u);
  EXPECT_EQ(oob->finds[0].aux, 4u);
  EXPECT_EQ(oob->finds[0].line, 11u);
  absl::StatusOr<BatchResult> crash = executor->Execute(Bytes{'c', 9});
  ASSERT_TRUE(crash.ok()) << crash.status();
  ASSERT_EQ(crash->finds.size(), 1u);
  EXPECT_EQ(crash->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(crash->finds[0].code, 3u);
  absl::StatusOr<BatchResult> fine = executor->Execute(Bytes{'o', 3});
  ASSERT_TRUE(fine.ok()) << fine.status();
  ASSERT_EQ(fine->finds.size(), 1u);  // the crash after an in-bounds write
  EXPECT_EQ(fine->finds[0].kind, Find::Kind::kCrash);
  EXPECT_EQ(fine->finds[0].code, 2u);
}

TEST(GpuExecutorTest, CrashNamesItsSourceLine) {
  auto executor = MakeExecutor("magic.fz");
  ASSERT_NE(executor, nullptr);
  absl::StatusOr<BatchResult> crash = executor->Execute(Str("FUZ!"));
  ASSERT_TRUE(crash.ok());
  ASSERT_EQ(crash->finds.size(), 1u);
  EXPECT_EQ(crash->finds[0].function, "fz_target");
  EXPECT_EQ(crash->finds[0].line, 15u);
}

TEST(GpuExecutorTest, InfiniteLoopBecomesTimeout) {
  auto executor = MakeExecutor("hang.fz");
  ASSERT_NE(executor, nullptr);
  absl::StatusOr<BatchResult> r = executor->Execute(Str("H"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->finds.size(), 1u);
  EXPECT_EQ(r->finds[0].kind, Find::Kind::kTimeout);
  EXPECT_GT(r->finds[0].aux, executor->exec_steps());
}

// Hit counts are features per block, bucketed 1, 2, 3, 4-7, 8-15, ...: the
// same edges taken a number of times in a new bucket are new coverage, a
// number in a bucket already seen is not.
TEST(GpuExecutorTest, BlockHitCountsAreBucketedFeatures) {
  auto executor = MakeExecutor("hits.fz");
  ASSERT_NE(executor, nullptr);
  auto is_new = [&](int xs) {
    std::string input = std::string(xs, 'x') + std::string(8 - xs, '.');
    absl::StatusOr<BatchResult> r = executor->Execute(Str(input));
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() && !r->finds.empty();
  };
  EXPECT_TRUE(is_new(1));   // first input
  EXPECT_TRUE(is_new(2));   // bucket 2
  EXPECT_TRUE(is_new(3));   // bucket 3
  EXPECT_TRUE(is_new(4));   // bucket 4-7
  EXPECT_FALSE(is_new(5));  // 4-7 again
  EXPECT_FALSE(is_new(7));
  EXPECT_FALSE(is_new(2));
  EXPECT_TRUE(is_new(8));  // bucket 8-15 (its edges are a subset of seen ones)
}

// hits.fz loops 8 times on inputs of 8 bytes or more and not at all on
// shorter ones: the mutants of a long parent cost more loop iterations than
// those of a short one, and each slot's cost names its parent.
TEST(GpuExecutorTest, BatchReportsWhatEachParentsMutantsCost) {
  auto executor = MakeExecutor("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.x.x")).ok());  // 0: loops
  ASSERT_TRUE(executor->AddInput(Str("x.")).ok());           // 1: mostly not
  std::vector<WorkItem> work = HavocWork(8, 500, 1);
  for (size_t i = 0; i < work.size(); ++i) {
    work[i].parent = static_cast<uint32_t>(i % 2);
  }
  absl::StatusOr<BatchResult> r = executor->RunBatch(work, 3);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->costs.size(), work.size());
  uint64_t executions[2] = {0, 0}, steps[2] = {0, 0};
  for (const ParentCost& cost : r->costs) {
    ASSERT_LT(cost.parent, 2u);
    executions[cost.parent] += cost.executions;
    steps[cost.parent] += cost.steps;
    // At most 9 loop-header visits per execution (8 iterations and the
    // exit test).
    EXPECT_LE(cost.steps, 9 * cost.executions);
  }
  EXPECT_EQ(executions[0] + executions[1], r->executions);
  ASSERT_GT(executions[0], 0u);
  ASSERT_GT(executions[1], 0u);
  const double long_parent = double(steps[0]) / double(executions[0]);
  const double short_parent = double(steps[1]) / double(executions[1]);
  EXPECT_GT(long_parent, 6.0);
  EXPECT_LT(short_parent, 2.0);
}

// The device clock (VK_KHR_shader_clock's device scope, which lavapipe
// has) times each find and each work item's first mutant. Checked against
// the device's timestamps: put on their timeline with the executor's tick
// length, every find and every first mutant falls inside its own batch.
// The clock's zero is unknown, so the check is that one offset puts all of
// them inside (the interval of offsets each event allows, intersected over
// all events, is not empty): a claim's delay after its batch's start
// varies with the host's load, so no single event can serve as the zero.
TEST(GpuExecutorTest, DeviceClockTimesFindsAndFirstMutantsInTheirBatches) {
  auto executor = MakeExecutor("many_paths.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("0")).ok());  // byte 48: no path
  std::vector<BatchResult> batches;
  size_t finds = 0;
  for (int b = 0; b < 4; ++b) {
    // Idle gaps between the batches, longer than a batch: an event put
    // into the wrong batch, or a tick length off by a tenth, leaves no
    // offset that fits all.
    if (b > 0) absl::SleepFor(absl::Milliseconds(10));
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(HavocWork(8, 200, 2), 11 + b);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->device_start.has_value());
    ASSERT_TRUE(r->device_end.has_value());
    ASSERT_FALSE(r->costs.empty());
    finds += r->finds.size();
    batches.push_back(*std::move(r));
  }
  ASSERT_GT(finds, 0u);
  const double tick_ns = batches.back().clock_tick_ns;
  ASSERT_GT(tick_ns, 0);
  const absl::Duration origin = *batches.front().device_start;
  uint64_t zero = ~uint64_t{0};
  for (const ParentCost& cost : batches.front().costs) {
    ASSERT_NE(cost.first_clock, 0u);
    zero = std::min(zero, cost.first_clock);
  }
  // An event at `tick` is at origin + offset + since(tick).
  auto since = [&](uint64_t tick) {
    return absl::Nanoseconds(
        static_cast<double>(static_cast<int64_t>(tick - zero)) * tick_ns);
  };
  absl::Duration lowest = -absl::InfiniteDuration();
  absl::Duration highest = absl::InfiniteDuration();
  std::string lowest_by, highest_by;
  for (size_t b = 0; b < batches.size(); ++b) {
    const BatchResult& r = batches[b];
    // The tick length's error over the span from the first batch, and the
    // granularity of the timestamps.
    const absl::Duration slack =
        absl::Microseconds(250) + (*r.device_end - origin) / 50;
    auto allow = [&](uint64_t tick, const char* what) {
      ASSERT_NE(tick, 0u) << "batch " << b << ": " << what << " untimed";
      const absl::Duration low = *r.device_start - slack - origin - since(tick);
      const absl::Duration high = *r.device_end + slack - origin - since(tick);
      const std::string by = absl::StrCat("batch ", b, "'s ", what);
      if (low > lowest) {
        lowest = low;
        lowest_by = by;
      }
      if (high < highest) {
        highest = high;
        highest_by = by;
      }
    };
    for (const ParentCost& cost : r.costs) allow(cost.first_clock, "mutant");
    for (const Find& find : r.finds) allow(find.device_clock, "find");
  }
  EXPECT_LE(lowest, highest)
      << lowest_by << " needs an offset of at least " << lowest << ", "
      << highest_by << " one of at most " << highest;
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuExecutorTest, BatchCountsEveryExecutionAndFindsTheBug) {
  auto executor = MakeExecutor("magic.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("FUZa")).ok());
  const std::vector<WorkItem> work = HavocWork(8, 1000, 2);
  bool crashed = false;
  uint64_t total = 0;
  for (int batch = 0; batch < 50 && !crashed; ++batch) {
    absl::StatusOr<BatchResult> r = executor->RunBatch(work, batch);
    ASSERT_TRUE(r.ok()) << r.status();
    total += r->executions;
    for (const Find& f : r->finds) {
      if (f.kind == Find::Kind::kCrash) {
        crashed = true;
        EXPECT_EQ(f.code, 7u);
        ASSERT_GE(f.data.size(), 4u);
        EXPECT_EQ(f.data[3], 33u);
      }
    }
    if (!crashed) EXPECT_EQ(r->executions, 8000u);
  }
  EXPECT_TRUE(crashed) << "after " << total << " executions";
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A fault stops the batch (without -keep_going): no slot published after
// it runs, also when the batch had candidates to re-run on the precise
// build first (their calibration must not clear the stop).
TEST(GpuExecutorTest, FaultStopsTheBatchEvenWithCandidatesPending) {
  auto executor = MakeExecutor("crash_or_new.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->signature_mode());
  ASSERT_TRUE(executor->AddInput(Str("AAAA")).ok());  // crashes
  ASSERT_TRUE(executor->AddInput(Str("zzzz")).ok());  // does not
  ASSERT_TRUE(executor->AddInput(Str("yyyy")).ok());  // does not
  ASSERT_TRUE(executor->launch_limits().has_value());
  const uint32_t ring = executor->launch_limits()->ring_slots;
  // Four ring-fulls (a dispatch each). The first starts with slots of a parent
  // whose mutants take new paths (candidates, claimed before any crash), then
  // the crashing parent; the other three, of a third parent, run only if the
  // stop was lost.
  std::vector<WorkItem> work = HavocWork(4 * ring, 64, 1);
  for (uint32_t i = 0; i < work.size(); ++i) {
    work[i].parent = i < ring / 4 ? 1 : i < ring ? 0 : 2;
  }
  absl::StatusOr<BatchResult> r = executor->RunBatch(work, 5);
  ASSERT_TRUE(r.ok()) << r.status();
  bool crashed = false;
  for (const Find& f : r->finds) crashed |= f.kind == Find::Kind::kCrash;
  ASSERT_TRUE(crashed);
  EXPECT_GT(executor->candidates_evaluated(), 0u)
      << "no candidates: the test does not exercise calibration";
  for (const ParentCost& cost : r->costs) {
    EXPECT_NE(cost.parent, 2u) << "a slot published after the crash ran";
  }
}

// A find queue too small for a round's finds loses none of them: the
// coverage of a find that did not fit stays new, so later rounds queue an
// input that reaches it. Checked against an independent run: the inputs
// kept (the seed and every find) reach, on a fresh executor, every block
// the fuzzing executor covered.
class SmallFindQueueTest
    : public ::testing::TestWithParam<GpuExecutorOptions::CoverageMode> {};

TEST_P(SmallFindQueueTest, DroppedFindsAreFoundAgain) {
  GpuExecutorOptions options;
  options.target_path = Data("many_paths.fz");
  options.device = "cpu";
  options.validation = true;
  options.coverage_mode = GetParam();
  options.find_capacity = 2;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> fuzzing =
      GpuExecutor::Create(options);
  ASSERT_TRUE(fuzzing.ok()) << fuzzing.status();
  std::vector<Bytes> kept = {Str("\x80z")};
  ASSERT_TRUE((*fuzzing)->AddInput(kept[0]).ok());
  uint64_t dropped = 0;
  std::vector<WorkItem> work = HavocWork(16, 256, 1);
  for (int round = 0; round < 60; ++round) {
    for (size_t i = 0; i < work.size(); ++i) {
      work[i].parent = static_cast<uint32_t>((i + round) % kept.size());
    }
    absl::StatusOr<BatchResult> r = (*fuzzing)->RunBatch(work, round + 1);
    ASSERT_TRUE(r.ok()) << r.status();
    dropped += r->dropped_finds;
    for (const Find& find : r->finds) {
      kept.push_back(find.data);
      ASSERT_TRUE((*fuzzing)->AddInput(find.data).ok());
    }
  }
  EXPECT_GT(dropped, 0u) << "the queue never overflowed: nothing tested";
  options.find_capacity = 0;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kPrecise;
  absl::StatusOr<std::unique_ptr<GpuExecutor>> replay =
      GpuExecutor::Create(options);
  ASSERT_TRUE(replay.ok()) << replay.status();
  for (const Bytes& input : kept) {
    ASSERT_TRUE((*replay)->Execute(input).ok());
  }
  const std::vector<bool> covered = (*fuzzing)->CoveredSites();
  const std::vector<bool> reached = (*replay)->CoveredSites();
  ASSERT_EQ(covered.size(), reached.size());
  size_t blocks = 0;
  for (size_t site = 0; site < covered.size(); ++site) {
    blocks += covered[site];
    EXPECT_EQ(covered[site], reached[site]) << "block " << site;
  }
  EXPECT_GT(blocks, 20u);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, SmallFindQueueTest,
    ::testing::Values(GpuExecutorOptions::CoverageMode::kPrecise,
                      GpuExecutorOptions::CoverageMode::kSignature));

// The stop check ends a batch early (a time budget or an interrupt must
// not wait for a long batch), counting what ran.
TEST(GpuExecutorTest, StopCheckEndsALongBatchEarly) {
  auto executor = MakeExecutor("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.")).ok());
  // A first batch pays for lavapipe's first use of the pipelines.
  ASSERT_TRUE(executor->RunBatch(HavocWork(4, 64, 1), 3).ok());
  const std::vector<WorkItem> work = HavocWork(256, 200000, 1);
  const absl::Time stop_at = absl::Now() + absl::Milliseconds(300);
  executor->SetStopCheck([stop_at] { return absl::Now() >= stop_at; });
  absl::StatusOr<BatchResult> r = executor->RunBatch(work, 1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->executions, 0u);
  EXPECT_LT(r->executions, uint64_t{256} * 200000 / 4);
  executor->SetStopCheck(nullptr);
  // The executor goes on: the next batch runs whole.
  absl::StatusOr<BatchResult> next = executor->RunBatch(HavocWork(4, 64, 1), 2);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->executions, 256u);
}

// A dispatch that outlives its timeout fences the executor off: every
// later call that would run something, or free a buffer the dispatch may
// still use, fails with a clear error, and destruction returns.
TEST(GpuExecutorTest, ATimedOutDispatchFencesTheExecutorOff) {
  GpuExecutorOptions options;
  options.target_path = Data("hits.fz");
  options.device = "cpu";
  options.dispatch_timeout = absl::Microseconds(1);
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  ASSERT_TRUE(executor.ok()) << executor.status();
  ASSERT_TRUE((*executor)->AddInput(Str("x.x.x.x.")).ok());
  absl::StatusOr<BatchResult> r =
      (*executor)->RunBatch(HavocWork(64, 100000, 1), 1);
  ASSERT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded)
      << r.status();
  EXPECT_TRUE((*executor)->hung());
  absl::StatusOr<BatchResult> again =
      (*executor)->RunBatch(HavocWork(1, 64, 1), 2);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(again.status().message()),
              ::testing::HasSubstr("the device is hung"));
  EXPECT_EQ((*executor)->Execute(Str("x")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*executor)->SetDictionary({Str("ab")}).code(),
            absl::StatusCode::kFailedPrecondition);
}

// -max_len=5 means inputs of at most 5 bytes, though the build holds
// whole words: hits.fz's loop needs 8 bytes and is never reached.
TEST(GpuExecutorTest, MaxLenIsExactNotRoundedToWords) {
  auto executor = MakeExecutor("hits.fz", 5);
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(executor->max_len(), 5u);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.x.")).ok());  // truncated
  size_t finds = 0;
  for (int batch = 0; batch < 4; ++batch) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(HavocWork(16, 256, 4), batch);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& find : r->finds) {
      EXPECT_LE(find.data.size(), 5u);
      ++finds;
    }
  }
  absl::StatusOr<BatchResult> whole = executor->Execute(Str("xxxxxxxxxx"));
  ASSERT_TRUE(whole.ok());
  for (const Find& find : whole->finds) EXPECT_LE(find.data.size(), 5u);
}

// Slots whose lanes run out of loop budget in a dispatch are requeued and
// resume where each lane stopped: a batch runs every execution it asked
// for, no more, even when that takes several dispatches.
TEST(GpuExecutorTest, SlotsOutOfLoopBudgetResumeAndRunEveryExecution) {
  auto executor = MakeExecutor("hits.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("x.x.x.x.")).ok());
  // 8 slots of 100,000 mutants: 1,563 per lane, more loop steps than one
  // lavapipe dispatch allows a lane.
  absl::StatusOr<BatchResult> r =
      executor->RunBatch(HavocWork(8, 100000, 1), 4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->executions, 800000u);
  uint64_t by_slot = 0;
  for (const ParentCost& cost : r->costs) by_slot += cost.executions;
  EXPECT_EQ(by_slot, 800000u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Inputs longer than the register form (256 bytes) are loaded and mutated
// with loops, whose iterations count against lavapipe's loop limit: a full
// ring of slots, deep stacks, two mutants per lane, all of them run. (The
// per-mutant reserve once counted a whole stack per execution and no slot
// claims: the step budget admitted one mutant per lane, and a requeued
// slot whose claiming lane had skipped many finished slots never ran.)
TEST(GpuExecutorTest, LongInputsRunEveryExecutionOfAFullRing) {
  auto executor = MakeExecutor("hits.fz", /*max_len=*/4096);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Bytes(3000, 'x')).ok());
  const uint32_t slots = executor->launch_limits()->ring_slots;
  absl::StatusOr<BatchResult> r =
      executor->RunBatch(HavocWork(slots, 128, 8), 5);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->executions, uint64_t{slots} * 128);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Compare-table entry `site` as (a, b).
std::pair<uint32_t, uint32_t> CompareEntry(const GpuExecutor& executor,
                                           uint32_t site) {
  const uint8_t* bytes = executor.control_bytes().data();
  uint32_t words[RF_CMP_ENTRY_WORDS];
  std::memcpy(words, bytes + (RF_RES_CMP + RF_CMP_ENTRY_WORDS * site) * 4,
              sizeof(words));
  return {words[RF_CMP_A], words[RF_CMP_B]};
}

TEST(GpuExecutorTest, SwitchRecordsSelectorAndNearestOtherCase) {
  auto executor = MakeExecutor("switch.fz");
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(executor->kernel().module.switch_sites, 1u);
  using Entry = std::pair<uint32_t, uint32_t>;
  ASSERT_TRUE(executor->Execute(Bytes{0x12}).ok());
  // 0x12 is 1 bit from 0x10, 5 from 0x7F, 4 from 0xC3.
  EXPECT_EQ(CompareEntry(*executor, 0), Entry(0x12u, 0x10u));
  ASSERT_TRUE(executor->Execute(Bytes{0x7F}).ok());
  // The selector's own case is skipped: 0xC3 is 5 bits away, 0x10 6.
  EXPECT_EQ(CompareEntry(*executor, 0), Entry(0x7Fu, 0xC3u));
  ASSERT_TRUE(executor->Execute(Bytes{0x17}).ok());
  // A tie (3 bits from 0x10 and from 0x7F, 4 from 0xC3): the earlier case.
  EXPECT_EQ(CompareEntry(*executor, 0), Entry(0x17u, 0x10u));
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Without value profile an input on the same path is nothing new; with it,
// one whose compared word is closer to the magic is.
TEST(GpuExecutorTest, ValueProfileMakesCloserOperandsNewCoverage) {
  for (bool value_profile : {false, true}) {
    SCOPED_TRACE(value_profile ? "value profile" : "no value profile");
    auto executor = MakeExecutor("magic32.fz", 64, value_profile);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->Execute(Str("AAAA")).ok());
    const uint32_t features = executor->Coverage().features;
    absl::StatusOr<BatchResult> same = executor->Execute(Str("AAAA"));
    ASSERT_TRUE(same.ok());
    EXPECT_TRUE(same->finds.empty());
    absl::StatusOr<BatchResult> closer = executor->Execute(Str("FAAA"));
    ASSERT_TRUE(closer.ok()) << closer.status();
    if (value_profile) {
      ASSERT_EQ(closer->finds.size(), 1u);
      EXPECT_EQ(closer->finds[0].kind, Find::Kind::kNewCoverage);
      EXPECT_GT(closer->finds[0].new_bits, 0u);
      EXPECT_GT(executor->Coverage().features, features);
    } else {
      EXPECT_TRUE(closer->finds.empty());
      EXPECT_EQ(executor->Coverage().features, features);
    }
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

// Havoc batches on a target whose edges are all covered: only value-profile
// features can be new. In signature mode they must change the signature
// (else no candidate would reach the precise build once both paths are
// seen), and the precise build must confirm them.
TEST(GpuExecutorTest, ValueProfileFindsAreConfirmedInBothCoverageModes) {
  using Mode = GpuExecutorOptions::CoverageMode;
  for (Mode mode : {Mode::kSignature, Mode::kPrecise}) {
    for (bool value_profile : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << (mode == Mode::kSignature ? "signature" : "precise")
                   << (value_profile ? ", value profile" : ""));
      auto executor = MakeExecutor("magic32.fz", 16, value_profile, mode);
      ASSERT_NE(executor, nullptr);
      EXPECT_EQ(executor->signature_mode(), mode == Mode::kSignature);
      // lavapipe: the signature mode's havoc-class work has its own build.
      EXPECT_EQ(executor->havoc_build(), mode == Mode::kSignature);
      ASSERT_TRUE(executor->Execute(Str("AA")).ok());
      ASSERT_TRUE(executor->Execute(Str("AAAAAAAA")).ok());
      ASSERT_TRUE(executor->AddInput(Str("AAAAAAAA")).ok());
      const std::vector<WorkItem> work = HavocWork(4, 512, 2);
      size_t finds = 0;
      uint64_t candidates_before_last = 0;
      for (uint64_t seed : {1, 2}) {
        candidates_before_last = executor->candidates_evaluated();
        absl::StatusOr<BatchResult> r = executor->RunBatch(work, seed);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_EQ(r->executions, 2048u);
        for (const Find& f : r->finds) {
          EXPECT_EQ(f.kind, Find::Kind::kNewCoverage);
        }
        finds += r->finds.size();
      }
      if (value_profile) {
        EXPECT_GT(finds, 0u);
      } else {
        EXPECT_EQ(finds, 0u);
      }
      if (mode == Mode::kSignature && value_profile) {
        EXPECT_GT(executor->candidates_evaluated(), candidates_before_last);
      }
      EXPECT_EQ(executor->validation_messages(), 0u)
          << executor->last_validation_message();
    }
  }
}

TEST(GpuExecutorTest, BrokenTargetNamesFileAndLine) {
  GpuExecutorOptions options;
  options.target_path = Data("broken.fz");
  options.device = "cpu";
  absl::StatusOr<std::unique_ptr<GpuExecutor>> executor =
      GpuExecutor::Create(options);
  ASSERT_FALSE(executor.ok());
  EXPECT_NE(executor.status().message().find("broken.fz:4"), std::string::npos)
      << executor.status();
}

}  // namespace
}  // namespace ringfuzz
