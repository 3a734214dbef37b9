// Bug reports of the C++ twin of a ringfuzz target, in the one format that
// tools and tests grep for (the GPU build reports the same bugs as finds):
//   ==<pid>==ERROR: ringfuzz: input overread: fz_byte(<i>) with len <len>
//   ==<pid>==ERROR: ringfuzz: fz_crash(code=<code>)
//   ==<pid>==ERROR: ringfuzz: timeout after <budget + 1> loop steps
// The "==<pid>==ERROR:" prefix matches the sanitizers' so that crash triage
// scripts written for libFuzzer pick these up unchanged.
#ifndef RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_
#define RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_

#include <cstdint>

namespace ringfuzz::twin {

// Writes the overread report line for fz_byte(index) on an input of `len`
// bytes to stderr (one write, so lines of concurrent workers never mix).
void ReportOverread(uint32_t index, uint32_t len);

// Writes the fz_crash report line for `code` to stderr (one write).
void ReportCrash(uint32_t code);

// Writes the timeout report line of an execution that ran out of its loop
// budget `budget` (its step budget + 1 steps) to stderr (one write).
void ReportTimeout(uint32_t budget);

// The loop budget of a twin execution unless one is given
// (-ringfuzz_loop_budget): the GPU executor's default on GPUs (lavapipe's
// is 2048; a run's -loop_budget or -timeout sets another).
inline constexpr uint32_t kDefaultLoopBudget = 65536;

}  // namespace ringfuzz::twin

#endif  // RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_
