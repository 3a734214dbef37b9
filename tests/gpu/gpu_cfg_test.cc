#include "fuzz/gpu/gpu_cfg.h"

#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using Graph = std::vector<std::vector<uint32_t>>;

// if (c) { 1 } ; 2: the header dominates both successors, the merge
// post-dominates both predecessors; the then-block is needed (its visit is
// the branch taken).
TEST(GpuCfgTest, IfThenKeepsOnlyTheConditionalBlock) {
  const Graph g = {{1, 2}, {2}, {}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, false, true}));
}

// 0 -> 1 | 2 -> 3 (diamond): both arms are needed; the merge is implied.
TEST(GpuCfgTest, DiamondKeepsBothArms) {
  const Graph g = {{1, 2}, {3}, {3}, {}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, false, false, true}));
}

// 0 -> 1 (header) -> 2 (body) -> 1, 1 -> 3 (exit). The header dominates
// body and exit; the body and exit are needed (the body's visits count the
// iterations).
TEST(GpuCfgTest, LoopHeaderIsImpliedByBodyAndExit) {
  const Graph g = {{1}, {2, 3}, {1}, {}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, true, false, false}));
}

// A switch: 0 -> 1, 2, 3 (cases, 2 returns early) -> 4 (merge, reached
// from 1 and 3 only, which it post-dominates).
TEST(GpuCfgTest, SwitchKeepsEveryCase) {
  const Graph g = {{1, 2, 3}, {4}, {}, {4}, {}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, false, false, false, true}));
}

// 0 -> 1 | 2 -> 3 -> 4: the merge 3 is implied (by 1 and 2, and it
// dominates 4); 4 post-dominates its single predecessor 3 and is kept, as in
// SanitizerCoverage.
TEST(GpuCfgTest, SinglePredecessorPostDominatorIsKept) {
  const Graph g = {{1, 2}, {3}, {3}, {4}, {}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, false, false, true, false}));
}

// Block 2 is unreachable: it is kept, and it does not make 1's visits
// ambiguous (1 runs iff the entry ran, so 1 is implied).
TEST(GpuCfgTest, UnreachableBlockIsKept) {
  const Graph g = {{1}, {}, {1}};
  EXPECT_EQ(RedundantCoverageBlocks(g),
            (std::vector<bool>{false, true, false}));
}

TEST(GpuCfgTest, EmptyGraph) {
  EXPECT_TRUE(RedundantCoverageBlocks({}).empty());
}

}  // namespace
}  // namespace ringfuzz
