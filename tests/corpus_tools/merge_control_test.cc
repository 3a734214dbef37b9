#include "fuzz/corpus_tools/merge_control.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// libFuzzer's own example of a control file (FuzzerMerge.cpp).
constexpr char kExample[] =
    "3\n1\nfile0\nfile1\nfile2\n"
    "STARTED 0 123\nFT 0 1 4 6 8\nCOV 0 7 8 9\n"
    "STARTED 1 456\n"
    "STARTED 2 567\nFT 2 8 9\nCOV 2 11 12\n";

TEST(MergeControlTest, ParsesLibFuzzersExample) {
  absl::StatusOr<MergeControl> control = ParseMergeControl(kExample);
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_EQ(control->first_corpus, 1u);
  EXPECT_EQ(control->first_not_processed, 3u);
  EXPECT_EQ(control->last_failure, "");  // input 1 failed, but not last
  ASSERT_EQ(control->inputs.size(), 3u);
  EXPECT_EQ(control->inputs[1].path, "file1");
  EXPECT_EQ(control->inputs[0].size, 123u);
  EXPECT_THAT(control->inputs[0].features, ElementsAre(1, 4, 6, 8));
  EXPECT_THAT(control->inputs[0].cov, ElementsAre(7, 8, 9));
  EXPECT_THAT(control->inputs[1].features, IsEmpty());
  EXPECT_THAT(control->inputs[2].features, ElementsAre(8, 9));
  EXPECT_THAT(control->inputs[2].cov, ElementsAre(11, 12));
}

TEST(MergeControlTest, AnInputStartedLastAndNotFinishedIsTheLastFailure) {
  absl::StatusOr<MergeControl> control = ParseMergeControl(
      "3\n0\na\nb\nc\nSTARTED 0 1\nFT 0 5\nCOV 0\nSTARTED 1 2\n");
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_EQ(control->first_not_processed, 2u);
  EXPECT_EQ(control->last_failure, "b");
}

TEST(MergeControlTest, CovIdsCountOnceInTheWholeFile) {
  absl::StatusOr<MergeControl> control = ParseMergeControl(
      "2\n0\na\nb\nSTARTED 0 1\nFT 0\nCOV 0 3 4\nSTARTED 1 1\nFT 1\nCOV 1 "
      "4 5\n");
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_THAT(control->inputs[1].cov, ElementsAre(5));
}

TEST(MergeControlTest, RejectsWhatLibFuzzerRejects) {
  for (const char* bad : {
           "",                                 // no count
           "0\n0\n",                           // no inputs
           "2\n3\na\nb\n",                     // first corpus > inputs
           "2\n0\na\n",                        // a path missing
           "1\n0\na\nSTARTED 1 4\n",           // out of order
           "2\n0\na\nb\nSTARTED 0 1\nFT 1\n",  // FT of another input
           "1\n0\na\nFT 0 1\n",                // FT before STARTED
           "1\n0\na\nSTARTED 0 1\nPC 0 1\n",   // unknown record
           "1\n0\na\nSTARTED 0 1\nFT 0 x\n",   // not an id
       }) {
    absl::StatusOr<MergeControl> control = ParseMergeControl(bad);
    EXPECT_FALSE(control.ok()) << bad;
    if (!control.ok()) {
      EXPECT_THAT(control.status().message(),
                  HasSubstr("of the merge control file"));
    }
  }
}

TEST(MergeControlTest, WrittenRecordsParseBack) {
  std::string text = MergeControlHead({"out/a", "in/b"}, 1);
  EXPECT_EQ(text, "2\n1\nout/a\nin/b\n");
  text += MergeStartedRecord(0, 3) + MergeFinishedRecords(0, {2, 9}, {1});
  text += MergeStartedRecord(1, 4) + MergeFinishedRecords(1, {}, {});
  EXPECT_THAT(text, HasSubstr("STARTED 0 3\nFT 0 2 9\nCOV 0 1\n"));
  absl::StatusOr<MergeControl> control = ParseMergeControl(text);
  ASSERT_TRUE(control.ok()) << control.status();
  EXPECT_EQ(control->first_not_processed, 2u);
  EXPECT_THAT(control->inputs[0].features, ElementsAre(2, 9));
  EXPECT_THAT(control->inputs[1].features, IsEmpty());
}

MergeInput Input(std::string path, uint64_t size,
                 std::vector<uint32_t> features,
                 std::vector<uint32_t> cov = {}) {
  return MergeInput{std::move(path), size, std::move(features), std::move(cov)};
}

TEST(MergeControlTest, PlanMergeTakesSmallInputsThatAddFeatures) {
  MergeControl control;
  control.first_corpus = 1;
  control.inputs = {
      Input("old", 1, {1, 2}),         Input("big", 9, {3, 4, 5}, {30}),
      Input("small", 2, {2, 3}, {20}),  // adds 3 (2 is known)
      Input("same", 2, {1}),            // nothing new
      Input("tie_more", 5, {4, 6}),     // size 5: more unknown first
      Input("tie_less", 5, {4}),
  };
  const MergePlan plan = PlanMerge(control);
  EXPECT_THAT(plan.new_files, ElementsAre("small", "tie_more", "big"));
  EXPECT_THAT(plan.new_features, ElementsAre(3, 4, 5, 6));
  // libFuzzer counts the COV of every input after the first corpus.
  EXPECT_THAT(plan.new_cov, ElementsAre(20, 30));
}

TEST(MergeControlTest, PlanSetCoverMergePrefersMoreFeaturesThenSmaller) {
  MergeControl control;
  control.first_corpus = 1;
  control.inputs = {
      Input("old", 1, {1}),
      Input("a", 1, {2, 3}),
      Input("b", 9, {2, 3, 4, 5}, {7}),
      Input("c", 3, {5, 6}),
      Input("d", 2, {6}),
      Input("e", 1, {1}),
  };
  const MergePlan plan = PlanSetCoverMerge(control);
  // b covers 4 new; then c and d each add {6}: d is smaller.
  EXPECT_THAT(plan.new_files, ElementsAre("b", "d"));
  EXPECT_THAT(plan.new_features, ElementsAre(2, 3, 4, 5, 6));
  EXPECT_THAT(plan.new_cov, ElementsAre(7));
  // The greedy pass would take a, c, b... by size instead.
  EXPECT_THAT(PlanMerge(control).new_files, ElementsAre("a", "d", "c", "b"));
}

}  // namespace
}  // namespace ringfuzz
