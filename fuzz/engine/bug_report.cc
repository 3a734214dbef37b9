#include "fuzz/engine/bug_report.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/engine/report_format.h"
#include "fuzz/engine/work_kind.h"

namespace ringfuzz {

std::string DescribeBug(const Find& find) {
  switch (find.kind) {
    case Find::Kind::kCrash:
      return absl::StrCat("fz_crash(code=", find.code, ")");
    case Find::Kind::kOverread:
      return absl::StrCat("input overread: fz_byte(", find.code, ") with len ",
                          find.aux);
    case Find::Kind::kTimeout:
      return absl::StrCat("timeout after ", find.aux, " loop steps");
    case Find::Kind::kOutOfBounds:
      return absl::StrCat("out-of-bounds: local array index ", find.code,
                          " with length ", find.aux);
    case Find::Kind::kNewCoverage:
      break;
  }
  return "new coverage (not a bug)";
}

std::string BugCategory(const Find& find) {
  switch (find.kind) {
    case Find::Kind::kCrash:
      return absl::StrCat("fz_crash(code=", find.code, ")");
    case Find::Kind::kOverread:
      return "input-overread";
    case Find::Kind::kTimeout:
      return "timeout";
    case Find::Kind::kOutOfBounds:
      return "out-of-bounds";
    case Find::Kind::kNewCoverage:
      break;
  }
  return "none";
}

absl::string_view ArtifactKind(Find::Kind kind) {
  return kind == Find::Kind::kTimeout ? kArtifactTimeout : kArtifactCrash;
}

std::string HexArray(ByteSpan data) {
  std::string text;
  for (uint8_t byte : data) absl::StrAppendFormat(&text, "0x%x,", byte);
  return text;
}

std::string PrintableAscii(ByteSpan data) {
  std::string text;
  for (uint8_t byte : data) {
    if (byte == '\\') {
      text += "\\\\";
    } else if (byte == '"') {
      text += "\\\"";
    } else if (byte >= 32 && byte < 127) {
      text += static_cast<char>(byte);
    } else {
      absl::StrAppendFormat(&text, "\\x%02x", byte);
    }
  }
  return text;
}

static absl::string_view AsStringView(ByteSpan data) {
  return absl::string_view(reinterpret_cast<const char*>(data.data()),
                           data.size());
}

std::string Base64(ByteSpan data) {
  return absl::Base64Escape(AsStringView(data));
}

std::string PlainHex(ByteSpan data) {
  return absl::BytesToHexString(AsStringView(data));
}

namespace {

// Where the bug was reported, as a sanitizer frame's "FUNCTION FILE:LINE",
// or "fz_target" when the executor does not say: the frame and the crash
// state then still name the target.
std::string FrameLocation(const Find& find) {
  if (find.file.empty()) return "fz_target";
  return absl::StrCat(find.function.empty() ? "fz_target" : find.function, " ",
                      find.file, ":", find.line);
}

// The dialect function that reported the bug, when one did: fz_crash, or
// fz_byte for an overread. Its frame comes first, as on the twin's stack,
// so that ClusterFuzz finds the crash states of the two builds similar
// (two frames in common).
absl::string_view DialectFunction(Find::Kind kind) {
  switch (kind) {
    case Find::Kind::kCrash:
      return "fz_crash";
    case Find::Kind::kOverread:
      return "fz_byte";
    default:
      return "";
  }
}

// The frames of the report: the dialect function's, if any, then the one
// of the target function that called it (or ran out of bounds or of time).
std::string Frames(const Find& find) {
  std::string frames;
  int depth = 0;
  if (absl::string_view dialect = DialectFunction(find.kind);
      !dialect.empty()) {
    absl::StrAppendFormat(&frames, "    #%d 0x%08x in %s\n", depth++, 0,
                          dialect);
  }
  absl::StrAppendFormat(&frames, "    #%d 0x%08x in %s\n", depth, find.line,
                        FrameLocation(find));
  return frames;
}

// The line that crash triage keys on (fuzz/engine/report_format.h), then
// ringfuzz's own detail line, then the frames, then the SUMMARY line.
void PrintHeader(const Find& find, int pid, std::ostream& out) {
  const std::string detail = absl::StrCat(
      kReportDetailPrefix, DescribeBug(find), " in ", FrameLocation(find));
  switch (find.kind) {
    case Find::Kind::kOverread:
    case Find::Kind::kOutOfBounds: {
      const std::string where = find.file.empty()
                                    ? std::string("fz_target")
                                    : absl::StrCat(find.file, ":", find.line);
      const bool input = find.kind == Find::Kind::kOverread;
      out << where << ": " << kUbsanRuntimeError << "index " << find.code
          << " out of bounds for type '"
          << (input ? kInputArrayElement : kLocalArrayElement) << "["
          << find.aux << "]'\n"
          << detail << "\n"
          << Frames(find) << kUbsanSummary << where << " in " << find.function
          << "\n";
      return;
    }
    case Find::Kind::kTimeout:
      out << "==" << pid << "== " << kLibFuzzerTimeout << find.aux
          << " loop steps\n"
          << detail << "\n"
          << Frames(find) << kLibFuzzerTimeoutSummary << "\n";
      return;
    case Find::Kind::kCrash:
    case Find::Kind::kNewCoverage:
      break;
  }
  out << "==" << pid << "== " << kLibFuzzerDeadlySignal << "\n"
      << detail << "\n"
      << Frames(find) << kLibFuzzerDeadlySignalSummary << "\n";
}

}  // namespace

BugReportResult ReportBug(const BugReportRequest& request,
                          const WorkDir& work_dir, std::ostream& out) {
  const Find& find = *request.find;
  PrintHeader(find, request.pid, out);
  if (!request.save_artifact) return {/*preserved=*/true, ""};

  std::string base = request.base_sha1.empty() ? std::string(kSha1HexChars, '0')
                                               : request.base_sha1;
  out << MutationSequence(request.opcodes, request.mutations)
      << "; base unit: " << base << "\n";
  if (find.data.size() <= kMaxUnitSizeToPrint) {
    out << HexArray(find.data) << "\n" << PrintableAscii(find.data) << "\n";
  }
  std::string sha1 = Sha1Hex(find.data);
  std::string path = work_dir.ArtifactPath(ArtifactKind(find.kind), sha1);
  absl::Status written = WriteFileAtomically(path, find.data);
  if (written.ok()) {
    out << "artifact_prefix='" << work_dir.artifact_prefix()
        << "'; Test unit written to " << path << "\n";
    if (find.data.size() <= kMaxUnitSizeToPrint) {
      out << "Base64: " << Base64(find.data) << "\n";
    }
    return {/*preserved=*/true, path};
  }
  out << "ERROR: the artifact could not be written: " << written.message()
      << "\n"
      << "ERROR: the input is printed here instead so that it is not lost ("
      << find.data.size() << " bytes, sha1 " << sha1 << "); recreate it "
      << "with: echo <hex> | xxd -r -p > " << ArtifactKind(find.kind) << "-"
      << sha1 << "\n"
      << "Hex: " << PlainHex(find.data) << "\n"
      << "Base64: " << Base64(find.data) << "\n";
  return {/*preserved=*/false, ""};
}

}  // namespace ringfuzz
