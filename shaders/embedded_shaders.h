// The megakernel's GLSL sources and shared headers, embedded at build time
// (shaders/CMakeLists.txt), by file name: "megakernel_prelude.glsl",
// "megakernel_mutate.glsl", "megakernel_main.glsl", "ringfuzz.h",
// "ringfuzz_wire.h"; and the clock warmer's shader, "clock_warmer.glsl".
#ifndef RINGFUZZ_SHADERS_EMBEDDED_SHADERS_H_
#define RINGFUZZ_SHADERS_EMBEDDED_SHADERS_H_

#include "absl/types/span.h"

namespace ringfuzz {

struct EmbeddedFile {
  const char* name;
  const char* text;
};

absl::Span<const EmbeddedFile> EmbeddedShaderFiles();

}  // namespace ringfuzz

#endif  // RINGFUZZ_SHADERS_EMBEDDED_SHADERS_H_
