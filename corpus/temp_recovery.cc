#include "corpus/temp_recovery.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "corpus/atomic_file.h"
#include "corpus/sha1.h"
#include "corpus/work_dir.h"

namespace ringfuzz {
namespace {

// True iff no process `pid` exists. EPERM means it exists (another user's):
// alive. A recycled pid keeps a temporary alive, never the other way round.
bool WriterIsGone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

bool IsSha1Name(const std::string& name) {
  if (name.size() != kSha1HexChars) return false;
  for (char c : name) {
    if (!absl::ascii_isdigit(c) && !(c >= 'a' && c <= 'f')) return false;
  }
  return true;
}

// The names of `dir` that are temporaries of WriteFileAtomically.
std::vector<std::string> TemporaryNames(const std::string& dir) {
  std::vector<std::string> names;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return names;  // the walk reports unlistable dirs
  while (struct dirent* entry = readdir(handle)) {
    if (ParseTemporaryName(entry->d_name).has_value()) {
      names.emplace_back(entry->d_name);
    }
  }
  closedir(handle);
  return names;
}

// Returns the path `temp` is complete for ("<dir>/<sha1>"), or nullopt.
std::optional<std::string> CompleteDestination(const std::string& dir,
                                               const std::string& temp,
                                               const std::string& sha1) {
  if (!IsSha1Name(sha1)) return std::nullopt;
  absl::StatusOr<Bytes> data = ReadFile(temp);
  if (!data.ok() || Sha1Hex(*data) != sha1) return std::nullopt;
  return JoinPath(dir, sha1);
}

}  // namespace

void RecoverTemporaries(const std::string& dir, TempRecovery& recovery) {
  bool touched = false;
  for (const std::string& name : TemporaryNames(dir)) {
    const TemporaryName parsed = *ParseTemporaryName(name);
    if (!WriterIsGone(parsed.writer)) continue;
    const std::string temp = JoinPath(dir, name);
    struct stat st;
    if (lstat(temp.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    std::optional<std::string> dest =
        CompleteDestination(dir, temp, parsed.destination);
    if (dest.has_value()) {
      if (rename(temp.c_str(), dest->c_str()) == 0) {
        ++recovery.recovered;
        touched = true;
      } else if (errno != ENOENT) {  // ENOENT: another loader was faster
        recovery.warnings.push_back(
            absl::StrCat("cannot rename the complete input '", temp,
                         "' of a killed writer to '", *dest,
                         "': ", std::strerror(errno), "; rename it yourself"));
      }
      continue;
    }
    if (unlink(temp.c_str()) == 0) {
      ++recovery.removed;
      touched = true;
    } else if (errno != ENOENT) {  // ENOENT: another loader was faster
      recovery.warnings.push_back(absl::StrCat(
          "cannot remove the temporary file '", temp, "' of a killed writer: ",
          std::strerror(errno), "; delete it yourself"));
    }
  }
  if (touched) recovery.dirs.push_back(dir);
}

std::string DescribeTempRecovery(const TempRecovery& recovery) {
  if (recovery.recovered == 0 && recovery.removed == 0) return "";
  std::string line = "recovered ";
  absl::StrAppend(
      &line, recovery.recovered, recovery.recovered == 1 ? " input" : " inputs",
      " and removed ", recovery.removed, " incomplete temporary ",
      recovery.removed == 1 ? "file" : "files", " left by killed writers in ",
      absl::StrJoin(recovery.dirs, ", "));
  return line;
}

}  // namespace ringfuzz
