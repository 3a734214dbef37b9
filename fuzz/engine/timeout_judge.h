// Timeouts in seconds. A device stops an execution only by its loop budget
// (the target's loop back-edges, fuzz/engine/flags.def -loop_budget), so an
// input that exhausts it is a timeout *suspect*: libFuzzer's -timeout=S
// means seconds. A TimeoutJudge runs the suspect where time can be measured,
// the target's libFuzzer twin on the CPU (tools/ringfuzz-twin), and the
// engine reports only what the judge confirms (-twin=PATH; without it every
// exhausted budget is a timeout, as before).
#ifndef RINGFUZZ_FUZZ_ENGINE_TIMEOUT_JUDGE_H_
#define RINGFUZZ_FUZZ_ENGINE_TIMEOUT_JUDGE_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

struct TimeoutVerdict {
  enum class Kind {
    // Ran past the seconds, or past the twin's largest loop budget
    // (2^32-1 steps, seconds of CPU time: a hang for any practical use).
    kTimeout,
    kFinished,  // ended within the seconds: not a timeout
    kUnknown,   // no verdict: another bug on the twin, or it did not run
  };
  Kind kind = Kind::kUnknown;
  absl::Duration ran;  // how long the judge ran it
  std::string detail;  // one line: what the judge saw
};

class TimeoutJudge {
 public:
  virtual ~TimeoutJudge() = default;
  // Runs `input` once under the judge's time limit.
  virtual TimeoutVerdict Judge(const Bytes& input) = 0;
};

// The judge on a libFuzzer twin binary: runs
//   TWIN -timeout=S FILE -ignore_remaining_args=1 -ringfuzz_loop_budget=MAX
// on a temporary copy of the input (in $TMPDIR, else /tmp) and reads
// libFuzzer's verdict: "ERROR: libFuzzer: timeout" (its timer, or the twin
// runtime's loop budget) is kTimeout, exit 0 is kFinished. The process is
// killed S + 10 s later if libFuzzer's own timer has not ended it (kTimeout).
class TwinTimeoutJudge final : public TimeoutJudge {
 public:
  // `timeout_seconds`: -timeout (0: no time limit, only the loop budget).
  // FailedPrecondition, saying what -twin needs, when `twin` is not an
  // executable file.
  static absl::StatusOr<std::unique_ptr<TwinTimeoutJudge>> Create(
      const std::string& twin, int64_t timeout_seconds);

  TimeoutVerdict Judge(const Bytes& input) override;

 private:
  TwinTimeoutJudge(std::string twin, int64_t timeout_seconds)
      : twin_(std::move(twin)), timeout_seconds_(timeout_seconds) {}

  std::string twin_;
  int64_t timeout_seconds_;
};

// What the engine asks about each loop-budget timeout: is it cleared (not a
// timeout, dropped) or reported? Each distinct input is judged once. While
// fuzzing, judging may take at most a tenth of the campaign's wall time plus
// 10 s; past that, suspects are dropped unjudged until the share recovers (a
// real hang recurs and is judged then).
class TimeoutGate {
 public:
  // A null `judge` clears nothing: every suspect is reported.
  explicit TimeoutGate(std::unique_ptr<TimeoutJudge> judge = nullptr)
      : judge_(std::move(judge)) {}

  bool active() const { return judge_ != nullptr; }

  // True iff the suspect `input` is not to be reported. `campaign_time`: the
  // wall time of the run so far (absl::InfiniteDuration() when replaying
  // files: no share limit). Prints "INFO: ..." lines about the verdict to
  // `out` (for the first few cleared inputs, then every power of ten).
  bool Clears(const Bytes& input, absl::Duration campaign_time,
              std::ostream& out);

  uint64_t cleared() const { return cleared_; }
  uint64_t unjudged() const { return unjudged_; }
  // One "INFO: ..." line summing up cleared and unjudged suspects, "" if
  // there were none.
  std::string SummaryLine() const;

 private:
  std::unique_ptr<TimeoutJudge> judge_;
  absl::flat_hash_map<std::string, bool> cleared_by_sha1_;
  absl::Duration judging_ = absl::ZeroDuration();
  uint64_t cleared_ = 0;
  uint64_t unjudged_ = 0;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_TIMEOUT_JUDGE_H_
