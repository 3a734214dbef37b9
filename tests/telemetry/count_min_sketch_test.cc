#include "telemetry/count_min_sketch.h"

#include <cstdint>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ringfuzz::telemetry {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(SplitMix64Test, MatchesTheReferenceGenerator) {
  // The reference SplitMix64 seeded with 0 first returns
  // Finalize(0 + gamma) = 0xE220A8397B1DCDAF.
  EXPECT_EQ(SplitMix64Finalize(kCountMinRowGamma), 0xE220A8397B1DCDAFu);
  EXPECT_EQ(SplitMix64Finalize(0), 0u);
  EXPECT_EQ(SplitMix64Finalize(1), 0x5692161D100B05E5u);
  EXPECT_EQ(SplitMix64Finalize(8), 0xD56B1FBB9CEBA9E8u);
}

TEST(CountMinBucketTest, KnownBucketsForWidth1024) {
  // Computed independently from the wire-protocol formula.
  const uint32_t keys[] = {0, 1, 8, 9, 12345};
  const uint64_t expected[4][5] = {{0, 485, 488, 727, 337},
                                   {431, 32, 566, 471, 871},
                                   {500, 103, 920, 682, 82},
                                   {335, 489, 429, 345, 700}};
  for (uint64_t row = 0; row < 4; ++row) {
    for (size_t k = 0; k < 5; ++k) {
      EXPECT_EQ(CountMinBucket(row, keys[k], 1024), expected[row][k])
          << "row " << row << " key " << keys[k];
    }
  }
}

TEST(CountMinSketchTest, AddPlacesCountsInTheProtocolBuckets) {
  absl::StatusOr<CountMinSketch> sketch = CountMinSketch::Create(4, 1024);
  ASSERT_TRUE(sketch.ok());
  sketch->Add(8, 5);
  const absl::Span<const uint64_t> counters = sketch->counters();
  ASSERT_EQ(counters.size(), 4u * 1024);
  EXPECT_EQ(counters[0 * 1024 + 488], 5u);
  EXPECT_EQ(counters[1 * 1024 + 566], 5u);
  EXPECT_EQ(counters[2 * 1024 + 920], 5u);
  EXPECT_EQ(counters[3 * 1024 + 429], 5u);
  uint64_t sum = 0;
  for (uint64_t c : counters) sum += c;
  EXPECT_EQ(sum, 20u);
  EXPECT_EQ(sketch->Estimate(8), 5u);
  EXPECT_EQ(sketch->Estimate(9), 0u);
}

TEST(CountMinSketchTest, EstimateIsTheMinimumOverRows) {
  // Width 1: every key collides, so the estimate is the total.
  absl::StatusOr<CountMinSketch> narrow = CountMinSketch::Create(3, 1);
  ASSERT_TRUE(narrow.ok());
  narrow->Add(1, 2);
  narrow->Add(2, 3);
  EXPECT_EQ(narrow->Estimate(1), 5u);
  EXPECT_EQ(narrow->Estimate(77), 5u);
  // Collisions only ever add: no estimate falls below its true count.
  absl::StatusOr<CountMinSketch> wide = CountMinSketch::Create(4, 1024);
  ASSERT_TRUE(wide.ok());
  for (uint32_t key = 0; key < 100; ++key) wide->Add(key, key + 1);
  for (uint32_t key = 0; key < 100; ++key) {
    EXPECT_GE(wide->Estimate(key), key + 1u);  // never underestimates
  }
}

TEST(CountMinSketchTest, ZeroDimensionIsAnError) {
  for (auto [depth, width] :
       {std::pair<size_t, size_t>{0, 8}, {8, 0}, {0, 0}}) {
    absl::StatusOr<CountMinSketch> sketch =
        CountMinSketch::Create(depth, width);
    EXPECT_EQ(sketch.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(sketch.status().message(), HasSubstr("zero dimension"));
    EXPECT_THAT(sketch.status().message(), HasSubstr("Fix:"));
  }
  absl::StatusOr<CountMinSketch> overflow =
      CountMinSketch::Create(std::numeric_limits<size_t>::max() / 2, 3);
  EXPECT_EQ(overflow.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CountMinSketchTest, AddSaturatesAndTryAddRefusesOverflow) {
  absl::StatusOr<CountMinSketch> sketch = CountMinSketch::Create(2, 4);
  ASSERT_TRUE(sketch.ok());
  sketch->Add(1, kMax - 1);
  ASSERT_TRUE(sketch->TryAdd(1, 1).ok());
  EXPECT_EQ(sketch->Estimate(1), kMax);
  const CountMinSketch before = *sketch;
  const absl::Status overflow = sketch->TryAdd(1, 1);
  EXPECT_EQ(overflow.code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(overflow.message(), HasSubstr("Fix:"));
  EXPECT_EQ(*sketch, before);  // nothing added
  sketch->Add(1, 1000);
  EXPECT_EQ(sketch->Estimate(1), kMax);  // saturated, not wrapped
  EXPECT_TRUE(sketch->TryAdd(1, 0).ok());
}

TEST(CountMinSketchTest, MergeAddsCountersOfTheSameShapeOnly) {
  absl::StatusOr<CountMinSketch> a = CountMinSketch::Create(3, 16);
  absl::StatusOr<CountMinSketch> b = CountMinSketch::Create(3, 16);
  ASSERT_TRUE(a.ok() && b.ok());
  a->Add(4, 2);
  b->Add(4, 3);
  b->Add(5, 1);
  ASSERT_TRUE(a->Merge(*b).ok());
  absl::StatusOr<CountMinSketch> direct = CountMinSketch::Create(3, 16);
  direct->Add(4, 5);
  direct->Add(5, 1);
  EXPECT_EQ(*a, direct.value());

  absl::StatusOr<CountMinSketch> other_shape = CountMinSketch::Create(3, 17);
  const absl::Status mismatch = a->Merge(*other_shape);
  EXPECT_EQ(mismatch.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(mismatch.message(), HasSubstr("same shape"));
  EXPECT_EQ(*a, direct.value());
}

TEST(CountMinSketchTest, MergeRefusesOverflowAndChangesNothing) {
  absl::StatusOr<CountMinSketch> a = CountMinSketch::Create(2, 8);
  absl::StatusOr<CountMinSketch> b = CountMinSketch::Create(2, 8);
  a->Add(3, kMax);
  a->Add(4, 1);
  b->Add(4, 1);
  b->Add(3, 1);
  const CountMinSketch before = *a;
  EXPECT_EQ(a->Merge(*b).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*a, before);
}

TEST(CountMinSketchTest, ResetClearsAndReshapes) {
  absl::StatusOr<CountMinSketch> sketch = CountMinSketch::Create(4, 64);
  sketch->Add(1, 9);
  const uint64_t* storage = sketch->counters().data();
  ASSERT_TRUE(sketch->Reset(2, 32).ok());  // smaller: same allocation
  EXPECT_EQ(sketch->counters().data(), storage);
  EXPECT_EQ(sketch->depth(), 2u);
  EXPECT_EQ(sketch->width(), 32u);
  EXPECT_EQ(sketch->Estimate(1), 0u);
  EXPECT_EQ(sketch->Reset(0, 32).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(sketch->depth(), 2u);  // unchanged on error
}

TEST(CountMinSketchTest, CopiesAreEqualAndIndependent) {
  absl::StatusOr<CountMinSketch> a = CountMinSketch::Create(3, 50);
  a->Add(7, 3);
  CountMinSketch b = *a;  // copy construction
  EXPECT_EQ(b, *a);
  EXPECT_NE(b.counters().data(), a->counters().data());
  b.Add(7, 1);
  EXPECT_EQ(a->Estimate(7), 3u);
  EXPECT_EQ(b.Estimate(7), 4u);
  absl::StatusOr<CountMinSketch> c = CountMinSketch::Create(1, 2);
  *c = b;  // copy assignment into a smaller sketch
  EXPECT_EQ(*c, b);
  EXPECT_EQ(c->depth(), 3u);
  EXPECT_EQ(c->width(), 50u);
}

TEST(CountMinSketchTest, MovedFromIsEmptyAndCanBeReshaped) {
  absl::StatusOr<CountMinSketch> a = CountMinSketch::Create(2, 8);
  a->Add(5, 2);
  const uint64_t* storage = a->counters().data();
  CountMinSketch b = std::move(*a);
  EXPECT_EQ(b.counters().data(), storage);
  EXPECT_EQ(b.Estimate(5), 2u);
  EXPECT_EQ(a->depth(), 0u);
  EXPECT_TRUE(a->counters().empty());
  ASSERT_TRUE(a->Reset(2, 8).ok());
  EXPECT_EQ(a->Estimate(5), 0u);
}

TEST(CountMinSketchTest, IsDeterministicAcrossInstances) {
  absl::StatusOr<CountMinSketch> a = CountMinSketch::Create(5, 97);
  absl::StatusOr<CountMinSketch> b = CountMinSketch::Create(5, 97);
  for (uint32_t key = 0; key < 500; key += 7) {
    a->Add(key, key);
    b->Add(key, key);
  }
  EXPECT_EQ(*a, *b);
  std::ostringstream os;
  os << *CountMinSketch::Create(1, 4);
  EXPECT_EQ(os.str(), "CountMinSketch{1x4:}");
}

}  // namespace
}  // namespace ringfuzz::telemetry
