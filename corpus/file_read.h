// Reading files with a size cap. Every file ringfuzz reads (corpus inputs,
// artifacts, -dict, -target, telemetry dumps) is read through here, so that
// no file (a huge one, /dev/zero, /dev/urandom) can make the process
// allocate without bound or read forever. A small library of its own, so
// that telemetry/ and the GPU executor can use it without the corpus.
#ifndef RINGFUZZ_CORPUS_FILE_READ_H_
#define RINGFUZZ_CORPUS_FILE_READ_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "corpus/bytes.h"

namespace ringfuzz {

// What one kind of file may hold, and how errors name it.
struct FileCap {
  uint64_t max_bytes = 0;
  absl::string_view what;  // the kind of file, e.g. "dictionary"
  absl::string_view fix;   // what to do about a file over max_bytes
};

// Returns the whole contents of `path` if it holds at most cap.max_bytes
// bytes. A regular file is judged by its size before it is read; anything
// else (a device, a pipe) by reading at most max_bytes + 1 bytes, so endless
// devices end. Errors:
//  - "<what> '<path>' is larger than <max_bytes> bytes; <fix>"
//    (InvalidArgument);
//  - "cannot read <what> '<path>': <reason>" when it cannot be opened or
//    read or is a directory, with the code that errno maps to (NotFound,
//    PermissionDenied, FailedPrecondition for a directory, ...).
absl::StatusOr<Bytes> ReadFileAtMost(const std::string& path,
                                     const FileCap& cap);

// Returns the first min(limit, size) bytes of `path`, so that a huge file
// costs no more memory than `limit`. Errors as ReadFileAtMost's unreadable
// case, with "file" as <what>.
absl::StatusOr<Bytes> ReadFilePrefix(const std::string& path, size_t limit);

// Returns a Status whose code follows errno `err` and whose message is
// exactly `message`, which should already give the reason (strerror);
// absl::ErrnoToStatus would append the reason a second time.
absl::Status ErrnoError(int err, absl::string_view message);

}  // namespace ringfuzz

#endif  // RINGFUZZ_CORPUS_FILE_READ_H_
