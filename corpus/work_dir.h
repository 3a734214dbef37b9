// The one place that builds the paths ringfuzz writes to, so that the
// naming rules (libFuzzer's) live in one spot: corpus files are named by
// their SHA-1, artifacts by kind and SHA-1 under -artifact_prefix.
#ifndef RINGFUZZ_CORPUS_WORK_DIR_H_
#define RINGFUZZ_CORPUS_WORK_DIR_H_

#include <string>

#include "absl/strings/string_view.h"

namespace ringfuzz {

// Returns `dir` and `name` joined by exactly one '/'; `name` alone if `dir`
// is empty.
std::string JoinPath(absl::string_view dir, absl::string_view name);

// Artifact kinds: the file name prefix of what a bug report writes.
inline constexpr absl::string_view kArtifactCrash = "crash";
inline constexpr absl::string_view kArtifactTimeout = "timeout";
inline constexpr absl::string_view kArtifactOom = "oom";
inline constexpr absl::string_view kArtifactLeak = "leak";

class WorkDir {
 public:
  // `corpus_dir`: where new inputs are saved (the first corpus directory on
  // the command line); empty = the corpus lives in memory only.
  // `artifact_prefix`: prepended verbatim, as libFuzzer does ("out/" puts
  // artifacts in out/, "out/x-" prefixes their names).
  // `exact_artifact_path`: if non-empty, every artifact goes there instead.
  WorkDir(std::string corpus_dir, std::string artifact_prefix,
          std::string exact_artifact_path);

  // Returns true iff new inputs are saved to disk.
  bool has_corpus_dir() const { return !corpus_dir_.empty(); }
  const std::string& corpus_dir() const { return corpus_dir_; }
  const std::string& artifact_prefix() const { return artifact_prefix_; }

  // Returns "<corpus_dir>/<sha1>". Requires has_corpus_dir().
  std::string CorpusFilePath(absl::string_view sha1) const;

  // Returns "<artifact_prefix><kind>-<sha1>", or the exact artifact path
  // when one was given.
  std::string ArtifactPath(absl::string_view kind,
                           absl::string_view sha1) const;

 private:
  std::string corpus_dir_;
  std::string artifact_prefix_;
  std::string exact_artifact_path_;
};

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_WORK_DIR_H_
