#include "corpus/corpus.h"

#include <string>

#include "corpus/sha1.h"
#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

CorpusEntry Entry(const std::string& text, uint32_t executor_index) {
  CorpusEntry entry;
  entry.data = Bytes(text.begin(), text.end());
  entry.sha1 = Sha1Hex(entry.data);
  entry.executor_index = executor_index;
  return entry;
}

TEST(CorpusTest, AddsAndDeduplicatesBySha1) {
  Corpus corpus;
  EXPECT_TRUE(corpus.empty());
  EXPECT_EQ(corpus.Add(Entry("abc", 0)), 0u);
  EXPECT_EQ(corpus.Add(Entry("hello", 1)), 1u);
  EXPECT_EQ(corpus.Add(Entry("abc", 2)), std::nullopt);  // same content
  EXPECT_EQ(corpus.Add(Entry("xyz", 1)), std::nullopt);  // same index
  EXPECT_EQ(corpus.size(), 2u);
  EXPECT_EQ(corpus.total_bytes(), 8u);
  EXPECT_EQ(corpus.max_input_size(), 5u);
  EXPECT_EQ(corpus.FindBySha1(Sha1Hex(Entry("hello", 0).data)), 1u);
  EXPECT_EQ(corpus.FindBySha1("nope"), std::nullopt);
  EXPECT_EQ(corpus.FindByExecutorIndex(1), 1u);
  EXPECT_EQ(corpus.FindByExecutorIndex(7), std::nullopt);
}

TEST(CorpusTest, RecordsStatistics) {
  Corpus corpus;
  CorpusEntry entry = Entry("a", 4);
  entry.new_bits = 3;
  entry.added_at_exec = 99;
  size_t index = *corpus.Add(std::move(entry));
  corpus.RecordExecutions(index, 10);
  corpus.RecordExecutions(index, 5);
  corpus.RecordFind(index);
  corpus.RecordCost(index, 100, 700);
  corpus.RecordCost(index, 50, 20);
  const CorpusEntry& e = corpus.entry(index);
  EXPECT_EQ(e.measured_executions, 150u);
  EXPECT_EQ(e.measured_steps, 720u);
  EXPECT_EQ(e.executions, 15u);
  EXPECT_EQ(e.finds, 1u);
  EXPECT_EQ(e.new_bits, 3u);
  EXPECT_EQ(e.added_at_exec, 99u);
  EXPECT_EQ(e.executor_index, 4u);
}

}  // namespace
}  // namespace ringfuzz
