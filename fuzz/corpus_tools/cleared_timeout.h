// The corpus tools that start from one bug input (-minimize_crash,
// -cleanse_crash) and -twin: an input whose bug is an exhausted loop budget
// but which ends within -timeout on the twin is not a crash
// (fuzz/engine/timeout_judge.h).
#ifndef RINGFUZZ_FUZZ_CORPUS_TOOLS_CLEARED_TIMEOUT_H_
#define RINGFUZZ_FUZZ_CORPUS_TOOLS_CLEARED_TIMEOUT_H_

#include <ostream>
#include <string>

#include "fuzz/engine/bug_signature.h"
#include "fuzz/engine/timeout_judge.h"

namespace ringfuzz {

// True iff `bug` (the bug of `input`, read from `path`) is a loop-budget
// timeout that `gate` clears; then libFuzzer's "ERROR: the input PATH did
// not crash" line, with the reason, is printed to `out` (after the gate's
// own INFO line).
bool TimeoutClearedByTwin(const BugSignature& bug, const Bytes& input,
                          const std::string& path, TimeoutGate& gate,
                          std::ostream& out);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CORPUS_TOOLS_CLEARED_TIMEOUT_H_
