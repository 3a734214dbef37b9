// Bug reports of the C++ twin of a ringfuzz target, in the one format that
// tools and tests grep for (the GPU build reports the same bugs as finds):
//   ==<pid>==ERROR: ringfuzz: input overread: fz_byte(<i>) with len <len>
//   ==<pid>==ERROR: ringfuzz: fz_crash(code=<code>)
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

}  // namespace ringfuzz::twin

#endif  // RINGFUZZ_FUZZ_TWIN_TWIN_REPORT_H_
