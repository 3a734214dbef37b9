// The megakernel's GLSL sources and shared headers, embedded at build time
// (shaders/CMakeLists.txt lists them), by file name, e.g.
// "megakernel_prelude.glsl" and the files it includes, "megakernel_main.glsl",
// "ringfuzz.h", "ringfuzz_wire.h"; and the clock warmer's shader,
// "clock_warmer.glsl".
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
