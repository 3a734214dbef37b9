// An on-disk cache of glslang's output for the megakernel builds.
//
// Compiling the megakernel (about 1,900 lines of GLSL and the target) with
// glslang takes most of ringfuzz's start-up CPU time, three to four times
// per run (one compile per build). Its output is a pure function of the
// sources, the defines and the compiler, so a run that compiled the same
// megakernel before reads the SPIR-V back instead: a file per compile,
// named by a SHA-1 over everything that decides the output (the running
// program's build ID, which pins glslang and the compile settings; the
// main source and every include, names and texts; the defines; debug
// info). The instrumentation still runs on what is read.
//
// Validation (spirv-val over the instrumented megakernel, about 30 ms per
// build) is remembered the same way: an empty marker file named by a SHA-1
// over the program's build ID and the validated words says that this
// program validated exactly these words before.
//
// A cache entry is written atomically (temp file + rename), checked when
// read (magic, size, SHA-1 of its words), and silently recompiled and
// rewritten when it is unreadable or corrupt: the cache can only save time,
// never change a build. Failing to write it (a full disk, a read-only home)
// costs nothing but the saving.
#ifndef RINGFUZZ_FUZZ_GPU_SPIRV_CACHE_H_
#define RINGFUZZ_FUZZ_GPU_SPIRV_CACHE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/shader_compiler.h"

namespace ringfuzz {

// Entries kept per cache directory: when a write finds more, the oldest
// (by modification time) are removed. A build's entries take about
// 100-300 KiB each.
inline constexpr size_t kSpirvCacheEntries = 256;

// The running program's GNU build ID in hex, "" if it has none.
std::string ProgramBuildId();

// $XDG_CACHE_HOME/ringfuzz/spirv (else $HOME/.cache/ringfuzz/spirv), or ""
// (no cache) when neither is set, when RINGFUZZ_SPIRV_CACHE=0, or when the
// program has no build ID to key entries by. The directory is created when
// an entry is first written.
std::string DefaultSpirvCacheDirectory();

// The file that holds the compile of (`main`, `includes`, `options`) in
// `dir`.
std::string SpirvCachePath(const std::string& dir, const vk::SourceFile& main,
                           absl::Span<const vk::SourceFile> includes,
                           const vk::CompileOptions& options);

// Writes `spirv` as the cache entry `path` (atomically). Exposed for tests.
absl::Status WriteSpirvCacheEntry(const std::string& path,
                                  absl::Span<const uint32_t> spirv);

// vk::CompileComputeShader, through the cache in `dir` ("" = none): the
// cached words when `dir` holds a valid entry for these arguments, else a
// compile, stored there when it succeeds. Compile errors are never cached.
absl::StatusOr<std::vector<uint32_t>> CompileComputeShaderCached(
    const std::string& dir, const vk::SourceFile& main,
    absl::Span<const vk::SourceFile> includes,
    const vk::CompileOptions& options);

// vk::ValidateSpirv(spirv), remembered in `dir` ("" = not remembered): OK
// at once when `dir` holds the marker of these words, else a validation,
// whose success is marked there. Failures are never marked.
absl::Status ValidateSpirvCached(const std::string& dir,
                                 absl::Span<const uint32_t> spirv);

// The marker ValidateSpirvCached looks for in `dir`. Exposed for tests.
std::string ValidationMarkerPath(const std::string& dir,
                                 absl::Span<const uint32_t> spirv);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_SPIRV_CACHE_H_
