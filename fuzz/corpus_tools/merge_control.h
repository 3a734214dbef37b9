// libFuzzer's merge control file, and the decision of which inputs a merge
// adds, as libFuzzer's FuzzerMerge.cpp makes it (llvm-project compiler-rt/
// lib/fuzzer, read at commit 8b9eae9f5cae409c66b218d51b1fbe533183b8df).
//
// The file is text, one item a line:
//
//   3            the number of inputs
//   1            how many of them are the output corpus's (they come first)
//   out/a        one path a line, in the order they run
//   in/b
//   in/c
//   STARTED 0 5  input 0, 5 bytes, began to run
//   FT 0 1 4 6   it ran to the end; the features it added
//   COV 0 7 8    the blocks ("PCs") it reached first
//   STARTED 1 9  no FT after it: input 1 failed (a bug, a killed process)
//   STARTED 2 12
//   ...
//
// The records are appended as inputs run, so a merge that was stopped
// resumes after the last STARTED input (which is skipped as "unlucky").
// Feature ids are whatever the executor names them (CoverageIds); they must
// only mean the same within one target and set of flags.
#ifndef RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_CONTROL_H_
#define RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_CONTROL_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ringfuzz {

// What the control file says about one input.
struct MergeInput {
  std::string path;
  uint64_t size = 0;               // from its STARTED record (0: none)
  std::vector<uint32_t> features;  // its FT record, ascending
  std::vector<uint32_t> cov;       // COV ids not named by an earlier record
};

struct MergeControl {
  std::vector<MergeInput> inputs;
  size_t first_corpus = 0;  // inputs of the output corpus, at the front
  // Inputs whose STARTED record was read: the first one to run on resume.
  size_t first_not_processed = 0;
  // The path of the last input that started and did not finish ("" if
  // none): a merge that stopped there is resumed after it.
  std::string last_failure;
};

// Parses a control file. InvalidArgument, naming the line, for anything
// libFuzzer's parser rejects: no or too many inputs, a first-corpus count
// above the input count, a missing path, a record out of order (STARTED
// must number the inputs 0, 1, ...; FT and COV name the last STARTED one),
// an unknown record.
absl::StatusOr<MergeControl> ParseMergeControl(absl::string_view text);

// The control file's head for `paths`, of which the first `first_corpus`
// are the output corpus's; records are appended to it.
std::string MergeControlHead(absl::Span<const std::string> paths,
                             size_t first_corpus);

// One input's records, as the file holds them: "STARTED i size\n";
// "FT i f...\nCOV i c...\n".
std::string MergeStartedRecord(size_t index, uint64_t size);
std::string MergeFinishedRecords(size_t index,
                                 absl::Span<const uint32_t> features,
                                 absl::Span<const uint32_t> cov);

// What a merge adds to the output corpus.
struct MergePlan {
  std::vector<std::string> new_files;  // paths, in the order chosen
  std::set<uint32_t> new_features;     // not reached by the output corpus
  std::set<uint32_t> new_cov;          // blocks the added inputs bring
};

// libFuzzer's -merge=1: the output corpus's features are known; the other
// inputs, smallest first (then the one with more unknown features), are
// taken in one greedy pass, each that adds a feature is added. Every
// input's COV counts towards new_cov, as libFuzzer counts it.
MergePlan PlanMerge(MergeControl control);

// libFuzzer's -set_cover_merge=1: repeatedly adds the input with the most
// features not covered yet (ties: the smaller), until none adds any.
MergePlan PlanSetCoverMerge(const MergeControl& control);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_CONTROL_H_
