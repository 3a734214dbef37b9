#include "fuzz/engine/work_kind.h"

#include "absl/strings/str_cat.h"
#include "fuzz/engine/mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

std::string WorkKindName(uint32_t opcode) {
  switch (opcode) {
    case RF_OP_HAVOC:
      return "havoc";
    case RF_OP_SPLICE:
      return "splice";
    case RF_OP_DICT:
      return "dict";
    case RF_OP_CMP:
      return "cmp";
    case RF_OP_REPLAY:
      return "replay";
    case RF_OP_TRIM:
      return "trim";
    case RF_OP_CALIBRATE:
      return "calibrate";
    case RF_OP_CMPLOG:
      return "cmplog";
    default:
      return absl::StrCat("op", opcode);
  }
}

std::string MutationSequence(absl::Span<const uint32_t> opcodes) {
  std::string text = absl::StrCat("MS: ", opcodes.size(), " ");
  for (uint32_t opcode : opcodes)
    absl::StrAppend(&text, WorkKindName(opcode), "-");
  return text;
}

std::string MutationSequence(absl::Span<const uint32_t> opcodes,
                             absl::Span<const uint32_t> mutations) {
  return mutations.empty() ? MutationSequence(opcodes)
                           : MutatorSequence(mutations);
}

}  // namespace ringfuzz
