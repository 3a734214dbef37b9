// Colorization (fuzz/gpu/colorization.h), on the host: the ranges, the colored
// copies, and what the logs of copies say, with the logs made by a
// reference target written here in C++ (the comparisons it makes are known
// exactly), not by the megakernel.
#include "fuzz/gpu/colorization.h"

#include <algorithm>
#include <vector>

#include "fuzz/gpu/input_to_state.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

std::vector<ByteRange> R(
    std::initializer_list<std::pair<uint32_t, uint32_t>> l) {
  std::vector<ByteRange> out;
  for (const auto& [b, e] : l) out.push_back({b, e});
  return out;
}

TEST(ColorizationTest, RangesBisectCoarsestFirst) {
  EXPECT_EQ(ColorRanges(8), R({{0, 8},
                               {0, 4},
                               {4, 8},
                               {0, 2},
                               {2, 4},
                               {4, 6},
                               {6, 8},
                               {0, 1},
                               {1, 2},
                               {2, 3},
                               {3, 4},
                               {4, 5},
                               {5, 6},
                               {6, 7},
                               {7, 8}}));
  // One-byte ranges are not split; odd ranges put the shorter half first.
  EXPECT_EQ(ColorRanges(3), R({{0, 3}, {0, 1}, {1, 3}, {1, 2}, {2, 3}}));
  EXPECT_EQ(ColorRanges(1), R({{0, 1}}));
  EXPECT_TRUE(ColorRanges(0).empty());
  // Four levels at most: 15 ranges, the finest an eighth.
  const std::vector<ByteRange> long_ranges = ColorRanges(1000);
  EXPECT_EQ(long_ranges.size(), 15u);
  EXPECT_EQ(long_ranges.back().end - long_ranges.back().begin, 125u);
  EXPECT_EQ(ColorRanges(1000, 2).size(), 3u);
}

TEST(ColorizationTest, ACopyChangesEveryByteOfItsRangeAndNoOther) {
  const std::vector<uint8_t> input(32, 0x41);
  const std::vector<uint8_t> copy = ColoredCopy(input, {8, 20}, 7);
  ASSERT_EQ(copy.size(), input.size());
  for (size_t i = 0; i < input.size(); ++i) {
    if (i >= 8 && i < 20) {
      EXPECT_NE(copy[i], input[i]) << i;
    } else {
      EXPECT_EQ(copy[i], input[i]) << i;
    }
  }
  EXPECT_EQ(copy, ColoredCopy(input, {8, 20}, 7));  // deterministic
  EXPECT_NE(copy, ColoredCopy(input, {8, 20}, 8));
  // A range past the end colors what the input has.
  EXPECT_EQ(ColoredCopy(input, {30, 40}, 1).size(), input.size());
}

// The reference target: a record of 16 bytes whose little-endian 16-bit
// field at byte 6 is compared with 0x0102, then (only when byte 0 is 'R')
// byte 1 with 'S'. Returns its comparisons in order.
std::vector<CompareRecord> RecordTarget(const std::vector<uint8_t>& in) {
  std::vector<CompareRecord> log;
  const uint32_t field = in[6] | (uint32_t{in[7]} << 8);
  log.push_back({10, field, 0x0102});
  log.push_back({11, in[0], 'R'});
  if (in[0] == 'R') log.push_back({12, in[1], 'S'});
  return log;
}

struct Logged {
  std::vector<uint8_t> data;
  std::vector<CompareRecord> log;
};

// Every copy of `input`'s ranges, logged by the reference target.
std::vector<Logged> LogCopies(const std::vector<uint8_t>& input,
                              std::vector<ByteRange>& ranges) {
  ranges = ColorRanges(input.size());
  std::vector<Logged> logged;
  for (size_t j = 0; j < ranges.size(); ++j) {
    Logged l;
    l.data = ColoredCopy(input, ranges[j], 99);
    l.log = RecordTarget(l.data);
    logged.push_back(std::move(l));
  }
  return logged;
}

std::vector<ColoredRun> Runs(const std::vector<Logged>& logged,
                             const std::vector<ByteRange>& ranges) {
  std::vector<ColoredRun> runs;
  for (size_t j = 0; j < logged.size(); ++j) {
    runs.push_back({ranges[j], logged[j].data, logged[j].log,
                    static_cast<uint32_t>(logged[j].log.size())});
  }
  return runs;
}

bool Has(const std::vector<InputPatch>& patches, InputPatch want) {
  return std::find(patches.begin(), patches.end(), want) != patches.end();
}

// A checksum gate: bytes 2 and 3 summed, compared with 9.
std::vector<CompareRecord> SumTarget(const std::vector<uint8_t>& in) {
  return {{20, uint32_t{in[2]} + in[3], 9}, {21, in[12], 'Q'}};
}

TEST(ColorizationTest, BytesThatFeedAComputedOperandAreNotPlain) {
  const std::vector<uint8_t> input(16, 1);
  const std::vector<ByteRange> ranges = ColorRanges(input.size());
  std::vector<Logged> logged;
  for (const ByteRange& r : ranges) {
    Logged l;
    l.data = ColoredCopy(input, r, 5);
    l.log = SumTarget(l.data);
    logged.push_back(std::move(l));
  }
  const std::vector<CompareRecord> log = SumTarget(input);
  const ColorEvidence color = Colorize(
      input, log, static_cast<uint32_t>(log.size()), Runs(logged, ranges));
  ASSERT_EQ(color.plain.size(), input.size());
  // The sum changes in every copy that colors byte 2 or 3 and stands
  // nowhere in it; every other byte is colored by a copy in which each
  // change was found (byte 12 is read as it stands).
  for (size_t p = 0; p < input.size(); ++p) {
    EXPECT_EQ(color.plain[p], p != 2 && p != 3) << p;
  }
  // The record target reads its bytes as they stand: all plain.
  const std::vector<uint8_t> record(16, 'A');
  const std::vector<CompareRecord> record_log = RecordTarget(record);
  std::vector<ByteRange> record_ranges;
  const std::vector<Logged> record_logged = LogCopies(record, record_ranges);
  const ColorEvidence record_color =
      Colorize(record, record_log, static_cast<uint32_t>(record_log.size()),
               Runs(record_logged, record_ranges));
  EXPECT_EQ(record_color.plain, std::vector<bool>(16, true));
}

TEST(ColorizationTest, CopiesPinTheFieldThatZerosHideEverywhere) {
  const std::vector<uint8_t> input(16, 0);
  const std::vector<CompareRecord> log = RecordTarget(input);
  std::vector<ByteRange> ranges;
  const std::vector<Logged> logged = LogCopies(input, ranges);
  const ColorEvidence color = Colorize(
      input, log, static_cast<uint32_t>(log.size()), Runs(logged, ranges));
  // No copy colors byte 0 to 'R' (it only changes by 1..255 from 0, so it
  // may: then that copy makes one comparison more and says nothing).
  EXPECT_GE(color.kept, ranges.size() - 1);
  // The field's writes: 0x0102 and its neighbours at byte 6.
  ASSERT_FALSE(color.confirmed.empty());
  EXPECT_EQ(color.confirmed[0], (InputPatch{6, 2, 0x0102}));
  EXPECT_TRUE(Has(color.confirmed, {6, 2, 0x0103}));
  EXPECT_TRUE(Has(color.confirmed, {0, 1, 'R'}));  // byte 0 is read too
  for (const InputPatch& p : color.confirmed) {
    EXPECT_TRUE(p.position == 6 || p.position == 0) << p.position;
  }
  // Bytes no comparison reads are inert; 0 and 6-7 are not.
  ASSERT_EQ(color.inert.size(), input.size());
  EXPECT_FALSE(color.inert[0]);
  EXPECT_FALSE(color.inert[6]);
  EXPECT_FALSE(color.inert[7]);
  EXPECT_TRUE(color.inert[2]);
  EXPECT_TRUE(color.inert[13]);

  // Without colorization the operand 0 stands everywhere: patches at
  // positions nothing reads fill the list to its cap (4-byte writes in
  // both byte orders come first, and leave no room for a 2-byte one).
  // With it, the confirmed patch comes first and none writes only inert
  // bytes.
  const std::vector<InputPatch> plain =
      DeriveInputToStatePatches(input, log, 128);
  EXPECT_EQ(plain.size(), 128u);
  EXPECT_TRUE(Has(plain, {12, 4, 0x0102}));
  EXPECT_FALSE(Has(plain, {6, 2, 0x0102}));
  const std::vector<InputPatch> colored =
      DeriveInputToStatePatches(input, log, 128, &color);
  ASSERT_FALSE(colored.empty());
  EXPECT_EQ(colored[0], (InputPatch{6, 2, 0x0102}));
  EXPECT_FALSE(Has(colored, {12, 4, 0x0102}));
  for (const InputPatch& p : colored) {
    bool all_inert = true;
    for (uint32_t k = 0; k < p.width; ++k)
      all_inert = all_inert && color.inert[p.position + k];
    EXPECT_FALSE(all_inert) << p.position << "/" << p.width;
  }
  EXPECT_LT(colored.size(), plain.size());
}

// A copy that makes other comparisons (it took another path) says
// nothing, even where its operands changed.
TEST(ColorizationTest, ACopyOffThePathSaysNothing) {
  std::vector<uint8_t> input(16, 0);
  input[0] = 'R';
  const std::vector<CompareRecord> log = RecordTarget(input);  // 3 records
  const std::vector<uint8_t> copy = ColoredCopy(input, {0, 16}, 5);
  ASSERT_NE(copy[0], 'R');
  const std::vector<CompareRecord> copy_log = RecordTarget(copy);  // 2
  const std::vector<ColoredRun> runs = {
      {{0, 16}, copy, copy_log, static_cast<uint32_t>(copy_log.size())}};
  const ColorEvidence color =
      Colorize(input, log, static_cast<uint32_t>(log.size()), runs);
  EXPECT_EQ(color.kept, 0u);
  EXPECT_TRUE(color.confirmed.empty());
  EXPECT_EQ(std::count(color.inert.begin(), color.inert.end(), true), 0);
  // The same records but a different count made (records past the log's
  // capacity): off the path too.
  const std::vector<ColoredRun> more = {{{0, 16}, copy, log, 4}};
  EXPECT_EQ(Colorize(input, log, 3, more).kept, 0u);
}

// A big-endian field is confirmed big-endian; a wrong-length copy is
// ignored.
TEST(ColorizationTest, BigEndianOperandsAndBadCopies) {
  const std::vector<uint8_t> input = {0, 0, 0x12, 0x34, 0};
  auto target = [](const std::vector<uint8_t>& in) {
    return std::vector<CompareRecord>{
        {1, (uint32_t{in[2]} << 8) | in[3], 0xBEEF}};
  };
  const std::vector<CompareRecord> log = target(input);
  const std::vector<uint8_t> copy = ColoredCopy(input, {0, 5}, 3);
  const std::vector<CompareRecord> copy_log = target(copy);
  const std::vector<uint8_t> short_copy = {1, 2};
  const std::vector<ColoredRun> runs = {{{0, 5}, copy, copy_log, 1},
                                        {{0, 2}, short_copy, copy_log, 1}};
  const ColorEvidence color = Colorize(input, log, 1, runs);
  EXPECT_EQ(color.kept, 1u);
  ASSERT_FALSE(color.confirmed.empty());
  // Bytes BE EF at 2..3: little-endian packed 0xEFBE.
  EXPECT_EQ(color.confirmed[0], (InputPatch{2, 2, 0xEFBE}));
}

// A 4 KiB input of zeros whose 128 words at 32-byte strides are each
// compared with a constant: every word is found where it stands, in the
// copies of every level (the whole input, ..., eighths of 512 bytes).
TEST(ColorizationTest, EveryFieldOfALongInputIsFound) {
  auto target = [](const std::vector<uint8_t>& in) {
    std::vector<CompareRecord> log;
    for (uint32_t i = 0; i < 128; ++i) {
      const uint32_t word = in[32 * i] | (uint32_t{in[32 * i + 1]} << 8) |
                            (uint32_t{in[32 * i + 2]} << 16) |
                            (uint32_t{in[32 * i + 3]} << 24);
      log.push_back({i, word, 0xABC00000u + i});
    }
    return log;
  };
  const std::vector<uint8_t> input(4096, 0);
  const std::vector<CompareRecord> log = target(input);
  const std::vector<ByteRange> ranges = ColorRanges(input.size());
  std::vector<std::vector<uint8_t>> copies;
  std::vector<std::vector<CompareRecord>> logs;
  for (const ByteRange& range : ranges) {
    copies.push_back(ColoredCopy(input, range, 1));
    logs.push_back(target(copies.back()));
  }
  std::vector<ColoredRun> runs;
  for (size_t j = 0; j < ranges.size(); ++j) {
    runs.push_back({ranges[j], copies[j], logs[j], 128});
  }
  const ColorEvidence color = Colorize(input, log, 128, runs);
  EXPECT_EQ(color.kept, ranges.size());
  for (uint32_t i = 0; i < 128; ++i) {
    EXPECT_TRUE(Has(color.confirmed, {32 * i, 4, 0xABC00000u + i})) << i;
    EXPECT_FALSE(color.inert[32 * i]) << i;
    EXPECT_TRUE(color.inert[32 * i + 8]) << i;
  }
}

}  // namespace
}  // namespace ringfuzz
