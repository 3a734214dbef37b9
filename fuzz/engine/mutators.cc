#include "fuzz/engine/mutators.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

constexpr std::array<MutatorInfo, RF_MUT_NAMED> kMutators = {{
    {RF_MUT_FLIP_BIT, "flip_bit", "ChangeBit"},
    {RF_MUT_CHANGE_BYTE, "random_byte", "ChangeByte"},
    {RF_MUT_INTERESTING, "interesting", "ChangeBinaryInteger"},
    {RF_MUT_ARITH, "arith", "ChangeBinaryInteger"},
    {RF_MUT_INSERT, "insert", "InsertByte"},
    {RF_MUT_ERASE, "erase", "EraseBytes"},
    {RF_MUT_DUPLICATE, "duplicate", "CopyPart"},
    {RF_MUT_COPY, "copy", "CopyPart"},
    {RF_MUT_INSERT_REPEATED, "insert_repeated", "InsertRepeatedBytes"},
    {RF_MUT_SPLICE, "splice", "CrossOver"},
    {RF_MUT_DICT, "dict", "AddFromManualDict"},
    {RF_MUT_CMP, "cmp", "CMP"},
    {RF_MUT_LENGTH, "length", "LengthToState"},
    {RF_MUT_TEXT, "text", "ChangeASCIIInteger"},
    {RF_MUT_VARINT, "varint", "ChangeVarint"},
}};

// The table covers every id, in id order, with a name for each.
constexpr bool TableIsComplete() {
  for (uint32_t i = 0; i < kMutators.size(); ++i) {
    if (kMutators[i].id != i || kMutators[i].name.empty() ||
        kMutators[i].libfuzzer_name.empty()) {
      return false;
    }
  }
  return true;
}
static_assert(TableIsComplete(), "kMutators must name every RF_MUT_* id");
static_assert(RF_MUT_COUNT <= RF_MUT_NAMED && RF_MUT_NAMED <= RF_MUT_NONE &&
                  RF_MUT_NONE < (1u << RF_MUT_BITS),
              "mutator ids and RF_MUT_NONE must fit RF_MUT_BITS");
static_assert(RF_MUT_SEQ_MAX * RF_MUT_BITS == 32,
              "a mutation sequence is one word");
static_assert(RF_MUT_NONE < RF_RES_MUTATOR_USE_WORDS,
              "every id has an execution counter");
static_assert(RF_HAVOC_CHOICE_CHANGE_BYTE + 1 == RF_HAVOC_CHOICES &&
                  RF_MUT_COPY + 1 == RF_HAVOC_CHOICE_CHANGE_BYTE,
              "havoc draws 0..7 are the mutator ids, 8 a second ChangeByte");

constexpr uint32_t kIdMask = (1u << RF_MUT_BITS) - 1;

}  // namespace

absl::Span<const MutatorInfo> Mutators() { return kMutators; }

std::string MutatorName(uint32_t id) {
  if (id < kMutators.size()) return std::string(kMutators[id].name);
  return absl::StrCat("mutator", id);
}

std::string LibFuzzerMutatorName(uint32_t id) {
  if (id < kMutators.size()) return std::string(kMutators[id].libfuzzer_name);
  return absl::StrCat("Mutator", id);
}

std::vector<uint32_t> UnpackMutations(uint32_t packed) {
  std::vector<uint32_t> ids;
  for (int k = RF_MUT_SEQ_MAX - 1; k >= 0; --k) {
    const uint32_t id = (packed >> (k * RF_MUT_BITS)) & kIdMask;
    if (id != RF_MUT_NONE) ids.push_back(id);
  }
  return ids;
}

uint32_t PackMutations(absl::Span<const uint32_t> ids) {
  uint32_t packed = RF_MUT_SEQ_EMPTY;
  for (uint32_t id : ids) packed = packed << RF_MUT_BITS | (id & kIdMask);
  return packed;
}

std::string MutatorSequence(absl::Span<const uint32_t> ids) {
  std::string text = absl::StrCat("MS: ", ids.size(), " ");
  for (uint32_t id : ids) absl::StrAppend(&text, LibFuzzerMutatorName(id), "-");
  return text;
}

}  // namespace ringfuzz
