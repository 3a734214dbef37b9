#include "fuzz/engine/child_process.h"

#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace ringfuzz {
namespace {

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

ChildCommand::ChildCommand(
    std::vector<std::string> argv,
    const std::vector<std::pair<std::string, std::string>>& env)
    : argv_text_(std::move(argv)) {
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry = *e;
    const bool replaced =
        std::any_of(env.begin(), env.end(), [entry](const auto& kv) {
          return entry.size() > kv.first.size() &&
                 entry.substr(0, kv.first.size()) == kv.first &&
                 entry[kv.first.size()] == '=';
        });
    if (!replaced) env_text_.emplace_back(entry);
  }
  for (const auto& [name, value] : env) {
    env_text_.push_back(absl::StrCat(name, "=", value));
  }
  argv_ = Pointers(argv_text_);
  envp_ = Pointers(env_text_);
}

std::string SelfExecutable() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  return std::string(path, static_cast<size_t>(n));
}

int ExitCodeOf(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

}  // namespace ringfuzz
