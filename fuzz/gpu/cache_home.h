// The user's cache directory, where ringfuzz keeps what later runs reuse
// (lavapipe's shader cache, fuzz/gpu/lavapipe_env.h; the megakernel's
// SPIR-V, fuzz/gpu/spirv_cache.h).
#ifndef RINGFUZZ_FUZZ_GPU_CACHE_HOME_H_
#define RINGFUZZ_FUZZ_GPU_CACHE_HOME_H_

#include <string>

namespace ringfuzz {

// $XDG_CACHE_HOME if it is set and not empty, else $HOME/.cache if $HOME
// is, else "" (no cache).
std::string UserCacheHome();

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_CACHE_HOME_H_
