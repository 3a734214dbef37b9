#include "runtime/shader_compiler.h"

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz::vk {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

const char kMainWithInclude[] = R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] = Triple(gl_GlobalInvocationID.x); }
)";

const SourceFile kCommon = {"common.glsl",
                            "uint Triple(uint x) { return x * 3u; }\n"};

TEST(ShaderCompilerTest, CompilesWithIncludeAndValidates) {
  absl::StatusOr<std::vector<uint32_t>> spirv = CompileComputeShader(
      {"main.comp", kMainWithInclude}, {kCommon}, CompileOptions{});
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  ASSERT_GT(spirv->size(), 5u);
  EXPECT_EQ((*spirv)[0], kSpirvMagic);
  EXPECT_EQ((*spirv)[1], 0x00010500u);  // SPIR-V 1.5
  absl::Status valid = ValidateSpirv(*spirv);
  EXPECT_TRUE(valid.ok()) << valid;
}

TEST(ShaderCompilerTest, DebugInfoIsOptional) {
  CompileOptions options;
  options.debug_info = false;
  absl::StatusOr<std::vector<uint32_t>> lean =
      CompileComputeShader({"main.comp", kMainWithInclude}, {kCommon}, options);
  absl::StatusOr<std::vector<uint32_t>> full = CompileComputeShader(
      {"main.comp", kMainWithInclude}, {kCommon}, CompileOptions{});
  ASSERT_TRUE(lean.ok()) << lean.status();
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_LT(lean->size(), full->size());
  EXPECT_TRUE(ValidateSpirv(*lean).ok());
}

TEST(ShaderCompilerTest, AngleIncludeAndBaseNameResolve) {
  std::string main = kMainWithInclude;
  main.replace(main.find("\"common.glsl\""), 13, "<lib/common.glsl>");
  const SourceFile common = {"shaders/common.glsl", kCommon.text};
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"main.comp", main}, {common}, CompileOptions{});
  ASSERT_TRUE(spirv.ok()) << spirv.status();
}

TEST(ShaderCompilerTest, ErrorInIncludeNamesTheIncludeAndLine) {
  const SourceFile broken = {"mutators/havoc.glsl",
                             "// line 1\n"
                             "uint Triple(uint x) {\n"
                             "  return x * ;\n"
                             "}\n"};
  std::string main = kMainWithInclude;
  main.replace(main.find("common.glsl"), 11, "mutators/havoc.glsl");
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"main.comp", main}, {broken}, CompileOptions{});
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(spirv.status().message());
  EXPECT_NE(message.find("mutators/havoc.glsl:3"), std::string::npos)
      << message;
  EXPECT_NE(message.find("ERROR: "), std::string::npos) << message;
}

TEST(ShaderCompilerTest, ErrorInMainNamesMainAndLine) {
  const std::string main =
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "void main() { undefined_thing = 1; }\n";
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"megakernel.comp", main}, {}, CompileOptions{});
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("megakernel.comp:3"),
            std::string::npos)
      << spirv.status();
}

TEST(ShaderCompilerTest, UnknownIncludeNamesTheMissingFile) {
  std::string main = kMainWithInclude;
  main.replace(main.find("common.glsl"), 11, "no_such_file.glsl");
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"main.comp", main}, {kCommon}, CompileOptions{});
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("no_such_file.glsl"),
            std::string::npos)
      << spirv.status();
}

TEST(ShaderCompilerTest, DefinesAreApplied) {
  const std::string main =
      "#version 450\n"
      "#if !defined(RF_SLOTS) || RF_SLOTS != 4096\n"
      "#error RF_SLOTS must be 4096\n"
      "#endif\n"
      "layout(local_size_x = RF_LOCAL) in;\n"
      "void main() {}\n";
  CompileOptions options;
  options.defines = {{"RF_SLOTS", "4096"}, {"RF_LOCAL", "64"}};
  absl::StatusOr<std::vector<uint32_t>> spirv =
      CompileComputeShader({"defines.comp", main}, {}, options);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_TRUE(ValidateSpirv(*spirv).ok());

  options.defines = {{"RF_SLOTS", "8"}, {"RF_LOCAL", "64"}};
  spirv = CompileComputeShader({"defines.comp", main}, {}, options);
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("RF_SLOTS must be 4096"),
            std::string::npos)
      << spirv.status();
}

TEST(ShaderCompilerTest, CompilesOnSeveralThreadsAtOnce) {
  // One element each, not std::vector<bool>: its bits share words, and
  // threads setting neighbouring bits would race.
  std::vector<char> ok(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < ok.size(); ++t) {
    threads.emplace_back([t, &ok] {
      CompileOptions options;
      options.defines = {{"UNUSED", std::to_string(t)}};
      ok[t] = CompileComputeShader({"main.comp", kMainWithInclude}, {kCommon},
                                   options)
                  .ok();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < ok.size(); ++t) EXPECT_TRUE(ok[t]) << t;
}

TEST(ValidateSpirvTest, RejectsBrokenModuleWithDiagnostics) {
  absl::StatusOr<std::vector<uint32_t>> spirv = CompileComputeShader(
      {"main.comp", kMainWithInclude}, {kCommon}, CompileOptions{});
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  std::vector<uint32_t> truncated(spirv->begin(),
                                  spirv->begin() + spirv->size() / 2);
  absl::Status status = ValidateSpirv(truncated);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("word "), std::string::npos) << status;
}

}  // namespace
}  // namespace ringfuzz::vk
