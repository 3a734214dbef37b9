// Length-to-state (fuzz/gpu/length_to_state.h): the lengths an input's own
// comparisons name, and the executor trying its inputs at them.
#include "fuzz/gpu/length_to_state.h"

#include <set>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_executor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"
#include "tests/gpu/gpu_test_util.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(LengthToStateTest, ALengthComparedWithALargerValueNamesItsNeighbours) {
  // `len < 100` on an input of 5 bytes logs (5, 100).
  const std::vector<CompareRecord> log = {{0, 5, 100}};
  EXPECT_THAT(DeriveLengthsToTry(5, log, 4096, 8), ElementsAre(99, 100, 101));
  // Either operand may be the length (`100 > len`).
  const std::vector<CompareRecord> swapped = {{0, 100, 5}};
  EXPECT_THAT(DeriveLengthsToTry(5, swapped, 4096, 8),
              ElementsAre(99, 100, 101));
}

TEST(LengthToStateTest, LengthsAreCappedByMaxLenAndCount) {
  const std::vector<CompareRecord> log = {{0, 5, 100}, {1, 5, 7}};
  EXPECT_THAT(DeriveLengthsToTry(5, log, 100, 8),
              ElementsAre(99, 100, 6, 7, 8));
  EXPECT_THAT(DeriveLengthsToTry(5, log, 4096, 2), ElementsAre(99, 100));
  EXPECT_THAT(DeriveLengthsToTry(5, log, 50, 8), ElementsAre(6, 7, 8));
}

TEST(LengthToStateTest, ShorterLengthsAndOtherValuesNameNothing) {
  // A loop over the input (`i < len`, i = 0..4) logs only smaller values;
  // a comparison without the length names none; no length twice.
  const std::vector<CompareRecord> loop = {{0, 0, 5}, {0, 1, 5}, {0, 2, 5},
                                           {0, 3, 5}, {0, 4, 5}, {0, 5, 5}};
  EXPECT_THAT(DeriveLengthsToTry(5, loop, 4096, 8), IsEmpty());
  const std::vector<CompareRecord> other = {{0, 6, 100}, {1, 0xFFFFFFFFu, 7}};
  EXPECT_THAT(DeriveLengthsToTry(5, other, 4096, 8), IsEmpty());
  const std::vector<CompareRecord> twice = {{0, 5, 10}, {1, 11, 5}};
  EXPECT_THAT(DeriveLengthsToTry(5, twice, 4096, 8),
              ElementsAre(9, 10, 11, 12));
  // The largest operand does not overflow.
  const std::vector<CompareRecord> huge = {{0, 5, 0xFFFFFFFFu}};
  EXPECT_THAT(DeriveLengthsToTry(5, huge, 0xFFFFFFFFu, 8),
              ElementsAre(0xFFFFFFFEu, 0xFFFFFFFFu));
}

TEST(LengthToStateTest, PaddingKeepsTheInputAndHasNoRepeatedWords) {
  const std::vector<uint8_t> input = {'a', 'b', 'c'};
  const std::vector<uint8_t> padded = ResizeInput(input, 259);
  ASSERT_EQ(padded.size(), 259u);
  EXPECT_EQ(std::vector<uint8_t>(padded.begin(), padded.begin() + 3), input);
  for (size_t k = 3; k < padded.size(); ++k) EXPECT_EQ(padded[k], k & 0xFF);
  // Every 4-byte window of the padding stands once in it.
  std::set<std::string> windows;
  for (size_t k = 3; k + 4 <= padded.size(); ++k) {
    EXPECT_TRUE(
        windows.insert(std::string(padded.begin() + k, padded.begin() + k + 4))
            .second)
        << k;
  }
  EXPECT_EQ(ResizeInput(input, 2), (std::vector<uint8_t>{'a', 'b'}));
}

// long_input.fz crashes on inputs of 100 bytes or more: havoc's short
// inserts cannot get a 4-byte input there in one batch, its own comparison
// log can.
// One batch of 16 havoc mutants of "abcd" on long_input.fz at `max_len`.
absl::StatusOr<BatchResult> RunLongInput(uint32_t max_len) {
  auto executor =
      gpu_test::MakeExecutor(gpu_test::CpuOptions("long_input.fz", max_len));
  if (executor == nullptr) return absl::InternalError("no executor");
  if (absl::Status s = executor->AddInput(gpu_test::Str("abcd")).status();
      !s.ok()) {
    return s;
  }
  WorkItem item;
  item.opcode = RF_OP_HAVOC;
  item.count = 16;
  absl::StatusOr<BatchResult> r = executor->RunBatch({item}, 1);
  EXPECT_EQ(executor->validation_messages(), 0u)
      << executor->last_validation_message();
  return r;
}

TEST(LengthToStateTest, TheExecutorTriesAnInputAtTheLengthsItsLogNames) {
  absl::StatusOr<BatchResult> r = RunLongInput(128);
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<size_t> lengths;
  for (const Find& f : r->finds) {
    if (f.kind != Find::Kind::kCrash) continue;
    EXPECT_EQ(f.code, 3u);
    EXPECT_EQ(f.parent, 0u);
    EXPECT_EQ(f.mutations, std::vector<uint32_t>{RF_MUT_LENGTH});
    EXPECT_EQ(f.data, ResizeInput(gpu_test::Str("abcd"), f.data.size()));
    lengths.push_back(f.data.size());
  }
  EXPECT_THAT(lengths, ElementsAre(100, 101));
}

// With -max_len below the length the log names, nothing is tried.
TEST(LengthToStateTest, NoTrialBeyondMaxLen) {
  absl::StatusOr<BatchResult> r = RunLongInput(64);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const Find& f : r->finds) EXPECT_NE(f.kind, Find::Kind::kCrash);
}

}  // namespace
}  // namespace ringfuzz
