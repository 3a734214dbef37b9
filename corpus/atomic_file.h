// Whole-file I/O for corpus files and artifacts.
//
// A fuzzer is often killed (timeouts, Ctrl-C, a full disk), and a half
// written corpus file would later be loaded as a real input. Writes therefore
// go to a temporary sibling that is renamed over the destination only once
// it is complete and synced.
#ifndef RINGFUZZ_CORPUS_ATOMIC_FILE_H_
#define RINGFUZZ_CORPUS_ATOMIC_FILE_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "corpus/bytes.h"
#include "corpus/file_read.h"  // ReadFilePrefix, for the callers of ReadFile

namespace ringfuzz {

// Prefix of the temporary files WriteFileAtomically creates next to their
// destination. Corpus loading never reads a dot file as an input; it
// recovers or removes the temporaries of killed writers instead
// (corpus/temp_recovery.h).
inline constexpr char kTempFilePrefix[] = ".tmp.";

// Destination names up to this length are part of their temporary's name.
inline constexpr size_t kMaxTempDestinationChars = 64;

// Where scratch files and directories go: $TMPDIR if it is set and not
// empty, else /tmp.
std::string TempDirectory();

// Returns the temporary that WriteFileAtomically(path, ...) writes first, in
// the directory of `path`: ".tmp.<pid>.<counter>.<name>", where <name> is the
// base name of `path` if it has at most kMaxTempDestinationChars characters
// (so the temporary of a corpus input carries the SHA-1 that its content
// must have), else ".tmp.<pid>.<counter>". Unique per process and call.
std::string TemporaryPathFor(const std::string& path);

// What a temporary's name says about it.
struct TemporaryName {
  pid_t writer = 0;         // the process that wrote it
  std::string destination;  // the base name it was to get; "" = unknown
};

// Parses the base name of a temporary made by TemporaryPathFor (also the
// older ".tmp.<pid>.<counter>" form); nullopt for any other name.
std::optional<TemporaryName> ParseTemporaryName(const std::string& name);

// Writes `data` to `path` so that `path` either keeps its old state or holds
// exactly `data`: writes a uniquely named temporary file in the same
// directory, fsyncs it, and renames it to `path` (replacing an existing
// file). On any failure the temporary is removed and the error names `path`,
// the system's reason and how to fix it (free disk space, fix permissions,
// choose another directory). The code follows errno (e.g. ENOSPC ->
// ResourceExhausted, EACCES/EROFS -> PermissionDenied, ENOENT -> NotFound).
absl::Status WriteFileAtomically(const std::string& path, ByteSpan data);

// Largest file ReadFile reads: 256 MiB, far above any input ringfuzz runs
// (-max_len is at most 128 KiB), low enough that no file exhausts memory.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{256} << 20;

// Returns the whole contents of the file `path` (a corpus input or an
// artifact); ReadFileAtMost's errors (corpus/file_read.h), with "input" as
// the kind of file and a fix that names a prefix of it, if it cannot be
// read, is a directory or holds more than kMaxInputFileBytes bytes.
absl::StatusOr<Bytes> ReadFile(const std::string& path);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_ATOMIC_FILE_H_
