#include "fuzz/triage/triage_inputs.h"

#include <sys/stat.h>

#include <cerrno>
#include <fstream>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "corpus/dir_walk.h"
#include "corpus/file_read.h"
#include "corpus/work_dir.h"

namespace ringfuzz {
namespace {

constexpr absl::string_view kExtraArtifactPrefixes[] = {"oob-", "slow-unit-"};

bool StartsWithArtifactKind(absl::string_view name) {
  for (absl::string_view kind :
       {kArtifactCrash, kArtifactTimeout, kArtifactOom, kArtifactLeak}) {
    if (absl::StartsWith(name, kind) && name.size() > kind.size() &&
        name[kind.size()] == '-') {
      return true;
    }
  }
  for (absl::string_view prefix : kExtraArtifactPrefixes) {
    if (absl::StartsWith(name, prefix)) return true;
  }
  return false;
}

absl::StatusOr<ArtifactFile> Stat(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return ErrnoError(errno, absl::StrCat("cannot read '", path,
                                          "': pass an existing artifact file "
                                          "or directory"));
  }
  ArtifactFile file;
  file.path = path;
  file.size = static_cast<uint64_t>(st.st_size);
  file.mtime = static_cast<int64_t>(st.st_mtime);
  return file;
}

}  // namespace

bool IsArtifactName(absl::string_view name) {
  if (StartsWithArtifactKind(name)) return true;
  // An -artifact_prefix with a name part: "<part>-crash-<sha1>".
  for (size_t dash = name.find('-'); dash != absl::string_view::npos;
       dash = name.find('-', dash + 1)) {
    if (StartsWithArtifactKind(name.substr(dash + 1))) return true;
  }
  return false;
}

bool LooksLikeTelemetryLog(const std::string& path) {
  absl::StatusOr<Bytes> head = ReadFilePrefix(path, 16);
  if (!head.ok()) return false;
  const absl::string_view text(reinterpret_cast<const char*>(head->data()),
                               head->size());
  return absl::StartsWith(text, "{\"epoch\":") ||
         absl::StartsWith(text, "{\"find\":");
}

absl::StatusOr<TriageInputs> CollectTriageInputs(
    absl::Span<const std::string> paths, bool all_files) {
  TriageInputs inputs;
  for (const std::string& path : paths) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      return ErrnoError(errno, absl::StrCat("cannot read '", path,
                                            "': pass existing artifact files "
                                            "or directories"));
    }
    if (!S_ISDIR(st.st_mode)) {
      if (LooksLikeTelemetryLog(path)) {
        inputs.telemetry_logs.push_back(path);
        continue;
      }
      absl::StatusOr<ArtifactFile> file = Stat(path);
      if (!file.ok()) return file.status();
      inputs.artifacts.push_back(*std::move(file));
      continue;
    }
    absl::StatusOr<DirWalk> walk = WalkCorpusDir(path);
    if (!walk.ok()) return walk.status();
    for (std::string& warning : walk->warnings) {
      inputs.warnings.push_back(std::move(warning));
    }
    for (const WalkedFile& walked : walk->files) {
      if (LooksLikeTelemetryLog(walked.path)) {
        inputs.telemetry_logs.push_back(walked.path);
        continue;
      }
      const size_t slash = walked.path.rfind('/');
      const absl::string_view name =
          absl::string_view(walked.path).substr(slash + 1);
      if (!all_files && !IsArtifactName(name)) continue;
      absl::StatusOr<ArtifactFile> file = Stat(walked.path);
      if (!file.ok()) {
        inputs.warnings.push_back(
            absl::StrCat("WARNING: skipped: ", file.status().message()));
        continue;
      }
      inputs.artifacts.push_back(*std::move(file));
    }
  }
  return inputs;
}

absl::StatusOr<absl::flat_hash_map<std::string, FindLineFields>> LoadFindLines(
    absl::Span<const std::string> logs) {
  absl::flat_hash_map<std::string, FindLineFields> finds;
  for (const std::string& log : logs) {
    std::ifstream in(log);
    if (!in) {
      return absl::NotFoundError(absl::StrCat("cannot read the telemetry log '",
                                              log, "': check the path"));
    }
    std::string line;
    while (std::getline(in, line)) {
      std::optional<FindLineFields> find = ParseFindLine(line);
      if (!find.has_value() || find->sha1.empty()) continue;
      auto [it, inserted] = finds.try_emplace(find->sha1, *find);
      if (!inserted && std::tie(find->time, find->epoch) <
                           std::tie(it->second.time, it->second.epoch)) {
        it->second = *std::move(find);
      }
    }
  }
  return finds;
}

}  // namespace ringfuzz
