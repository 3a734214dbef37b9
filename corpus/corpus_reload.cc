#include "corpus/corpus_reload.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"

namespace ringfuzz {
namespace {

absl::Duration FromTimespec(const struct timespec& t) {
  return absl::Seconds(t.tv_sec) + absl::Nanoseconds(t.tv_nsec);
}

bool SameTime(const struct timespec& a, const struct timespec& b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

}  // namespace

bool IsArtifactName(const std::string& name) {
  for (const char* prefix : {"crash-", "timeout-", "oom-", "leak-",
                             "slow-unit-", "minimized-from-"}) {
    if (absl::StartsWith(name, prefix)) return true;
  }
  return false;
}

CorpusReloader::CorpusReloader(std::string dir, absl::Duration interval)
    : dir_(std::move(dir)), interval_(interval) {}

void CorpusReloader::MarkKnown(std::string name) {
  seen_.insert(std::move(name));
}

void CorpusReloader::Forget(const std::string& name) { seen_.erase(name); }

std::vector<std::string> CorpusReloader::Poll(absl::Duration now) {
  std::vector<std::string> fresh;
  if (now - last_poll_ < std::max(interval_, kListingFactor * listing_time_)) {
    return fresh;
  }
  last_poll_ = now;
  struct stat dir_stat;
  if (stat(dir_.c_str(), &dir_stat) != 0 || !S_ISDIR(dir_stat.st_mode)) {
    return fresh;
  }
  if (listed_ && SameTime(dir_stat.st_mtim, mtime_) &&
      FromTimespec(listed_at_) - FromTimespec(mtime_) >= kMtimeSlack) {
    return fresh;  // nothing was added or renamed in since the last listing
  }
  // The time is taken before the listing: a file added while it runs is
  // then within the slack of the next poll's check.
  struct timespec started;
  clock_gettime(CLOCK_REALTIME, &started);
  DIR* listing = opendir(dir_.c_str());
  if (listing == nullptr) return fresh;
  while (const struct dirent* entry = readdir(listing)) {
    std::string name = entry->d_name;
    if (name.empty() || name[0] == '.' || seen_.contains(name) ||
        IsArtifactName(name)) {
      continue;
    }
    bool regular = entry->d_type == DT_REG;
    if (entry->d_type == DT_LNK || entry->d_type == DT_UNKNOWN) {
      struct stat st;
      const std::string path = dir_ + "/" + name;
      regular = stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    }
    if (!regular) continue;
    fresh.push_back(std::move(name));
  }
  closedir(listing);
  struct timespec ended;
  clock_gettime(CLOCK_REALTIME, &ended);
  listing_time_ = FromTimespec(ended) - FromTimespec(started);
  listed_ = true;
  mtime_ = dir_stat.st_mtim;
  listed_at_ = started;
  ++listings_;
  std::sort(fresh.begin(), fresh.end());
  for (const std::string& name : fresh) seen_.insert(name);
  return fresh;
}

}  // namespace ringfuzz
