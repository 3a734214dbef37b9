#include "fuzz/gpu/cache_home.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace ringfuzz {

std::string UserCacheHome() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return xdg;
  }
  if (const char* user = std::getenv("HOME"); user && *user) {
    return absl::StrCat(user, "/.cache");
  }
  return "";
}

}  // namespace ringfuzz
