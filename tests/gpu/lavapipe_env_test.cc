#include "fuzz/gpu/lavapipe_env.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

// Clears LP_NATIVE_VECTOR_WIDTH and MESA_SHADER_CACHE_DIR and points
// XDG_CACHE_HOME at a fresh directory, which it returns. (ctest runs each
// test in its own process.)
std::string FreshCacheHome(const std::string& name) {
  const std::string home =
      (std::filesystem::temp_directory_path() / ("rf_lp_env_" + name)).string();
  std::filesystem::remove_all(home);
  unsetenv("LP_NATIVE_VECTOR_WIDTH");
  unsetenv("MESA_SHADER_CACHE_DIR");
  setenv("XDG_CACHE_HOME", home.c_str(), 1);
  return home;
}

TEST(LavapipeEnvTest, EachWidthGetsItsOwnShaderCache) {
  const std::string home = FreshCacheHome("width");
  const std::string dir = ConfigureLavapipeEnvironment(128);
  EXPECT_EQ(std::string(std::getenv("LP_NATIVE_VECTOR_WIDTH")), "128");
  EXPECT_EQ(dir, home + "/ringfuzz/lavapipe-simd-128");
  EXPECT_EQ(std::string(std::getenv("MESA_SHADER_CACHE_DIR")), dir);
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  std::filesystem::remove_all(home);
}

TEST(LavapipeEnvTest, UserSettingsWin) {
  const std::string home = FreshCacheHome("user");
  setenv("LP_NATIVE_VECTOR_WIDTH", "256", 1);
  EXPECT_EQ(ConfigureLavapipeEnvironment(128),
            home + "/ringfuzz/lavapipe-simd-256");
  EXPECT_EQ(std::string(std::getenv("LP_NATIVE_VECTOR_WIDTH")), "256");

  setenv("MESA_SHADER_CACHE_DIR", "/somewhere/else", 1);
  EXPECT_EQ(ConfigureLavapipeEnvironment(128), "/somewhere/else");
  EXPECT_EQ(std::string(std::getenv("MESA_SHADER_CACHE_DIR")),
            "/somewhere/else");
  std::filesystem::remove_all(home);
}

TEST(LavapipeEnvTest, DefaultWidthHasItsOwnCacheToo) {
  const std::string home = FreshCacheHome("default");
  EXPECT_EQ(ConfigureLavapipeEnvironment(0),
            home + "/ringfuzz/lavapipe-simd-default");
  EXPECT_EQ(std::getenv("LP_NATIVE_VECTOR_WIDTH"), nullptr);
  std::filesystem::remove_all(home);
}

}  // namespace
}  // namespace ringfuzz
