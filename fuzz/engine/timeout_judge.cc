#include "fuzz/engine/timeout_judge.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/engine/subprocess.h"

namespace ringfuzz {
namespace {

// Time past -timeout after which the twin is killed: libFuzzer's own timer
// should have ended it by then (it checks once a second).
constexpr absl::Duration kKillGrace = absl::Seconds(10);

// Judging's share of a campaign's wall time, and its allowance on top.
constexpr double kJudgeShare = 0.1;
constexpr absl::Duration kJudgeAllowance = absl::Seconds(10);

bool IsPowerOfTen(uint64_t n) {
  while (n >= 10 && n % 10 == 0) n /= 10;
  return n == 1;
}

// The first line of `output` that contains `needle`, "" if none.
std::string LineWith(const std::string& output, absl::string_view needle) {
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (absl::StrContains(line, needle)) return std::string(line);
  }
  return "";
}

// Writes `input` to a new temporary file and returns its path ("" if none
// could be written).
std::string WriteTemporary(const Bytes& input) {
  std::string path = absl::StrCat(TempDirectory(), "/ringfuzz-timeout-XXXXXX");
  const int fd = mkstemp(path.data());
  if (fd < 0) return "";
  size_t done = 0;
  while (done < input.size()) {
    const ssize_t n = write(fd, input.data() + done, input.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  if (done != input.size()) {
    unlink(path.c_str());
    return "";
  }
  return path;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TwinTimeoutJudge>> TwinTimeoutJudge::Create(
    const std::string& twin, int64_t timeout_seconds) {
  if (access(twin.c_str(), X_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "-twin=", twin,
        " is not an executable file: pass the target's libFuzzer twin "
        "(tools/ringfuzz-twin TARGET.fz -o OUT builds one), or drop -twin to "
        "report every exhausted loop budget as a timeout"));
  }
  return std::unique_ptr<TwinTimeoutJudge>(
      new TwinTimeoutJudge(twin, timeout_seconds));
}

TimeoutVerdict TwinTimeoutJudge::Judge(const Bytes& input) {
  TimeoutVerdict verdict;
  const std::string file = WriteTemporary(input);
  if (file.empty()) {
    verdict.detail =
        "cannot write the input to a temporary file (set TMPDIR to a "
        "writable directory)";
    return verdict;
  }
  ProcessOptions options;
  options.timeout = timeout_seconds_ > 0
                        ? absl::Seconds(timeout_seconds_) + kKillGrace
                        : absl::InfiniteDuration();
  const absl::Time start = absl::Now();
  absl::StatusOr<ProcessResult> run =
      RunProcess({twin_, absl::StrCat("-timeout=", timeout_seconds_), file,
                  "-ignore_remaining_args=1",
                  absl::StrCat("-ringfuzz_loop_budget=", UINT32_MAX)},
                 options);
  verdict.ran = absl::Now() - start;
  unlink(file.c_str());
  if (!run.ok()) {
    verdict.detail = std::string(run.status().message());
    return verdict;
  }
  const std::string timeout_line = LineWith(run->output, "libFuzzer: timeout");
  if (run->timed_out || !timeout_line.empty()) {
    verdict.kind = TimeoutVerdict::Kind::kTimeout;
    verdict.detail = run->timed_out
                         ? absl::StrCat("the twin was still running after ",
                                        absl::FormatDuration(options.timeout))
                         : absl::StrCat("the twin reports: ", timeout_line);
    return verdict;
  }
  if (run->exit_code == 0) {
    verdict.kind = TimeoutVerdict::Kind::kFinished;
    verdict.detail = "the twin ran it to the end";
    return verdict;
  }
  std::string summary = LineWith(run->output, "SUMMARY:");
  if (summary.empty()) summary = LineWith(run->output, "ERROR:");
  verdict.detail = absl::StrCat("the twin exited ", run->exit_code,
                                summary.empty() ? "" : ": ", summary);
  return verdict;
}

bool TimeoutGate::Clears(const Bytes& input, absl::Duration campaign_time,
                         std::ostream& out) {
  if (judge_ == nullptr) return false;
  const std::string sha1 = Sha1Hex(input);
  if (auto it = cleared_by_sha1_.find(sha1); it != cleared_by_sha1_.end()) {
    return it->second;
  }
  if (campaign_time != absl::InfiniteDuration() &&
      judging_ > kJudgeShare * campaign_time + kJudgeAllowance) {
    ++unjudged_;
    return true;
  }
  const TimeoutVerdict verdict = judge_->Judge(input);
  judging_ += verdict.ran;
  const bool cleared = verdict.kind == TimeoutVerdict::Kind::kFinished;
  cleared_by_sha1_[sha1] = cleared;
  const std::string ran =
      absl::FormatDuration(absl::Trunc(verdict.ran, absl::Milliseconds(1)));
  if (cleared) {
    ++cleared_;
    // The first three, then at 10, 100, ...: a target with long loops can
    // exhaust the budget on every round.
    if (cleared_ <= 3 || IsPowerOfTen(cleared_)) {
      out << "INFO: input " << sha1
          << " exhausted the device's loop budget but is not a timeout: "
          << verdict.detail << " in " << ran << " (-timeout is in seconds); "
          << cleared_ << " such input(s) so far, fuzzing goes on\n";
    }
  } else if (verdict.kind == TimeoutVerdict::Kind::kTimeout) {
    out << "INFO: input " << sha1
        << " is a timeout on the twin too: " << verdict.detail << " (" << ran
        << ")\n";
  } else {
    out << "INFO: input " << sha1
        << " exhausted the device's loop budget; the twin gives no timeout "
           "verdict ("
        << verdict.detail << "), so it is reported as one\n";
  }
  return cleared;
}

std::string TimeoutGate::SummaryLine() const {
  if (cleared_ == 0 && unjudged_ == 0) return "";
  return absl::StrCat(
      "INFO: ", cleared_,
      " input(s) exhausted the device's loop budget but ran within -timeout "
      "on the twin (not reported)",
      unjudged_ > 0
          ? absl::StrCat("; ", unjudged_,
                         " more were dropped unjudged (judging may take a "
                         "tenth of the run)")
          : "");
}

}  // namespace ringfuzz
