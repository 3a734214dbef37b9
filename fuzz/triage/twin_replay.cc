#include "fuzz/triage/twin_replay.h"

#include <unistd.h>

#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/engine/subprocess.h"

namespace ringfuzz {

std::string TwinScriptPath() {
  if (const char* env = getenv("RINGFUZZ_TWIN_SCRIPT"); env && *env) {
    return env;
  }
#ifdef RINGFUZZ_SOURCE_DIR
  std::string in_tree = RINGFUZZ_SOURCE_DIR "/tools/ringfuzz-twin";
  if (access(in_tree.c_str(), X_OK) == 0) return in_tree;
#endif
  return "";
}

absl::StatusOr<TwinReplayer> TwinReplayer::Build(const std::string& script,
                                                 const std::string& target,
                                                 const std::string& dir) {
  if (script.empty()) {
    return absl::FailedPreconditionError(
        "tools/ringfuzz-twin was not found: set RINGFUZZ_TWIN_SCRIPT to it, "
        "or pass -twin=PATH (a twin built with it)");
  }
  const char* cxx = getenv("CXX");
  const std::string compiler = cxx != nullptr && *cxx ? cxx : "clang++";
  absl::StatusOr<ProcessResult> probe = RunProcess({compiler, "--version"});
  if (!probe.ok() || probe->exit_code != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "'", compiler,
        "' cannot be run, so the libFuzzer twin cannot be built: install "
        "clang (or set CXX to a clang++), or pass -twin=PATH"));
  }
  const std::string out = absl::StrCat(dir, "/twin");
  ProcessOptions options;
  options.timeout = absl::Minutes(10);
  absl::StatusOr<ProcessResult> built =
      RunProcess({"bash", script, target, "-o", out}, options);
  if (!built.ok()) return built.status();
  if (built->exit_code != 0 || built->timed_out) {
    return absl::FailedPreconditionError(absl::StrCat(
        "building the libFuzzer twin of ", target, " with ", script,
        " failed (exit ", built->exit_code, "):\n", built->output));
  }
  return TwinReplayer(out);
}

CpuReplay TwinReplayer::Replay(
    const std::string& input, const std::optional<TriageSignature>& gpu) const {
  ProcessOptions options;
  options.timeout = timeout_;
  options.env = {{"UBSAN_OPTIONS", kTwinUbsanOptions}};
  absl::StatusOr<ProcessResult> run = RunProcess({twin_, input}, options);
  CpuReplay replay;
  if (!run.ok()) {
    replay.verdict = CpuReplay::Verdict::kError;
    replay.detail = std::string(run.status().message());
    return replay;
  }
  if (run->timed_out) {
    replay.verdict = gpu.has_value() && gpu->category == "timeout"
                         ? CpuReplay::Verdict::kReproduces
                         : CpuReplay::Verdict::kDiffers;
    replay.detail =
        absl::StrCat("no exit within ", absl::FormatDuration(timeout_));
    return replay;
  }
  replay.detail = TwinCategory(run->output, run->exit_code);
  if (replay.detail.empty()) {
    replay.verdict = CpuReplay::Verdict::kClean;
  } else if (gpu.has_value() && replay.detail == gpu->category) {
    replay.verdict = CpuReplay::Verdict::kReproduces;
  } else {
    replay.verdict = CpuReplay::Verdict::kDiffers;
  }
  return replay;
}

}  // namespace ringfuzz
