// Loading libFuzzer-style corpus directories: every regular file below a
// directory is one input, its name is irrelevant.
#ifndef RINGFUZZ_CORPUS_CORPUS_DIR_H_
#define RINGFUZZ_CORPUS_CORPUS_DIR_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "corpus/bytes.h"

namespace ringfuzz {

struct CorpusFile {
  std::string path;
  size_t dir_index = 0;  // index into the `dirs` it was loaded from
  Bytes data;            // possibly truncated to max_len
};

// What happened while loading, besides the files themselves.
struct CorpusLoadReport {
  std::vector<size_t> files_per_dir;  // parallel to `dirs`
  bool created_first_dir = false;
  size_t truncated = 0;               // inputs cut to max_len
  std::vector<std::string> warnings;  // one line per entry that was skipped
  std::vector<std::string> notes;     // INFO lines (temporaries recovered)
};

// Loads every regular file (symlinks followed) anywhere below each of
// `dirs`, as libFuzzer does: subdirectories are walked recursively (see
// WalkCorpusDir in corpus/dir_walk.h for what is skipped: names starting
// with '.', symlink cycles, more than kMaxCorpusDirDepth levels, entries that
// are not files). Files come out in `dirs` order, then depth first in name
// order (bytewise), so a run is reproducible. Inputs longer than `max_len`
// (0 = no limit) are truncated, as libFuzzer does, and counted in `report`;
// no more than max_len + 1 bytes of a file are read. Empty files are inputs
// too.
//
// Before a directory is listed, the temporaries that killed writers left in
// it are recovered (complete inputs renamed to their SHA-1 name and loaded)
// or removed (RecoverTemporaries in corpus/temp_recovery.h); one line in
// `report->notes` says what was done.
//
// A missing FIRST directory is created (with its parents): it is the output
// corpus, as in libFuzzer. Any other missing directory, a path that is not a
// directory, or a directory that cannot be listed is an error naming it. An
// entry that cannot be read, or is not a file (a FIFO, a dangling symlink, a
// file without read permission) is not fatal: it is skipped and a warning
// naming it is added to `report`.
absl::StatusOr<std::vector<CorpusFile>> LoadCorpusDirs(
    absl::Span<const std::string> dirs, size_t max_len,
    CorpusLoadReport* report);

// Creates `dir` and its missing parents, like mkdir -p. The error names
// `dir`, the reason, and says to create it or pass another directory.
absl::Status MakeDirs(const std::string& dir);

// Returns the size in bytes of the largest input among `paths`, without
// reading any: a regular file counts itself, a directory every file that
// LoadCorpusDirs would load from it (recursively). Paths that are missing or
// cannot be listed count as empty (loading reports them later). Used to choose
// the automatic -max_len before the executor is created.
size_t LargestInputSize(absl::Span<const std::string> paths);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_CORPUS_DIR_H_
