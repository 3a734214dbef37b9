#include "fuzz/gpu/lavapipe_env.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "fuzz/gpu/cache_home.h"

namespace ringfuzz {

std::string ConfigureLavapipeEnvironment(uint32_t simd_bits) {
  if (simd_bits != 0) {
    setenv("LP_NATIVE_VECTOR_WIDTH", absl::StrCat(simd_bits).c_str(),
           /*overwrite=*/0);
  }
  if (const char* dir = std::getenv("MESA_SHADER_CACHE_DIR")) return dir;
  const std::string home = UserCacheHome();
  if (home.empty()) return "";
  const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH");
  std::string dir =
      absl::StrCat(home, "/ringfuzz/lavapipe-simd-",
                   width != nullptr && *width ? width : "default");
  std::error_code error;  // no directory: Mesa runs without its cache
  std::filesystem::create_directories(dir, error);
  setenv("MESA_SHADER_CACHE_DIR", dir.c_str(), /*overwrite=*/0);
  return dir;
}

}  // namespace ringfuzz
