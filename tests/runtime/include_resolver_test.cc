#include "runtime/include_resolver.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

const std::vector<SourceFile>& Sources() {
  static const auto* sources = new std::vector<SourceFile>{
      {"shaders/ringfuzz_wire.h", "#define A 1\n"},
      {"common.glsl", "uint f() { return 1u; }\n"},
      {"targets/common.glsl", "uint g() { return 2u; }\n"},
  };
  return *sources;
}

TEST(FindIncludeTest, ExactNameWinsOverBaseName) {
  const SourceFile* found = FindInclude(Sources(), "targets/common.glsl");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->name, "targets/common.glsl");
  found = FindInclude(Sources(), "common.glsl");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->name, "common.glsl");
}

TEST(FindIncludeTest, FallsBackToBaseName) {
  const SourceFile* found = FindInclude(Sources(), "ringfuzz_wire.h");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->name, "shaders/ringfuzz_wire.h");
  found = FindInclude(Sources(), "../shaders/ringfuzz_wire.h");
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->name, "shaders/ringfuzz_wire.h");
}

TEST(FindIncludeTest, UnknownIsNull) {
  EXPECT_EQ(FindInclude(Sources(), "missing.h"), nullptr);
  EXPECT_EQ(FindInclude({}, "common.glsl"), nullptr);
}

TEST(IncludeResolverTest, SystemMissNamesTheFile) {
  IncludeResolver resolver(Sources());
  EXPECT_EQ(resolver.includeLocal("missing.h", "main.comp", 1), nullptr);
  glslang::TShader::Includer::IncludeResult* result =
      resolver.includeSystem("missing.h", "main.comp", 1);
  ASSERT_NE(result, nullptr);
  EXPECT_TRUE(result->headerName.empty());
  const std::string message(result->headerData, result->headerLength);
  EXPECT_NE(message.find("missing.h"), std::string::npos) << message;
  resolver.releaseInclude(result);
}

TEST(IncludeResolverTest, HitReturnsTheText) {
  IncludeResolver resolver(Sources());
  glslang::TShader::Includer::IncludeResult* result =
      resolver.includeSystem("common.glsl", "main.comp", 1);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->headerName, "common.glsl");
  EXPECT_EQ(std::string(result->headerData, result->headerLength),
            "uint f() { return 1u; }\n");
  resolver.releaseInclude(result);
}

}  // namespace
}  // namespace ringfuzz::vk
