// The words of a bug report that crash triage keys on, shared by ringfuzz
// (fuzz/engine/bug_report.cc) and the libFuzzer twin (fuzz/twin/twin_report.cc)
// so that the GPU and the CPU build of a target report a bug in the same class.
//
// ClusterFuzz's stack analyzer (src/clusterfuzz/stacktraces/__init__.py and
// constants.py in google/clusterfuzz) derives the crash type from these
// lines, and the crash state from the "#N 0x... in FUNCTION FILE:LINE"
// frames that follow them (the first three function names):
//   fz_crash(code)        "==PID== ERROR: libFuzzer: deadly signal"
//                         -> Fatal-signal
//   input overread,       "FILE:LINE: runtime error: index I out of bounds
//   local array bounds     for type 'T[LEN]'" (UBSan's words)
//                         -> Index-out-of-bounds, a security bug
//   timeout               "==PID== ERROR: libFuzzer: timeout after ..."
//                         -> Timeout
// Right after that line comes ringfuzz's own detail line, which tools and
// tests grep for the bug's kind, code and place:
//   ringfuzz: fz_crash(code=7) in parse shaders/targets/tlv.fz:42
// tests/triage checks every kind, of both builds, against the patterns.
#ifndef RINGFUZZ_FUZZ_ENGINE_REPORT_FORMAT_H_
#define RINGFUZZ_FUZZ_ENGINE_REPORT_FORMAT_H_

namespace ringfuzz {

// Starts ringfuzz's detail line ("ringfuzz: " + what went wrong).
inline constexpr char kReportDetailPrefix[] = "ringfuzz: ";

// libFuzzer's header and SUMMARY lines for a crash ("==PID== " first).
inline constexpr char kLibFuzzerDeadlySignal[] =
    "ERROR: libFuzzer: deadly signal";
inline constexpr char kLibFuzzerDeadlySignalSummary[] =
    "SUMMARY: libFuzzer: deadly signal";

// libFuzzer's timeout header ("==PID== " first, the budget after) and
// SUMMARY line. libFuzzer counts seconds; ringfuzz's budget is loop steps,
// and the header says which.
inline constexpr char kLibFuzzerTimeout[] = "ERROR: libFuzzer: timeout after ";
inline constexpr char kLibFuzzerTimeoutSummary[] =
    "SUMMARY: libFuzzer: timeout";

// UBSan's words: "FILE:LINE: " + kUbsanRuntimeError + "index I out of bounds
// for type '<element>[LEN]'", and its SUMMARY line (+ "FILE:LINE in FUNC").
inline constexpr char kUbsanRuntimeError[] = "runtime error: ";
inline constexpr char kUbsanSummary[] =
    "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior ";
// The array types named for an overread (the input) and for a local array
// of the target (the dialect's arrays are of uint).
inline constexpr char kInputArrayElement[] = "const uint8_t";
inline constexpr char kLocalArrayElement[] = "uint";

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_REPORT_FORMAT_H_
