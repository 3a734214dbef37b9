// The pieces of `ringfuzz triage` that need no device: find lines written
// and read back, artifact names, twin report categories, and replay plus
// bucketing against an executor whose bugs follow from the input's first
// byte.
#include "fuzz/triage/triage.h"

#include <fstream>
#include <string>
#include <vector>

#include "fuzz/engine/find_line.h"
#include "fuzz/triage/triage_inputs.h"
#include "fuzz/triage/triage_signature.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::SizeIs;

TEST(FindLineTest, ReadsBackWhatItWrites) {
  FindLineFields f;
  f.epoch = 12;
  f.slot = 3;
  f.parent = 5;
  f.base_unit = std::string(40, 'a');
  f.mutations = "MS: 2 ChangeBit-EraseBytes-";
  f.bug = "fz_crash(code=7)";
  f.artifact = "out/crash-\"quoted\"\\dir\n";
  f.sha1 = std::string(40, 'b');
  f.time = 1700000000;
  std::optional<FindLineFields> back = ParseFindLine(FindLine(f));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->epoch, 12u);
  EXPECT_EQ(back->slot, 3u);
  EXPECT_EQ(back->parent, 5u);
  EXPECT_EQ(back->base_unit, f.base_unit);
  EXPECT_EQ(back->mutations, f.mutations);
  EXPECT_EQ(back->bug, f.bug);
  EXPECT_EQ(back->artifact, f.artifact);
  EXPECT_EQ(back->sha1, f.sha1);
  EXPECT_EQ(back->time, 1700000000u);
}

TEST(FindLineTest, IgnoresOtherLinesAndSkipsUnknownMembers) {
  EXPECT_FALSE(ParseFindLine("{\"epoch\":3,\"summary\":\"x\"}").has_value());
  EXPECT_FALSE(ParseFindLine("").has_value());
  EXPECT_FALSE(ParseFindLine("{\"find\":{\"slot\":").has_value());
  EXPECT_FALSE(ParseFindLine("{\"find\":{\"slot\":99999999999}}").has_value());
  std::optional<FindLineFields> f = ParseFindLine(
      "{\"find\": {\"new_member\": \"x\", \"slot\": 4, \"sha1\": \"ab\"}}");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->slot, 4u);
  EXPECT_EQ(f->sha1, "ab");
}

TEST(ArtifactNameTest, KnowsTheNamesArtifactsGet) {
  EXPECT_TRUE(IsArtifactName("crash-0123"));
  EXPECT_TRUE(IsArtifactName("timeout-0123"));
  EXPECT_TRUE(IsArtifactName("oob-1"));
  EXPECT_TRUE(IsArtifactName("x-crash-0123"));  // -artifact_prefix=dir/x-
  EXPECT_FALSE(IsArtifactName("crash"));
  EXPECT_FALSE(IsArtifactName("0123456789abcdef"));
  EXPECT_FALSE(IsArtifactName("crashes.txt"));
}

TEST(TwinCategoryTest, ReadsTheTwinsReports) {
  EXPECT_EQ(TwinCategory("==1== ERROR: libFuzzer: deadly signal\n"
                         "ringfuzz: fz_crash(code=7)\n",
                         1),
            "fz_crash(code=7)");
  EXPECT_EQ(
      TwinCategory("ringfuzz: input overread: fz_byte(5) with len 5\n", 1),
      "input-overread");
  EXPECT_EQ(TwinCategory("t.fz:9:10: runtime error: index 9 out of bounds "
                         "for type 'uint[4]'\n",
                         1),
            "out-of-bounds");
  EXPECT_EQ(TwinCategory("Done 1 runs\n", 0), "");
  EXPECT_EQ(
      TwinCategory("SUMMARY: AddressSanitizer: heap-buffer-overflow\n", 1),
      "sanitizer: AddressSanitizer: heap-buffer-overflow");
}

// Input byte 0: 'A'..'C' fz_crash(code 1..3) at line 10 + code, 'T' a
// timeout, anything else clean.
class ByteExecutor : public Executor {
 public:
  absl::StatusOr<uint32_t> AddInput(ByteSpan) override { return 0; }
  absl::Status SetDictionary(const std::vector<Bytes>&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<BatchResult> RunBatch(absl::Span<const WorkItem>,
                                       uint64_t) override {
    return absl::UnimplementedError("not used");
  }
  absl::StatusOr<BatchResult> Execute(ByteSpan input) override {
    BatchResult result;
    result.executions = 1;
    if (input.empty()) return result;
    Find find;
    find.data.assign(input.begin(), input.end());
    find.file = "t.fz";
    find.function = "fz_target";
    if (input[0] >= 'A' && input[0] <= 'C') {
      find.kind = Find::Kind::kCrash;
      find.code = input[0] - 'A' + 1;
      find.line = 10 + find.code;
    } else if (input[0] == 'T') {
      find.kind = Find::Kind::kTimeout;
      find.line = 30;
    } else {
      return result;
    }
    result.finds.push_back(find);
    return result;
  }
  CoverageSummary Coverage() const override { return {}; }
  size_t max_len() const override { return 8; }
};

TEST(TriageTest, BucketsBySignatureAndKeepsTheSmallest) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> files = {
      {"crash-1", "AAAA"}, {"crash-2", "AA"},  {"crash-3", "BBB"},
      {"crash-4", "Azz"},  {"crash-5", "zzz"}, {"timeout-6", "T"},
      {"crash-7", "y"},    {"crash-8", "Bx"},  {"crash-9", "AAAAAAAAAAAA"}};
  std::vector<ArtifactFile> artifacts;
  for (const auto& [name, data] : files) {
    std::ofstream(dir.Sub(name)) << data;
    artifacts.push_back({dir.Sub(name), data.size(), 100});
  }
  // crash-4 was seen first, per its find line.
  absl::flat_hash_map<std::string, FindLineFields> finds;
  FindLineFields seen;
  seen.epoch = 2;
  seen.time = 50;
  // sha1sum of "Azz".
  finds["b195305e99dddf3e1560106cdb0314fb560994f3"] = seen;
  ByteExecutor executor;
  absl::StatusOr<std::vector<TriagedArtifact>> triaged =
      ReplayArtifacts(executor, artifacts, finds);
  ASSERT_TRUE(triaged.ok()) << triaged.status();
  std::vector<Bucket> buckets = BucketArtifacts(*triaged);
  ASSERT_THAT(buckets, SizeIs(4));
  EXPECT_EQ(buckets[0].Key(), "fz_crash(code=1) at t.fz:11");
  EXPECT_THAT(buckets[0].members, ElementsAre(0, 1, 3, 8));
  EXPECT_EQ((*triaged)[buckets[0].smallest].file.path, dir.Sub("crash-2"));
  EXPECT_EQ((*triaged)[buckets[0].first_seen].file.path, dir.Sub("crash-4"));
  EXPECT_EQ((*triaged)[buckets[0].first_seen].seen.Describe(),
            "epoch 2 slot 0 parent 0");
  EXPECT_EQ((*triaged)[8].file.size, 12u);  // the file, not the cut input
  EXPECT_EQ(buckets[1].Key(), "fz_crash(code=2) at t.fz:12");
  EXPECT_THAT(buckets[1].members, ElementsAre(2, 7));
  EXPECT_EQ(buckets[2].Key(), "timeout at t.fz:30");
  EXPECT_EQ(buckets[3].Key(), kNoReproBucket);
  EXPECT_FALSE(buckets[3].reproduces());
  EXPECT_THAT(buckets[3].members, ElementsAre(4, 6));
  EXPECT_EQ((*triaged)[buckets[3].smallest].file.path, dir.Sub("crash-7"));
}

}  // namespace
}  // namespace ringfuzz
