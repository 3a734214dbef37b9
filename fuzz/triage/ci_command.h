// `ringfuzz ci`: fuzzing as a CI step (docs/cli.md).
//
//   ringfuzz ci -target=FILE -out=DIR [-corpus=DIR] [-known_crashes=DIR]
//               [-max_total_time=S] [-twin=PATH | -cpu_replay=0] [flags]
//
//  1. Replays the known crashes (every file of -known_crashes): their
//     signatures are the known bugs; one that no longer reproduces is
//     noted, not a failure.
//  2. Replays the stored corpus (every file of -corpus); a bug there that
//     is not known is a regression, and the run stops after this step
//     (fail fast).
//  3. Fuzzes for the budget (-max_total_time, 60 s when neither it nor
//     -runs is given) with -keep_going=1, new inputs in DIR/corpus,
//     artifacts in DIR/artifacts/, find lines in DIR/telemetry.jsonl, the
//     stored corpus as seeds; then triages the artifacts.
//  4. Writes DIR/ringfuzz.sarif (sarif.h) and DIR/junit.xml (junit.h),
//     each atomically.
// Exit code: 0 when no new bug was found (known crashes are not new),
// -error_exitcode (77) when one was, 1 for errors.
#ifndef RINGFUZZ_FUZZ_TRIAGE_CI_COMMAND_H_
#define RINGFUZZ_FUZZ_TRIAGE_CI_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/types/span.h"
#include "fuzz/cli.h"

namespace ringfuzz {

// The fuzzing budget when the command line sets none.
inline constexpr int kDefaultCiSeconds = 60;

// The report file names inside -out.
inline constexpr char kSarifFileName[] = "ringfuzz.sarif";
inline constexpr char kJunitFileName[] = "junit.xml";

// `args` after "ci". The fuzzing run's log and progress go to `log`; a
// summary of the bugs found goes to `out`.
int RunCiCommand(absl::Span<const std::string> args,
                 const ExecutorFactory& make_executor, std::ostream& out,
                 std::ostream& log);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_CI_COMMAND_H_
