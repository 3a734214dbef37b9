// Crash triage: replays artifacts on the device, groups them into buckets
// by bug signature (bug_signature.h), keeps the smallest reproducer of each
// and replays it on the CPU (the libFuzzer twin, twin_replay.h).
// `ringfuzz triage` (triage_command.h) prints the result; `ringfuzz ci`
// builds its SARIF and JUnit reports from it.
#ifndef RINGFUZZ_FUZZ_TRIAGE_TRIAGE_H_
#define RINGFUZZ_FUZZ_TRIAGE_TRIAGE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/engine/executor.h"
#include "fuzz/engine/find_line.h"
#include "fuzz/triage/triage_inputs.h"
#include "fuzz/triage/triage_signature.h"

namespace ringfuzz {

// Where an artifact was first seen: the find line of the run that wrote it
// (fuzz/engine/find_line.h) when a telemetry log has one, else its file's
// mtime.
struct Provenance {
  std::optional<FindLineFields> find;
  int64_t mtime = 0;

  // Seconds since the Unix epoch: the find line's time, else the mtime.
  int64_t time() const;
  // "epoch 12 slot 3 parent 5 MS: 2 ChangeBit-EraseBytes-" (telemetry) or
  // "mtime 2024-05-01T12:00:00Z".
  std::string Describe() const;
};

struct TriagedArtifact {
  ArtifactFile file;
  std::string sha1;  // of the whole file
  // The bug its replay found; nullopt when it did not reproduce.
  std::optional<TriageSignature> signature;
  Provenance seen;
};

// What the libFuzzer twin did with a bucket's smallest input.
struct CpuReplay {
  enum class Verdict {
    kSkipped,     // no twin (detail says why)
    kReproduces,  // the same bug category as on the device
    kDiffers,     // another bug (detail: the twin's category)
    kClean,       // no bug
    kError,       // the twin could not be run (detail says why)
  };
  Verdict verdict = Verdict::kSkipped;
  std::string detail;
};

// "skipped", "yes", "differs", "no", "error".
absl::string_view VerdictName(CpuReplay::Verdict verdict);

struct Bucket {
  std::optional<TriageSignature> signature;  // nullopt: does not reproduce
  std::vector<size_t> members;               // indices into the artifacts
  size_t smallest = 0;    // the member with the fewest bytes (then path)
  size_t first_seen = 0;  // the member seen first (Provenance::time)
  CpuReplay cpu;

  // signature->Key(), or kNoReproBucket.
  std::string Key() const;
  bool reproduces() const { return signature.has_value(); }
};

inline constexpr char kNoReproBucket[] = "does not reproduce";

struct TriageReport {
  std::vector<TriagedArtifact> artifacts;
  std::vector<Bucket> buckets;  // BucketArtifacts' order
  std::string cpu_note;         // why CPU replays were skipped, if they were
};

// Replays every artifact once on `executor` (Executor::Execute; inputs
// longer than executor.max_len() are cut, as the engine cuts them) and
// records its signature and provenance (`finds`: LoadFindLines' result).
// An error when an artifact cannot be read or the executor fails.
absl::StatusOr<std::vector<TriagedArtifact>> ReplayArtifacts(
    Executor& executor, absl::Span<const ArtifactFile> files,
    const absl::flat_hash_map<std::string, FindLineFields>& finds);

// Groups `artifacts` by signature key: the buckets of bugs with the most
// members first (ties by key), then the "does not reproduce" bucket, if any.
std::vector<Bucket> BucketArtifacts(
    absl::Span<const TriagedArtifact> artifacts);

// Replays a bucket's smallest input on the CPU; `gpu` is its device
// signature (nullopt for the "does not reproduce" bucket).
using CpuReplayer = std::function<CpuReplay(
    const std::string& path, const std::optional<TriageSignature>& gpu)>;

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_TRIAGE_TRIAGE_H_
