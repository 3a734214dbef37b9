// Overlapped rounds with a signature build (GpuExecutor::SubmitBatch): the
// flights fuzz with the signature build; a flight with service runs (compare
// logs of new inputs, length trials, the signature candidates of earlier
// flights) runs the precise build with its work cut, and is off pace; it
// also runs the first mutants of the candidates it judges.
#include <cstring>
#include <set>
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
    // All of its work, but what a cut on an urgent find left unclaimed.
    EXPECT_EQ(r->executions + r->cut_executions, 4u * 400u);
  }
  EXPECT_TRUE(on_pace);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// -cut_rounds: a round of the signature build that finds new (counter,
// hit-count class) pairs claims no more slots (RF_PUSH_CUT_ON_FIND), with
// or without overlap; what it left is reported as not run, and its
// candidates still come back as finds. Without the option a round runs all
// of its work.
TEST(GpuSignatureFlightsTest, ARoundThatFindsNewClassesCutsItself) {
  for (const bool overlap : {false, true}) {
    for (const bool cut_rounds : {false, true}) {
      SCOPED_TRACE(testing::Message()
                   << "overlap " << overlap << ", cut_rounds " << cut_rounds);
      GpuExecutorOptions options = gpu_test::CpuOptions("many_paths.fz");
      options.colorize = false;
      options.coverage_mode = GpuExecutorOptions::CoverageMode::kSignature;
      options.overlap = overlap ? GpuExecutorOptions::Overlap::kOn
                                : GpuExecutorOptions::Overlap::kOff;
      options.cut_rounds = cut_rounds;
      auto executor = gpu_test::MakeExecutor(options);
      ASSERT_NE(executor, nullptr);
      ASSERT_TRUE(executor->AddInput(Str("zzzz")).ok());
      ASSERT_TRUE(executor->Execute(Str("zzzz")).ok());
      // 48 new paths one byte away from the seed: the first slots find
      // some, long before the last of the 64 slots is claimed.
      constexpr uint64_t kWork = 64ull * 4096;
      uint64_t cut = 0, finds = 0;
      for (uint64_t seed = 1; seed < 4; ++seed) {
        absl::StatusOr<BatchResult> r;
        if (overlap) {
          ASSERT_TRUE(
              executor->SubmitBatch(Work(RF_OP_HAVOC, 64, 4096), seed).ok());
          r = executor->CollectBatch();
        } else {
          r = executor->RunBatch(Work(RF_OP_HAVOC, 64, 4096), seed);
        }
        ASSERT_TRUE(r.ok()) << r.status();
        if (r->off_pace) continue;  // a flight with the precise build's runs
        EXPECT_EQ(r->executions + r->cut_executions, kWork);
        cut += r->cut_executions;
        finds += r->finds.size();
      }
      if (cut_rounds) {
        EXPECT_GT(cut, 0u);
      } else {
        EXPECT_EQ(cut, 0u);
      }
      if (!overlap) EXPECT_GT(finds, 0u) << "the candidates were judged";
      EXPECT_EQ(executor->validation_messages(), 0u)
          << executor->last_validation_message();
    }
  }
}

// A round's own cut stops the slots it had claimed, not only the ones it
// had not: one slot of many mutants per lane, whose first mutants reach new
// paths, runs a few rounds of mutants per lane after the first find (it
// is seen at the next look at the control words), not its whole count.
TEST(GpuSignatureFlightsTest, ACutStopsTheSlotsTheRoundHadClaimed) {
  GpuExecutorOptions options = gpu_test::CpuOptions("many_paths.fz");
  options.colorize = false;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kSignature;
  options.overlap = GpuExecutorOptions::Overlap::kOff;
  options.cut_rounds = true;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("zzzz")).ok());
  ASSERT_TRUE(executor->Execute(Str("zzzz")).ok());
  // 4,096 mutants a lane; a lane looks at the control words every 16.
  constexpr uint32_t kCount = 64u * 4096u;
  uint32_t cut_rounds = 0;
  for (uint64_t seed = 1; seed < 4; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(Work(RF_OP_HAVOC, 1, kCount), seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->executions + r->cut_executions, kCount);
    if (r->cut_executions == 0) continue;
    ++cut_rounds;
    EXPECT_LT(r->executions, kCount / 8) << "the claimed slot ran on";
  }
  EXPECT_GT(cut_rounds, 0u);
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
  // The seed's own coverage first, as the engine runs its seeds: else the
  // first flight's mutants that take the seed's path race its compare log
  // to report it.
  ASSERT_TRUE(executor->Execute(Str("zzzz")).ok());
  const size_t covered_before = executor->Coverage().features;
  size_t new_coverage = 0, signature_flights = 0;
  for (uint64_t seed = 1; seed < 30 && new_coverage < 5; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 200), seed).ok());
    const bool adds_no_inputs = executor->OldestBatchAddsNoInputs();
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    // A flight of the signature build says so before it is collected, and
    // reports bugs only: its candidates come back from a later flight.
    EXPECT_EQ(adds_no_inputs, !r->off_pace) << "seed " << seed;
    for (const Find& f : r->finds) {
      if (adds_no_inputs) EXPECT_TRUE(IsBug(f.kind)) << "seed " << seed;
    }
    signature_flights += adds_no_inputs;
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
  EXPECT_GT(signature_flights, 0u);
  EXPECT_GT(executor->Coverage().features, covered_before);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A precise flight also runs mutants of the candidates it judges: a
// candidate it confirms comes back with the device clock of its first
// mutant, after the execution that found it; the mutants' own finds name
// a corpus parent (the candidate's).
TEST(GpuSignatureFlightsTest, ConfirmedCandidatesComeBackWithTheirFirstMutant) {
  auto executor = MakeSignatureFlights("many_paths.fz", /*colorize=*/false);
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(Str("zzzz")).ok());
  size_t confirmed = 0, finds = 0;
  for (uint64_t seed = 1; seed < 30 && confirmed < 3; ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_HAVOC, 4, 200), seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (f.opcode == RF_OP_CMPLOG) continue;
      ++finds;
      EXPECT_EQ(f.parent, 0u);  // the only corpus input
      if (f.first_mutant_clock == 0) continue;
      ++confirmed;
      EXPECT_TRUE(r->off_pace);
      EXPECT_NE(f.device_clock, 0u);
      EXPECT_GT(f.first_mutant_clock, f.device_clock);
    }
  }
  EXPECT_GE(confirmed, 3u);
  EXPECT_GE(finds, confirmed);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Candidates that only recombine known hit-count classes wait: with only
// such candidates waiting (no compare log or length trial due, no
// candidate with a new class), a flight runs the signature build, on pace,
// until GpuExecutor::kCombinationWaitFlights flights were planned without
// service runs since the last flight with them; the next one judges them
// on the precise build.
TEST(GpuSignatureFlightsTest, CombinationsAloneWaitForTheirTurn) {
  auto executor = MakeSignatureFlights("combinations.fz", /*colorize=*/false);
  ASSERT_NE(executor, nullptr);
  // Eight seeds, each failing one check: together they reach every block.
  for (size_t k = 0; k < 8; ++k) {
    Bytes seed = Str("ABCDEFGH");
    seed[k] = 'z';
    ASSERT_TRUE(executor->AddInput(seed).ok());
    ASSERT_TRUE(executor->Execute(seed).ok());
  }
  std::vector<WorkItem> work = Work(RF_OP_HAVOC, 8, 100);
  for (size_t i = 0; i < work.size(); ++i) {
    work[i].parent = static_cast<uint32_t>(i);
  }
  uint32_t without_service = 0;
  size_t waited = 0, judged = 0;
  for (uint64_t seed = 1; seed < 60 && (waited < 2 || judged < 2); ++seed) {
    const bool combinations_only = executor->logged_inputs() == 8 &&
                                   executor->trials_waiting() > 0 &&
                                   executor->urgent_trials_waiting() == 0;
    ASSERT_TRUE(executor->SubmitBatch(work, seed).ok());
    absl::StatusOr<BatchResult> r = executor->CollectBatch();
    ASSERT_TRUE(r.ok()) << r.status();
    if (combinations_only) {
      if (without_service < GpuExecutor::kCombinationWaitFlights) {
        EXPECT_FALSE(r->off_pace) << "seed " << seed;
        ++waited;
      } else {
        EXPECT_TRUE(r->off_pace) << "seed " << seed;
        ++judged;
      }
    }
    // Flights run one at a time here: a precise (off-pace) flight is one
    // that was planned with service runs.
    without_service = r->off_pace ? 0 : without_service + 1;
  }
  EXPECT_GE(waited, 2u);
  EXPECT_GE(judged, 2u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// A combination candidate that the host drops (more than TrialQueue's cap
// of kPendingCombinationFlights find queues' worth wait) leaves the seen
// table at the next flight's submission: its signature is unseen again, so
// a later execution with it is a candidate once more, as one that found
// the find queue full is. Checked on the control words: the dropped
// candidates' bits, set while they waited, are clear after a flight that
// could not set them again (a replay of a seed).
TEST(GpuSignatureFlightsTest, DroppedCandidatesAreUnseenAgain) {
  GpuExecutorOptions options = gpu_test::CpuOptions("many_combinations.fz");
  options.colorize = false;
  options.coverage_mode = GpuExecutorOptions::CoverageMode::kSignature;
  options.overlap = GpuExecutorOptions::Overlap::kOn;
  options.find_capacity = 64;
  auto executor = gpu_test::MakeExecutor(options);
  ASSERT_NE(executor, nullptr);
  for (size_t k = 0; k < 16; ++k) {
    Bytes seed = Str("ABCDEFGHIJKLMNOP");
    seed[k] = 'z';
    ASSERT_TRUE(executor->AddInput(seed).ok());
    ASSERT_TRUE(executor->Execute(seed).ok());
  }
  std::vector<WorkItem> work = Work(RF_OP_HAVOC, 16, 200);
  for (size_t i = 0; i < work.size(); ++i) {
    work[i].parent = static_cast<uint32_t>(i);
  }
  auto seen_bit = [&](uint32_t bit) {
    uint32_t word = 0;
    std::memcpy(&word,
                executor->control_bytes().data() +
                    (size_t{RF_RES_SEEN} + (bit >> 5)) * 4,
                4);
    return (word >> (bit & 31)) & 1u;
  };
  uint64_t seed = 1;
  for (; seed < 300 && executor->unmarks_waiting().empty(); ++seed) {
    ASSERT_TRUE(executor->SubmitBatch(work, seed).ok());
    ASSERT_TRUE(executor->CollectBatch().ok());
  }
  ASSERT_GT(executor->candidates_dropped(), 0u) << "no candidate was dropped";
  const std::vector<uint32_t> dropped = executor->unmarks_waiting();
  for (uint32_t bit : dropped) EXPECT_EQ(seen_bit(bit), 1u) << bit;
  ASSERT_TRUE(executor->SubmitBatch(Work(RF_OP_REPLAY, 1, 1), seed).ok());
  ASSERT_TRUE(executor->CollectBatch().ok());
  for (uint32_t bit : dropped) EXPECT_EQ(seen_bit(bit), 0u) << bit;
  EXPECT_EQ(executor->candidates_unmarked(), dropped.size());
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// AFL's hit-count classes, as the wire protocol numbers them for
// RF_RES_SIG_CLASSES: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+ visits.
int HitCountClass(uint32_t visits) {
  if (visits <= 3) return static_cast<int>(visits) - 1;
  if (visits <= 7) return 3;
  if (visits <= 15) return 4;
  if (visits <= 31) return 5;
  if (visits <= 127) return 6;
  return 7;
}

// An input the signature build has not seen is a candidate, and the
// (block counter, hit-count class) pairs it visits are marked in the
// control words: for visits.fz, whose loop body runs as often as its first
// byte says and whose other instrumented blocks run once, the classes
// marked are those of 1 and n visits (n = 1 .. 200, across every class
// boundary).
TEST(GpuSignatureFlightsTest, CandidatesMarkTheHitCountClassesTheyVisit) {
  for (uint32_t n :
       {1u, 2u, 3u, 4u, 7u, 8u, 15u, 16u, 31u, 32u, 127u, 128u, 200u}) {
    GpuExecutorOptions options = gpu_test::CpuOptions("visits.fz");
    options.coverage_mode = GpuExecutorOptions::CoverageMode::kSignature;
    auto executor = gpu_test::MakeExecutor(options);
    ASSERT_NE(executor, nullptr);
    ASSERT_TRUE(executor->signature_mode());
    const Bytes input = {static_cast<uint8_t>(n), 1, 2, 3, 4};
    ASSERT_TRUE(executor->AddInput(input).ok());
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(Work(RF_OP_REPLAY, 1, 1), 1);
    ASSERT_TRUE(r.ok()) << r.status();
    std::set<int> marked;
    for (uint32_t k = 0; k < RF_SIG_CLASS_WORDS; ++k) {
      uint32_t word = 0;
      std::memcpy(&word,
                  executor->control_bytes().data() +
                      (size_t{RF_RES_SIG_CLASSES} + k) * 4,
                  4);
      for (int bit = 0; bit < 32; ++bit) {
        if ((word >> bit) & 1u) marked.insert(bit % 8);
      }
    }
    EXPECT_EQ(marked, (std::set<int>{HitCountClass(1), HitCountClass(n)}))
        << n << " loop runs";
    EXPECT_EQ(executor->validation_messages(), 0u)
        << executor->last_validation_message();
  }
}

}  // namespace
}  // namespace ringfuzz
