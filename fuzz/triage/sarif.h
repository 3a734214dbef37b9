// The SARIF 2.1.0 log of a CI run (OASIS Static Analysis Results
// Interchange Format, https://docs.oasis-open.org/sarif/sarif/v2.1.0/), for
// GitHub code scanning and other SARIF viewers.
#ifndef RINGFUZZ_FUZZ_TRIAGE_SARIF_H_
#define RINGFUZZ_FUZZ_TRIAGE_SARIF_H_

#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/triage/ci_result.h"

namespace ringfuzz {

inline constexpr char kSarifVersion[] = "2.1.0";
inline constexpr char kSarifSchema[] =
    "https://json.schemastore.org/sarif-2.1.0.json";

// One run of tool "ringfuzz" whose driver has one rule per bug kind
// (BugKindName: fz_crash, input-overread, out-of-bounds, timeout) and one
// result per bug bucket of `result`: ruleId and ruleIndex of its kind,
// level "error", the description, reproducer and bucket size as the
// message, baselineState "new" or "unchanged" (a known crash), the bucket
// key as partialFingerprints["ringfuzzBucket/v1"], and a location with the
// target file's URI (`uri_base` removed from its start, so that the URI is
// relative to the repository root as code scanning wants) and the line as
// region.startLine (no region when the line is unknown).
std::string SarifLog(const CiResult& result, absl::string_view uri_base);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_SARIF_H_
