#include "fuzz/gpu/gpu_memory.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kMiB = uint64_t{1} << 20;
// lavapipe's maxStorageBufferRange (docs/platform facts): no buffer may be
// larger.
constexpr uint64_t kLavapipeBufferRange = 128 * kMiB;

TEST(GpuMemoryTest, FormulasOfTheFileComment) {
  // 64-byte slots, then per slot one word per lane (64) and two clock words.
  EXPECT_EQ(RingBytes(256), 256u * (64 + 64 * 4 + 2 * 4));
  // 12 header words (kind .. mutations, two clock words), then the input.
  EXPECT_EQ(FindQueueBytes(4096, 16), 4096u * (12 + 16) * 4);
  EXPECT_EQ(ControlBytes(), 157184u);
  EXPECT_EQ(SnapshotBytes(), 2u * 13056);
  EXPECT_EQ(CompareLogBytes(256), 256u * 385 * 4);
  EXPECT_EQ(DictionaryBytes(0), (17u + 1) * 4);
  EXPECT_EQ(DictionaryBytes(3), (3u * 17 + 1) * 4);
  CorpusLayout layout{/*capacity=*/100, /*scratch=*/10, /*max_words=*/4,
                      /*data_words=*/50};
  EXPECT_EQ(CorpusBufferBytes(layout), (2u * 110 + 10 * 4 + 50 + 4) * 4);
  EXPECT_EQ(PatchBufferBytes(64, 1024), (2u * 64 + 1024) * 4);
}

// The find queue's default entries: the device kind's count while short
// inputs fit, fewer for long inputs so that the queue stays within 64 MiB
// and the device's buffer range (a find-queue entry is a header of 10
// words, per the wire protocol, plus the input's words), never 0.
TEST(GpuMemoryTest, DefaultFindCapacityFitsTheBudgetAndTheBufferRange) {
  EXPECT_EQ(DefaultFindCapacity(true, 16, kLavapipeBufferRange), 4096u);
  EXPECT_EQ(DefaultFindCapacity(false, 16, UINT64_MAX), 16384u);
  // 32 KiB inputs: 8,202 words per entry; 64 MiB hold 2,045 of them.
  const uint32_t lavapipe =
      DefaultFindCapacity(true, 8192, kLavapipeBufferRange);
  EXPECT_EQ(lavapipe, 2045u);
  EXPECT_LE(FindQueueBytes(lavapipe, 8192), 64 * kMiB);
  EXPECT_GT(FindQueueBytes(lavapipe + 1, 8192), 64 * kMiB);
  // A device with a smaller range than the budget bounds it.
  const uint32_t small = DefaultFindCapacity(false, 8192, 8 * kMiB);
  EXPECT_LE(FindQueueBytes(small, 8192), 8 * kMiB);
  EXPECT_GT(FindQueueBytes(small + 1, 8192), 8 * kMiB);
  EXPECT_EQ(DefaultFindCapacity(true, 8192, 1), 1u);
}

TEST(GpuMemoryTest, CorpusGrowsByDoublingWhatDoesNotFit) {
  CorpusLayout start = InitialCorpusLayout(4096, 16);
  EXPECT_EQ(start.capacity, 1024u);
  EXPECT_EQ(start.data_words, 1024u * 17);
  EXPECT_EQ(InitialCorpusLayout(16, 1000).data_words, 64u * 1001);
  // Fits: unchanged.
  CorpusLayout same = GrowCorpusLayout(start, 1024, 1024 * 17);
  EXPECT_EQ(same.capacity, start.capacity);
  EXPECT_EQ(same.data_words, start.data_words);
  // One more input: the index doubles, the data (which has room) not.
  CorpusLayout more = GrowCorpusLayout(start, 1025, 1025 * 4);
  EXPECT_EQ(more.capacity, 2048u);
  EXPECT_EQ(more.data_words, start.data_words);
  // Long inputs: the data doubles, the index not.
  CorpusLayout longer = GrowCorpusLayout(start, 10, 1024 * 17 + 1);
  EXPECT_EQ(longer.capacity, 1024u);
  EXPECT_EQ(longer.data_words, 2u * 1024 * 17);
  // A huge input at once: at least what it needs.
  EXPECT_EQ(GrowCorpusLayout(start, 1, 1000000).data_words, 1000000u);
}

TEST(GpuMemoryTest, AMillionSmallInputsFitOnLavapipeAndAGpu) {
  // 1,048,576 index entries; 16-byte inputs are 4 words each.
  for (bool cpu : {true, false}) {
    const uint64_t max_len = 64, max_words = max_len / 4;
    const uint64_t scratch = cpu ? kCpuFindCapacity : kGpuFindCapacity;
    const CorpusLayout layout =
        CorpusLayoutAfter(1000000, 4, scratch, max_words);
    EXPECT_EQ(layout.capacity, 1u << 20);
    const uint64_t corpus = CorpusBufferBytes(layout);
    // Index 8 MiB, 4,000,000 words of inputs in at most twice that.
    EXPECT_LT(corpus, 8 * kMiB + 2 * 16 * kMiB + 2 * kMiB) << cpu;
    EXPECT_LE(corpus, kLavapipeBufferRange);
    // Patches: the index alone (8 MiB) and 8 patches per input (64 MiB):
    // within lavapipe's buffer range too.
    const uint64_t patch_words =
        GrowCapacity(kInitialPatchWords, uint64_t{1000000} * 8 * RF_PATCH_WORDS,
                     kInitialPatchWords);
    EXPECT_LE(PatchBufferBytes(GrowCapacity(kInitialPatchInputs, 1000000,
                                            kInitialPatchInputs),
                               patch_words),
              kLavapipeBufferRange);
    GpuMemory total = FixedGpuMemory(cpu, /*overlap=*/!cpu, max_len);
    total.corpus = corpus;
    // The whole executor: under 60 MiB on lavapipe, 120 MiB on a GPU,
    // before patches.
    EXPECT_LT(total.Total(), (cpu ? 60 : 120) * kMiB) << cpu;
  }
}

TEST(GpuMemoryTest, AMillionInputsOfMaxLenStillFitLavapipesBuffers) {
  const CorpusLayout layout =
      CorpusLayoutAfter(1000000, 16, kCpuFindCapacity, 16);
  EXPECT_LE(CorpusBufferBytes(layout), kLavapipeBufferRange);
}

TEST(GpuMemoryTest, LayoutAfterIsWhatGrowingInputByInputGives) {
  for (uint64_t words : {1, 4, 16}) {
    CorpusLayout grown = InitialCorpusLayout(4096, 16);
    for (uint64_t n = 1; n <= 20000; ++n) {
      grown = GrowCorpusLayout(grown, n, n * words);
    }
    const CorpusLayout after = CorpusLayoutAfter(20000, words, 4096, 16);
    EXPECT_EQ(grown.capacity, after.capacity) << words;
    EXPECT_EQ(grown.data_words, after.data_words) << words;
  }
}

TEST(GpuMemoryTest, DoublingPastTheRoomLeftFitsWhatStillFits) {
  const CorpusLayout grown{/*capacity=*/1024, /*scratch=*/16,
                           /*max_words=*/4, /*data_words=*/4000};
  const uint64_t full = CorpusBufferBytes(grown);
  // Room enough: unchanged.
  EXPECT_EQ(FitCorpusLayout(grown, 2001, full).data_words, 4000u);
  // Room for 3000 words of data: the data shrinks to that.
  const CorpusLayout fitted = FitCorpusLayout(grown, 2001, full - 4000);
  EXPECT_EQ(fitted.data_words, 3000u);
  EXPECT_EQ(CorpusBufferBytes(fitted), full - 4000);
  // Not even the inputs fit: as it was (the growth then fails).
  EXPECT_EQ(FitCorpusLayout(grown, 3001, full - 4000).data_words, 4000u);
}

TEST(GpuMemoryTest, GrowCapacity) {
  EXPECT_EQ(GrowCapacity(64, 10, 64), 64u);
  EXPECT_EQ(GrowCapacity(64, 65, 64), 128u);
  EXPECT_EQ(GrowCapacity(64, 1000, 64), 1000u);
  EXPECT_EQ(GrowCapacity(0, 1, 64), 64u);
}

TEST(GpuMemoryTest, LineNamesEveryPartAndTheBound) {
  GpuMemory m;
  m.rings = 2 * kMiB;
  m.finds = 4 * kMiB;
  m.corpus = kMiB / 2;
  m.maps = kMiB / 10;
  EXPECT_EQ(FormatGpuMemory(m, 7, 0),
            "GPU memory: 6.6 MiB (rings 2.0, find queues 4.0, corpus 0.5 for "
            "7 inputs, maps 0.1, compare logs 0.0, patches 0.0, dictionary "
            "0.0)");
  EXPECT_THAT(FormatGpuMemory(m, 7, 64 * kMiB),
              HasSubstr(", at most 64.0 MiB (-gpu_memory_mb)"));
  EXPECT_EQ(Mib(3 * kMiB / 2), "1.5 MiB");
  EXPECT_EQ(Mib(6 * 1024), "6.0 KiB");
}

}  // namespace
}  // namespace ringfuzz
