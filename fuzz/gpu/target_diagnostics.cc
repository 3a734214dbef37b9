#include "fuzz/gpu/target_diagnostics.h"

#include <cctype>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace ringfuzz {
namespace {

constexpr absl::string_view kDialect =
    "The target dialect is described in docs/dialect.md.";

// One "ERROR: <file>:<line>: <text>" line of glslang's log.
struct Located {
  absl::string_view file;
  absl::string_view line;
  absl::string_view text;
};

// Splits `error` (the part after "ERROR: ") at the first ":<digits>: ".
bool SplitLocation(absl::string_view error, Located& out) {
  for (size_t colon = error.find(':'); colon != absl::string_view::npos;
       colon = error.find(':', colon + 1)) {
    size_t end = colon + 1;
    while (end < error.size() && std::isdigit(error[end])) ++end;
    if (end == colon + 1 || error.substr(end, 2) != ": ") continue;
    out.file = error.substr(0, colon);
    out.line = error.substr(colon + 1, end - colon - 1);
    out.text = error.substr(end + 2);
    return true;
  }
  return false;
}

// The name in glslang's "... for header name: <name>" (or "").
absl::string_view MissingInclude(absl::string_view text) {
  constexpr absl::string_view kMarker = "for header name: ";
  const size_t at = text.rfind(kMarker);
  if (at == absl::string_view::npos) return "";
  return absl::StripAsciiWhitespace(text.substr(at + kMarker.size()));
}

std::string IncludeError(absl::string_view file, absl::string_view line,
                         absl::string_view name) {
  return absl::StrCat(
      "ERROR: ", file, ":", line, ": #include \"", name,
      "\": no such file. A target is one file: it may include only ",
      kTargetIncludes,
      " (optional; ringfuzz includes it before the target). Put what ", name,
      " holds into the target itself.");
}

}  // namespace

absl::Status TargetCompileError(const std::string& target_name,
                                absl::string_view compiler_message) {
  std::vector<std::string> own;       // errors in the target's file
  std::vector<std::string> internal;  // errors in ringfuzz's files
  bool no_fz_target = false;
  for (absl::string_view raw : absl::StrSplit(compiler_message, '\n')) {
    absl::string_view line = absl::StripTrailingAsciiWhitespace(raw);
    if (!absl::ConsumePrefix(&line, "ERROR: ")) continue;
    Located at;
    if (!SplitLocation(line, at)) {
      // "N compilation errors." is a count; link errors have no location.
      if (absl::StrContains(line, "compilation errors")) continue;
      if (absl::StrContains(line, "fz_target")) no_fz_target = true;
      internal.push_back(absl::StrCat("ERROR: ", line));
      continue;
    }
    const absl::string_view missing = MissingInclude(at.text);
    if (!missing.empty()) {
      own.push_back(IncludeError(at.file, at.line, missing));
    } else if (at.file == target_name) {
      own.push_back(absl::StrCat("ERROR: ", line));
    } else {
      if (absl::StrContains(at.text, "'fz_target'")) no_fz_target = true;
      internal.push_back(absl::StrCat("ERROR: ", line));
    }
  }
  std::string text;
  if (!own.empty()) {
    // What the target's errors cause in the megakernel (glslang's recovery
    // included) is noise: the target's lines are the ones to fix.
    text = absl::StrJoin(own, "\n");
  } else if (no_fz_target) {
    return absl::InvalidArgumentError(absl::StrCat(
        target_name,
        " defines no `void fz_target(uint len)`; define it: ringfuzz calls it "
        "once per input with the input's length (check the name's spelling "
        "and that the parameter is a uint; an empty file defines nothing). ",
        kDialect));
  } else if (!internal.empty()) {
    text = absl::StrCat(
        absl::StrJoin(internal, "\n"),
        "\nThese errors are inside ringfuzz's megakernel, not in the target: "
        "check that the target defines no name the dialect reserves (fz_*, "
        "rf_*, RF_*, main); otherwise please report this ringfuzz bug.");
  } else {
    text = std::string(compiler_message);  // no ERROR line: keep it whole
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "target '", target_name, "' does not compile as a ringfuzz target:\n",
      text, "\n", kDialect));
}

}  // namespace ringfuzz
