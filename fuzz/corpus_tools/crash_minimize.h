// Crash minimization, libFuzzer's -minimize_crash=1:
//
//   ringfuzz -target=T -minimize_crash=1 [-runs=N] [-max_total_time=S]
//            [-exact_artifact_path=OUT | -artifact_prefix=P] CRASH_FILE
//
// Shrinks CRASH_FILE while it keeps hitting the same bug (BugSignature, in
// fuzz/engine/bug_signature.h). Each round tests many candidates in one
// Executor::ExecuteEach call and keeps the smallest that reproduces
// (fewer bytes; for equal sizes the lexicographically smaller, so bytes
// move towards 0):
//   1. erasing each aligned chunk of the current chunk size, which starts
//      at half the input and halves when no erasure reproduces (delta
//      debugging);
//   2. once single bytes cannot be erased, setting each nonzero byte to 0
//      (all that reproduce alone together, if that reproduces too, else the
//      first); after a success erasing starts again at half the input.
// It ends when no candidate reproduces, or when the candidates run reach
// -runs or -max_total_time is spent (neither given: 600 seconds, as
// libFuzzer), or on SIGINT/SIGTERM.
//
// The smallest input so far is rewritten atomically after every round that
// shrank it, so a stopped run keeps its progress: to -exact_artifact_path,
// else <artifact_prefix>minimized-from-<sha1 of CRASH_FILE> (libFuzzer
// writes one such file per step, each named after its step's input; here
// there is one). libFuzzer's "CRASH_MIN:" lines report it.
#ifndef RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_MINIMIZE_H_
#define RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_MINIMIZE_H_

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/engine/clock.h"
#include "fuzz/engine/config.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/timeout_judge.h"

namespace ringfuzz {

// `input` with each aligned chunk [k * chunk, (k + 1) * chunk) erased in
// turn (the last chunk may be shorter), in order of k. `chunk` >= 1.
std::vector<Bytes> EraseChunkCandidates(ByteSpan input, size_t chunk);

// `input` with one nonzero byte set to 0, for each nonzero byte in order.
std::vector<Bytes> ZeroByteCandidates(ByteSpan input);

// Returns true iff `a` is a smaller input than `b`: fewer bytes, or as
// many and lexicographically smaller.
bool SmallerInput(ByteSpan a, ByteSpan b);

// Runs the minimization of `files` (exactly one crash file) and returns the
// exit code: 0 when done (the artifact holds the smallest input found,
// perhaps the original), kErrorExit with an "ERROR:" line when there is not
// exactly one file, it cannot be read, it does not hit a bug, or the
// artifact cannot be written; -interrupted_exitcode after SIGINT/SIGTERM
// (the artifact holds the progress so far). With `judge` (-twin), an input
// whose bug is an exhausted loop budget but which ends within -timeout on
// the twin does not hit a bug (fuzz/corpus_tools/cleared_timeout.h).
int RunMinimizeCrash(const Config& config, Executor& executor,
                     const std::vector<std::string>& files, std::ostream& out,
                     Clock& clock = RealClock(),
                     std::unique_ptr<TimeoutJudge> judge = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_CORPUS_TOOLS_CRASH_MINIMIZE_H_
