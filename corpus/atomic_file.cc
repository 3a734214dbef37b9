#include "corpus/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "corpus/file_read.h"

namespace ringfuzz {
namespace {

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// What the user can do about `err` when writing into `dir`.
std::string FixFor(int err, const std::string& dir) {
  switch (err) {
    case ENOSPC:
    case EDQUOT:
      return absl::StrCat(
          "free disk space (or raise the quota) on the file "
          "system of '",
          dir, "', or choose another directory");
    case EROFS:
      return absl::StrCat("'", dir,
                          "' is on a read-only file system; choose "
                          "another directory");
    case EACCES:
    case EPERM:
      return absl::StrCat("make '", dir,
                          "' writable for this user, or choose "
                          "another directory");
    case ENOENT:
      return absl::StrCat("directory '", dir,
                          "' does not exist; create it "
                          "(mkdir -p) or choose another directory");
    case ENOTDIR:
      return absl::StrCat("a component of '", dir,
                          "' is not a directory; "
                          "choose another directory");
    case EFBIG:
      return "the file size limit (ulimit -f) was reached; raise it or write "
             "smaller inputs";
    case ENAMETOOLONG:
      return "choose a shorter directory path";
    case EISDIR:
      return "a directory is in the way; remove it or choose another path";
    default:
      return "choose another directory";
  }
}

absl::Status WriteError(int err, const std::string& path, const char* step) {
  return ErrnoError(err, absl::StrCat("cannot write '", path, "' (", step,
                                      "): ", std::strerror(err), "; ",
                                      FixFor(err, DirectoryOf(path))));
}

// Returns 0 or the errno of the failed write.
int WriteAll(int fd, ByteSpan data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

// Parses all of `text` as a decimal number below 2^31; nullopt otherwise.
std::optional<long> ParseDecimal(absl::string_view text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > 0x7FFFFFFF) return std::nullopt;
  return value;
}

}  // namespace

std::string TempDirectory() {
  const char* tmp = getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

std::string TemporaryPathFor(const std::string& path) {
  // Unique per process and call, so that concurrent writers (threads or
  // processes sharing a corpus directory) never share a temporary.
  static std::atomic<uint64_t> counter{0};
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  absl::string_view name = absl::string_view(path).substr(dir.size());
  std::string temp =
      absl::StrCat(dir, kTempFilePrefix, getpid(), ".", counter.fetch_add(1));
  if (!name.empty() && name.size() <= kMaxTempDestinationChars) {
    absl::StrAppend(&temp, ".", name);
  }
  return temp;
}

std::optional<TemporaryName> ParseTemporaryName(const std::string& name) {
  absl::string_view rest(name);
  if (!absl::ConsumePrefix(&rest, kTempFilePrefix)) return std::nullopt;
  // <pid>.<counter>[.<destination>]; the destination may hold dots.
  std::vector<absl::string_view> parts =
      absl::StrSplit(rest, absl::MaxSplits('.', 2));
  if (parts.size() < 2) return std::nullopt;
  std::optional<long> pid = ParseDecimal(parts[0]);
  if (!pid.has_value() || *pid == 0) return std::nullopt;
  if (parts[1].empty() ||
      parts[1].find_first_not_of("0123456789") != absl::string_view::npos) {
    return std::nullopt;
  }
  TemporaryName parsed;
  parsed.writer = static_cast<pid_t>(*pid);
  if (parts.size() == 3) parsed.destination = std::string(parts[2]);
  return parsed;
}

absl::Status WriteFileAtomically(const std::string& path, ByteSpan data) {
  std::string temp = TemporaryPathFor(path);
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError(errno, path, "create temporary file");

  int err = 0;
  const char* step = "";
  if ((err = WriteAll(fd, data)) != 0) {
    step = "write";
  } else if (fsync(fd) != 0) {
    err = errno;
    step = "fsync";
  }
  if (close(fd) != 0 && err == 0) {
    err = errno;
    step = "close";
  }
  if (err == 0 && rename(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    step = "rename";
  }
  if (err != 0) {
    unlink(temp.c_str());
    return WriteError(err, path, step);
  }
  return absl::OkStatus();
}

absl::StatusOr<Bytes> ReadFile(const std::string& path) {
  return ReadFileAtMost(
      path, FileCap{kMaxInputFileBytes, "input",
                    "ringfuzz runs at most -max_len (<= 131072) bytes of an "
                    "input: pass its start instead (head -c 131072)"});
}

}  // namespace ringfuzz
