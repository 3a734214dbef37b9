// Overlapped rounds carry the compare logs of new corpus inputs and their
// length trials in a flight's first slots instead of stopping the
// pipeline to run them alone (GpuExecutor::PlanServiceRuns).
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "fuzz/gpu/length_to_state.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::Str;
using gpu_test::Work;

std::unique_ptr<GpuExecutor> MakeOverlapped(const std::string& target,
                                            uint32_t max_len = 64,
                                            uint32_t ring_slots = 0,
                                            bool colorize = true) {
  GpuExecutorOptions options = gpu_test::CpuOptions(target, max_len);
  options.colorize = colorize;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kPrecise;
  options.overlap = GpuExecutorOptions::Overlap::kOn;
  options.ring_slots = ring_slots;
  options.keep_going = true;  // a crash does not end a flight early
  return gpu_test::MakeExecutor(options);
}

// The first flight logs the new input while its work runs; its executions
// are the work's only, and the input's patches are there once it is
// collected.
TEST(GpuOverlapServiceTest, AFlightLogsNewInputsBesideItsWork) {
  auto executor = MakeOverlapped("magic32.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("AAAA")).ok());
  EXPECT_EQ(executor->logged_inputs(), 0u);
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 100), 1).ok());
  EXPECT_EQ(executor->logged_inputs(), 0u);  // not waited for
  absl::StatusOr<BatchResult> r = executor->CollectBatch();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->executions, 4u * 100u);
  EXPECT_EQ(r->costs.size(), 4u);
  EXPECT_EQ(executor->logged_inputs(), 1u);
  const std::vector<InputPatch> patches = executor->InputToStatePatches(0);
  const InputPatch solving{0, 4, 0x5A5A5546u};
  EXPECT_NE(std::find(patches.begin(), patches.end(), solving), patches.end());
  // CMP work on it now finds the bug.
  bool found = false;
  for (uint64_t seed = 2; seed < 6 && !found; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_CMP, 4, 100), seed).ok());
    absl::StatusOr<BatchResult> cmp = executor->CollectBatch();
    ASSERT_TRUE(cmp.ok()) << cmp.status();
    for (const Find& f : cmp->finds) {
      if (f.kind != Find::Kind::kCrash) continue;
      found = true;
      EXPECT_FALSE(f.host_trial);  // a CMP mutant of a ring slot
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// An input's probe pass (fuzz/gpu/linear_to_state.h) runs in a later
// flight than its log, once no urgent trial waits (here: after
// kProbeIdleFlights flights without service runs): the log's flight
// carries no probe copies. Its linear-to-state trial then finds
// linear.fz's bug (in[1] + 3 * in[2] + 700 * in[4] == 50000) as a CMP
// trial of the input.
TEST(GpuOverlapServiceTest, ProbesRunAfterTheLogAndTheirTrialsAfterThem) {
  auto executor = MakeOverlapped("linear.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("ABCDEFGH")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 16), 1).ok());
  absl::StatusOr<BatchResult> first = executor->CollectBatch();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(executor->logged_inputs(), 1u);
  EXPECT_EQ(executor->probed_inputs(), 0u);
  std::vector<Find> crashes;
  const uint64_t most = 8 + GpuExecutor::kProbeIdleFlights;
  for (uint64_t seed = 2; seed < most && crashes.empty(); ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 16), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (f.kind == Find::Kind::kCrash) crashes.push_back(f);
    }
  }
  EXPECT_EQ(executor->probed_inputs(), 1u);
  ASSERT_EQ(crashes.size(), 1u);
  EXPECT_EQ(std::string(crashes[0].data.begin(), crashes[0].data.end()),
            "ABNDGFGH");
  EXPECT_TRUE(crashes[0].host_trial);
  EXPECT_EQ(crashes[0].mutations, std::vector<uint32_t>{RF_MUT_CMP});
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A flight of its own carries the probe passes of several inputs at once
// (GpuExecutor::kProbedInputsPerOwnFlight): inputs logged together are
// probed together, not one flight each, and each one's trial comes back
// as its own.
TEST(GpuOverlapServiceTest, AFlightOfItsOwnProbesSeveralInputs) {
  auto executor = MakeOverlapped("linear.fz");
  ASSERT_NE(executor, nullptr);
  const std::vector<std::string> inputs = {"ABCDEFGH", "abcdefgh", "01234567"};
  for (const std::string& input : inputs) {
    ASSERT_TRUE(executor->AddInput(Str(input)).ok());
  }
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 16), 1).ok());
  ASSERT_TRUE(executor->CollectBatch().ok());
  ASSERT_EQ(executor->logged_inputs(), 3u);
  std::vector<uint32_t> probed = {executor->probed_inputs()};
  std::vector<uint32_t> parents;
  const uint64_t most = 8 + 2 * GpuExecutor::kProbeIdleFlights;
  for (uint64_t seed = 2; seed < most && parents.size() < 3; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 16), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    if (executor->probed_inputs() != probed.back()) {
      probed.push_back(executor->probed_inputs());
    }
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash) continue;
      EXPECT_TRUE(f.host_trial);
      EXPECT_EQ(f.mutations, std::vector<uint32_t>{RF_MUT_CMP});
      const uint32_t sum = f.data[1] + 3u * f.data[2] + 700u * f.data[4];
      EXPECT_EQ(sum, 50000u);
      parents.push_back(f.parent);
    }
  }
  EXPECT_EQ(probed, (std::vector<uint32_t>{0, 3}));
  std::sort(parents.begin(), parents.end());
  EXPECT_EQ(parents, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// The length trials the log names run in the next flight, and their finds
// come back as the input's LengthToState mutants.
TEST(GpuOverlapServiceTest, LengthTrialsRunInTheNextFlight) {
  auto executor = MakeOverlapped("long_input.fz", 128);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("abcd")).ok());
  std::vector<size_t> lengths;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 2, 16), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->executions, 2u * 16u);
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash) continue;
      EXPECT_EQ(f.parent, 0u);
      EXPECT_EQ(f.mutations, std::vector<uint32_t>{RF_MUT_LENGTH});
      EXPECT_TRUE(f.host_trial);
      EXPECT_EQ(f.data, ResizeInput(Str("abcd"), f.data.size()));
      lengths.push_back(f.data.size());
    }
  }
  EXPECT_EQ(lengths, (std::vector<size_t>{100, 101}));
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A batch that fills the ring gives its last items up to the log (and
// says so in its executions): new inputs are logged all the same. (Without
// colored copies, whose runs would take a second slot.)
TEST(GpuOverlapServiceTest, AFullRingMakesRoomForTheLog) {
  auto executor = MakeOverlapped("magic32.fz", 64, /*ring_slots=*/4,
                                 /*colorize=*/false);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("AAAA")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 100), 1).ok());
  absl::StatusOr<BatchResult> r = executor->CollectBatch();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->executions, 3u * 100u);
  EXPECT_EQ(executor->logged_inputs(), 1u);
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 100), 2).ok());
  absl::StatusOr<BatchResult> next = executor->CollectBatch();
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(next->executions, 4u * 100u);
}

// Service runs more than one dispatch's loop budget can finish (on
// lavapipe: the compare logs of 48 inputs of 200 bytes through a target
// that scans its input, and their repetition trials or not): the flight is
// drained, and its executions are still the work's only, never more than
// asked.
void ExpectOnlyTheWorksExecutions(bool repeat_trials) {
  GpuExecutorOptions options = gpu_test::CpuOptions("needle.fz", 1024);
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kPrecise;
  options.overlap = GpuExecutorOptions::Overlap::kOn;
  options.keep_going = true;
  options.repeat_trials = repeat_trials;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  for (int i = 0; i < 48; ++i) {
    std::string input(200, 'a');
    for (int j = 0; j < 200; j += 7) input[j] = static_cast<char>('b' + i);
    ASSERT_TRUE(executor->AddInput(Str(input)).ok());
  }
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 2, 16), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_LE(r->executions, 2u * 16u) << "flight " << seed;
  }
  EXPECT_EQ(executor->logged_inputs(), 48u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

TEST(GpuOverlapServiceTest, UnfinishedServiceRunsAreNotTheWorksExecutions) {
  ExpectOnlyTheWorksExecutions(/*repeat_trials=*/false);
}

TEST(GpuOverlapServiceTest, UnfinishedRepeatTrialsAreNotTheWorksExecutions) {
  ExpectOnlyTheWorksExecutions(/*repeat_trials=*/true);
}

}  // namespace
}  // namespace ringfuzz
