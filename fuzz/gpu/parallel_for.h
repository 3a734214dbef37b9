// A parallel loop over host threads, for work between two GPU rounds that
// would otherwise keep the device waiting.
#ifndef RINGFUZZ_FUZZ_GPU_PARALLEL_FOR_H_
#define RINGFUZZ_FUZZ_GPU_PARALLEL_FOR_H_

#include <cstddef>

#include "absl/functional/function_ref.h"

namespace ringfuzz {

// Most threads ParallelFor uses, the caller's included.
inline constexpr size_t kMaxParallelForThreads = 8;

// Calls fn(i) once for every i in [0, n) and returns when all calls have
// returned. The calls run on up to min(kMaxParallelForThreads, the host's
// hardware threads) threads, the caller's among them, each thread taking
// one range of at least `min_per_thread` consecutive indices (so short
// loops stay on the caller's thread). `fn` must be safe to call
// concurrently for different indices.
void ParallelFor(size_t n, size_t min_per_thread,
                 absl::FunctionRef<void(size_t)> fn);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_PARALLEL_FOR_H_
