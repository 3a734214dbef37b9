// The static edges of deferred coverage (fuzz/gpu/gpu_static_edges.h): counted
// on graphs drawn by hand, found for every bundled target and puzzle, and
// malformed input refused. BuildMegakernel only, no Vulkan device.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz/gpu/gpu_megakernel.h"
#include "fuzz/gpu/gpu_static_edges.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<Megakernel> Deferred(const std::string& source) {
  MegakernelOptions options;
  options.deferred_coverage = true;
  return BuildMegakernel("graph.fz", "#include \"ringfuzz.h\"\n" + source,
                         options);
}

// One block: the edge from the start of the execution into it.
TEST(StaticEdgesTest, OneBlockHasTheEdgeFromTheStart) {
  absl::StatusOr<Megakernel> kernel = Deferred("void fz_target(uint len) {}\n");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_TRUE(kernel->deferred_coverage);
  EXPECT_EQ(kernel->module.sites.size(), 1u);
  EXPECT_EQ(kernel->static_edges, 1u);
}

// entry -> then -> merge and entry -> merge, plus the start: 4 edges.
TEST(StaticEdgesTest, AnIfWithoutElseHasFourEdges) {
  absl::StatusOr<Megakernel> kernel = Deferred(
      "void fz_target(uint len) {\n"
      "  if (len > 3u) { fz_crash(1u); }\n"
      "}\n");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->module.sites.size(), 3u);
  EXPECT_EQ(kernel->static_edges, 4u);
}

// Calls: f's entry follows the caller's block; the caller's blocks after
// the call follow f's two returning blocks.
//   start -> T0; T0 -> F0; F0 -> F1; F0 -> F2;
//   {F1, F2} -> T1; {F1, F2, T1} -> T2: 9 edges.
TEST(StaticEdgesTest, ACallJoinsTheCallersAndTheCalleesEdges) {
  absl::StatusOr<Megakernel> kernel = Deferred(
      "uint f(uint x) {\n"
      "  if (x == 1u) return 2u;\n"
      "  return 3u;\n"
      "}\n"
      "void fz_target(uint len) {\n"
      "  uint a = f(len);\n"
      "  if (a == 2u) { fz_crash(1u); }\n"
      "}\n");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->module.sites.size(), 6u);
  EXPECT_EQ(kernel->static_edges, 9u);
}

// A branchless condition is a hook of two values: `a && b` joined without
// a branch gives the entry block (after the start) and the condition's
// two sites (after the entry block): 3 edges.
TEST(StaticEdgesTest, ABranchlessConditionHasAnEdgeForEachWay) {
  absl::StatusOr<Megakernel> kernel = Deferred(
      "void fz_target(uint len) {\n"
      "  uint x = len > 2u ? 5u : 7u;\n"
      "  if (x == 9u) fz_crash(1u);\n"
      "}\n");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // Sites: entry, the select's two, then-block, merge.
  ASSERT_EQ(kernel->module.sites.size(), 5u);
  // start -> entry; entry -> {sel_t, sel_f}; {sel_t, sel_f} -> then;
  // {sel_t, sel_f, then} -> merge: 1 + 2 + 2 + 3 = 8.
  EXPECT_EQ(kernel->static_edges, 8u);
}

TEST(StaticEdgesTest, EveryBundledTargetAndPuzzleHasAllItsStaticEdges) {
  size_t built = 0;
  for (const char* dir : {"shaders/targets", "shaders/puzzles"}) {
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(RF_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".fz") continue;
      MegakernelOptions options;
      options.deferred_coverage = true;
      absl::StatusOr<Megakernel> kernel =
          BuildMegakernelFromFile(entry.path().string(), options);
      ASSERT_TRUE(kernel.ok()) << entry.path() << ": " << kernel.status();
      // Every block has at least one edge into it.
      EXPECT_GE(kernel->static_edges, kernel->module.block_hooks / 2)
          << entry.path();
      ++built;
    }
  }
  EXPECT_GE(built, 30u);
}

TEST(StaticEdgesTest, ABuildWithoutDeferredCoverageIsRefused) {
  absl::StatusOr<Megakernel> precise = BuildMegakernel(
      "plain.fz", "#include \"ringfuzz.h\"\nvoid fz_target(uint len) {}\n",
      MegakernelOptions{});
  ASSERT_TRUE(precise.ok()) << precise.status();
  absl::StatusOr<StaticEdges> edges = AddStaticEdges(precise->module.spirv);
  ASSERT_TRUE(absl::IsInvalidArgument(edges.status())) << edges.status();
  EXPECT_THAT(edges.status().message(), HasSubstr("rf_edge"));
}

TEST(StaticEdgesTest, MalformedModulesAreRefused) {
  EXPECT_TRUE(absl::IsInvalidArgument(
      AddStaticEdges(std::vector<uint32_t>{1, 2, 3}).status()));
  absl::StatusOr<Megakernel> kernel = Deferred("void fz_target(uint len) {}\n");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  std::vector<uint32_t> cut = kernel->module.spirv;
  cut.resize(cut.size() - 1);  // the last OpFunctionEnd
  EXPECT_TRUE(absl::IsInvalidArgument(AddStaticEdges(cut).status()));
  std::vector<uint32_t> overrun = kernel->module.spirv;
  overrun[5] |= 0xFFFFu << 16;  // the first instruction's word count
  EXPECT_TRUE(absl::IsInvalidArgument(AddStaticEdges(overrun).status()));
}

TEST(StaticEdgesTest, DeferredCoverageIsAPreciseBuildsWithCoverage) {
  MegakernelOptions options;
  options.deferred_coverage = true;
  options.signature = true;
  EXPECT_TRUE(absl::IsInvalidArgument(
      BuildMegakernel("x.fz", "void fz_target(uint len) {}\n", options)
          .status()));
}

}  // namespace
}  // namespace ringfuzz
