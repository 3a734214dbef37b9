// A bug's provenance as one line of the -telemetry_out file, so that crash
// triage (`ringfuzz triage`, fuzz/triage/) can say where an artifact was
// first seen. The engine appends one line per bug it reports while fuzzing,
// between the epoch lines (fuzz/steer/telemetry_log.h):
//
//   {"find":{"epoch":12,"slot":3,"parent":5,"base_unit":"<sha1>",
//            "mutations":"MS: 2
//            ChangeBit-EraseBytes-","bug":"fz_crash(code=7)",
//            "artifact":"out/crash-<sha1>","sha1":"<sha1>","time":1700000000}}
//
// Writer and reader live here together so that the format is written once.
#ifndef RINGFUZZ_FUZZ_ENGINE_FIND_LINE_H_
#define RINGFUZZ_FUZZ_ENGINE_FIND_LINE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace ringfuzz {

struct FindLineFields {
  uint64_t epoch = 0;     // the EPOCH word of the round that found it
  uint32_t slot = 0;      // ring slot that ran the input
  uint32_t parent = 0;    // executor corpus index of the parent
  std::string base_unit;  // the parent's sha1 ("" when unknown)
  std::string mutations;  // the "MS: ..." sequence (fuzz/engine/work_kind.h)
  std::string bug;        // BugCategory (fuzz/engine/bug_report.h)
  std::string artifact;   // the path the artifact was written to
  std::string sha1;       // of the input
  uint64_t time = 0;      // seconds since the Unix epoch
};

// Returns the compact JSON line (no newline) for `fields`.
std::string FindLine(const FindLineFields& fields);

// Parses a line written by FindLine. Returns nullopt for any other line
// (epoch lines, blank lines, text that is not a find line); unknown members
// of the "find" object are skipped, so that fields can be added later.
std::optional<FindLineFields> ParseFindLine(absl::string_view line);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_ENGINE_FIND_LINE_H_
