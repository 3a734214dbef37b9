#include "fuzz/triage/triage_signature.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fuzz/engine/bug_report.h"
#include "fuzz/engine/report_format.h"

namespace ringfuzz {

std::string TriageSignature::Key() const {
  const std::string location = Location();
  return location.empty() ? category : absl::StrCat(category, " at ", location);
}

std::string TriageSignature::Location() const {
  return file.empty() ? "" : absl::StrCat(file, ":", line);
}

absl::string_view BugKindName(Find::Kind kind) {
  switch (kind) {
    case Find::Kind::kCrash:
      return "fz_crash";
    case Find::Kind::kOverread:
      return "input-overread";
    case Find::Kind::kOutOfBounds:
      return "out-of-bounds";
    case Find::Kind::kTimeout:
      return "timeout";
    case Find::Kind::kNewCoverage:
      break;
  }
  return "";
}

std::optional<TriageSignature> TriageSignatureOf(const BatchResult& result) {
  for (const Find& find : result.finds) {
    if (!IsBug(find.kind)) continue;
    TriageSignature signature;
    signature.kind = std::string(BugKindName(find.kind));
    signature.category = BugCategory(find);
    signature.description = DescribeBug(find);
    signature.function = find.function;
    signature.file = find.file;
    signature.line = find.line;
    return signature;
  }
  return std::nullopt;
}

std::string TwinCategory(absl::string_view output, int exit_code) {
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    const size_t at = line.find(kReportDetailPrefix);
    if (at == absl::string_view::npos) continue;
    absl::string_view detail = line.substr(at + strlen(kReportDetailPrefix));
    if (absl::StartsWith(detail, "fz_crash(")) {
      return std::string(detail.substr(0, detail.find(')') + 1));
    }
    if (absl::StartsWith(detail, "input overread")) return "input-overread";
    if (absl::StartsWith(detail, "timeout")) return "timeout";
  }
  // The twin's local arrays are bounds-checked by UBSan, which names the
  // array type: the dialect's are of uint (fuzz/engine/report_format.h).
  if (absl::StrContains(output, kUbsanRuntimeError) &&
      absl::StrContains(output, "out of bounds for type")) {
    return "out-of-bounds";
  }
  if (exit_code == 0) return "";
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (absl::StartsWith(line, "SUMMARY: ")) {
      return absl::StrCat("sanitizer: ", line.substr(strlen("SUMMARY: ")));
    }
  }
  return absl::StrCat("sanitizer: exit code ", exit_code);
}

}  // namespace ringfuzz
