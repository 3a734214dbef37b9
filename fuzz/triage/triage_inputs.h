// What `ringfuzz triage` reads: the artifact files and the telemetry logs
// among the paths on its command line.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TRIAGE_INPUTS_H_
#define RINGFUZZ_FUZZ_TRIAGE_TRIAGE_INPUTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "fuzz/engine/find_line.h"

namespace ringfuzz {

struct ArtifactFile {
  std::string path;
  uint64_t size = 0;
  int64_t mtime = 0;  // seconds since the Unix epoch
};

struct TriageInputs {
  std::vector<ArtifactFile> artifacts;      // in walk order
  std::vector<std::string> telemetry_logs;  // -telemetry_out files
  std::vector<std::string> warnings;        // entries that were skipped
};

// True iff `name` (a file name, no directory) is one ringfuzz or libFuzzer
// gives an artifact: it starts with an artifact kind and '-' ("crash-",
// "timeout-", "oom-", "leak-", corpus/work_dir.h) or with "oob-" or
// "slow-unit-", possibly after an -artifact_prefix's name part
// ("x-crash-<sha1>").
bool IsArtifactName(absl::string_view name);

// True iff the file at `path` starts as a -telemetry_out line does
// ('{"epoch":' or '{"find":').
bool LooksLikeTelemetryLog(const std::string& path);

// Sorts `paths` into artifacts and telemetry logs. A file named on the
// command line is an artifact unless it looks like a telemetry log. In a
// directory (walked recursively, corpus/dir_walk.h) telemetry logs are
// recognised the same way, and the other files are artifacts iff
// IsArtifactName, or all of them with `all_files` (a corpus). An error for
// a path that does not exist or cannot be listed.
absl::StatusOr<TriageInputs> CollectTriageInputs(
    absl::Span<const std::string> paths, bool all_files);

// The find lines of `logs` (fuzz/engine/find_line.h) by the input's sha1, the
// earliest (by time, then epoch) of each. An error names a log that cannot
// be read.
absl::StatusOr<absl::flat_hash_map<std::string, FindLineFields>> LoadFindLines(
    absl::Span<const std::string> logs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TRIAGE_INPUTS_H_
