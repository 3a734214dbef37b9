// Overlapped rounds with a signature build (GpuExecutor::SubmitBatch): the
// flights fuzz with the signature build; a flight with service runs (compare
// logs of new inputs, length trials, the signature candidates of earlier
// flights) runs the precise build with its work cut, and is off pace.
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using gpu_test::Str;
using gpu_test::Work;

std::unique_ptr<GpuExecutor> MakeSignatureFlights(const std::string& target,
                                                  bool colorize = true) {
  GpuExecutorOptions options = gpu_test::CpuOptions(target);
  options.colorize = colorize;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kSignature;
  options.overlap = GpuExecutorOptions::Overlap::kOn;
  options.keep_going = true;  // a crash does not end a flight early
  return gpu_test::MakeExecutor(options);
}

// The first flight logs the new input, so it runs the precise build: less
// work than asked, off pace. Once nothing waits for the precise build, a
// flight runs all of its work on the signature build.
TEST(GpuSignatureFlightsTest, OnlyFlightsWithServiceRunsAreCutAndOffPace) {
  auto executor = MakeSignatureFlights("magic32.fz");
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->signature_mode());
  ASSERT_EQ(executor->overlap(), 2u);
  ASSERT_TRUE(executor->AddInput(Str("AAAA")).ok());
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 400), 1).ok());
  absl::StatusOr<BatchResult> first = executor->CollectBatch();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->off_pace);
  EXPECT_GT(first->executions, 0u);
  EXPECT_LT(first->executions, 4u * 400u);
  EXPECT_EQ(executor->logged_inputs(), 1u);
  bool on_pace = false;
  for (uint64_t seed = 2; seed < 12 && !on_pace; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 400), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    if (r->off_pace) {
      EXPECT_LT(r->executions, 4u * 400u);
      continue;
    }
    on_pace = true;
    EXPECT_EQ(r->executions, 4u * 400u);
  }
  EXPECT_TRUE(on_pace);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// New coverage found by the signature build comes back from the precise
// build's judgement in a later flight, as the mutant of its parent that the
// signature build ran; crashes come back from the flight that found them.
TEST(GpuSignatureFlightsTest, CandidatesComeBackAsFindsOfTheirMutation) {
  // Without colored copies: their compare logs would reach some of the
  // target's paths before any mutant does.
  auto executor = MakeSignatureFlights("many_paths.fz", /*colorize=*/false);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("zzzz")).ok());
  const size_t covered_before = executor->Coverage().features;
  size_t new_coverage = 0;
  for (uint64_t seed = 1; seed < 30 && new_coverage < 5; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 200), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      // (The first flight's compare log of the input reports the input's
      // own coverage, as a CMPLOG find.)
      if (f.kind != Find::Kind::kNewCoverage || f.opcode == RF_OP_CMPLOG) {
        continue;
      }
      ++new_coverage;
      // Judged by the precise build: in a flight that ran it.
      EXPECT_TRUE(r->off_pace);
      EXPECT_EQ(f.parent, 0u);
      EXPECT_EQ(f.opcode, static_cast<uint32_t>(RF_OP_HAVOC));
      EXPECT_FALSE(f.mutations.empty());
      ASSERT_FALSE(f.data.empty());
      EXPECT_LT(f.data[0], 48u);  // a path the seed does not take
    }
  }
  EXPECT_GE(new_coverage, 5u);
  EXPECT_GT(executor->Coverage().features, covered_before);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

}  // namespace
}  // namespace ringfuzz
