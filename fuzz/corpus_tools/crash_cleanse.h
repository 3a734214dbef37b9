// Crash cleansing, libFuzzer's -cleanse_crash=1:
//
//   ringfuzz -target=T -cleanse_crash=1 -exact_artifact_path=OUT CRASH_FILE
//
// Replaces every byte of CRASH_FILE that the bug does not need by ' ' (or,
// where ' ' loses the bug, by 0xff), as libFuzzer's CleanseCrashInput
// does, so that what is left of the input is what matters. A replacement
// is kept only if the input still hits the same bug (BugSignature in
// fuzz/engine/bug_signature.h); libFuzzer asks only that the target still
// crashes. Up to 5 passes over the input, while a pass changes something.
// Each pass tests all of its bytes in one Executor::ExecuteEach call per
// replacement byte; the replacements that keep the bug alone are applied
// together when that keeps it too, else one by one, each tested.
//
// OUT is written atomically after every pass that changed the input, and
// at the end (also when nothing could be replaced: libFuzzer then writes
// nothing), with "CLEANSE: Replaced byte N with 0xXX" for each byte.
#ifndef RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_CLEANSE_H_
#define RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_CLEANSE_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/timeout_judge.h"

namespace ringfuzz {

// Runs the cleansing and returns the exit code: 0 when done; kErrorExit
// with an "ERROR:" line without exactly one file and -exact_artifact_path
// (libFuzzer's message), when the file cannot be read, does not hit a bug,
// or OUT cannot be written; -interrupted_exitcode after SIGINT/SIGTERM (OUT
// holds the passes done). With `judge` (-twin), an input whose bug is an
// exhausted loop budget but which ends within -timeout on the twin does not
// hit a bug (fuzz/corpus_tools/cleared_timeout.h).
int RunCleanseCrash(const Config& config, Executor& executor,
                    const std::vector<std::string>& files, std::ostream& out,
                    std::unique_ptr<TimeoutJudge> judge = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_CLEANSE_H_
