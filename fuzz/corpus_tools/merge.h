// Corpus merging, libFuzzer's -merge=1 and -set_cover_merge=1:
//
//   ringfuzz -target=T -merge=1 [-merge_control_file=F] OUT_DIR IN_DIR...
//
// The inputs of OUT_DIR, then those of the IN_DIRs, each group sorted by
// size, then path (as libFuzzer sorts them), run once each on one executor;
// the features and blocks that each one reached first (with
// -set_cover_merge=1: all it reached) are recorded in libFuzzer's control
// file (fuzz/corpus_tools/merge_control.h) as they run. Then the IN inputs that
// add features (PlanMerge / PlanSetCoverMerge) are copied into OUT_DIR, each
// named by the SHA-1 of its content and written atomically. libFuzzer's
// "MERGE-OUTER:" and "MERGE-INNER:" lines report it, ending with
// "MERGE-OUTER: N new files with M new features added; K new coverage
// edges", which ClusterFuzz reads.
//
// Unlike libFuzzer, the inputs run in this process: an input that hits a
// bug does not end the merge; it is recorded as started and not finished
// (libFuzzer's record of an input that crashed the inner process) and so
// never added. SIGINT or SIGTERM stops between inputs with
// -interrupted_exitcode; a merge given the same -merge_control_file again
// resumes after the last input started.
#ifndef RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_H_
#define RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/timeout_judge.h"

namespace ringfuzz {

// Runs the merge of `dirs` (OUT_DIR first) and returns the exit code: 0
// when merged (also with fewer than two directories, which libFuzzer
// answers with an INFO line), kErrorExit with an "ERROR:" line for a
// directory that cannot be listed or created, a control file or corpus file
// that cannot be written, or an executor that fails or cannot name its
// features; -interrupted_exitcode after SIGINT/SIGTERM.
// An input that exhausts the device's loop budget is a timeout, not merged
// (as libFuzzer does not merge an input that times out), unless `judge`
// (-twin, fuzz/engine/timeout_judge.h) finds that it ends within -timeout
// seconds: then it is merged like any other input, with the coverage the
// device saw before the budget ran out.
int RunMerge(const Config& config, Executor& executor,
             const std::vector<std::string>& dirs, std::ostream& out,
             std::unique_ptr<TimeoutJudge> judge = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CORPUS_TOOLS_MERGE_H_
