// Process environment for lavapipe (Mesa's Vulkan on the CPU), set before
// the Vulkan instance is created, since lavapipe reads it once when it
// first starts.
#ifndef RINGFUZZ_FUZZ_GPU_LAVAPIPE_ENV_H_
#define RINGFUZZ_FUZZ_GPU_LAVAPIPE_ENV_H_

#include <cstdint>
#include <string>

namespace ringfuzz {

// Sets, unless the environment already has them:
//   * LP_NATIVE_VECTOR_WIDTH=`simd_bits` (lavapipe's SIMD width: 4 lanes at
//     128, 8 at 256), when `simd_bits` is not 0 (0: lavapipe's own choice,
//     the widest the CPU has);
//   * MESA_SHADER_CACHE_DIR to a directory of its own per SIMD width,
//     $XDG_CACHE_HOME (else $HOME/.cache) /ringfuzz/lavapipe-simd-<width or
//     "default">, created if missing. Mesa 22.3's on-disk shader cache does
//     not key its entries by LP_NATIVE_VECTOR_WIDTH, so a shared cache
//     serves code compiled for another width: up to 1.8x slower or faster
//     than asked for, silently.
// Returns the cache directory in effect ("" if neither variable is set and
// no cache home is known).
std::string ConfigureLavapipeEnvironment(uint32_t simd_bits);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_LAVAPIPE_ENV_H_
