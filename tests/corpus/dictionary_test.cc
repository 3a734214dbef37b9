#include "corpus/dictionary.h"

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "corpus/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::string Error(std::string_view text) {
  auto tokens = ParseDictionary(text);
  EXPECT_FALSE(tokens.ok()) << "parsed: " << text;
  EXPECT_TRUE(absl::IsInvalidArgument(tokens.status()));
  return std::string(tokens.status().message());
}

TEST(DictionaryTest, ParsesLibFuzzerAndAflForms) {
  auto tokens = ParseDictionary(
      "# comment\n"
      "\n"
      "kw1=\"GET\"\n"
      "  \"POST\"  \n"
      "header_2@3=\"HTTP/1.1\"\r\n"
      "name = \"sp ace\"\n"
      "esc=\"a\\\\b\\\"c\\x00\\xfF\"\n"
      "dup=\"GET\"\n"
      "   # indented comment\n");
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  EXPECT_THAT(*tokens,
              ElementsAre(B("GET"), B("POST"), B("HTTP/1.1"), B("sp ace"),
                          Bytes{'a', '\\', 'b', '"', 'c', 0x00, 0xff}));
}

TEST(DictionaryTest, EmptyTextHasNoTokens) {
  auto tokens = ParseDictionary("");
  ASSERT_TRUE(tokens.ok());
  EXPECT_TRUE(tokens->empty());
}

TEST(DictionaryTest, ErrorsNameTheLineAndTheProblem) {
  EXPECT_EQ(Error("a=\"x\"\n\nb=\"unterminated\n"),
            "line 3: missing closing quote");
  EXPECT_EQ(Error("\"ends with backslash\\"), "line 1: missing closing quote");
  EXPECT_THAT(Error("\"bad \\n escape\""),
              HasSubstr("line 1: bad escape '\\n'"));
  EXPECT_THAT(Error("\"\\x4\""), HasSubstr("line 1: bad escape '\\x'"));
  EXPECT_EQ(Error("x=\"a\" trailing"),
            "line 1: unexpected text after the closing quote");
  EXPECT_EQ(Error("x=\"\""), "line 1: empty token");
  EXPECT_THAT(Error("just words"), HasSubstr("line 1: expected '='"));
  EXPECT_THAT(Error("=\"x\""), HasSubstr("line 1: expected a quoted token"));
  EXPECT_THAT(Error("x=y"), HasSubstr("line 1: expected a quoted token after"));
  EXPECT_THAT(Error("x@=\"y\""), HasSubstr("expected digits after '@'"));
}

TEST(DictionaryTest, TokenSizeLimitIsTheMegakernelEntrySize) {
  std::string ok64 = "\"" + std::string(64, 'a') + "\"\n";
  auto tokens = ParseDictionary(ok64);
  ASSERT_TRUE(tokens.ok());
  EXPECT_EQ((*tokens)[0].size(), 64u);
  EXPECT_EQ(
      Error("# header\n" + ok64 + "long=\"" + std::string(65, 'b') + "\"\n"),
      "line 3: token is 65 bytes; the limit is 64 (RF_DICT_MAX_BYTES)");
  // Escapes count as the bytes they stand for.
  std::string escaped = "\"";
  for (int i = 0; i < 64; ++i) escaped += "\\x41";
  EXPECT_TRUE(ParseDictionary(escaped + "\"").ok());
}

TEST(DictionaryTest, LoadFilePrefixesErrorsWithThePath) {
  TempDir dir;
  std::string path = dir.Sub("bad.dict");
  ASSERT_TRUE(WriteFileAtomically(path, B("ok=\"a\"\nbad=\"b\n")).ok());
  auto tokens = LoadDictionaryFile(path);
  ASSERT_FALSE(tokens.ok());
  EXPECT_EQ(tokens.status().message(),
            path + ": line 2: missing closing quote");

  std::string good = dir.Sub("good.dict");
  ASSERT_TRUE(WriteFileAtomically(good, B("\"a\"\n\"b\"")).ok());
  auto loaded = LoadDictionaryFile(good);
  ASSERT_TRUE(loaded.ok());
  EXPECT_THAT(*loaded, ElementsAre(B("a"), B("b")));

  auto missing = LoadDictionaryFile(dir.Sub("missing.dict"));
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.dict"));
}

// A -dict file is read with a cap (16 MiB): an oversized or endless file is
// a clear error, not an allocation of its whole size.
TEST(DictionaryTest, FileLargerThanTheCapIsAnError) {
  TempDir dir;
  const std::string path = dir.Sub("huge.dict");
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, (off_t{16} << 20) + 1), 0);  // sparse
  close(fd);
  auto tokens = LoadDictionaryFile(path);
  ASSERT_FALSE(tokens.ok());
  EXPECT_THAT(
      tokens.status().message(),
      HasSubstr("dictionary '" + path + "' is larger than 16777216 bytes; "));
  EXPECT_THAT(tokens.status().message(), HasSubstr("-dict"));
}

TEST(DictionaryTest, EndlessDeviceIsAnError) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    auto tokens = LoadDictionaryFile(device);
    ASSERT_FALSE(tokens.ok()) << device;
    EXPECT_THAT(tokens.status().message(),
                HasSubstr("is larger than 16777216 bytes"))
        << device;
  }
}

TEST(DictionaryTest, DirectoryIsAnError) {
  TempDir dir;
  auto tokens = LoadDictionaryFile(dir.path());
  ASSERT_FALSE(tokens.ok());
  EXPECT_THAT(tokens.status().message(), HasSubstr(dir.path()));
  EXPECT_THAT(tokens.status().message(), HasSubstr("directory"));
}

}  // namespace
}  // namespace ringfuzz
