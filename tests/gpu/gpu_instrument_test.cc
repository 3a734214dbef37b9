#include "fuzz/gpu/gpu_instrument.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu/gpu_megakernel.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

constexpr char kTarget[] = R"(#include "ringfuzz.h"
uint helper(uint n) {
  uint s = 0u;
  for (uint i = 0u; i < n; ++i) {
    s += fz_byte(i);
  }
  return s;
}
void fz_target(uint len) {
  if (len < 2u) return;
  if (helper(len) == 7u) fz_crash(1u);
  while (fz_byte(0u) == 1u) { }
}
)";

TEST(GpuInstrumentTest, InstrumentsOnlyTargetFunctionsWithLines) {
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernel("t.fz", kTarget, MegakernelOptions{});
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  std::set<std::string> functions;
  std::set<uint32_t> lines;
  for (const SiteLocation& site : kernel->module.sites) {
    functions.insert(site.function);
    EXPECT_EQ(site.file, "t.fz");
    lines.insert(site.line);
  }
  EXPECT_EQ(functions, (std::set<std::string>{"helper", "fz_target"}));
  EXPECT_TRUE(lines.count(4));   // the for loop
  EXPECT_TRUE(lines.count(11));  // the crash branch
  EXPECT_EQ(kernel->module.loops, 2u);
  EXPECT_EQ(kernel->module.unguarded_loops, 0u);
}

// The signature build skips the hooks of blocks whose visits the others
// imply; the precise build hooks every block; both number sites alike.
TEST(GpuInstrumentTest, SignatureBuildPrunesImpliedBlocks) {
  MegakernelOptions options;
  absl::StatusOr<Megakernel> precise =
      BuildMegakernel("t.fz", kTarget, options);
  ASSERT_TRUE(precise.ok()) << precise.status();
  options.signature = true;
  absl::StatusOr<Megakernel> pruned = BuildMegakernel("t.fz", kTarget, options);
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  const size_t sites = precise->module.sites.size();
  EXPECT_EQ(pruned->module.sites.size(), sites);
  EXPECT_EQ(precise->module.block_hooks, sites);
  EXPECT_LT(pruned->module.block_hooks, sites);
  EXPECT_GT(pruned->module.block_hooks, 0u);
}

// The signature build's per-block counters are sized to its hooks, 4 to a
// word, up to kMaxSignatureWords words (more hooks share counters); the
// precise build has none.
TEST(GpuInstrumentTest, SignatureCountersAreSizedToTheHooks) {
  MegakernelOptions options;
  absl::StatusOr<Megakernel> precise =
      BuildMegakernel("t.fz", kTarget, options);
  ASSERT_TRUE(precise.ok()) << precise.status();
  EXPECT_EQ(precise->signature_words, 0u);
  options.signature = true;
  absl::StatusOr<Megakernel> small = BuildMegakernel("t.fz", kTarget, options);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(small->signature_words, (small->module.block_hooks + 3) / 4);
  EXPECT_LT(small->signature_words, kMaxSignatureWords);

  // 300 independent branches: more hooks than 4 * kMaxSignatureWords.
  std::string big =
      "#include \"ringfuzz.h\"\nvoid fz_target(uint len) {\n"
      "  uint s = 0u;\n";
  for (int k = 0; k < 300; ++k) {
    big += "  if (len > " + std::to_string(k % 64) + "u && fz_byte(" +
           std::to_string(k % 64) + "u) == " + std::to_string(k) +
           "u) s += 1u;\n";
  }
  big += "  if (s == 7u) fz_crash(1u);\n}\n";
  absl::StatusOr<Megakernel> large = BuildMegakernel("big.fz", big, options);
  ASSERT_TRUE(large.ok()) << large.status();
  EXPECT_GT(large->module.block_hooks, 4 * kMaxSignatureWords);
  EXPECT_EQ(large->signature_words, kMaxSignatureWords);
}

constexpr char kSwitchTarget[] = R"(#include "ringfuzz.h"
void fz_target(uint len) {
  switch (fz_byte(0u)) {
    case 0x1234u: fz_crash(1u); break;
    case 7u: fz_crash(2u); break;
    default: break;
  }
}
)";

TEST(GpuInstrumentTest, SwitchIsACompareSite) {
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernel("s.fz", kSwitchTarget, MegakernelOptions{});
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->module.compare_sites, 1u);
  EXPECT_EQ(kernel->module.switch_sites, 1u);
  EXPECT_EQ(kernel->module.compare_constants,
            (std::vector<uint32_t>{7u, 0x1234u}));

  MegakernelOptions no_compares;
  no_compares.compares = false;
  kernel = BuildMegakernel("s.fz", kSwitchTarget, no_compares);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->module.compare_sites, 0u);
  EXPECT_EQ(kernel->module.switch_sites, 0u);
  EXPECT_EQ(kernel->module.compare_constants.size(), 2u);  // still collected
}

// A string the target compares byte by byte from a constant array (the
// dialect's only way to spell one) is kept as a byte string for the
// automatic dictionary; arrays of larger values and the megakernel's own
// tables are not.
TEST(GpuInstrumentTest, ConstantByteArraysOfTheTargetAreByteStrings) {
  constexpr char kStrings[] = R"(#include "ringfuzz.h"
const uint kWord[5] = uint[](0x46u, 0x55u, 0x5Au, 0x5Au, 0x21u);
const uint kWide[2] = uint[](0x1234u, 0x7u);
void fz_target(uint len) {
  if (len < 5u) return;
  for (uint i = 0u; i < 5u; ++i) {
    if (fz_byte(i) != kWord[i]) return;
  }
  if (fz_byte(0u) == kWide[fz_byte(1u) & 1u]) return;
  fz_crash(3u);
}
)";
  absl::StatusOr<Megakernel> kernel =
      BuildMegakernel("s.fz", kStrings, MegakernelOptions{});
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->module.byte_strings,
            (std::vector<std::vector<uint8_t>>{{'F', 'U', 'Z', 'Z', '!'}}));
}

TEST(GpuInstrumentTest, ValueProfileBuildsInBothCoverageModes) {
  for (bool signature : {false, true}) {
    MegakernelOptions options;
    options.value_profile = true;
    options.signature = signature;
    absl::StatusOr<Megakernel> kernel =
        BuildMegakernel("s.fz", kSwitchTarget, options);
    ASSERT_TRUE(kernel.ok()) << kernel.status();
    EXPECT_TRUE(kernel->value_profile);
    EXPECT_EQ(kernel->module.compare_sites, 1u);
  }
}

// The flat engine's coherence groups build with 1, 2, 4, 8, 16 or 32
// lanes; any other width is an error that names it.
TEST(GpuInstrumentTest, CoherentLanesArePowersOfTwoUpTo32) {
  MegakernelOptions options;
  options.flat_mutation = true;
  for (uint32_t lanes : {1u, 2u, 4u, 8u, 16u, 32u}) {
    options.coherent_lanes = lanes;
    absl::StatusOr<Megakernel> kernel =
        BuildMegakernel("s.fz", kSwitchTarget, options);
    EXPECT_TRUE(kernel.ok()) << lanes << ": " << kernel.status();
  }
  for (uint32_t lanes : {0u, 3u, 12u, 64u}) {
    options.coherent_lanes = lanes;
    absl::StatusOr<Megakernel> kernel =
        BuildMegakernel("s.fz", kSwitchTarget, options);
    ASSERT_FALSE(kernel.ok()) << lanes;
    EXPECT_NE(kernel.status().message().find(absl::StrCat("not ", lanes)),
              std::string::npos)
        << kernel.status();
  }
}

TEST(GpuInstrumentTest, RejectsGarbage) {
  std::vector<uint32_t> garbage = {1, 2, 3, 4, 5, 6};
  EXPECT_FALSE(InstrumentSpirv(garbage).ok());
}

TEST(GpuInstrumentTest, EdgeHashIsNonZero16Bit) {
  for (uint32_t i = 0; i < 100000; ++i) {
    uint32_t h = SiteEdgeHash(i);
    ASSERT_NE(h, 0u);
    ASSERT_LT(h, 65536u);
  }
}

}  // namespace
}  // namespace ringfuzz
