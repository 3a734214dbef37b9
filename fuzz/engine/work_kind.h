// Names of the work kinds (RF_OP_HAVOC..RF_OP_CMPLOG), and the "MS:" text of
// NEW lines and bug reports: libFuzzer's names of the mutators that made an
// input (fuzz/engine/mutators.h) when the executor says which, else its work
// kind.
#ifndef RINGFUZZ_FUZZ_ENGINE_WORK_KIND_H_
#define RINGFUZZ_FUZZ_ENGINE_WORK_KIND_H_

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

// The "MS:" text of an input made by the mutators `mutations` (RF_MUT_*
// ids, Find::mutations) of work kinds `opcodes`: MutatorSequence(mutations)
// (fuzz/engine/mutators.h), e.g. "MS: 2 ChangeBit-EraseBytes-", or, when
// `mutations` is empty (seeds, executors that do not say),
// MutationSequence(opcodes), e.g. "MS: 1 havoc-".
std::string MutationSequence(absl::Span<const uint32_t> opcodes,
                             absl::Span<const uint32_t> mutations);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_WORK_KIND_H_
