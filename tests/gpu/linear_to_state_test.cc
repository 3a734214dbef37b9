// Linear-to-state (fuzz/gpu/linear_to_state.h): the inputs that make a
// comparison of weighted sums of input bytes come out equal, solved from
// probe copies, and the executor trying them. The probes' logs here come
// from small models of targets, written out in C++: a model is the
// reference the solutions are checked against.
#include "fuzz/gpu/linear_to_state.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

using Bytes = std::vector<uint8_t>;
using Trials = std::vector<Bytes>;

// A target's comparisons on an input, as its compare log holds them.
using Model = std::function<std::vector<CompareRecord>(const Bytes&)>;

// Everything DeriveLinearToState reads for `input` under `model`: its own
// log, and the logs of its probe copies at every probed position.
struct Logged {
  std::vector<CompareRecord> log;
  std::vector<std::vector<CompareRecord>> probe_logs;
  std::vector<ProbeRun> probes;
};

Logged Log(const Model& model, const Bytes& input) {
  Logged out;
  out.log = model(input);
  const std::vector<uint32_t> positions = LinearProbePositions(input.size());
  out.probe_logs.reserve(positions.size());
  for (const uint32_t p : positions) {
    out.probe_logs.push_back(model(ProbeCopy(input, p)));
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    out.probes.push_back({positions[i], out.probe_logs[i],
                          static_cast<uint32_t>(out.probe_logs[i].size())});
  }
  return out;
}

Trials Derive(const Model& model, const Bytes& input, size_t max_inputs = 16) {
  const Logged logged = Log(model, input);
  return DeriveLinearToState(input, logged.log,
                             static_cast<uint32_t>(logged.log.size()),
                             logged.probes, max_inputs);
}

// OnlySomeBytes' gate (compiler-rt/test/fuzzer/OnlySomeBytesTest.cpp):
// in[5] + 251 * in[7] + 251 * 251 * in[9] against "FUZ" so weighted.
constexpr uint32_t kFuz = 0x46u + 251u * 0x55u + 251u * 251u * 0x5Au;
uint32_t WeightedSum(const Bytes& in) {
  return in[5] + 251u * in[7] + 251u * 251u * in[9];
}
std::vector<CompareRecord> OnlySomeBytes(const Bytes& in) {
  return {{1, WeightedSum(in), kFuz}};
}

size_t Solving(const Trials& trials,
               const std::function<bool(const Bytes&)>& ok) {
  size_t n = 0;
  for (const Bytes& t : trials) n += ok(t);
  return n;
}

TEST(LinearToStateTest, AProbePassIsWantedUnlessEveryProbedByteIsPlain) {
  // Without colored copies, every input with a byte is probed.
  EXPECT_TRUE(LinearProbeWanted(8, nullptr));
  EXPECT_FALSE(LinearProbeWanted(0, nullptr));
  ColorEvidence color;
  color.plain.assign(40, true);
  EXPECT_FALSE(LinearProbeWanted(40, &color));
  // A byte past the probed ones does not matter; one among them does.
  color.plain[kLinearProbeBytes] = false;
  EXPECT_FALSE(LinearProbeWanted(40, &color));
  color.plain[kLinearProbeBytes - 1] = false;
  EXPECT_TRUE(LinearProbeWanted(40, &color));
  // Evidence shorter than the input says nothing about the rest.
  ColorEvidence short_color;
  short_color.plain.assign(4, true);
  EXPECT_TRUE(LinearProbeWanted(8, &short_color));
}

TEST(LinearToStateTest, ProbesMoveOneOfTheFirstBytesByOne) {
  EXPECT_THAT(LinearProbePositions(3), ElementsAre(0u, 1u, 2u));
  EXPECT_EQ(LinearProbePositions(2048).size(), kLinearProbeBytes);
  EXPECT_THAT(LinearProbePositions(0), IsEmpty());
  EXPECT_EQ(ProbeCopy(Bytes{7, 8, 9}, 1), (Bytes{7, 9, 9}));
  EXPECT_EQ(ProbeCopy(Bytes{0, 255}, 1), (Bytes{0, 254}));
}

TEST(LinearToStateTest, AWeightedSumOfBytesIsSolvedInTheBytesItReads) {
  const Bytes input(40, 0);
  const Trials trials = Derive(OnlySomeBytes, input);
  ASSERT_FALSE(trials.empty());
  // The first trial makes the sum equal, and touches bytes 5, 7, 9 only.
  const Bytes& first = trials[0];
  EXPECT_EQ(WeightedSum(first), kFuz);
  for (size_t i = 0; i < input.size(); ++i) {
    if (i != 5 && i != 7 && i != 9) EXPECT_EQ(first[i], input[i]) << i;
  }
  // Then one above and one below it (an ordering's two sides).
  EXPECT_EQ(Solving(trials,
                    [](const Bytes& t) {
                      return WeightedSum(t) == kFuz + 1 ||
                             WeightedSum(t) == kFuz - 1;
                    }),
            2u);
}

TEST(LinearToStateTest, ASumComparedWithAStoredByteMovesBothOperands) {
  // A header whose byte 3 must be the (8-bit) sum of bytes 0..2, as many
  // formats check a header: both operands move with the probed bytes.
  const Model model = [](const Bytes& in) {
    return std::vector<CompareRecord>{
        {4, (in[0] + in[1] + in[2]) & 0xFFu, in[3]}};
  };
  const Bytes input = {10, 20, 30, 99, 1, 2};
  const Trials trials = Derive(model, input);
  EXPECT_GE(Solving(trials,
                    [](const Bytes& t) {
                      return ((t[0] + t[1] + t[2]) & 0xFF) == t[3];
                    }),
            1u);
}

// A record as record_checksum.fz parses it: type, length n (1..16), n
// payload bytes, then a byte equal to the 8-bit sum of type, n and
// payload; the record is accepted only with type `want_type`. The log
// holds the length checks, the checksum, then the type check, as the
// target makes them.
std::vector<CompareRecord> Record(const Bytes& in, uint32_t want_type) {
  const uint32_t type = in[0], n = in[1];
  std::vector<CompareRecord> log = {{1, n, 0}, {2, n, 16}};
  if (n == 0 || n > 16 || 3u + n > in.size()) return log;
  log.push_back({3, 3u + n, static_cast<uint32_t>(in.size())});
  uint32_t sum = type + n;
  for (uint32_t i = 0; i < n; ++i) sum += in[2 + i];
  log.push_back({4, sum & 0xFFu, in[2 + n]});
  if ((sum & 0xFFu) != in[2 + n]) return log;
  log.push_back({5, type, want_type});
  return log;
}
bool RecordValid(const Bytes& in, uint32_t want_type) {
  const std::vector<CompareRecord> log = Record(in, want_type);
  return log.size() == 5 && log.back().a == log.back().b;
}

TEST(LinearToStateTest, WritingACheckedByteKeepsTheChecksumOverIt) {
  // A valid record of type 13 where type 2 is wanted: writing 2 alone
  // breaks the checksum (input-to-state's patch); the kept trial moves a
  // payload or the checksum byte too, and leaves the length alone.
  const Model model = [](const Bytes& in) { return Record(in, 2); };
  const Bytes input = {13, 3, 0x40, 0x41, 0x42, 13 + 3 + 0x40 + 0x41 + 0x42};
  ASSERT_TRUE(RecordValid(input, 13));
  const Trials trials = Derive(model, input);
  ASSERT_EQ(Solving(trials, [](const Bytes& t) { return RecordValid(t, 2); }),
            1u);
  for (const Bytes& t : trials) {
    if (RecordValid(t, 2)) EXPECT_EQ(t[1], 3) << "the length byte moved";
  }
  // Writing the type alone is input-to-state's patch, not tried here.
  for (const Bytes& t : trials) {
    EXPECT_FALSE(t[0] == 2 && t[5] == input[5] && t[2] == input[2] &&
                 t[3] == input[3] && t[4] == input[4]);
  }
}

TEST(LinearToStateTest, AKeptEightBitChecksumMayWrap) {
  // The sum 0xFE + 1 + 0x01 wraps to 0x00; writing type 2 over 0xFE moves
  // it by -252, which only a move of +4 (modulo 256) in one byte undoes.
  const Model model = [](const Bytes& in) { return Record(in, 2); };
  const Bytes input = {0xFE, 1, 0x01, 0x00};
  ASSERT_TRUE(RecordValid(input, 0xFE));
  const Trials trials = Derive(model, input);
  EXPECT_EQ(Solving(trials, [](const Bytes& t) { return RecordValid(t, 2); }),
            1u);
}

TEST(LinearToStateTest, ProbesThatLeaveThePathSayNothing) {
  // Byte 0 selects which comparison runs: its probe takes another path, so
  // byte 0 is never solved for, though the compared value moves with it.
  const Model model = [](const Bytes& in) {
    if (in[0] != 'A') return std::vector<CompareRecord>{{9, in[0], 'A'}};
    return std::vector<CompareRecord>{{9, in[0], 'A'},
                                      {2, in[0] + 3u * in[1], 500}};
  };
  const Bytes input = {'A', 0, 0, 0};
  const Trials trials = Derive(model, input);
  ASSERT_FALSE(trials.empty());
  for (const Bytes& t : trials) EXPECT_EQ(t[0], 'A');
  // 500 = 'A' + 3 * 145: byte 1 alone solves it.
  EXPECT_EQ(trials[0], (Bytes{'A', 145, 0, 0}));
}

TEST(LinearToStateTest, NoTrialWhereTheBytesCannotReachTheValue) {
  // One byte of weight 2 cannot make an odd value, nor 1000 at all.
  const Model model = [](const Bytes& in) {
    return std::vector<CompareRecord>{{1, 2u * in[0], 1001}};
  };
  const Trials trials = Derive(model, Bytes{0, 0});
  // 1000 is out of reach (2 * 255 = 510), and so are 1001 and 1002.
  EXPECT_THAT(trials, IsEmpty());
}

TEST(LinearToStateTest, NothingMovesNothingIsTried) {
  // A comparison the probed bytes do not feed (byte 40 of a longer input).
  const Model model = [](const Bytes& in) {
    return std::vector<CompareRecord>{{1, in[40], 7}};
  };
  EXPECT_THAT(Derive(model, Bytes(48, 0)), IsEmpty());
}

TEST(LinearToStateTest, BytesComparedAsTheyStandAreLeftToInputToState) {
  // A byte and a big-endian 16-bit word compared as they stand (the
  // operand's value is in the input: input-to-state writes them), then a
  // byte plus a constant (it is not) and a sum of two bytes.
  const Model model = [](const Bytes& in) {
    return std::vector<CompareRecord>{{1, in[0], 'Z'},
                                      {2, 'Q', in[1] * 256u + in[2]},
                                      {3, in[3] + 7u, 20},
                                      {4, in[4] + 2u * in[5], 300}};
  };
  const Trials trials = Derive(model, Bytes{0, 0, 0, 0, 0, 0});
  ASSERT_FALSE(trials.empty());
  for (const Bytes& t : trials) {
    EXPECT_EQ(t[0], 0);
    EXPECT_EQ(t[1], 0);
    EXPECT_EQ(t[2], 0);
  }
  EXPECT_THAT(trials, Contains(Bytes{0, 0, 0, 13, 0, 0}));
  EXPECT_EQ(
      Solving(trials, [](const Bytes& t) { return t[4] + 2u * t[5] == 300u; }),
      1u);
}

TEST(LinearToStateTest, TheComparisonWhereTheRunStoppedIsSolvedFirst) {
  // A run passes a loop whose bound is byte 0 plus 3 (its counter unequal
  // to the bound but at the exit) and stops at the last comparison: with
  // room for one trial, that trial solves the last comparison, not a
  // shorter loop.
  const Model model = [](const Bytes& in) {
    std::vector<CompareRecord> log;
    for (uint32_t i = 0; i <= 3u + in[0]; ++i) {
      log.push_back({1, i, 3u + in[0]});
    }
    log.push_back({2, in[1] + 2u * in[2], 90});
    return log;
  };
  ASSERT_FALSE(Derive(model, Bytes{2, 0, 0}, 16).empty());
  const Trials trials = Derive(model, Bytes{2, 0, 0}, /*max_inputs=*/1);
  ASSERT_EQ(trials.size(), 1u);
  EXPECT_EQ(trials[0][1] + 2u * trials[0][2], 90u);
}

TEST(LinearToStateTest, TrialsAreCappedDistinctAndNeverTheInput) {
  const Model model = [](const Bytes& in) {
    std::vector<CompareRecord> log;
    for (uint32_t i = 0; i + 1 < in.size(); ++i) {
      log.push_back({i, in[i] + 5u * in[i + 1], 100 + i});
    }
    return log;
  };
  const Bytes input(12, 1);
  const Trials trials = Derive(model, input, /*max_inputs=*/5);
  EXPECT_EQ(trials.size(), 5u);
  for (size_t i = 0; i < trials.size(); ++i) {
    EXPECT_NE(trials[i], input);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(trials[i], trials[j]);
  }
}

// linear.fz crashes where in[1] + 3 * in[2] + 700 * in[4] is 50000; from
// "ABCDEFGH" (48567) no one byte gets there and havoc has no lead, the
// probes' logs do: 1433 more is 2 * 700 (byte 4) and 11 * 3 (byte 2). The
// first batch logs the input; the second, which logs no new input, runs
// its probe pass and the trial.
TEST(LinearToStateTest, TheExecutorTriesTheSolutionsOfTheInputsOwnLog) {
  auto executor = gpu_test::MakeExecutor(gpu_test::CpuOptions("linear.fz", 64));
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ABCDEFGH")).ok());
  std::vector<std::string> crashes;
  for (uint64_t seed : {1, 2}) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(gpu_test::Work(RF_OP_HAVOC, 1, 16), seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(executor->probed_inputs(), seed == 1 ? 0u : 1u);
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash) continue;
      EXPECT_EQ(f.code, 9u);
      EXPECT_EQ(f.parent, 0u);
      EXPECT_EQ(f.mutations, std::vector<uint32_t>{RF_MUT_CMP});
      EXPECT_TRUE(f.host_trial);
      crashes.emplace_back(f.data.begin(), f.data.end());
    }
  }
  EXPECT_THAT(crashes, ElementsAre("ABNDGFGH"));
  EXPECT_EQ(executor->probe_passes(), 1u);
  EXPECT_EQ(executor->probes_skipped(), 0u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// typed_record.fz crashes on a record of type 2 whose checksum holds. From
// a valid record of type 13, the input's own probe pass gives the
// checksum's weights (its probes break the checksum and leave the path
// there), and the trial writes 2 and keeps the checksum in another byte.
TEST(LinearToStateTest, TheExecutorKeepsAChecksumWhereItWritesAType) {
  auto executor =
      gpu_test::MakeExecutor(gpu_test::CpuOptions("typed_record.fz", 64));
  ASSERT_NE(executor, nullptr);
  const Bytes input = {13, 3, 0x40, 0x41, 0x42, 13 + 3 + 0x40 + 0x41 + 0x42};
  ASSERT_TRUE(executor->AddInput(input).ok());
  std::vector<Bytes> crashes;
  for (uint64_t seed : {1, 2}) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(gpu_test::Work(RF_OP_HAVOC, 1, 16), seed);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (f.kind != Find::Kind::kCrash || !f.host_trial) continue;
      EXPECT_EQ(f.code, 5u);
      EXPECT_EQ(f.mutations, std::vector<uint32_t>{RF_MUT_CMP});
      crashes.push_back(f.data);
    }
  }
  ASSERT_EQ(crashes.size(), 1u);
  // The model's reading of the crash: type 2, the checksum valid.
  EXPECT_TRUE(RecordValid(crashes[0], 2));
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// Probe passes go newest input first: with two inputs logged, the pass
// after the logs is the second one's, and its trial is the first crash.
TEST(LinearToStateTest, TheNewestInputIsProbedFirst) {
  auto executor = gpu_test::MakeExecutor(gpu_test::CpuOptions("linear.fz", 64));
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ZZZZZZZZ")).ok());
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ABCDEFGH")).ok());
  std::vector<uint32_t> parents;
  for (uint64_t seed : {1, 2, 3}) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(gpu_test::Work(RF_OP_HAVOC, 1, 16), seed);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(executor->probed_inputs(), seed - 1);
    for (const Find& f : r->finds) {
      if (f.kind == Find::Kind::kCrash && f.host_trial) {
        parents.push_back(f.parent);
      }
    }
  }
  EXPECT_THAT(parents, ElementsAre(1u, 0u));
}

// An input that arrives while older ones wait goes first, and the older
// ones still get their passes after it, each input's once: passes skip
// over the inputs already probed.
TEST(LinearToStateTest, OlderInputsStillWaitingArePassedAfterANewOne) {
  auto executor = gpu_test::MakeExecutor(gpu_test::CpuOptions("linear.fz", 64));
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ZZZZZZZZ")).ok());
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ABCDEFGH")).ok());
  std::vector<uint32_t> parents;
  auto run = [&](uint64_t seed) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(gpu_test::Work(RF_OP_HAVOC, 1, 16), seed);
    ASSERT_TRUE(r.ok()) << r.status();
    for (const Find& f : r->finds) {
      if (f.kind == Find::Kind::kCrash && f.host_trial) {
        parents.push_back(f.parent);
      }
    }
  };
  run(1);  // logs inputs 0 and 1
  run(2);  // probes input 1
  ASSERT_EQ(executor->probed_inputs(), 1u);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("abcdefgh")).ok());
  for (uint64_t seed = 3; seed < 8; ++seed) run(seed);
  EXPECT_THAT(parents, ElementsAre(1u, 2u, 0u));
  EXPECT_EQ(executor->probed_inputs(), 3u);
  EXPECT_EQ(executor->probe_passes(), 3u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

// colored_field.fz reads a 16-bit field as it stands in the input: its
// colored copies find every changed operand, so the input needs no probe
// pass (its 17 logged runs would tell nothing input-to-state does not).
TEST(LinearToStateTest, AnInputWhoseBytesAreAllPlainIsNotProbed) {
  auto executor =
      gpu_test::MakeExecutor(gpu_test::CpuOptions("colored_field.fz", 64));
  ASSERT_NE(executor, nullptr);
  ASSERT_TRUE(executor->AddInput(gpu_test::Str("ABCDEFGHIJKLMNOP")).ok());
  for (uint64_t seed : {1, 2}) {
    absl::StatusOr<BatchResult> r =
        executor->RunBatch(gpu_test::Work(RF_OP_HAVOC, 1, 16), seed);
    ASSERT_TRUE(r.ok()) << r.status();
  }
  EXPECT_EQ(executor->logged_inputs(), 1u);
  EXPECT_EQ(executor->probed_inputs(), 1u);
  EXPECT_EQ(executor->probe_passes(), 0u);
  EXPECT_EQ(executor->probes_skipped(), 1u);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
}

}  // namespace
}  // namespace ringfuzz
