// The mutators by id (RF_MUT_* in shaders/ringfuzz_mutators.h, the one
// table both GPU mutation engines and the host use): their names, libFuzzer's
// names for them (what "MS:" lines print), and the packed mutation sequences of
// the find queue (RF_FIND_MUTATIONS).
#ifndef RINGFUZZ_FUZZ_ENGINE_MUTATORS_H_
#define RINGFUZZ_FUZZ_ENGINE_MUTATORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ringfuzz {

struct MutatorInfo {
  uint32_t id = 0;  // RF_MUT_*
  // ringfuzz's name, unique per id, e.g. "flip_bit" (stat:: lines).
  absl::string_view name;
  // libFuzzer's name for the same kind of mutation, e.g. "ChangeBit"
  // ("MS:" lines). Several ids may share one (libFuzzer's CopyPart both
  // inserts and overwrites).
  absl::string_view libfuzzer_name;
};

// Every mutator, in id order: entry i has id i, for i < RF_MUT_NAMED (the
// GPU's, then the host's).
absl::Span<const MutatorInfo> Mutators();

// ringfuzz's name of `id`, or "mutator<N>" for an id that is no mutator.
std::string MutatorName(uint32_t id);

// libFuzzer's name of `id`, or "Mutator<N>" for an id that is no mutator.
std::string LibFuzzerMutatorName(uint32_t id);

// The ids of a packed mutation sequence (RF_MUT_SEQ_*), in application
// order; RF_MUT_NONE nibbles hold no mutation and are skipped.
std::vector<uint32_t> UnpackMutations(uint32_t packed);

// The packed form of `ids` (at most RF_MUT_SEQ_MAX, the last ones kept),
// as the megakernel builds it.
uint32_t PackMutations(absl::Span<const uint32_t> ids);

// libFuzzer's mutation-sequence text for mutator ids: "MS: <n> " followed
// by each libFuzzer name and a '-', e.g. "MS: 2 ChangeBit-EraseBytes-".
std::string MutatorSequence(absl::Span<const uint32_t> ids);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_MUTATORS_H_
