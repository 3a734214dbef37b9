// Which basic blocks of a function coverage hooks may skip, by the rule of
// LLVM's SanitizerCoverage (its default, "pruned" instrumentation): a block
// need not record itself when its visits are implied by the blocks around
// it, namely
//   * a full dominator: it has successors and dominates each of them, so
//     it was visited iff one of its successors was;
//   * a full post-dominator with two or more predecessors: it
//     post-dominates each predecessor, so it was visited iff one of them was.
// The entry block is always kept.
#ifndef RINGFUZZ_FUZZ_GPU_GPU_CFG_H_
#define RINGFUZZ_FUZZ_GPU_GPU_CFG_H_

#include <cstdint>
#include <vector>

namespace ringfuzz {

// `successors[b]`: the blocks block b may branch to (indices into the same
// vector; block 0 is the entry; a block without successors returns).
// Returns, per block, whether it is redundant by the rule above. Blocks
// unreachable from the entry are never redundant.
std::vector<bool> RedundantCoverageBlocks(
    const std::vector<std::vector<uint32_t>>& successors);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_CFG_H_
