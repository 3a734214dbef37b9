#include "corpus/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"

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
  return absl::ErrnoToStatus(err,
                             absl::StrCat("cannot write '", path, "' (", step,
                                          "): ", std::strerror(err), "; ",
                                          FixFor(err, DirectoryOf(path))));
}

// Unique per process and call, so that concurrent writers (threads or
// processes sharing a corpus directory) never share a temporary.
std::string TempPathFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  return absl::StrCat(dir, kTempFilePrefix, getpid(), ".",
                      counter.fetch_add(1));
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

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, ByteSpan data) {
  std::string temp = TempPathFor(path);
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
  auto read_error = [&path](int err) {
    return absl::ErrnoToStatus(
        err, absl::StrCat("cannot read '", path, "': ", std::strerror(err)));
  };
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return read_error(errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return read_error(err);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return read_error(EISDIR);
  }
  Bytes data;
  data.reserve(S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0);
  uint8_t buffer[1 << 16];
  while (true) {
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      return read_error(err);
    }
    if (n == 0) break;
    data.insert(data.end(), buffer, buffer + n);
  }
  close(fd);
  return data;
}

}  // namespace ringfuzz
