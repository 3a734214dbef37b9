#include "corpus/corpus_dir.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "corpus/dir_walk.h"
#include "corpus/file_read.h"
#include "corpus/temp_recovery.h"

namespace ringfuzz {
namespace {

absl::Status CheckDirectory(const std::string& dir, bool is_first,
                            CorpusLoadReport* report) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT && is_first) {
      absl::Status made = MakeDirs(dir);
      if (made.ok()) report->created_first_dir = true;
      return made;
    }
    if (err == ENOENT) {
      return absl::NotFoundError(absl::StrCat(
          "corpus directory '", dir,
          "' does not exist; only the first directory (the output corpus) "
          "is created automatically: create it or fix the path"));
    }
    return ErrnoError(
        err, absl::StrCat("cannot access '", dir, "': ", std::strerror(err)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", dir,
        "' is not a directory; pass either only corpus directories (to "
        "fuzz) or only files (to run each once)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MakeDirs(const std::string& dir) {
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    std::string prefix = dir.substr(0, pos);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      int err = errno;
      return ErrnoError(
          err, absl::StrCat("cannot create corpus directory '", dir,
                            "': ", std::strerror(err),
                            "; create it yourself or pass another first "
                            "directory"));
    }
  }
  return absl::OkStatus();
}

size_t LargestInputSize(absl::Span<const std::string> paths) {
  size_t largest = 0;
  for (const std::string& path : paths) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      largest = std::max(largest, static_cast<size_t>(st.st_size));
      continue;
    }
    absl::StatusOr<DirWalk> walk = WalkCorpusDir(path);
    if (!walk.ok()) continue;
    for (const WalkedFile& file : walk->files) {
      largest = std::max(largest, static_cast<size_t>(file.size));
    }
  }
  return largest;
}

absl::StatusOr<std::vector<CorpusFile>> LoadCorpusDirs(
    absl::Span<const std::string> dirs, size_t max_len,
    CorpusLoadReport* report) {
  *report = CorpusLoadReport();
  TempRecovery recovery;
  std::vector<CorpusFile> files;
  for (size_t d = 0; d < dirs.size(); ++d) {
    const std::string& dir = dirs[d];
    if (absl::Status s = CheckDirectory(dir, d == 0, report); !s.ok()) {
      return s;
    }
    absl::StatusOr<DirWalk> walk =
        WalkCorpusDir(dir, [&recovery](const std::string& listed) {
          RecoverTemporaries(listed, recovery);
        });
    if (!walk.ok()) return walk.status();
    report->warnings.insert(report->warnings.end(), walk->warnings.begin(),
                            walk->warnings.end());
    size_t loaded = 0;
    for (WalkedFile& file : walk->files) {
      // One byte past max_len tells a truncated input from one of max_len.
      const size_t limit = max_len == 0 ? SIZE_MAX : max_len + 1;
      absl::StatusOr<Bytes> data = ReadFilePrefix(file.path, limit);
      if (!data.ok()) {
        report->warnings.push_back(
            absl::StrCat("skipped: ", data.status().message()));
        continue;
      }
      if (max_len != 0 && data->size() > max_len) {
        data->resize(max_len);
        ++report->truncated;
      }
      files.push_back(CorpusFile{std::move(file.path), d, *std::move(data)});
      ++loaded;
    }
    report->files_per_dir.push_back(loaded);
  }
  report->warnings.insert(report->warnings.end(), recovery.warnings.begin(),
                          recovery.warnings.end());
  if (std::string line = DescribeTempRecovery(recovery); !line.empty()) {
    report->notes.push_back(std::move(line));
  }
  return files;
}

}  // namespace ringfuzz
