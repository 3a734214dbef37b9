#include "corpus/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace ringfuzz {
namespace {

// An open file descriptor, closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

absl::Status ReadError(int err, absl::string_view what,
                       const std::string& path) {
  return ErrnoError(err, absl::StrCat("cannot read ", what, " '", path,
                                      "': ", std::strerror(err)));
}

// Reads at most `limit` bytes of `path` into `data`; `st` receives its
// status. Directories are refused (EISDIR) before any read.
absl::Status ReadUpTo(const std::string& path, absl::string_view what,
                      uint64_t limit, Bytes& data, struct stat& st) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ReadError(errno, what, path);
  if (fstat(fd.get(), &st) != 0) return ReadError(errno, what, path);
  if (S_ISDIR(st.st_mode)) return ReadError(EISDIR, what, path);
  data.clear();
  if (S_ISREG(st.st_mode)) {
    data.reserve(static_cast<size_t>(
        std::min<uint64_t>(static_cast<uint64_t>(st.st_size), limit)));
  }
  uint8_t buffer[1 << 16];
  while (data.size() < limit) {
    const size_t want = static_cast<size_t>(
        std::min<uint64_t>(sizeof(buffer), limit - data.size()));
    const ssize_t n = read(fd.get(), buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ReadError(errno, what, path);
    }
    if (n == 0) break;
    data.insert(data.end(), buffer, buffer + n);
  }
  return absl::OkStatus();
}

absl::Status TooLarge(const std::string& path, const FileCap& cap) {
  return absl::InvalidArgumentError(
      absl::StrCat(cap.what, " '", path, "' is larger than ", cap.max_bytes,
                   " bytes; ", cap.fix));
}

}  // namespace

absl::Status ErrnoError(int err, absl::string_view message) {
  return absl::Status(absl::ErrnoToStatusCode(err), message);
}

absl::StatusOr<Bytes> ReadFileAtMost(const std::string& path,
                                     const FileCap& cap) {
  // Refuse a regular file by its size, before allocating anything.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) > cap.max_bytes) {
    return TooLarge(path, cap);
  }
  Bytes data;
  const uint64_t limit =
      cap.max_bytes == UINT64_MAX ? UINT64_MAX : cap.max_bytes + 1;
  if (absl::Status s = ReadUpTo(path, cap.what, limit, data, st); !s.ok()) {
    return s;
  }
  if (data.size() > cap.max_bytes) return TooLarge(path, cap);
  return data;
}

absl::StatusOr<Bytes> ReadFilePrefix(const std::string& path, size_t limit) {
  Bytes data;
  struct stat st;
  if (absl::Status s = ReadUpTo(path, "file", limit, data, st); !s.ok()) {
    return s;
  }
  return data;
}

}  // namespace ringfuzz
