#include "fuzz/corpus_tools/merge_control.h"

#include <algorithm>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace ringfuzz {
namespace {

// libFuzzer's bound on the input count of a control file.
constexpr size_t kMaxMergeInputs = 10000000;

absl::Status Bad(size_t line_number, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line_number, " of the merge control file: ", why));
}

// The leading unsigned number of `line` (libFuzzer reads the count lines
// with >>, which stops at the first non-digit, e.g. a "# comment").
bool LeadingNumber(absl::string_view line, uint64_t& value) {
  absl::string_view digits =
      line.substr(0, line.find_first_not_of("0123456789", 0));
  return !digits.empty() && absl::SimpleAtoi(digits, &value);
}

}  // namespace

absl::StatusOr<MergeControl> ParseMergeControl(absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  // A file that ends in a newline has an empty last piece, not a line.
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  MergeControl control;
  uint64_t count = 0, first = 0;
  if (lines.empty() || !LeadingNumber(lines[0], count) || count == 0 ||
      count > kMaxMergeInputs) {
    return Bad(1, absl::StrCat("expected the number of inputs (1..",
                               kMaxMergeInputs, ")"));
  }
  if (lines.size() < 2 || !LeadingNumber(lines[1], first) || first > count) {
    return Bad(2,
               "expected the number of inputs of the first corpus (at "
               "most the number of inputs)");
  }
  if (lines.size() < 2 + count) {
    return Bad(lines.size() + 1,
               absl::StrCat("expected ", count, " input paths, found ",
                            lines.size() - 2));
  }
  control.first_corpus = first;
  control.inputs.resize(count);
  for (size_t i = 0; i < count; ++i) {
    control.inputs[i].path = std::string(lines[2 + i]);
  }
  std::set<uint32_t> cov_seen;
  size_t expected_start = 0;
  bool last_finished = true;
  for (size_t n = 2 + count; n < lines.size(); ++n) {
    std::vector<absl::string_view> words =
        absl::StrSplit(lines[n], ' ', absl::SkipEmpty());
    uint32_t index = 0;
    if (words.size() < 2 || !absl::SimpleAtoi(words[1], &index)) {
      return Bad(n + 1, "expected STARTED, FT or COV and an input number");
    }
    if (words[0] == "STARTED") {
      if (index != expected_start || index >= count) {
        return Bad(n + 1,
                   absl::StrCat("STARTED names input ", index, " where input ",
                                expected_start, " was expected"));
      }
      uint64_t size = 0;
      if (words.size() > 2 && !absl::SimpleAtoi(words[2], &size)) {
        return Bad(n + 1, "the input size is not a number");
      }
      control.inputs[index].size = size;
      ++expected_start;
      last_finished = false;
      continue;
    }
    if (words[0] != "FT" && words[0] != "COV") {
      return Bad(n + 1, absl::StrCat("unknown record '", words[0], "'"));
    }
    if (expected_start == 0 || index != expected_start - 1) {
      return Bad(n + 1, absl::StrCat(words[0], " names input ", index,
                                     ", which is not the last one started"));
    }
    std::vector<uint32_t> ids;
    for (size_t w = 2; w < words.size(); ++w) {
      uint32_t id = 0;
      if (!absl::SimpleAtoi(words[w], &id)) {
        return Bad(n + 1, absl::StrCat("'", words[w], "' is not an id"));
      }
      ids.push_back(id);
    }
    MergeInput& input = control.inputs[index];
    if (words[0] == "FT") {
      last_finished = true;
      std::sort(ids.begin(), ids.end());
      input.features = std::move(ids);
    } else {
      for (uint32_t id : ids) {
        if (cov_seen.insert(id).second) input.cov.push_back(id);
      }
    }
  }
  if (!last_finished) {
    control.last_failure = control.inputs[expected_start - 1].path;
  }
  control.first_not_processed = expected_start;
  return control;
}

std::string MergeControlHead(absl::Span<const std::string> paths,
                             size_t first_corpus) {
  std::string head = absl::StrCat(paths.size(), "\n", first_corpus, "\n");
  for (const std::string& path : paths) absl::StrAppend(&head, path, "\n");
  return head;
}

std::string MergeStartedRecord(size_t index, uint64_t size) {
  return absl::StrCat("STARTED ", index, " ", size, "\n");
}

std::string MergeFinishedRecords(size_t index,
                                 absl::Span<const uint32_t> features,
                                 absl::Span<const uint32_t> cov) {
  std::string records = absl::StrCat("FT ", index);
  for (uint32_t id : features) absl::StrAppend(&records, " ", id);
  absl::StrAppend(&records, "\nCOV ", index);
  for (uint32_t id : cov) absl::StrAppend(&records, " ", id);
  records += '\n';
  return records;
}

MergePlan PlanMerge(MergeControl control) {
  MergePlan plan;
  std::vector<MergeInput>& inputs = control.inputs;
  const size_t first = std::min(control.first_corpus, inputs.size());
  std::set<uint32_t> known;
  for (size_t i = 0; i < first; ++i) {
    known.insert(inputs[i].features.begin(), inputs[i].features.end());
  }
  // Only what the output corpus lacks counts, also for the order below.
  for (size_t i = first; i < inputs.size(); ++i) {
    std::vector<uint32_t> unknown;
    std::set_difference(inputs[i].features.begin(), inputs[i].features.end(),
                        known.begin(), known.end(),
                        std::back_inserter(unknown));
    inputs[i].features = std::move(unknown);
  }
  std::sort(inputs.begin() + first, inputs.end(),
            [](const MergeInput& a, const MergeInput& b) {
              if (a.size != b.size) return a.size < b.size;
              return a.features.size() > b.features.size();
            });
  for (size_t i = first; i < inputs.size(); ++i) {
    bool adds = false;
    for (uint32_t id : inputs[i].features) {
      if (known.insert(id).second) {
        adds = true;
        plan.new_features.insert(id);
      }
    }
    if (adds) plan.new_files.push_back(inputs[i].path);
    plan.new_cov.insert(inputs[i].cov.begin(), inputs[i].cov.end());
  }
  return plan;
}

MergePlan PlanSetCoverMerge(const MergeControl& control) {
  MergePlan plan;
  const std::vector<MergeInput>& inputs = control.inputs;
  const size_t first = std::min(control.first_corpus, inputs.size());
  std::set<uint32_t> covered;
  for (size_t i = 0; i < first; ++i) {
    covered.insert(inputs[i].features.begin(), inputs[i].features.end());
  }
  std::vector<size_t> remaining;
  for (size_t i = first; i < inputs.size(); ++i) remaining.push_back(i);
  while (true) {
    size_t best = inputs.size(), best_count = 0;
    std::vector<size_t> still;
    for (size_t i : remaining) {
      size_t count = 0;
      for (uint32_t id : inputs[i].features) count += covered.count(id) == 0;
      if (count == 0) continue;  // never useful again
      still.push_back(i);
      if (count > best_count ||
          (count == best_count && inputs[i].size < inputs[best].size)) {
        best = i;
        best_count = count;
      }
    }
    if (best_count == 0) break;
    remaining.clear();
    for (size_t i : still) {
      if (i != best) remaining.push_back(i);
    }
    for (uint32_t id : inputs[best].features) {
      if (covered.insert(id).second) plan.new_features.insert(id);
    }
    plan.new_files.push_back(inputs[best].path);
    plan.new_cov.insert(inputs[best].cov.begin(), inputs[best].cov.end());
  }
  return plan;
}

}  // namespace ringfuzz
