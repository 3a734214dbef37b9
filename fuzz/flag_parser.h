// The command line in libFuzzer's syntax: flags are -name=value (one dash),
// everything else is positional (corpus directories or input files).
#ifndef RINGFUZZ_FUZZ_FLAG_PARSER_H_
#define RINGFUZZ_FUZZ_FLAG_PARSER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/config.h"

namespace ringfuzz {

struct ParsedCommandLine {
  Config config;
  std::vector<std::string> positional;  // in command-line order
};

// Parses `args` (without the program name). A flag given twice keeps the
// last value, as in libFuzzer. A bool flag may be written bare ("-help"),
// other flags need "=value". "-" alone is positional.
//
// Errors (InvalidArgument, text ready to print after "ERROR: "):
//  - "--name...": libFuzzer silently ignores these, which hides typos, so
//    here it is an error suggesting "-name=...";
//  - an unknown flag: "unknown flag -foo; run 'ringfuzz -help=1' for the
//    list", plus "(did you mean -bar?)" when a flag name is within edit
//    distance 2;
//  - a bad value (not a number, or outside the flag's range in
//    fuzz/flags.def): names the flag, the accepted range and the fix, e.g.
//    "bad value 'x' for -verbosity: expected an integer in [0, 3]; fix: pass
//    such a value, e.g. the default -verbosity=1".
absl::StatusOr<ParsedCommandLine> ParseCommandLine(
    absl::Span<const std::string> args);

// Returns the usage text and one entry per flag: name, default, help.
std::string FlagHelp();

// Returns the Levenshtein distance between `a` and `b` (used for "did you
// mean"; exposed for tests).
size_t EditDistance(absl::string_view a, absl::string_view b);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_FLAG_PARSER_H_
