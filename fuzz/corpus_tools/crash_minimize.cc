#include "fuzz/corpus_tools/crash_minimize.h"

#include <unistd.h>

#include <algorithm>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "corpus/work_dir.h"
#include "fuzz/corpus_tools/cleared_timeout.h"
#include "fuzz/engine/bug_signature.h"
#include "fuzz/engine/interrupt.h"

namespace ringfuzz {
namespace {

constexpr int kMinimizeError = 1;
// Candidates per ExecuteEach call: enough to fill a device's workgroups,
// few enough that a round's results come back often.
constexpr size_t kCandidatesPerCall = 256;
// libFuzzer's default budget when neither -runs nor -max_total_time is set.
constexpr int64_t kDefaultSeconds = 600;

class Minimizer {
 public:
  Minimizer(const Config& config, Executor& executor, std::ostream& out,
            Clock& clock, std::unique_ptr<TimeoutJudge> judge)
      : config_(config),
        executor_(executor),
        out_(out),
        clock_(clock),
        timeout_gate_(std::move(judge)) {}

  int Run(const std::vector<std::string>& files);

 private:
  // Runs `candidates` (at most what the budget leaves) and returns the
  // indices of those that reproduce the bug, ascending; nullopt (with
  // `code_` set) when the run must end.
  std::optional<std::vector<size_t>> Reproducing(
      const std::vector<Bytes>& candidates);
  bool BudgetSpent();
  // Writes `input_` to the artifact; false (with `code_` set) on failure.
  bool Save();
  int Fail(const absl::Status& status) {
    out_ << "ERROR: " << status.message() << "\n";
    return kMinimizeError;
  }

  const Config& config_;
  Executor& executor_;
  std::ostream& out_;
  Clock& clock_;
  TimeoutGate timeout_gate_;  // clears loop-budget timeouts (-twin)
  BugSignature signature_;
  Bytes input_;
  std::string artifact_;
  uint64_t runs_ = 0;  // candidate executions
  absl::Duration deadline_ = absl::InfiniteDuration();
  int code_ = 0;
};

int Minimizer::Run(const std::vector<std::string>& files) {
  if (files.size() != 1) {
    out_ << "ERROR: -minimize_crash should be given one input file\n";
    return kMinimizeError;
  }
  const std::string& path = files[0];
  absl::StatusOr<Bytes> data = ReadFile(path);
  if (!data.ok()) return Fail(data.status());
  input_ = std::move(*data);
  if (input_.size() > executor_.max_len()) {
    return Fail(absl::InvalidArgumentError(
        absl::StrCat("-minimize_crash: '", path, "' has ", input_.size(),
                     " bytes, more than the executor runs (",
                     executor_.max_len(), "); pass a larger -max_len")));
  }
  if (config_.runs <= 0 && config_.max_total_time == 0) {
    out_ << "INFO: you need to specify -runs=N or -max_total_time=N with "
            "-minimize_crash=1\nINFO: defaulting to -max_total_time="
         << kDefaultSeconds << "\n";
    deadline_ = clock_.Now() + absl::Seconds(kDefaultSeconds);
  } else if (config_.max_total_time > 0) {
    deadline_ = clock_.Now() + absl::Seconds(config_.max_total_time);
  }
  out_ << "CRASH_MIN: minimizing crash input: '" << path << "' ("
       << input_.size() << " bytes)\n";
  absl::StatusOr<std::vector<std::optional<BugSignature>>> first =
      ReproduceEach(executor_, {input_});
  if (!first.ok()) return Fail(first.status());
  if (!(*first)[0]) {
    out_ << "ERROR: the input " << path << " did not crash\n";
    return kMinimizeError;
  }
  if (TimeoutClearedByTwin(*(*first)[0], input_, path, timeout_gate_, out_)) {
    return kMinimizeError;
  }
  signature_ = *(*first)[0];
  out_ << "CRASH_MIN: '" << path << "' (" << input_.size()
       << " bytes) caused a crash. Will try to minimize it further\n"
       << "CRASH_MIN: the bug: " << DescribeSignature(signature_) << "\n";
  artifact_ = !config_.exact_artifact_path.empty()
                  ? config_.exact_artifact_path
                  : absl::StrCat(config_.artifact_prefix, "minimized-from-",
                                 Sha1Hex(input_));
  if (!Save()) return code_;

  size_t chunk = std::max<size_t>(input_.size() / 2, 1);
  while (!input_.empty() && !BudgetSpent()) {
    std::vector<Bytes> candidates = EraseChunkCandidates(input_, chunk);
    std::optional<std::vector<size_t>> passed = Reproducing(candidates);
    if (!passed) return code_;
    if (!passed->empty()) {
      size_t best = (*passed)[0];
      for (size_t i : *passed) {
        if (SmallerInput(candidates[i], candidates[best])) best = i;
      }
      input_ = std::move(candidates[best]);
      chunk = std::min(chunk, std::max<size_t>(input_.size() / 2, 1));
    } else if (chunk > 1) {
      chunk /= 2;
      continue;
    } else {
      // No byte can go: make them smaller instead.
      candidates = ZeroByteCandidates(input_);
      passed = Reproducing(candidates);
      if (!passed) return code_;
      if (passed->empty()) break;
      Bytes all = input_;
      for (size_t i : *passed) {
        for (size_t k = 0; k < all.size(); ++k) {
          if (candidates[i][k] == 0) all[k] = 0;
        }
      }
      std::optional<std::vector<size_t>> together =
          passed->size() > 1 ? Reproducing({all})
                             : std::optional<std::vector<size_t>>({0});
      if (!together) return code_;
      input_ = !together->empty() && passed->size() > 1
                   ? std::move(all)
                   : std::move(candidates[(*passed)[0]]);
      chunk = std::max<size_t>(input_.size() / 2, 1);
    }
    if (!Save()) return code_;
    out_ << "CRASH_MIN: '" << artifact_ << "' (" << input_.size()
         << " bytes) still causes the same crash; " << runs_
         << " candidates run so far\n";
  }
  if (Interrupted()) {
    out_ << "CRASH_MIN: interrupted; the smallest input so far is '"
         << artifact_ << "' (" << input_.size() << " bytes)\n==" << getpid()
         << "== libFuzzer: run interrupted; exiting\n";
    return static_cast<int>(config_.interrupted_exitcode);
  }
  if (BudgetSpent()) {
    out_ << "CRASH_MIN: the -runs / -max_total_time budget is spent after "
         << runs_ << " candidates; the smallest input so far is '" << artifact_
         << "' (" << input_.size() << " bytes)\n";
    return 0;
  }
  out_ << "CRASH_MIN: failed to minimize beyond " << artifact_ << " ("
       << input_.size() << " bytes), exiting\n";
  return 0;
}

std::optional<std::vector<size_t>> Minimizer::Reproducing(
    const std::vector<Bytes>& candidates) {
  std::vector<size_t> passed;
  for (size_t first = 0; first < candidates.size();
       first += kCandidatesPerCall) {
    if (BudgetSpent()) break;
    size_t n = std::min(kCandidatesPerCall, candidates.size() - first);
    if (config_.runs > 0) {
      n = std::min<uint64_t>(n, static_cast<uint64_t>(config_.runs) - runs_);
    }
    absl::StatusOr<std::vector<std::optional<BugSignature>>> signatures =
        ReproduceEach(executor_,
                      absl::MakeConstSpan(candidates).subspan(first, n),
                      &runs_);
    if (!signatures.ok()) {
      code_ = Fail(signatures.status());
      return std::nullopt;
    }
    for (size_t i = 0; i < n; ++i) {
      if ((*signatures)[i] && *(*signatures)[i] == signature_) {
        passed.push_back(first + i);
      }
    }
  }
  return passed;
}

bool Minimizer::BudgetSpent() {
  if (Interrupted()) return true;
  if (config_.runs > 0 && runs_ >= static_cast<uint64_t>(config_.runs)) {
    return true;
  }
  return clock_.Now() >= deadline_;
}

bool Minimizer::Save() {
  absl::Status written = WriteFileAtomically(artifact_, input_);
  if (written.ok()) return true;
  code_ = Fail(written);
  return false;
}

}  // namespace

std::vector<Bytes> EraseChunkCandidates(ByteSpan input, size_t chunk) {
  std::vector<Bytes> candidates;
  for (size_t at = 0; at < input.size(); at += chunk) {
    Bytes candidate(input.begin(), input.begin() + at);
    const size_t end = std::min(input.size(), at + chunk);
    candidate.insert(candidate.end(), input.begin() + end, input.end());
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

std::vector<Bytes> ZeroByteCandidates(ByteSpan input) {
  std::vector<Bytes> candidates;
  for (size_t i = 0; i < input.size(); ++i) {
    if (input[i] == 0) continue;
    Bytes candidate(input.begin(), input.end());
    candidate[i] = 0;
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

bool SmallerInput(ByteSpan a, ByteSpan b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

int RunMinimizeCrash(const Config& config, Executor& executor,
                     const std::vector<std::string>& files, std::ostream& out,
                     Clock& clock, std::unique_ptr<TimeoutJudge> judge) {
  return Minimizer(config, executor, out, clock, std::move(judge)).Run(files);
}

}  // namespace ringfuzz
