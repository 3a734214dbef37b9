#include "runtime/shader_compiler.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/include_resolver.h"
#include "spirv-tools/libspirv.hpp"

namespace ringfuzz::vk {
namespace {

void InitializeGlslangOnce() {
  static std::once_flag once;
  // Never finalized: other threads may be compiling until the process ends.
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

std::string Preamble(const CompileOptions& options) {
  std::string preamble;
  for (const auto& [name, value] : options.defines) {
    absl::StrAppend(&preamble, "#define ", name, " ", value, "\n");
  }
  return preamble;
}

absl::Status CompileError(const char* stage, const SourceFile& main,
                          const std::string& log) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Compiling compute shader ", main.name, " failed (", stage, "):\n",
      absl::StripTrailingAsciiWhitespace(log),
      "\nHint: each ERROR line names the file and line that holds the "
      "problem (included files by their own names); fix the GLSL there."));
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> CompileComputeShader(
    const SourceFile& main, absl::Span<const SourceFile> includes,
    const CompileOptions& options) {
  InitializeGlslangOnce();

  glslang::TShader shader(EShLangCompute);
  const char* text = main.text.c_str();
  const int length = static_cast<int>(main.text.size());
  const char* name = main.name.c_str();
  shader.setStringsWithLengthsAndNames(&text, &length, &name, 1);
  const std::string preamble = Preamble(options);
  shader.setPreamble(preamble.c_str());
  shader.setEntryPoint("main");
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute,
                     glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);

  int messages = EShMsgSpvRules | EShMsgVulkanRules;
  if (options.debug_info) messages |= EShMsgDebugInfo;
  IncludeResolver includer(includes);
  if (!shader.parse(GetDefaultResources(), 100, false,
                    static_cast<EShMessages>(messages), includer)) {
    return CompileError("parse", main, shader.getInfoLog());
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(static_cast<EShMessages>(messages))) {
    return CompileError("link", main, program.getInfoLog());
  }

  glslang::SpvOptions spv_options;
  spv_options.generateDebugInfo = options.debug_info;
  spv_options.disableOptimizer = true;
  spv::SpvBuildLogger logger;
  std::vector<unsigned int> spirv;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv,
                        &logger, &spv_options);
  if (spirv.empty()) {
    return CompileError("SPIR-V generation", main, logger.getAllMessages());
  }
  return std::vector<uint32_t>(spirv.begin(), spirv.end());
}

absl::Status ValidateSpirv(absl::Span<const uint32_t> spirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::vector<std::string> diagnostics;
  tools.SetMessageConsumer([&diagnostics](spv_message_level_t,
                                          const char* /*source*/,
                                          const spv_position_t& position,
                                          const char* message) {
    diagnostics.push_back(absl::StrCat("word ", position.index, ": ", message));
  });
  if (tools.Validate(spirv.data(), spirv.size())) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "SPIR-V module (", spirv.size(),
      " words) failed Vulkan 1.2 validation:\n",
      absl::StrJoin(diagnostics, "\n"),
      "\nThe GLSL compiled, so the module was probably changed afterwards "
      "(instrumentation); `spirv-dis` shows the instruction at that word."));
}

}  // namespace ringfuzz::vk
