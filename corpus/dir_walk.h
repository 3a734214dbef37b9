// Walking a corpus directory tree, as libFuzzer reads a corpus: every
// regular file anywhere below the directory is one input.
#ifndef RINGFUZZ_CORPUS_DIR_WALK_H_
#define RINGFUZZ_CORPUS_DIR_WALK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace ringfuzz {

// How deep below a corpus directory WalkCorpusDir descends (the root is
// depth 0); deeper directories are skipped with a warning.
inline constexpr int kMaxCorpusDirDepth = 32;

struct WalkedFile {
  std::string path;
  uint64_t size = 0;  // at the time of the walk
};

struct DirWalk {
  std::vector<WalkedFile> files;
  std::vector<std::string> warnings;  // one line per entry that was skipped
};

// Lists every regular file below `root` (symlinks followed), depth first,
// the entries of each directory in name order (bytewise), so a walk is
// reproducible. Names starting with '.' are skipped silently (".", "..",
// hidden files, the temporaries of WriteFileAtomically). Skipped with a
// warning naming them, while the walk goes on: entries that cannot be
// stat'ed (dangling symlinks, symlink loops, no permission), entries that
// are neither files nor directories (FIFOs, sockets, devices), directories
// that cannot be listed, a directory reached a second time (a symlink cycle,
// or a second link to it) and directories more than kMaxCorpusDirDepth
// levels below `root`.
//
// `before_listing` runs on each directory, `root` first, just before its
// entries are read (corpus loading recovers temporaries there).
// An error only if `root` itself cannot be listed; it names `root`.
absl::StatusOr<DirWalk> WalkCorpusDir(
    const std::string& root,
    absl::FunctionRef<void(const std::string& dir)> before_listing);

// The same without a per-directory step.
absl::StatusOr<DirWalk> WalkCorpusDir(const std::string& root);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_DIR_WALK_H_
