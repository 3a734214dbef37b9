#include "fuzz/gpu_instrument.h"

#include <set>

#include "fuzz/gpu_megakernel.h"
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
