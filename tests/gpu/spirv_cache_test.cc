// The on-disk cache of glslang's output (fuzz/gpu/spirv_cache.h): what a
// compile through it returns is what glslang returns, whatever the cache
// holds; and its validation markers.
#include "fuzz/gpu/spirv_cache.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/shader_compiler.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

const vk::SourceFile kMain{
    "cache_test.comp",
    "#version 450\n"
    "layout(local_size_x = 1) in;\n"
    "layout(set = 0, binding = 0) buffer B { uint v[]; };\n"
    "void main() { v[0] = VALUE; }\n"};

vk::CompileOptions WithValue(const std::string& value) {
  vk::CompileOptions options;
  options.defines = {{"VALUE", value}};
  return options;
}

class SpirvCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/spirv_cache_", getpid(), "_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<uint32_t> Uncached(const vk::CompileOptions& options) {
    absl::StatusOr<std::vector<uint32_t>> spirv =
        vk::CompileComputeShader(kMain, {}, options);
    EXPECT_TRUE(spirv.ok()) << spirv.status();
    return spirv.ok() ? *spirv : std::vector<uint32_t>{};
  }

  std::string dir_;
};

TEST_F(SpirvCacheTest, TheRunningProgramHasABuildIdToKeyEntriesBy) {
  // Without one the default cache is off (every compile goes to glslang).
  EXPECT_FALSE(ProgramBuildId().empty())
      << "link with --build-id (CMakeLists.txt adds it)";
  EXPECT_EQ(ProgramBuildId().find_first_not_of("0123456789abcdef"),
            std::string::npos);
}

TEST_F(SpirvCacheTest, AMissCompilesAndStoresAndAHitReturnsTheSameWords) {
  const vk::CompileOptions options = WithValue("7u");
  const std::vector<uint32_t> reference = Uncached(options);
  const std::string path = SpirvCachePath(dir_, kMain, {}, options);
  EXPECT_FALSE(std::filesystem::exists(path));

  absl::StatusOr<std::vector<uint32_t>> first =
      CompileComputeShaderCached(dir_, kMain, {}, options);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(*first, reference);
  EXPECT_TRUE(std::filesystem::exists(path));

  absl::StatusOr<std::vector<uint32_t>> second =
      CompileComputeShaderCached(dir_, kMain, {}, options);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*second, reference);
}

TEST_F(SpirvCacheTest, AHitIsReadFromTheEntryNotCompiled) {
  // An entry planted under the key of VALUE=7u with the words of VALUE=9u
  // is what comes back: the cache, not glslang, answered.
  const vk::CompileOptions seven = WithValue("7u");
  const std::vector<uint32_t> nine = Uncached(WithValue("9u"));
  ASSERT_NE(nine, Uncached(seven));
  ASSERT_TRUE(
      WriteSpirvCacheEntry(SpirvCachePath(dir_, kMain, {}, seven), nine).ok());
  absl::StatusOr<std::vector<uint32_t>> got =
      CompileComputeShaderCached(dir_, kMain, {}, seven);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, nine);
}

TEST_F(SpirvCacheTest, EverySourceDefineAndNameIsPartOfTheKey) {
  const vk::CompileOptions seven = WithValue("7u");
  const std::string base = SpirvCachePath(dir_, kMain, {}, seven);
  EXPECT_EQ(SpirvCachePath(dir_, kMain, {}, seven), base);
  EXPECT_NE(SpirvCachePath(dir_, kMain, {}, WithValue("8u")), base);
  vk::SourceFile renamed = kMain;
  renamed.name = "other.comp";
  EXPECT_NE(SpirvCachePath(dir_, renamed, {}, seven), base);
  vk::SourceFile edited = kMain;
  edited.text += "\n";
  EXPECT_NE(SpirvCachePath(dir_, edited, {}, seven), base);
  const vk::SourceFile include{"a.h", "const uint kA = 1u;\n"};
  const vk::SourceFile include2{"a.h", "const uint kA = 2u;\n"};
  const std::string with_include =
      SpirvCachePath(dir_, kMain, absl::MakeConstSpan(&include, 1), seven);
  EXPECT_NE(with_include, base);
  EXPECT_NE(
      SpirvCachePath(dir_, kMain, absl::MakeConstSpan(&include2, 1), seven),
      with_include);
  vk::CompileOptions no_debug = seven;
  no_debug.debug_info = false;
  EXPECT_NE(SpirvCachePath(dir_, kMain, {}, no_debug), base);
}

TEST_F(SpirvCacheTest, ACorruptEntryIsRecompiledAndRewritten) {
  const vk::CompileOptions options = WithValue("7u");
  const std::vector<uint32_t> reference = Uncached(options);
  const std::string path = SpirvCachePath(dir_, kMain, {}, options);
  ASSERT_TRUE(CompileComputeShaderCached(dir_, kMain, {}, options).ok());
  const auto size = std::filesystem::file_size(path);
  // A flipped byte in the words, a truncated file, an empty file, and a
  // file of another format: each is recompiled.
  const std::vector<std::function<void()>> damage = {
      [&] {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size) - 5);
        f.put('\x5A');
      },
      [&] { std::filesystem::resize_file(path, size - 6); },
      [&] { std::filesystem::resize_file(path, 0); },
      [&] { std::ofstream(path, std::ios::binary) << "not an entry"; },
  };
  for (size_t k = 0; k < damage.size(); ++k) {
    damage[k]();
    absl::StatusOr<std::vector<uint32_t>> got =
        CompileComputeShaderCached(dir_, kMain, {}, options);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, reference) << "damage " << k;
    EXPECT_EQ(std::filesystem::file_size(path), size)
        << "damage " << k << ": the entry is rewritten";
  }
}

TEST_F(SpirvCacheTest, CompileErrorsAreReportedAndNotCached) {
  const vk::CompileOptions bad = WithValue("undefined_name");
  absl::StatusOr<std::vector<uint32_t>> got =
      CompileComputeShaderCached(dir_, kMain, {}, bad);
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(got.status().message(), HasSubstr("undefined_name"));
  EXPECT_FALSE(std::filesystem::exists(SpirvCachePath(dir_, kMain, {}, bad)));
}

TEST_F(SpirvCacheTest, AnUnwritableCacheOnlyLosesTheSaving) {
  // The cache directory's place is taken by a file: nothing can be stored,
  // and every compile still succeeds.
  std::ofstream(dir_) << "a file";
  const vk::CompileOptions options = WithValue("7u");
  for (int k = 0; k < 2; ++k) {
    absl::StatusOr<std::vector<uint32_t>> got =
        CompileComputeShaderCached(dir_, kMain, {}, options);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, Uncached(options));
  }
  std::filesystem::remove(dir_);
}

TEST_F(SpirvCacheTest, TheOldestEntriesGoBeyondTheLimit) {
  std::filesystem::create_directories(dir_);
  const std::vector<uint32_t> words = Uncached(WithValue("7u"));
  const auto now = std::filesystem::file_time_type::clock::now();
  for (size_t k = 0; k < kSpirvCacheEntries; ++k) {
    const std::string path = absl::StrCat(dir_, "/old", k, ".spv");
    ASSERT_TRUE(WriteSpirvCacheEntry(path, words).ok());
    std::filesystem::last_write_time(path, now - std::chrono::hours(1000 - k));
  }
  ASSERT_TRUE(
      CompileComputeShaderCached(dir_, kMain, {}, WithValue("8u")).ok());
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    (void)entry;
    ++entries;
  }
  EXPECT_EQ(entries, kSpirvCacheEntries);
  EXPECT_FALSE(std::filesystem::exists(absl::StrCat(dir_, "/old0.spv")));
  EXPECT_TRUE(std::filesystem::exists(absl::StrCat(dir_, "/old1.spv")));
  EXPECT_TRUE(std::filesystem::exists(
      SpirvCachePath(dir_, kMain, {}, WithValue("8u"))));
}

// Validation markers. An independent reference: spirv-val itself
// (vk::ValidateSpirv) on the same words.
TEST_F(SpirvCacheTest, AValidModuleIsMarkedOnceValidated) {
  const std::vector<uint32_t> words = Uncached(WithValue("7u"));
  ASSERT_TRUE(vk::ValidateSpirv(words).ok());
  const std::string marker = ValidationMarkerPath(dir_, words);
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_TRUE(ValidateSpirvCached(dir_, words).ok());
  EXPECT_TRUE(std::filesystem::exists(marker));
  EXPECT_TRUE(ValidateSpirvCached(dir_, words).ok());
}

TEST_F(SpirvCacheTest, AnInvalidModuleFailsAndIsNeverMarked) {
  std::vector<uint32_t> words = Uncached(WithValue("7u"));
  words.resize(words.size() - 1);  // cuts the last instruction short
  ASSERT_FALSE(vk::ValidateSpirv(words).ok());
  EXPECT_FALSE(ValidateSpirvCached(dir_, words).ok());
  EXPECT_FALSE(std::filesystem::exists(ValidationMarkerPath(dir_, words)));
  EXPECT_FALSE(ValidateSpirvCached("", words).ok());
}

TEST_F(SpirvCacheTest, AMarkerIsReadNotRevalidated) {
  // A marker planted for invalid words: the check passes, which only a
  // look-up of the marker (not spirv-val) can explain.
  std::vector<uint32_t> words = Uncached(WithValue("7u"));
  words.resize(words.size() - 1);
  std::filesystem::create_directories(dir_);
  std::ofstream(ValidationMarkerPath(dir_, words)).flush();
  EXPECT_TRUE(ValidateSpirvCached(dir_, words).ok());
}

TEST_F(SpirvCacheTest, EveryWordIsPartOfTheMarkersName) {
  const std::vector<uint32_t> words = Uncached(WithValue("7u"));
  std::vector<uint32_t> other = words;
  other.back() ^= 1;
  EXPECT_NE(ValidationMarkerPath(dir_, words),
            ValidationMarkerPath(dir_, other));
  EXPECT_NE(ValidationMarkerPath(dir_, words),
            ValidationMarkerPath(dir_, Uncached(WithValue("8u"))));
}

TEST_F(SpirvCacheTest, TheDefaultDirectoryFollowsXdgAndCanBeSwitchedOff) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = xdg != nullptr ? xdg : "";
  setenv("XDG_CACHE_HOME", "/some/cache", 1);
  EXPECT_EQ(DefaultSpirvCacheDirectory(), "/some/cache/ringfuzz/spirv");
  setenv("RINGFUZZ_SPIRV_CACHE", "0", 1);
  EXPECT_EQ(DefaultSpirvCacheDirectory(), "");
  unsetenv("RINGFUZZ_SPIRV_CACHE");
  if (xdg != nullptr) {
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

}  // namespace
}  // namespace ringfuzz
