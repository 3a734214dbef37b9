#include "fuzz/triage/triage.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"

namespace ringfuzz {

int64_t Provenance::time() const {
  return find.has_value() ? static_cast<int64_t>(find->time) : mtime;
}

std::string Provenance::Describe() const {
  if (find.has_value()) {
    std::string text = absl::StrCat("epoch ", find->epoch, " slot ", find->slot,
                                    " parent ", find->parent);
    if (!find->mutations.empty()) absl::StrAppend(&text, " ", find->mutations);
    return text;
  }
  return absl::StrCat("mtime ", absl::FormatTime("%Y-%m-%dT%H:%M:%SZ",
                                                 absl::FromUnixSeconds(mtime),
                                                 absl::UTCTimeZone()));
}

absl::string_view VerdictName(CpuReplay::Verdict verdict) {
  switch (verdict) {
    case CpuReplay::Verdict::kSkipped:
      return "skipped";
    case CpuReplay::Verdict::kReproduces:
      return "yes";
    case CpuReplay::Verdict::kDiffers:
      return "differs";
    case CpuReplay::Verdict::kClean:
      return "no";
    case CpuReplay::Verdict::kError:
      return "error";
  }
  return "?";
}

std::string Bucket::Key() const {
  return signature.has_value() ? signature->Key() : kNoReproBucket;
}

absl::StatusOr<std::vector<TriagedArtifact>> ReplayArtifacts(
    Executor& executor, absl::Span<const ArtifactFile> files,
    const absl::flat_hash_map<std::string, FindLineFields>& finds) {
  std::vector<TriagedArtifact> artifacts;
  artifacts.reserve(files.size());
  for (const ArtifactFile& file : files) {
    absl::StatusOr<Bytes> data = ReadFile(file.path);
    if (!data.ok()) return data.status();
    TriagedArtifact artifact;
    artifact.file = file;
    artifact.file.size = data->size();
    artifact.sha1 = Sha1Hex(*data);
    artifact.seen.mtime = file.mtime;
    if (auto it = finds.find(artifact.sha1); it != finds.end()) {
      artifact.seen.find = it->second;
    }
    ByteSpan input(*data);
    if (input.size() > executor.max_len()) {
      input = input.subspan(0, executor.max_len());
    }
    absl::StatusOr<BatchResult> result = executor.Execute(input);
    if (!result.ok()) {
      return absl::Status(result.status().code(),
                          absl::StrCat("replaying ", file.path,
                                       " failed: ", result.status().message()));
    }
    artifact.signature = TriageSignatureOf(*result);
    artifacts.push_back(std::move(artifact));
  }
  return artifacts;
}

std::vector<Bucket> BucketArtifacts(
    absl::Span<const TriagedArtifact> artifacts) {
  std::vector<Bucket> buckets;
  absl::flat_hash_map<std::string, size_t> by_key;
  for (size_t i = 0; i < artifacts.size(); ++i) {
    const TriagedArtifact& artifact = artifacts[i];
    const std::string key = artifact.signature.has_value()
                                ? artifact.signature->Key()
                                : std::string(kNoReproBucket);
    auto [it, inserted] = by_key.try_emplace(key, buckets.size());
    if (inserted) {
      Bucket bucket;
      bucket.signature = artifact.signature;
      bucket.smallest = i;
      bucket.first_seen = i;
      buckets.push_back(std::move(bucket));
    }
    Bucket& bucket = buckets[it->second];
    bucket.members.push_back(i);
    const TriagedArtifact& smallest = artifacts[bucket.smallest];
    if (std::tie(artifact.file.size, artifact.file.path) <
        std::tie(smallest.file.size, smallest.file.path)) {
      bucket.smallest = i;
    }
    if (artifact.seen.time() < artifacts[bucket.first_seen].seen.time()) {
      bucket.first_seen = i;
    }
  }
  std::sort(buckets.begin(), buckets.end(),
            [](const Bucket& a, const Bucket& b) {
              if (a.reproduces() != b.reproduces()) return a.reproduces();
              if (a.members.size() != b.members.size()) {
                return a.members.size() > b.members.size();
              }
              return a.Key() < b.Key();
            });
  return buckets;
}

}  // namespace ringfuzz
