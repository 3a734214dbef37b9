// The second operands of short-circuit conditions that only their value
// tells apart.
//
// glslang compiles `a || f(x)` and `a && f(x)` (a second operand with a
// call, a load or other work it may not evaluate early) into a branch around
// the second operand's block B, which then branches unconditionally to a
// join block M whose boolean OpPhi picks `a` (from the first block) or the
// second operand's value (from B); M's branch on that phi decides the `if`.
// "The second operand was true" and "it was false" then take the same
// edges (B->M and M's way out, both seen from other inputs), where a CPU's
// compiler branches from B straight to the `if`'s two sides, edges a
// libFuzzer build sees. The instrumenter (fuzz/gpu/gpu_instrument.cc)
// gives each such value a condition hook at the end of B, so both ways are
// coverage on the GPU too.
#ifndef RINGFUZZ_FUZZ_GPU_SHORT_CIRCUIT_H_
#define RINGFUZZ_FUZZ_GPU_SHORT_CIRCUIT_H_

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "fuzz/gpu/spirv_inst.h"

namespace ringfuzz {

// `fn`: one function's instructions, OpFunction to OpFunctionEnd. Returns,
// per label of a block B, the values of boolean OpPhis (result type
// `bool_type`) that arrive from B, for each B that
//   * ends in an unconditional OpBranch to the phi's block (a conditional
//     branch already says which way it went by the edge it takes),
//   * comes before the phi's block in the function (a forward edge: a
//     loop's back edge carries loop state, hooked once per iteration it
//     would cost more than it tells),
// leaving out values in `constants` (a constant tells nothing). Each
// block's values are distinct, in the order of the phis.
std::map<uint32_t, std::vector<uint32_t>> ShortCircuitOperands(
    const std::vector<spirv::Inst>& fn, uint32_t bool_type,
    const std::set<uint32_t>& constants);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_SHORT_CIRCUIT_H_
