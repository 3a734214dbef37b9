// Names of the work kinds (RF_OP_HAVOC..RF_OP_CMPLOG): the mutator names that
// NEW lines and bug reports print after "MS:", as libFuzzer prints its
// mutator names.
#ifndef RINGFUZZ_FUZZ_WORK_KIND_H_
#define RINGFUZZ_FUZZ_WORK_KIND_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"

namespace ringfuzz {

// Returns "havoc", "splice", "dict", "cmp", "replay", "trim", "calibrate"
// or "cmplog" for a work kind, "op<N>" for any other opcode.
std::string WorkKindName(uint32_t opcode);

// Returns libFuzzer's mutation-sequence text: "MS: <n> " followed by each
// name and a '-', e.g. "MS: 1 havoc-"; "MS: 0 " when nothing was mutated.
std::string MutationSequence(absl::Span<const uint32_t> opcodes);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_WORK_KIND_H_
