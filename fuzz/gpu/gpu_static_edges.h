// The static edges of an instrumented precise build, for deferred coverage
// (RF_COVERAGE_DEFERRED, shaders/megakernel_coverage_precise.glsl).
//
// The precise build's edge feature at a coverage hook is the AFL-style
// edge-map bit (cur ^ prev) & (RF_EDGE_MAP_BITS - 1): cur is the hook's
// 16-bit hash (rf_site's low half), prev the previous hook's hash shifted
// right by one (rf_prev; 0 before the execution's first hook). In a module
// from fuzz/gpu/gpu_instrument.h every hook of a target function stores a
// constant (a block) or a select between two constants (a branchless
// condition) into rf_site and calls rf_cov_hook, so the hooks that can run
// right before a given one follow from the control-flow and call graphs:
// the last hook on every path to it, through blocks without a hook and
// through calls of target functions (whose last hooks are those before
// their returns). This pass finds each hook's possible previous values,
// numbers the distinct edge-map bits that its (value, previous value)
// pairs give (the static edges, 0 .. edge_bits.size() - 1), and before each
// rf_cov_hook call sets the bit of the static edge that the running rf_prev
// selects in the private array rf_edge_bits (bit j % 32 of word j / 32):
// one or of a constant into a constant word for a hook with one possible
// predecessor, one per possible predecessor, selected by a compare,
// otherwise. Deferred coverage then marks, at the end of the execution,
// the edge-map bit of each static edge set: the bits the precise build
// marks as it goes.
#ifndef RINGFUZZ_FUZZ_GPU_GPU_STATIC_EDGES_H_
#define RINGFUZZ_FUZZ_GPU_GPU_STATIC_EDGES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace ringfuzz {

// Most possible previous hooks per hook value; a hook with more makes the
// module incomplete (its select chain would cost each visit that much).
inline constexpr uint32_t kMaxEdgeCandidates = 32;

struct StaticEdges {
  std::vector<uint32_t> spirv;  // the module with the rf_edge_bits updates
  // edge_bits[j]: the edge-map bit of static edge j.
  std::vector<uint32_t> edge_bits;
  // Whether every hook's possible previous values are known. When not,
  // `incomplete` says why (a target function called from outside the
  // target other than fz_target, a hook storing a value that is not a
  // constant or a select of two, more than kMaxEdgeCandidates possible
  // previous values, recursion), and `spirv` is the input unchanged:
  // such a module needs the immediate precise build.
  bool complete = true;
  std::string incomplete;
};

// Analyses and rewrites `spirv`, an instrumented precise build whose
// module declares the private uint array `rf_edge_bits`. Fails
// (InvalidArgument) on a malformed module or one without rf_site, rf_prev,
// rf_edge_bits or rf_cov_hook.
absl::StatusOr<StaticEdges> AddStaticEdges(absl::Span<const uint32_t> spirv);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_GPU_STATIC_EDGES_H_
