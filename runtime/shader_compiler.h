// Run-time GLSL -> SPIR-V compilation of compute shaders (glslang), and
// validation of SPIR-V modules (SPIRV-Tools). The megakernel is compiled at
// start-up so that a target and its coverage hooks can be fused into it.

#ifndef RINGFUZZ_RUNTIME_SHADER_COMPILER_H_
#define RINGFUZZ_RUNTIME_SHADER_COMPILER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace ringfuzz::vk {

// A GLSL source text and the name that error messages give it.
struct SourceFile {
  std::string name;
  std::string text;
};

struct CompileOptions {
  // Emitted as "#define <first> <second>" lines ahead of the main source
  // (after its #version line, as glslang's preamble), in order.
  std::vector<std::pair<std::string, std::string>> defines;
  // Emit OpLine/OpSource so that tools can map SPIR-V back to GLSL lines.
  bool debug_info = true;
};

// Compiles `main` (which must begin with a #version line; it should enable
// GL_GOOGLE_include_directive if it includes anything) as a Vulkan 1.2
// compute shader to SPIR-V 1.5, unoptimized. `#include "x"` and `#include <x>`
// resolve to the entry of `includes` named exactly x, else to the first entry
// whose base name equals x's base name; `includes` may include each other.
// Thread-safe; may run on several threads at once.
//
// On failure returns InvalidArgument whose message contains glslang's info
// log verbatim: its lines read "ERROR: <file>:<line>: ..." where <file> is
// the name of the SourceFile (main or include) that holds the error. An
// unknown include is reported with the missing name.
absl::StatusOr<std::vector<uint32_t>> CompileComputeShader(
    const SourceFile& main, absl::Span<const SourceFile> includes,
    const CompileOptions& options);

// Returns OK iff `spirv` passes the SPIRV-Tools validator for Vulkan 1.2;
// otherwise InvalidArgument carrying the validator's diagnostics.
absl::Status ValidateSpirv(absl::Span<const uint32_t> spirv);

}  // namespace ringfuzz::vk

#endif  // RINGFUZZ_RUNTIME_SHADER_COMPILER_H_
