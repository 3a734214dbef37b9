// Watching the output corpus directory for inputs that other processes put
// there while this one fuzzes (libFuzzer's -reload): the workers of a
// multi-device campaign (-devices) share their finds this way, and so do
// several ringfuzz or libFuzzer processes started on one directory.
//
// Only names are tracked here; reading and running the files is the
// engine's business. Every name is returned once, so a file is read at most
// once however often the directory is polled.
#ifndef RINGFUZZ_CORPUS_CORPUS_RELOAD_H_
#define RINGFUZZ_CORPUS_CORPUS_RELOAD_H_

#include <time.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"

namespace ringfuzz {

class CorpusReloader {
 public:
  // Polls `dir` (not its subdirectories: every corpus writer puts its files
  // at the top) at most once per `interval`; the first poll is due at once.
  CorpusReloader(std::string dir, absl::Duration interval);
  CorpusReloader(const CorpusReloader&) = delete;
  CorpusReloader& operator=(const CorpusReloader&) = delete;

  // Poll never returns the base name `name` (a file loaded at start, or one
  // this process wrote).
  void MarkKnown(std::string name);
  // Undoes Poll's returning `name`: a later poll returns it again (the
  // engine could not run it this time).
  void Forget(const std::string& name);

  // Returns the base names of the regular files (symlinks followed) directly
  // in the directory that were neither returned by an earlier poll nor
  // marked known, in name order (bytewise), iff a poll is due at `now`
  // (`interval` after the last one, on the caller's clock); else nothing.
  // Skipped, never returned: names starting with '.' (temporaries of
  // WriteFileAtomically, hidden files) and artifact names (crash-, timeout-,
  // oom-, leak-, slow-unit-, minimized-from-...): they are not corpus
  // inputs. The directory is listed only when its modification time
  // changed since the last listing, or that listing was less than
  // kMtimeSlack after it (file systems keep coarse times, so a file renamed
  // in during a listing may leave the time unchanged). A directory that
  // cannot be listed (removed, no permission) yields nothing: the run goes
  // on, and its writer reports the problem. A directory so large that
  // listing it takes long is polled less often: the next poll is due
  // kListingFactor times the last listing's (wall) time after it, if that
  // is more than `interval`, so listings take at most about a tenth of the
  // run's time however many files the directory holds.
  std::vector<std::string> Poll(absl::Duration now);

  // Directory listings so far (tests: the modification-time shortcut).
  uint64_t listings() const { return listings_; }
  const std::string& dir() const { return dir_; }

  static constexpr absl::Duration kMtimeSlack = absl::Seconds(2);
  static constexpr int kListingFactor = 10;

 private:
  std::string dir_;
  absl::Duration interval_;
  absl::Duration last_poll_ = -absl::InfiniteDuration();
  bool listed_ = false;             // a listing happened
  struct timespec mtime_ = {};      // of the directory at the last listing
  struct timespec listed_at_ = {};  // wall time of the last listing
  uint64_t listings_ = 0;
  absl::Duration listing_time_;  // of the last listing, wall time
  absl::flat_hash_set<std::string> seen_;
};

// Whether `name` is what an artifact of a bug report is called (crash-,
// timeout-, oom-, leak-, slow-unit-, minimized-from-, as libFuzzer names
// them).
bool IsArtifactName(const std::string& name);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_CORPUS_RELOAD_H_
