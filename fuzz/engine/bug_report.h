// Reporting a bug the way sanitizers and libFuzzer do, so that crash
// triage tools (ClusterFuzz's stack analyzer) recognise it, with ringfuzz's
// own detail line after the header (fuzz/engine/report_format.h gives the
// header of every kind):
//
//   ==1234== ERROR: libFuzzer: deadly signal
//   ringfuzz: fz_crash(code=7) in parse shaders/targets/tlv.fz:42
//       #0 0x0000002a in parse shaders/targets/tlv.fz:42
//   SUMMARY: libFuzzer: deadly signal
//   MS: 2 ChangeBit-EraseBytes-; base unit: <sha1 of the parent>
//   0x46,0x55,0x5a,0x21,
//   FUZ!
//   artifact_prefix='out/'; Test unit written to out/crash-<sha1>
//   Base64: RlVaIQ==
//
// The finding must survive even when the artifact cannot be written: then
// the whole input is printed as hex (any size) with the write error.
#ifndef RINGFUZZ_FUZZ_ENGINE_BUG_REPORT_H_
#define RINGFUZZ_FUZZ_ENGINE_BUG_REPORT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "corpus/work_dir.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

// libFuzzer prints units up to this size inline (hex array, ASCII, Base64).
inline constexpr size_t kMaxUnitSizeToPrint = 256;

// Returns what went wrong, e.g. "fz_crash(code=7)", "input overread:
// fz_byte(5) with len 5", "timeout after 4096 loop steps". Requires a bug.
std::string DescribeBug(const Find& find);

// Returns the short bug category, for bucketing: "fz_crash(code=N)" (the
// code distinguishes bugs), "input-overread", "out-of-bounds", "timeout".
std::string BugCategory(const Find& find);

// Returns the artifact kind (corpus/work_dir.h): kArtifactTimeout for
// timeouts, kArtifactCrash for every other bug (overreads included).
absl::string_view ArtifactKind(Find::Kind kind);

// libFuzzer's renderings of a unit: "0x46,0x55," / FU with \\, \" and \xNN
// escapes / standard Base64 with padding / plain lowercase hex "4655".
std::string HexArray(ByteSpan data);
std::string PrintableAscii(ByteSpan data);
std::string Base64(ByteSpan data);
std::string PlainHex(ByteSpan data);

struct BugReportRequest {
  const Find* find = nullptr;
  int pid = 0;
  // The mutation that produced the input ("MS:", MutationSequence in
  // fuzz/engine/work_kind.h): its mutators (RF_MUT_*, Find::mutations) if
  // known, else its work kind; both empty for unmutated inputs (seeds, files
  // being run).
  std::vector<uint32_t> opcodes;
  std::vector<uint32_t> mutations;
  std::string base_sha1;      // parent's sha1; empty: 40 zeros, as libFuzzer
  bool save_artifact = true;  // false when running given files
};

// What ReportBug did: `preserved` iff the input is kept (the artifact was
// written, or none was requested); `artifact` is the file written ("" when
// none was).
struct BugReportResult {
  bool preserved = false;
  std::string artifact;
  explicit operator bool() const { return preserved; }
};

// Prints the report for `request` to `out` and, if requested, writes the
// artifact through `work_dir` (WriteFileAtomically). On a write failure it
// prints the error and the whole input as hex and Base64.
BugReportResult ReportBug(const BugReportRequest& request,
                          const WorkDir& work_dir, std::ostream& out);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_BUG_REPORT_H_
