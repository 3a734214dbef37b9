#include "corpus/work_dir.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace ringfuzz {

std::string JoinPath(absl::string_view dir, absl::string_view name) {
  if (dir.empty()) return std::string(name);
  if (dir.back() == '/') return absl::StrCat(dir, name);
  return absl::StrCat(dir, "/", name);
}

WorkDir::WorkDir(std::string corpus_dir, std::string artifact_prefix,
                 std::string exact_artifact_path)
    : corpus_dir_(std::move(corpus_dir)),
      artifact_prefix_(std::move(artifact_prefix)),
      exact_artifact_path_(std::move(exact_artifact_path)) {}

std::string WorkDir::CorpusFilePath(absl::string_view sha1) const {
  return JoinPath(corpus_dir_, sha1);
}

std::string WorkDir::ArtifactPath(absl::string_view kind,
                                  absl::string_view sha1) const {
  if (!exact_artifact_path_.empty()) return exact_artifact_path_;
  return absl::StrCat(artifact_prefix_, kind, "-", sha1);
}

}  // namespace ringfuzz
