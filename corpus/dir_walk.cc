#include "corpus/dir_walk.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/file_read.h"
#include "corpus/work_dir.h"

namespace ringfuzz {
namespace {

// Returns the sorted names of `dir` that do not start with '.'.
absl::StatusOr<std::vector<std::string>> ListNames(const std::string& dir) {
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) {
    int err = errno;
    return ErrnoError(err, absl::StrCat("cannot list corpus directory '", dir,
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

const char* KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "of another kind";
}

class Walker {
 public:
  Walker(absl::FunctionRef<void(const std::string&)> before_listing,
         DirWalk& walk)
      : before_listing_(before_listing), walk_(walk) {}

  // Walks `dir` (already stat'ed as `st`) at `depth`. Only a failure to
  // list the root is an error.
  absl::Status Walk(const std::string& dir, const struct stat& st, int depth) {
    if (!visited_.insert({st.st_dev, st.st_ino}).second) {
      Skip(dir,
           "this directory was already loaded (a symlink cycle, or a second "
           "link to it)");
      return absl::OkStatus();
    }
    before_listing_(dir);
    absl::StatusOr<std::vector<std::string>> names = ListNames(dir);
    if (!names.ok()) {
      if (depth == 0) return names.status();
      walk_.warnings.push_back(
          absl::StrCat("skipped: ", names.status().message()));
      return absl::OkStatus();
    }
    for (const std::string& name : *names) {
      std::string path = JoinPath(dir, name);
      struct stat entry;
      if (stat(path.c_str(), &entry) != 0) {
        Skip(path, std::strerror(errno));
      } else if (S_ISREG(entry.st_mode)) {
        walk_.files.push_back(
            WalkedFile{std::move(path), static_cast<uint64_t>(entry.st_size)});
      } else if (S_ISDIR(entry.st_mode)) {
        if (depth + 1 > kMaxCorpusDirDepth) {
          Skip(path, absl::StrCat("more than ", kMaxCorpusDirDepth,
                                  " directory levels below the corpus "
                                  "directory"));
        } else {
          absl::Status ignored = Walk(path, entry, depth + 1);
          (void)ignored;  // only the root's listing can fail the walk
        }
      } else {
        Skip(path, absl::StrCat(KindOf(entry.st_mode),
                                ", neither a regular file nor a directory"));
      }
    }
    return absl::OkStatus();
  }

 private:
  void Skip(const std::string& path, absl::string_view why) {
    walk_.warnings.push_back(absl::StrCat("skipped '", path, "': ", why));
  }

  absl::FunctionRef<void(const std::string&)> before_listing_;
  DirWalk& walk_;
  std::set<std::pair<dev_t, ino_t>> visited_;
};

}  // namespace

absl::StatusOr<DirWalk> WalkCorpusDir(
    const std::string& root,
    absl::FunctionRef<void(const std::string& dir)> before_listing) {
  struct stat st;
  if (stat(root.c_str(), &st) != 0) {
    int err = errno;
    return ErrnoError(err, absl::StrCat("cannot list corpus directory '", root,
                                        "': ", std::strerror(err)));
  }
  DirWalk walk;
  Walker walker(before_listing, walk);
  if (absl::Status s = walker.Walk(root, st, 0); !s.ok()) return s;
  return walk;
}

absl::StatusOr<DirWalk> WalkCorpusDir(const std::string& root) {
  return WalkCorpusDir(root, [](const std::string&) {});
}

}  // namespace ringfuzz
