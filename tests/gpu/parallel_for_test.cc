#include "fuzz/gpu/parallel_for.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

TEST(ParallelForTest, CallsEveryIndexExactlyOnce) {
  for (size_t n : {0u, 1u, 3u, 4u, 7u, 64u, 1000u}) {
    for (size_t min_per_thread : {1u, 4u, 100u}) {
      std::vector<std::atomic<int>> calls(n);
      ParallelFor(n, min_per_thread, [&](size_t i) { ++calls[i]; });
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(calls[i].load(), 1) << n << " " << min_per_thread << " " << i;
      }
    }
  }
}

TEST(ParallelForTest, ShortLoopsStayOnTheCallersThread) {
  std::set<std::thread::id> ids;
  ParallelFor(7, 4, [&](size_t) { ids.insert(std::this_thread::get_id()); });
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
}

TEST(ParallelForTest, LongLoopsUseSeveralThreadsWhereTheHostHasThem) {
  if (std::thread::hardware_concurrency() < 2) {
    GTEST_SKIP() << "one hardware thread";
  }
  std::mutex mu;
  std::set<std::thread::id> ids;
  ParallelFor(64, 4, [&](size_t) {
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_GE(ids.size(), 2u);
  EXPECT_LE(ids.size(), kMaxParallelForThreads);
}

}  // namespace
}  // namespace ringfuzz
