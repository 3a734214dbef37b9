#include "fuzz/corpus_tools/crash_cleanse.h"

#include <unistd.h>

#include <map>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "corpus/atomic_file.h"
#include "fuzz/corpus_tools/cleared_timeout.h"
#include "fuzz/engine/bug_signature.h"
#include "fuzz/engine/interrupt.h"

namespace ringfuzz {
namespace {

constexpr int kCleanseError = 1;
// libFuzzer's replacement bytes, in the order it tries them, and its passes.
constexpr uint8_t kReplacements[] = {' ', 0xff};
constexpr int kMaxPasses = 5;

bool IsReplacement(uint8_t byte) {
  for (uint8_t r : kReplacements) {
    if (byte == r) return true;
  }
  return false;
}

}  // namespace

int RunCleanseCrash(const Config& config, Executor& executor,
                    const std::vector<std::string>& files, std::ostream& out,
                    std::unique_ptr<TimeoutJudge> judge) {
  auto fail = [&out](const absl::Status& status) {
    out << "ERROR: " << status.message() << "\n";
    return kCleanseError;
  };
  if (files.size() != 1 || config.exact_artifact_path.empty()) {
    out << "ERROR: -cleanse_crash should be given one input file and "
           "-exact_artifact_path\n";
    return kCleanseError;
  }
  absl::StatusOr<Bytes> data = ReadFile(files[0]);
  if (!data.ok()) return fail(data.status());
  Bytes input = std::move(*data);
  if (input.size() > executor.max_len()) {
    return fail(absl::InvalidArgumentError(
        absl::StrCat("-cleanse_crash: '", files[0], "' has ", input.size(),
                     " bytes, more than the executor runs (",
                     executor.max_len(), "); pass a larger -max_len")));
  }
  auto reproduces = [&](const std::vector<Bytes>& candidates,
                        const BugSignature* want)
      -> absl::StatusOr<std::vector<std::optional<BugSignature>>> {
    absl::StatusOr<std::vector<std::optional<BugSignature>>> got =
        ReproduceEach(executor, candidates);
    if (!got.ok() || want == nullptr) return got;
    for (std::optional<BugSignature>& signature : *got) {
      if (signature && *signature != *want) signature.reset();
    }
    return got;
  };
  absl::StatusOr<std::vector<std::optional<BugSignature>>> first =
      reproduces({input}, nullptr);
  if (!first.ok()) return fail(first.status());
  if (!(*first)[0]) {
    out << "ERROR: the input " << files[0] << " did not crash\n";
    return kCleanseError;
  }
  TimeoutGate timeout_gate(std::move(judge));
  if (TimeoutClearedByTwin(*(*first)[0], input, files[0], timeout_gate, out)) {
    return kCleanseError;
  }
  const BugSignature signature = *(*first)[0];
  out << "CLEANSE: the bug: " << DescribeSignature(signature) << "\n";
  const std::string& output = config.exact_artifact_path;
  for (int pass = 0; pass < kMaxPasses && !Interrupted(); ++pass) {
    // Byte index -> the replacement that keeps the bug with it alone.
    std::map<size_t, uint8_t> found;
    std::vector<size_t> open;
    for (size_t i = 0; i < input.size(); ++i) {
      if (!IsReplacement(input[i])) open.push_back(i);
    }
    out << "CLEANSE[" << pass << "]: Trying to replace " << open.size()
        << " bytes of " << input.size() << "\n";
    for (uint8_t replacement : kReplacements) {
      if (open.empty()) break;
      std::vector<Bytes> candidates;
      for (size_t i : open) {
        candidates.push_back(input);
        candidates.back()[i] = replacement;
      }
      absl::StatusOr<std::vector<std::optional<BugSignature>>> kept =
          reproduces(candidates, &signature);
      if (!kept.ok()) return fail(kept.status());
      std::vector<size_t> still_open;
      for (size_t k = 0; k < open.size(); ++k) {
        if ((*kept)[k]) {
          found[open[k]] = replacement;
        } else {
          still_open.push_back(open[k]);
        }
      }
      open = std::move(still_open);
    }
    if (found.empty()) break;
    Bytes all = input;
    for (const auto& [index, byte] : found) all[index] = byte;
    absl::StatusOr<std::vector<std::optional<BugSignature>>> together =
        reproduces({all}, &signature);
    if (!together.ok()) return fail(together.status());
    std::map<size_t, uint8_t> applied;
    if ((*together)[0]) {
      input = std::move(all);
      applied = found;
    } else {
      // They interact: each on top of those kept before it, as libFuzzer.
      for (const auto& [index, byte] : found) {
        Bytes candidate = input;
        candidate[index] = byte;
        absl::StatusOr<std::vector<std::optional<BugSignature>>> one =
            reproduces({candidate}, &signature);
        if (!one.ok()) return fail(one.status());
        if ((*one)[0]) {
          input = std::move(candidate);
          applied[index] = byte;
        }
      }
    }
    for (const auto& [index, byte] : applied) {
      out << "CLEANSE: Replaced byte " << index << " with 0x"
          << absl::StrFormat("%x", byte) << "\n";
    }
    if (absl::Status s = WriteFileAtomically(output, input); !s.ok()) {
      return fail(s);
    }
    if (applied.empty()) break;
  }
  if (absl::Status s = WriteFileAtomically(output, input); !s.ok()) {
    return fail(s);
  }
  if (Interrupted()) {
    out << "CLEANSE: interrupted; '" << output
        << "' holds the passes done\n==" << getpid()
        << "== libFuzzer: run interrupted; exiting\n";
    return static_cast<int>(config.interrupted_exitcode);
  }
  out << "CLEANSE: wrote '" << output << "' (" << input.size() << " bytes)\n";
  return 0;
}

}  // namespace ringfuzz
