#include "fuzz/gpu/target_diagnostics.h"

#include <cctype>
#include <vector>

#include "absl/strings/ascii.h"
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

// GLSL keywords that C++ code may use as names, as glslang names their
// tokens in "syntax error, unexpected OUT" (reserved words that are not
// keywords, such as input or static, get glslang's "Reserved word."
// instead).
constexpr absl::string_view kReservedTokens[] = {
    "IN",       "OUT",        "INOUT",     "UNIFORM",  "BUFFER",    "SHARED",
    "SAMPLE",   "PATCH",      "CENTROID",  "FLAT",     "SMOOTH",    "PRECISE",
    "COHERENT", "VOLATILE",   "RESTRICT",  "READONLY", "WRITEONLY", "INVARIANT",
    "LAYOUT",   "SUBROUTINE", "ATTRIBUTE", "VARYING"};

// C and C++ names that the dialect lacks, met as glslang's
// "'char' : undeclared identifier".
constexpr absl::string_view kCppTypes[] = {
    "char",    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t",
    "int16_t", "int32_t", "int64_t",  "size_t",   "ssize_t",  "auto"};
constexpr absl::string_view kLibcFunctions[] = {
    "memcmp", "strcmp",  "strncmp", "strcasecmp", "strncasecmp", "memcpy",
    "memset", "memmove", "strlen",  "strstr",     "memmem",      "memchr"};
constexpr absl::string_view kTypesHint =
    "The dialect's types are uint, int, bool, structs and fixed-size arrays "
    "of them (no char, uint8_t, size_t, pointers or strings; bytes are "
    "uint).";

// How to fix a target error whose glslang text is `text`, where the dialect
// has a rule for it (docs/dialect.md); "" otherwise.
std::string FixHint(absl::string_view text) {
  if (absl::StrContains(text, "character literals not supported")) {
    return "the dialect has no character literals: write the character's "
           "code, e.g. 65u for 'A' (0x41u).";
  }
  if (absl::StrContains(text, "'string literal'")) {
    return "the dialect has no strings: write the bytes as a const uint "
           "array, e.g. const uint kMagic[3] = {80u, 78u, 71u}; for \"PNG\".";
  }
  if (absl::StrContains(text, "boolean expression expected")) {
    return "a condition must be a bool: compare explicitly, e.g. "
           "if ((b & 0x80u) != 0u), while (n != 0u).";
  }
  if (absl::StrContains(text, "cannot convert from") &&
      absl::StrContains(text, "int")) {
    return "the dialect converts between uint and int only explicitly: "
           "write int(x) or uint(n), and unsigned literals with a u (16u).";
  }
  // "'NAME' : undeclared identifier", "'NAME' : no matching overloaded
  // function found".
  const size_t quote = text.find("' : ", 1);
  if (absl::StartsWith(text, "'") && quote != absl::string_view::npos) {
    const absl::string_view name = text.substr(1, quote - 1);
    for (absl::string_view type : kCppTypes) {
      if (name == type) return std::string(kTypesHint);
    }
    for (absl::string_view function : kLibcFunctions) {
      if (name == function) {
        return absl::StrCat(
            "the dialect has no C library: write ", name,
            " as a loop over fz_byte (see shaders/puzzles/lf_memcmp.fz).");
      }
    }
  }
  if (absl::StrContains(absl::AsciiStrToLower(text), "reserved word")) {
    return "the name is reserved in GLSL, which the dialect follows: rename "
           "it.";
  }
  constexpr absl::string_view kUnexpected = "syntax error, unexpected ";
  const size_t at = text.find(kUnexpected);
  if (at == absl::string_view::npos) return "";
  absl::string_view token = text.substr(at + kUnexpected.size());
  token = token.substr(0, token.find_first_of(", "));
  for (absl::string_view reserved : kReservedTokens) {
    if (token == reserved) {
      return absl::StrCat("'", absl::AsciiStrToLower(token),
                          "' is a GLSL keyword, which the dialect reserves: "
                          "rename it.");
    }
  }
  if (token == "IDENTIFIER")
    return absl::StrCat("an unknown type name? ", kTypesHint);
  return "";
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
      const std::string hint = FixHint(at.text);
      own.push_back(hint.empty()
                        ? absl::StrCat("ERROR: ", line)
                        : absl::StrCat("ERROR: ", line, "\n  Fix: ", hint));
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
