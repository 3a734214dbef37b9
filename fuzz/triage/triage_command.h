// `ringfuzz triage [flags] DIR_OR_FILE...`: replays crash artifacts on the
// device, buckets them by bug signature, replays each bucket's smallest
// input on the libFuzzer twin and prints a table (or JSON). docs/cli.md
// describes the command and its flags.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TRIAGE_COMMAND_H_
#define RINGFUZZ_FUZZ_TRIAGE_TRIAGE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/cli.h"
#include "fuzz/engine/config.h"
#include "fuzz/triage/triage.h"

namespace ringfuzz {

// The flags of the triage step, besides the executor's (-target, -device,
// -max_len, -timeout, ...: the fuzzing command line's, fuzz/engine/flags.def).
struct TriageOptions {
  bool json = false;       // -json=1: print TriageJson
  std::string twin;        // -twin=PATH: an existing twin; "" = build one
  bool cpu_replay = true;  // -cpu_replay=0: no twin replays at all
  bool all_files = false;  // -all_files=1: every file of a directory
  std::vector<std::string> paths;  // positional: artifacts, dirs, logs
};

// Takes the triage flags (-json, -twin, -cpu_replay, -all_files) out of
// `args` into `options`; returns the rest for ParseCommandLine. An error
// for a triage flag with a bad value, naming it and the fix.
absl::StatusOr<std::vector<std::string>> TakeTriageFlags(
    absl::Span<const std::string> args, TriageOptions& options);

// Collects the inputs of options.paths, creates the executor through
// `make_executor` (max_len automatic from the largest artifact when
// config.max_len is 0), replays and buckets the artifacts and replays each
// bucket's smallest input on the twin (built with tools/ringfuzz-twin into
// a temporary directory unless options.twin names one). Progress and
// warnings go to `log`. An error for unusable inputs, an executor that
// cannot be made or fails.
absl::StatusOr<TriageReport> TriagePaths(const TriageOptions& options,
                                         Config config,
                                         const ExecutorFactory& make_executor,
                                         std::ostream& log);

// The whole command: `args` after "triage". Prints the table or JSON to
// `out`, everything else to `log`. Returns 0 when the report was printed,
// kErrorExit (1) for a bad command line or a failure ("ERROR: ..." on
// `log`).
int RunTriageCommand(absl::Span<const std::string> args,
                     const ExecutorFactory& make_executor, std::ostream& out,
                     std::ostream& log);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TRIAGE_COMMAND_H_
