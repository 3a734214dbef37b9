// Bug reports of the C++ twin of a ringfuzz target, in the classes that
// ringfuzz reports the same bugs in (fuzz/engine/report_format.h), so that
// crash triage buckets a GPU and a CPU report of one bug together. Each
// function prints ringfuzz's detail line, which tools and tests grep for:
//   ringfuzz: input overread: fz_byte(<i>) with len <len>
//   ringfuzz: fz_crash(code=<code>)
//   ringfuzz: timeout after <budget + 1> loop steps
// and the timeout report first prints libFuzzer's timeout header. The rest
// of the report is the sanitizers' and libFuzzer's own, once the runtime
// stops the execution (fuzz/twin/twin_runtime.cc): a crash traps (libFuzzer:
// "deadly signal" with the real stack), an overread fails UBSan's bounds
// check on the input ("runtime error: index I out of bounds").
#ifndef RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_
#define RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_

#include <cstdint>

namespace ringfuzz::twin {

// Writes the overread detail line for fz_byte(index) on an input of `len`
// bytes to stderr (one write, so lines of concurrent workers never mix).
void ReportOverread(uint32_t index, uint32_t len);

// Writes the fz_crash detail line for `code` to stderr (one write).
void ReportCrash(uint32_t code);

// Writes libFuzzer's timeout header and the detail line of an execution
// that ran out of its loop budget `budget` (its step budget + 1 steps) to
// stderr (one write).
void ReportTimeout(uint32_t budget);

// The loop budget of a twin execution unless one is given
// (-ringfuzz_loop_budget): the GPU executor's default on GPUs (lavapipe's
// is 2048; a run's -loop_budget or -timeout sets another).
inline constexpr uint32_t kDefaultLoopBudget = 65536;

}  // namespace ringfuzz::twin

#endif  // RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_
