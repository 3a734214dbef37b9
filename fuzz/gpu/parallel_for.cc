#include "fuzz/gpu/parallel_for.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace ringfuzz {

void ParallelFor(size_t n, size_t min_per_thread,
                 absl::FunctionRef<void(size_t)> fn) {
  const size_t hardware =
      std::max<size_t>(std::thread::hardware_concurrency(), 1);
  const size_t by_size = n / std::max<size_t>(min_per_thread, 1);
  const size_t threads = std::max<size_t>(
      std::min({kMaxParallelForThreads, hardware, by_size}), 1);
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  // Thread t runs [t * n / threads, (t + 1) * n / threads).
  auto run = [&](size_t t) {
    for (size_t i = t * n / threads; i < (t + 1) * n / threads; ++i) fn(i);
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(run, t);
  run(0);
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace ringfuzz
