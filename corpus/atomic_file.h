// Whole-file I/O for corpus files and artifacts.
//
// A fuzzer is often killed (timeouts, Ctrl-C, a full disk), and a half
// written corpus file would later be loaded as a real input. Writes therefore
// go to a temporary sibling that is renamed over the destination only once
// it is complete and synced.
#ifndef RINGFUZZ_CORPUS_ATOMIC_FILE_H_
#define RINGFUZZ_CORPUS_ATOMIC_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "corpus/bytes.h"

namespace ringfuzz {

// Prefix of the temporary files WriteFileAtomically creates next to their
// destination (".tmp.<pid>.<counter>"). Corpus loading skips dot files, so a
// temporary left by a killed process is never read as an input.
inline constexpr char kTempFilePrefix[] = ".tmp.";

// Writes `data` to `path` so that `path` either keeps its old state or holds
// exactly `data`: writes a uniquely named temporary file in the same
// directory, fsyncs it, and renames it to `path` (replacing an existing
// file). On any failure the temporary is removed and the error names `path`,
// the system's reason and how to fix it (free disk space, fix permissions,
// choose another directory). The code follows errno (e.g. ENOSPC ->
// ResourceExhausted, EACCES/EROFS -> PermissionDenied, ENOENT -> NotFound).
absl::Status WriteFileAtomically(const std::string& path, ByteSpan data);

// Returns the whole contents of the regular file `path`; an error naming the
// path and the reason if it cannot be opened or read or is a directory.
absl::StatusOr<Bytes> ReadFile(const std::string& path);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_ATOMIC_FILE_H_
