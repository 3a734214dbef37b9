// TrialQueue: length trials and candidates with new hit-count classes come
// out before candidates that only recombine known classes, whatever order
// they came in; only those combinations are capped.
#include "fuzz/gpu/trial_queue.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ringfuzz {
namespace {

Find Candidate(uint8_t tag, uint32_t new_bits) {
  Find find;
  find.data = {tag};
  find.new_bits = new_bits;
  return find;
}

std::string Tags(const std::vector<Find>& finds) {
  std::string tags;
  for (const Find& f : finds) tags.push_back(static_cast<char>(f.data[0]));
  return tags;
}

TEST(TrialQueueTest, UrgentInputsComeOutFirstEachInTheOrderQueued) {
  TrialQueue queue(100);
  queue.AddCandidate(Candidate('a', 0));
  queue.AddCandidate(Candidate('B', 2));
  queue.AddCandidate(Candidate('c', 0));
  queue.AddTrial(Candidate('D', 0));  // a length trial is urgent
  queue.AddCandidate(Candidate('E', 1));
  EXPECT_EQ(queue.size(), 5u);
  EXPECT_EQ(queue.urgent(), 3u);
  size_t urgent = 0;
  EXPECT_EQ(Tags(queue.Take(4, urgent)), "BDEa");
  EXPECT_EQ(urgent, 3u);
  EXPECT_EQ(Tags(queue.Take(4, urgent)), "c");
  EXPECT_EQ(urgent, 0u);
  EXPECT_EQ(queue.size(), 0u);
  // No more than asked.
  for (char c : std::string("FGH")) queue.AddCandidate(Candidate(c, 1));
  EXPECT_EQ(Tags(queue.Take(2, urgent)), "FG");
  EXPECT_EQ(urgent, 2u);
  EXPECT_EQ(Tags(queue.Take(0, urgent)), "");
  EXPECT_EQ(urgent, 0u);
  EXPECT_EQ(queue.size(), 1u);
}

TEST(TrialQueueTest, OnlyCombinationsBeyondTheCapAreDropped) {
  TrialQueue queue(2);
  EXPECT_TRUE(queue.AddCandidate(Candidate('a', 0)));
  EXPECT_TRUE(queue.AddCandidate(Candidate('b', 0)));
  EXPECT_FALSE(queue.AddCandidate(Candidate('c', 0)));  // dropped: two wait
  for (char c : std::string("WXYZ")) {
    EXPECT_TRUE(queue.AddCandidate(Candidate(c, 5)));
  }
  queue.AddTrial(Candidate('T', 0));
  EXPECT_EQ(queue.dropped(), 1u);
  size_t urgent = 0;
  EXPECT_EQ(Tags(queue.Take(10, urgent)), "WXYZTab");
  EXPECT_EQ(urgent, 5u);
  // Room again once they were taken.
  EXPECT_TRUE(queue.AddCandidate(Candidate('d', 0)));
  EXPECT_EQ(queue.dropped(), 1u);
  EXPECT_EQ(queue.size(), 1u);
}

TEST(TrialQueueTest, PutBackRestoresTheFrontOfBothKinds) {
  TrialQueue queue(100);
  queue.AddCandidate(Candidate('a', 0));
  queue.AddCandidate(Candidate('B', 1));
  queue.AddCandidate(Candidate('c', 0));
  queue.AddCandidate(Candidate('D', 1));
  size_t urgent = 0;
  std::vector<Find> taken = queue.Take(3, urgent);
  ASSERT_EQ(Tags(taken), "BDa");
  queue.AddCandidate(Candidate('E', 1));
  queue.PutBack(std::move(taken), urgent);
  EXPECT_EQ(Tags(queue.Take(10, urgent)), "BDEac");
  EXPECT_EQ(urgent, 3u);
}

}  // namespace
}  // namespace ringfuzz
