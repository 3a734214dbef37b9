#include "fuzz/cli.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "corpus/corpus_dir.h"
#include "fuzz/corpus_tools/crash_cleanse.h"
#include "fuzz/corpus_tools/crash_minimize.h"
#include "fuzz/corpus_tools/merge.h"
#include "fuzz/engine/engine.h"
#include "fuzz/engine/flag_parser.h"
#include "fuzz/engine/info_lines.h"
#include "fuzz/engine/interrupt.h"
#include "fuzz/engine/timeout_judge.h"

namespace ringfuzz {

absl::Status WriteCoverageReport(const Executor& executor,
                                 const std::string& path) {
  absl::StatusOr<std::vector<LineCoverage>> lines = executor.Lines();
  if (!lines.ok()) return lines.status();
  std::string text;
  for (const LineCoverage& line : *lines) {
    absl::StrAppend(&text, line.file, ":", line.line, " ", line.covered ? 1 : 0,
                    "\n");
  }
  return WriteFileAtomically(
      path,
      ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

size_t AutomaticMaxLen(uint64_t largest_input) {
  const uint64_t limit = static_cast<uint64_t>(kMaxLenLimit);
  if (largest_input >= limit) return static_cast<size_t>(limit);
  return std::max<size_t>(64, (largest_input + 3) / 4 * 4);
}

int RunCommandLine(absl::Span<const std::string> args,
                   const ExecutorFactory& make_executor, std::ostream& out,
                   const MultiDeviceRunner& run_multi) {
  absl::StatusOr<ParsedCommandLine> parsed = ParseCommandLine(args);
  if (!parsed.ok()) {
    out << "ERROR: " << parsed.status().message() << "\n";
    return kErrorExit;
  }
  for (const std::string& warning : parsed->warnings) out << warning << "\n";
  Config config = parsed->config;
  if (config.help) {
    out << FlagHelp();
    return 0;
  }
  if (config.target.empty()) {
    out << "ERROR: -target=FILE is required: the target source file to fuzz "
           "or to run the inputs on (see 'ringfuzz -help=1')\n";
    return kErrorExit;
  }
  // Several -target flags are tenants where workers can be started; a
  // program that cannot start them (a <name>_fuzzer, which puts its own
  // -target first) keeps the last, as libFuzzer keeps a flag's last value.
  if (!config.devices.empty() || (parsed->targets.size() > 1 && run_multi)) {
    if (!run_multi) {
      out << "ERROR: -devices is not supported by this program; run the "
             "campaign with the ringfuzz command, or on one device with "
             "-device=N\n";
      return kErrorExit;
    }
    // The workers resolve -max_len themselves, as one process would.
    return run_multi(args, *parsed, out);
  }
  const bool automatic_len = config.max_len == 0;
  if (config.max_len == 0) {
    config.max_len = static_cast<int64_t>(
        AutomaticMaxLen(LargestInputSize(parsed->positional)));
    if (config.verbosity >= 1) {
      out << MaxLenLine(static_cast<uint64_t>(config.max_len)) << "\n";
    }
  }
  // Checked before the executor's build: a bad -twin fails at once.
  std::unique_ptr<TimeoutJudge> timeout_judge;
  if (!config.twin.empty()) {
    absl::StatusOr<std::unique_ptr<TwinTimeoutJudge>> judge =
        TwinTimeoutJudge::Create(config.twin, config.timeout);
    if (!judge.ok()) {
      out << "ERROR: " << judge.status().message() << "\n";
      return kErrorExit;
    }
    timeout_judge = *std::move(judge);
    out << "INFO: a timeout is an input that runs past -timeout="
        << config.timeout << " s on the twin " << config.twin << "\n";
  }
  absl::StatusOr<std::unique_ptr<Executor>> executor = make_executor(config);
  if (!executor.ok()) {
    out << "ERROR: " << executor.status().message() << "\n";
    return kErrorExit;
  }
  InstallInterruptHandlers(static_cast<int>(config.interrupted_exitcode));
  // The corpus tools, in the order libFuzzer's driver tests their flags.
  if (config.minimize_crash) {
    return RunMinimizeCrash(config, **executor, parsed->positional, out,
                            RealClock(), std::move(timeout_judge));
  }
  if (config.cleanse_crash) {
    return RunCleanseCrash(config, **executor, parsed->positional, out,
                           std::move(timeout_judge));
  }
  if (config.merge || config.set_cover_merge) {
    return RunMerge(config, **executor, parsed->positional, out,
                    std::move(timeout_judge));
  }
  // The engine owns the executor: one it replaces (value profile, a lost
  // device) frees its device memory at once.
  Engine engine(config, *std::move(executor), out);
  engine.SetTimeoutJudge(std::move(timeout_judge));
  // After a lost device the engine makes its executor again, as this one
  // was made (the factory's log lines go to the same stream).
  engine.SetExecutorFactory([&make_executor, config] {
    Config again = config;
    return make_executor(again);
  });
  // -auto_value_profile: the same executor with value profile on, made
  // when coverage stalls (a switch by wall time, so never under
  // -reproducible).
  if (!config.use_value_profile && config.auto_value_profile > 0 &&
      !config.reproducible) {
    engine.SetValueProfileFactory([&make_executor, config] {
      Config again = config;
      again.use_value_profile = true;
      again.repeat_trials = RepeatTrialsAfterStall(config.repeat_trials);
      return make_executor(again);
    });
  }
  // -auto_max_len: longer inputs when coverage stalls, where the length
  // limit was not given (the same executor built for a longer limit); only
  // as long as the target can loop over every byte of an input
  // kLoopPassesPerInput times within the loop budget of one execution
  // (lavapipe's is 2,048 steps, a GPU's 65,536: a longer input would turn
  // loops over it into timeouts the twin does not see).
  uint64_t grow_to = static_cast<uint64_t>(config.auto_max_len);
  if (const uint64_t steps = engine.executor().loop_steps(); steps != 0) {
    grow_to = std::min(grow_to, steps / kLoopPassesPerInput);
  }
  if (automatic_len && grow_to > static_cast<uint64_t>(config.max_len) &&
      !config.reproducible) {
    engine.SetLengthFactory(
        [&make_executor, config](size_t max_len, bool value_profile) {
          Config again = config;
          again.max_len = static_cast<int64_t>(max_len);
          again.use_value_profile = value_profile;
          again.repeat_trials = RepeatTrialsAfterStall(config.repeat_trials);
          return make_executor(again);
        },
        static_cast<size_t>(config.max_len), static_cast<size_t>(grow_to));
  }
  const int code = engine.Run(parsed->positional);
  if (!config.coverage_report.empty()) {
    if (absl::Status s =
            WriteCoverageReport(engine.executor(), config.coverage_report);
        !s.ok()) {
      out << "ERROR: " << s.message() << "\n";
      return code == 0 ? kErrorExit : code;
    }
  }
  return code;
}

}  // namespace ringfuzz
