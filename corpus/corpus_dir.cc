#include "corpus/corpus_dir.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "corpus/work_dir.h"

namespace ringfuzz {
namespace {

// Creates `dir` and its missing parents, like mkdir -p.
absl::Status MakeDirs(const std::string& dir) {
  for (size_t pos = 1; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    std::string prefix = dir.substr(0, pos);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      int err = errno;
      return absl::ErrnoToStatus(
          err, absl::StrCat("cannot create corpus directory '", dir,
                            "': ", std::strerror(err),
                            "; create it yourself or pass another first "
                            "directory"));
    }
  }
  return absl::OkStatus();
}

// Returns the sorted names of the candidate entries of `dir`.
absl::StatusOr<std::vector<std::string>> ListNames(const std::string& dir) {
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) {
    int err = errno;
    return absl::ErrnoToStatus(
        err, absl::StrCat("cannot list corpus directory '", dir,
                          "': ", std::strerror(err)));
  }
  std::vector<std::string> names;
  while (struct dirent* entry = readdir(handle)) {
    if (entry->d_name[0] == '.') continue;  // ".", "..", hidden, temporaries
    names.emplace_back(entry->d_name);
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

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
    return absl::ErrnoToStatus(
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

// Returns the size of the regular file `path` (symlinks followed), if it is
// one.
std::optional<size_t> RegularFileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  return static_cast<size_t>(st.st_size);
}

}  // namespace

size_t LargestInputSize(absl::Span<const std::string> paths) {
  size_t largest = 0;
  for (const std::string& path : paths) {
    if (std::optional<size_t> size = RegularFileSize(path)) {
      largest = std::max(largest, *size);
      continue;
    }
    absl::StatusOr<std::vector<std::string>> names = ListNames(path);
    if (!names.ok()) continue;
    for (const std::string& name : *names) {
      largest =
          std::max(largest, RegularFileSize(JoinPath(path, name)).value_or(0));
    }
  }
  return largest;
}

absl::StatusOr<std::vector<CorpusFile>> LoadCorpusDirs(
    absl::Span<const std::string> dirs, size_t max_len,
    CorpusLoadReport* report) {
  *report = CorpusLoadReport();
  std::vector<CorpusFile> files;
  for (size_t d = 0; d < dirs.size(); ++d) {
    const std::string& dir = dirs[d];
    if (absl::Status s = CheckDirectory(dir, d == 0, report); !s.ok()) {
      return s;
    }
    absl::StatusOr<std::vector<std::string>> names = ListNames(dir);
    if (!names.ok()) return names.status();
    size_t loaded = 0;
    for (const std::string& name : *names) {
      std::string path = JoinPath(dir, name);
      struct stat st;
      if (stat(path.c_str(), &st) != 0) {
        report->warnings.push_back(
            absl::StrCat("skipped '", path, "': ", std::strerror(errno)));
        continue;
      }
      if (!S_ISREG(st.st_mode)) continue;  // not descended into
      absl::StatusOr<Bytes> data = ReadFile(path);
      if (!data.ok()) {
        report->warnings.push_back(
            absl::StrCat("skipped: ", data.status().message()));
        continue;
      }
      if (max_len != 0 && data->size() > max_len) {
        data->resize(max_len);
        ++report->truncated;
      }
      files.push_back(CorpusFile{std::move(path), d, *std::move(data)});
      ++loaded;
    }
    report->files_per_dir.push_back(loaded);
  }
  return files;
}

}  // namespace ringfuzz
