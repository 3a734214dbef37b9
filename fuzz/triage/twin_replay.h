// Replaying inputs on a target's libFuzzer twin (ASan + UBSan, built from
// the same source by tools/ringfuzz-twin, docs/dialect.md), to tell whether
// a bug the device found also shows on the CPU.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TWIN_REPLAY_H_
#define RINGFUZZ_FUZZ_TRIAGE_TWIN_REPLAY_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fuzz/triage/triage.h"
#include "fuzz/triage/triage_signature.h"

namespace ringfuzz {

// The environment the twin runs with: ClusterFuzz's UBSan settings.
inline constexpr char kTwinUbsanOptions[] =
    "halt_on_error=1:print_stacktrace=1";

// Where tools/ringfuzz-twin is: $RINGFUZZ_TWIN_SCRIPT if set, else the
// source tree's copy (its path is compiled in); "" when neither exists.
std::string TwinScriptPath();

class TwinReplayer {
 public:
  // Runs `twin`, a libFuzzer binary (`twin FILE` replays FILE once).
  explicit TwinReplayer(std::string twin,
                        absl::Duration timeout = absl::Seconds(60))
      : twin_(std::move(twin)), timeout_(timeout) {}

  // Builds the twin of `target` as `dir`/twin with `script`
  // (tools/ringfuzz-twin). FailedPrecondition, saying what to install or
  // pass instead, when the script or clang++ ($CXX) is missing; the
  // script's output when the build fails.
  static absl::StatusOr<TwinReplayer> Build(const std::string& script,
                                            const std::string& target,
                                            const std::string& dir);

  // Replays `input`: kReproduces when the twin reports `gpu`'s category,
  // kDiffers for another bug, kClean for none (kClean is the expected
  // answer when `gpu` is nullopt), kError when the twin cannot be run.
  CpuReplay Replay(const std::string& input,
                   const std::optional<TriageSignature>& gpu) const;

  const std::string& path() const { return twin_; }

 private:
  std::string twin_;
  absl::Duration timeout_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TWIN_REPLAY_H_
