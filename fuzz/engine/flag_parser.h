// The command line in libFuzzer's syntax: flags are -name=value (one dash),
// everything else is positional (corpus directories or input files).
#ifndef RINGFUZZ_FUZZ_ENGINE_FLAG_PARSER_H_
#define RINGFUZZ_FUZZ_ENGINE_FLAG_PARSER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/engine/config.h"

namespace ringfuzz {

struct ParsedCommandLine {
  Config config;
  std::vector<std::string> positional;  // in command-line order
  // Every -target value, in command-line order (config.target is the last):
  // a campaign given several fuzzes them side by side as tenants
  // (fuzz/workers/multi_device.h).
  std::vector<std::string> targets;
  // Lines to print before anything else ("WARNING: ..." or "INFO: ...",
  // without the newline), in command-line order: what was ignored and why.
  std::vector<std::string> warnings;
};

// Parses `args` (without the program name) as libFuzzer's driver does
// (FuzzerDriver.cpp's ParseFlags), so that a command line any libFuzzer
// binary takes is taken here too. A flag given twice keeps the last value
// (-target keeps every value in `targets` too).
// A bool flag may be written bare ("-help"). "-" alone is positional.
//
// What is ignored, with a line in `warnings` (never an error):
//  - an unknown flag: "WARNING: unrecognized flag '-foo=1'; use -help=1 to
//    list all flags", plus " (did you mean -bar?)" when a flag name is
//    within edit distance 2;
//  - a libFuzzer flag that ringfuzz does not implement (fuzz/
//    libfuzzer_flags.def): "WARNING: ringfuzz ignores -name: <why>", once
//    per name, whatever its value;
//  - an argument starting with "--", "--" itself included: one "INFO:
//    ringfuzz ignores flags that start with '--'" line, plus "WARNING: did
//    you mean '-runs=5' (single dash)?" when it names a flag. The arguments
//    after it are parsed as usual (libFuzzer does not stop at "--");
//  - a non-bool flag without "=value": "WARNING: flag -runs needs a value
//    ...; ignored";
//  - everything after -ignore_remaining_args=1 (flags and positionals).
// A value of the right type outside the flag's range is clamped to the
// range with a warning for the flags libFuzzer shares with ringfuzz
// (libFuzzer takes any int; nonzero means true for its bool-like flags).
//
// Errors (InvalidArgument, text ready to print after "ERROR: "): a value of
// the wrong type for a known flag (not a number: libFuzzer would quietly
// read it as 0), or out of range for a flag that only ringfuzz has or for
// an exit code; the text names the flag, the accepted range and the fix,
// e.g. "bad value 'x' for -verbosity: expected an integer in [0, 3]; fix:
// pass such a value, e.g. the default -verbosity=1".
absl::StatusOr<ParsedCommandLine> ParseCommandLine(
    absl::Span<const std::string> args);

// Returns the usage text and one entry per flag: name, default, help.
std::string FlagHelp();

// Returns "-name=value" for each flag of fuzz/engine/flags.def whose value in
// `config` differs from its default, in the table's order (bools as 0/1),
// e.g. {"-target=t.fz", "-max_total_time=60"}: the flags a run used.
std::vector<std::string> NonDefaultFlags(const Config& config);

// Returns the Levenshtein distance between `a` and `b` (used for "did you
// mean"; exposed for tests).
size_t EditDistance(absl::string_view a, absl::string_view b);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_FLAG_PARSER_H_
