// What makes two artifacts the same bug, for crash triage (the corpus tools
// compare crashes by fuzz/engine/bug_signature.h instead): the bug's kind
// and category (fuzz/engine/bug_report.h: the fz_crash code tells crashes
// apart) and the place in the target source that reported it.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TRIAGE_SIGNATURE_H_
#define RINGFUZZ_FUZZ_TRIAGE_TRIAGE_SIGNATURE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/engine/executor.h"

namespace ringfuzz {

struct TriageSignature {
  std::string kind;         // BugKindName: "fz_crash", "out-of-bounds", ...
  std::string category;     // BugCategory: "fz_crash(code=7)", "timeout", ...
  std::string description;  // DescribeBug of the first artifact seen
  std::string function;     // "" when the executor does not say
  std::string file;         // "" when the executor does not say
  uint32_t line = 0;

  // "fz_crash(code=7) at shaders/targets/tlv.fz:42", or the category alone
  // when the place is unknown. Equal keys are the same bucket.
  std::string Key() const;
  // "shaders/targets/tlv.fz:42", or "" when unknown.
  std::string Location() const;
};

// The rule name of a bug kind, for buckets, SARIF rules and JUnit:
// "fz_crash", "input-overread", "out-of-bounds", "timeout"; "" for new
// coverage.
absl::string_view BugKindName(Find::Kind kind);

// The signature of the first bug among `result`'s finds; nullopt when the
// execution found none (the input does not reproduce a bug).
std::optional<TriageSignature> TriageSignatureOf(const BatchResult& result);

// The category of a bug as the libFuzzer twin reports it (its detail line,
// fuzz/engine/report_format.h, or a sanitizer's report), from the twin's output
// and exit code: a BugCategory string, "sanitizer: <what>" for a report
// ringfuzz has no category for, or "" when the twin exited 0 (no bug).
std::string TwinCategory(absl::string_view output, int exit_code);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TRIAGE_SIGNATURE_H_
