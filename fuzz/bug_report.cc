#include "fuzz/bug_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "fuzz/work_kind.h"

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

std::string Base64(ByteSpan data) {
  static constexpr char kTable[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t v = data[i] << 16 | data[i + 1] << 8 | data[i + 2];
    text += kTable[v >> 18];
    text += kTable[(v >> 12) & 63];
    text += kTable[(v >> 6) & 63];
    text += kTable[v & 63];
  }
  if (size_t rest = data.size() - i; rest > 0) {
    uint32_t v = data[i] << 16 | (rest == 2 ? data[i + 1] << 8 : 0);
    text += kTable[v >> 18];
    text += kTable[(v >> 12) & 63];
    text += rest == 2 ? kTable[(v >> 6) & 63] : '=';
    text += '=';
  }
  return text;
}

std::string PlainHex(ByteSpan data) {
  std::string text;
  for (uint8_t byte : data) absl::StrAppendFormat(&text, "%02x", byte);
  return text;
}

bool ReportBug(const BugReportRequest& request, const WorkDir& work_dir,
               std::ostream& out) {
  const Find& find = *request.find;
  // The sanitizers' layout, so that CI tools that parse their reports read
  // ours: ==PID==ERROR: line, one frame, SUMMARY: kind FILE:LINE in FUNC.
  out << "==" << request.pid << "==ERROR: ringfuzz: " << DescribeBug(find)
      << "\n";
  std::string location;
  if (!find.file.empty()) {
    location =
        absl::StrCat(" ", find.file, ":", find.line, " in ", find.function);
    out << absl::StrFormat("    #0 0x%08x in %s %s:%u\n", find.line,
                           find.function, find.file, find.line);
  }
  out << "SUMMARY: ringfuzz: " << BugCategory(find) << location << "\n";
  if (!request.save_artifact) return true;

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
    return true;
  }
  out << "ERROR: the artifact could not be written: " << written.message()
      << "\n"
      << "ERROR: the input is printed here instead so that it is not lost ("
      << find.data.size() << " bytes, sha1 " << sha1 << "); recreate it "
      << "with: echo <hex> | xxd -r -p > " << ArtifactKind(find.kind) << "-"
      << sha1 << "\n"
      << "Hex: " << PlainHex(find.data) << "\n"
      << "Base64: " << Base64(find.data) << "\n";
  return false;
}

}  // namespace ringfuzz
