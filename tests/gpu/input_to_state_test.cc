// DeriveInputToStatePatches: the patches derived from an input's own
// compare log, checked against patches worked out by hand from the
// comparison each log describes.
#include "fuzz/gpu/input_to_state.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

std::vector<uint8_t> Str(const std::string& s) { return {s.begin(), s.end()}; }

bool Has(const std::vector<InputPatch>& patches, InputPatch want) {
  return std::find(patches.begin(), patches.end(), want) != patches.end();
}

// Applies `patch` to `input`.
std::vector<uint8_t> Apply(std::vector<uint8_t> input, InputPatch patch) {
  for (uint32_t k = 0; k < patch.width; ++k) {
    input[patch.position + k] = static_cast<uint8_t>(patch.value >> (8 * k));
  }
  return input;
}

// `field == 0xC0FFEE42` where field is the little-endian word at byte 2.
TEST(InputToStateTest, WordOperandFoundLittleEndianGetsTheOtherOperand) {
  const std::vector<uint8_t> input = Str("xxABCDyy");
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, {{7, 0x44434241u, 0xC0FFEE42u}}, 64);
  ASSERT_TRUE(Has(patches, {2, 4, 0xC0FFEE42u}));
  EXPECT_TRUE(Has(patches, {2, 4, 0xC0FFEE43u}));  // off by one, for < / <=
  EXPECT_TRUE(Has(patches, {2, 4, 0xC0FFEE41u}));
  const std::vector<uint8_t> solved = Apply(input, {2, 4, 0xC0FFEE42u});
  EXPECT_EQ(solved,
            (std::vector<uint8_t>{'x', 'x', 0x42, 0xEE, 0xFF, 0xC0, 'y', 'y'}));
}

// The input holds the field big-endian (bytes 12 34 56 78 read as
// 0x12345678): the other operand is written big-endian too.
TEST(InputToStateTest, BigEndianFieldIsWrittenBigEndian) {
  const std::vector<uint8_t> input = {0x00, 0x12, 0x34, 0x56, 0x78};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, {{0, 0x12345678u, 0xAABBCCDDu}}, 64);
  // Little-endian packed bytes AA BB CC DD at 1..4.
  EXPECT_TRUE(Has(patches, {1, 4, 0xDDCCBBAAu}));
  EXPECT_FALSE(Has(patches, {1, 4, 0xAABBCCDDu}));
}

// Either operand may be the one that comes from the input.
TEST(InputToStateTest, EitherOperandMayComeFromTheInput) {
  const std::vector<uint8_t> input = {0x34, 0x12, 0x00};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, {{1, 0xBEEFu, 0x1234u}}, 64);
  EXPECT_TRUE(Has(patches, {0, 2, 0xBEEFu}));
}

// A 16-bit checksum compared with the field that should hold it (the
// length_checksum puzzle): the computed sum is written over the field.
TEST(InputToStateTest, ChecksumFieldGetsTheComputedSum) {
  // n=1, checksum field 00 00, payload A7: sum 0xA7 != 0.
  const std::vector<uint8_t> input = {0x01, 0x00, 0x00, 0xA7};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, {{4, 0xA7u, 0x0000u}}, 64);
  EXPECT_TRUE(Has(patches, {1, 2, 0x00A7u}));
  bool solved = false;
  for (const InputPatch& p : patches) {
    solved |= Apply(input, p) == std::vector<uint8_t>{0x01, 0xA7, 0x00, 0xA7};
  }
  EXPECT_TRUE(solved);
}

// Records of type, length n, n payload bytes and a checksum byte (type + n
// + payload, mod 256); record r must have type r + 1. The input's second
// record has a valid checksum but type 1: the type compare (1 vs 2) gives
// the patch type := 2, which breaks the checksum unless the checksum byte
// moves by the same delta: its partner patch. Both applied (a CMP chain)
// make two valid records, as an independent parse of the bytes shows.
bool TwoValidRecords(const std::vector<uint8_t>& in) {
  size_t at = 0;
  for (uint8_t r = 0; r < 2; ++r) {
    if (at + 2 > in.size()) return false;
    const uint8_t n = in[at + 1];
    if (n == 0 || at + 3 + n > in.size()) return false;
    uint8_t sum = in[at] + n;
    for (size_t i = 0; i < n; ++i) sum += in[at + 2 + i];
    if (sum != in[at + 2 + n] || in[at] != r + 1) return false;
    at += 3 + n;
  }
  return true;
}

TEST(InputToStateTest, ChecksumPartnerKeepsAnAdditiveChecksumValid) {
  const std::vector<uint8_t> input = {0x01, 0x01, 0x0A, 0x0C,
                                      0x01, 0x01, 0x0A, 0x0C};
  ASSERT_FALSE(TwoValidRecords(input));
  // Sites: 0 = checksum compare (sum vs byte), 1 = type compare (type vs
  // r + 1), in the order the parser makes them.
  const std::vector<CompareRecord> log = {
      {0, 0x0C, 0x0C}, {1, 1, 1}, {0, 0x0C, 0x0C}, {1, 1, 2}};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, log, 64);
  const InputPatch type = {4, 1, 0x02};
  const InputPatch partner = {7, 1, 0x0D};
  ASSERT_TRUE(Has(patches, type));
  ASSERT_TRUE(Has(patches, partner));
  EXPECT_FALSE(TwoValidRecords(Apply(input, type)));
  EXPECT_TRUE(TwoValidRecords(Apply(Apply(input, type), partner)));
  // Partners come after the patches they pair with.
  EXPECT_LT(std::find(patches.begin(), patches.end(), type),
            std::find(patches.begin(), patches.end(), partner));
}

// Partners are few: at most kChecksumPartners, however many bytes match
// and however many deltas the other patches have (here 40 bytes 0xC0 that
// a holding compare names, and 20 compares of the byte 0x01 at 0).
TEST(InputToStateTest, ChecksumPartnersAreCapped) {
  std::vector<uint8_t> input(41, 0xC0);
  input[0] = 0x01;
  std::vector<CompareRecord> log;
  for (uint32_t v = 1; v <= 20; ++v) log.push_back({1, 0x01, 0x01 + v});
  const std::vector<InputPatch> without =
      DeriveInputToStatePatches(input, log, 1000);
  log.push_back({0, 0xC0, 0xC0});
  const std::vector<InputPatch> all =
      DeriveInputToStatePatches(input, log, 1000);
  EXPECT_EQ(all.size(), without.size() + kChecksumPartners);
}

// A string compared byte by byte in a loop ("HELLO" against an input that
// has "HELP" at 5): the string pins the position, where the single
// mismatching byte 'P' would also match at 0 and 1.
TEST(InputToStateTest, ByteStringComparedInALoopPinsThePosition) {
  const std::vector<uint8_t> input = Str("PPxxxHELPzz");
  const std::vector<CompareRecord> log = {
      {3, 'H', 'H'}, {3, 'E', 'E'}, {3, 'L', 'L'}, {3, 'P', 'L'}};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, log, 64);
  ASSERT_FALSE(patches.empty());
  EXPECT_EQ(patches[0], (InputPatch{8, 1, 'L'}));  // most specific first
  EXPECT_TRUE(Has(patches, {0, 1, 'L'}));  // the single-byte guesses follow
}

// Patches that change nothing, and repeats, are left out; the cap holds.
TEST(InputToStateTest, NoOpsAndRepeatsAreLeftOutAndTheCapHolds) {
  const std::vector<uint8_t> input = {1, 2, 1, 2};
  std::vector<CompareRecord> log = {{0, 1, 2}, {0, 1, 2}, {5, 2, 1}};
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, log, 64);
  for (size_t i = 0; i < patches.size(); ++i) {
    EXPECT_NE(Apply(input, patches[i]), input);
    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(patches[i] == patches[j]);
  }
  EXPECT_EQ(DeriveInputToStatePatches(input, log, 3).size(), 3u);
}

// A loop bound logs one pair per iteration: only the site's first and last
// kPairsPerSite / 2 pairs are used.
TEST(InputToStateTest, ALoopBoundContributesItsFirstAndLastPairs) {
  std::vector<uint8_t> input(64);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i);
  std::vector<CompareRecord> log;
  for (uint32_t i = 0; i < 40; ++i) log.push_back({9, i, 200});
  const std::vector<InputPatch> patches =
      DeriveInputToStatePatches(input, log, 1000);
  std::vector<uint32_t> positions;
  for (const InputPatch& p : patches) {
    if (p.width == 1 && p.value == 200) positions.push_back(p.position);
  }
  std::sort(positions.begin(), positions.end());
  EXPECT_EQ(positions, (std::vector<uint32_t>{0, 1, 2, 3, 36, 37, 38, 39}));
}

}  // namespace
}  // namespace ringfuzz
