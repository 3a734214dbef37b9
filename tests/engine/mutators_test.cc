// The mutator table (fuzz/engine/mutators.h over shaders/ringfuzz_mutators.h),
// the packed mutation sequences of the find queue, and the "MS:" text.
#include "fuzz/engine/mutators.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/engine/work_kind.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_mutators.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

TEST(MutatorsTest, TableNamesEveryIdOnce) {
  absl::Span<const MutatorInfo> table = Mutators();
  ASSERT_EQ(table.size(), RF_MUT_NAMED);
  std::set<std::string> names;
  for (uint32_t id = 0; id < RF_MUT_NAMED; ++id) {
    EXPECT_EQ(table[id].id, id);
    EXPECT_FALSE(table[id].libfuzzer_name.empty()) << id;
    EXPECT_TRUE(names.insert(std::string(table[id].name)).second)
        << "two mutators named " << table[id].name;
    EXPECT_EQ(MutatorName(id), table[id].name);
    EXPECT_EQ(LibFuzzerMutatorName(id), table[id].libfuzzer_name);
  }
  EXPECT_EQ(MutatorName(RF_MUT_NONE), "mutator15");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_NAMED),
            absl::StrCat("Mutator", RF_MUT_NAMED));
}

TEST(MutatorsTest, LibFuzzerNames) {
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_FLIP_BIT), "ChangeBit");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_CHANGE_BYTE), "ChangeByte");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_INTERESTING), "ChangeBinaryInteger");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_ARITH), "ChangeBinaryInteger");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_INSERT), "InsertByte");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_INSERT_REPEATED),
            "InsertRepeatedBytes");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_ERASE), "EraseBytes");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_DUPLICATE), "CopyPart");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_COPY), "CopyPart");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_SPLICE), "CrossOver");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_DICT), "AddFromManualDict");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_TEXT), "ChangeASCIIInteger");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_VARINT), "ChangeVarint");
  EXPECT_EQ(LibFuzzerMutatorName(RF_MUT_CMP), "CMP");
}

// The megakernel appends an id as (seq << RF_MUT_BITS) | id from
// RF_MUT_SEQ_EMPTY; the host reads the ids back in application order.
TEST(MutatorsTest, PackedSequencesRoundTrip) {
  EXPECT_TRUE(UnpackMutations(RF_MUT_SEQ_EMPTY).empty());
  EXPECT_EQ(PackMutations({}), RF_MUT_SEQ_EMPTY);
  EXPECT_EQ(UnpackMutations(0xFFFFFFF3u), (std::vector<uint32_t>{3}));
  EXPECT_EQ(UnpackMutations(0xFFFFFF9Au),
            (std::vector<uint32_t>{RF_MUT_SPLICE, RF_MUT_DICT}));
  const std::vector<uint32_t> eight = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(PackMutations(eight), 0x01234567u);
  EXPECT_EQ(UnpackMutations(0x01234567u), eight);
  for (uint32_t n = 0; n <= RF_MUT_SEQ_MAX; ++n) {
    std::vector<uint32_t> ids;
    for (uint32_t k = 0; k < n; ++k) ids.push_back((k * 5 + 3) % RF_MUT_COUNT);
    EXPECT_EQ(UnpackMutations(PackMutations(ids)), ids) << n;
  }
  // Past RF_MUT_SEQ_MAX the oldest are dropped.
  std::vector<uint32_t> nine = {RF_MUT_CMP, 0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(UnpackMutations(PackMutations(nine)), eight);
}

TEST(MutatorsTest, SequenceTextIsLibFuzzers) {
  EXPECT_EQ(MutatorSequence({}), "MS: 0 ");
  EXPECT_EQ(MutatorSequence({RF_MUT_FLIP_BIT}), "MS: 1 ChangeBit-");
  EXPECT_EQ(MutatorSequence({RF_MUT_SPLICE, RF_MUT_ERASE, RF_MUT_DICT}),
            "MS: 3 CrossOver-EraseBytes-AddFromManualDict-");
  // An id without a name (the first past the table) by its number.
  EXPECT_EQ(MutatorSequence({RF_MUT_CMP, RF_MUT_NAMED}),
            absl::StrCat("MS: 2 CMP-Mutator", RF_MUT_NAMED, "-"));
}

// Finds without mutator ids (seeds, executors that do not say) keep the
// work kind's name.
TEST(MutatorsTest, WorkKindWhenNoMutatorsAreKnown) {
  const std::vector<uint32_t> havoc = {RF_OP_HAVOC};
  EXPECT_EQ(MutationSequence(havoc, {}), "MS: 1 havoc-");
  EXPECT_EQ(MutationSequence({}, {}), "MS: 0 ");
  EXPECT_EQ(MutationSequence(havoc, {RF_MUT_INSERT_REPEATED, RF_MUT_COPY}),
            "MS: 2 InsertRepeatedBytes-CopyPart-");
}

}  // namespace
}  // namespace ringfuzz
