#include "corpus/async_writer.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "corpus/atomic_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/corpus/temp_dir.h"

namespace ringfuzz {
namespace {

using ::testing::SizeIs;

Bytes B(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(AsyncWriterTest, FinishReturnsEveryWriteInQueueOrderWithItsFileComplete) {
  TempDir dir;
  AsyncWriter writer;
  constexpr int kFiles = 64;
  for (int i = 0; i < kFiles; ++i) {
    writer.Write(dir.Sub(absl::StrCat("f", i)), B(absl::StrCat("data", i)),
                 100 + i);
  }
  std::vector<AsyncWriter::Written> written = writer.Finish();
  ASSERT_THAT(written, SizeIs(kFiles));
  for (int i = 0; i < kFiles; ++i) {
    EXPECT_EQ(written[i].tag, static_cast<uint64_t>(100 + i));
    EXPECT_EQ(written[i].path, dir.Sub(absl::StrCat("f", i)));
    EXPECT_TRUE(written[i].status.ok()) << written[i].status;
    absl::StatusOr<Bytes> data = ReadFile(written[i].path);
    ASSERT_TRUE(data.ok()) << data.status();
    EXPECT_EQ(*data, B(absl::StrCat("data", i)));
  }
  EXPECT_EQ(writer.outstanding(), 0u);
  EXPECT_TRUE(writer.Finish().empty());  // each write is returned once
}

TEST(AsyncWriterTest, TakeWrittenNeverWaitsNorRepeatsAndFinishGetsTheRest) {
  TempDir dir;
  AsyncWriter writer;
  for (int i = 0; i < 32; ++i) {
    writer.Write(dir.Sub(absl::StrCat("f", i)), B("x"), i);
  }
  EXPECT_EQ(writer.outstanding(), 32u);
  std::vector<uint64_t> tags;
  for (const AsyncWriter::Written& w : writer.TakeWritten()) {
    tags.push_back(w.tag);
  }
  for (const AsyncWriter::Written& w : writer.Finish()) tags.push_back(w.tag);
  ASSERT_THAT(tags, SizeIs(32));
  for (uint64_t i = 0; i < tags.size(); ++i) EXPECT_EQ(tags[i], i);
  EXPECT_EQ(writer.outstanding(), 0u);
}

TEST(AsyncWriterTest, AFailedWriteIsReturnedWithItsReasonAndTheNextOnesGoOn) {
  TempDir dir;
  AsyncWriter writer;
  writer.Write(dir.Sub("missing/f"), B("lost?"), 1);
  writer.Write(dir.Sub("g"), B("kept"), 2);
  std::vector<AsyncWriter::Written> written = writer.Finish();
  ASSERT_THAT(written, SizeIs(2));
  EXPECT_FALSE(written[0].status.ok());
  EXPECT_EQ(written[0].status.code(), absl::StatusCode::kNotFound)
      << written[0].status;
  EXPECT_TRUE(written[1].status.ok()) << written[1].status;
}

TEST(AsyncWriterTest, DestructionFinishesQueuedWrites) {
  TempDir dir;
  {
    AsyncWriter writer;
    for (int i = 0; i < 16; ++i) {
      writer.Write(dir.Sub(absl::StrCat("f", i)), B("y"), i);
    }
  }
  EXPECT_THAT(ListDir(dir.path()), SizeIs(16));
}

}  // namespace
}  // namespace ringfuzz
