// Compare-log entries (fuzz/gpu/compare_log.h): what the host reads back of
// a run's comparisons, in execution order.
#include "fuzz/gpu/compare_log.h"

#include <vector>

#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// An entry as the megakernel leaves it after a run that made `made`
// comparisons, comparison n with site n and operands n + 1, n + 2.
std::vector<uint32_t> EntryOf(uint32_t made) {
  std::vector<uint32_t> entry(RF_CMPLOG_ENTRY_WORDS, 0xEEEEEEEEu);
  entry[0] = made;
  for (uint32_t n = 0; n < made; ++n) {
    uint32_t* w = entry.data() + 1 + RF_CMPLOG_SLOT(n) * RF_CMPLOG_RECORD_WORDS;
    w[0] = n;
    w[1] = n + 1;
    w[2] = n + 2;
  }
  return entry;
}

std::vector<uint32_t> SitesRead(uint32_t made) {
  std::vector<CompareRecord> records;
  EXPECT_EQ(ReadCompareLog(EntryOf(made), records), made);
  std::vector<uint32_t> sites;
  for (const CompareRecord& r : records) {
    EXPECT_EQ(r.a, r.site + 1);
    EXPECT_EQ(r.b, r.site + 2);
    sites.push_back(r.site);
  }
  return sites;
}

std::vector<uint32_t> Range(uint32_t from, uint32_t to) {
  std::vector<uint32_t> out;
  for (uint32_t n = from; n < to; ++n) out.push_back(n);
  return out;
}

TEST(CompareLogTest, AShortRunIsReadWhole) {
  EXPECT_EQ(SitesRead(0), Range(0, 0));
  EXPECT_EQ(SitesRead(5), Range(0, 5));
  EXPECT_EQ(SitesRead(128), Range(0, 128));
}

// A long run keeps its first 64 comparisons and its last 64, in order.
TEST(CompareLogTest, ALongRunKeepsItsFirstAndLastComparisons) {
  for (uint32_t made : {129u, 191u, 192u, 1000u, 100003u}) {
    std::vector<uint32_t> want = Range(0, 64);
    const std::vector<uint32_t> last = Range(made - 64, made);
    want.insert(want.end(), last.begin(), last.end());
    EXPECT_EQ(SitesRead(made), want) << made;
  }
}

TEST(CompareLogTest, AShortBufferReadsNothing) {
  std::vector<CompareRecord> records = {{1, 2, 3}};
  const std::vector<uint32_t> entry = {5, 0, 0, 0};
  EXPECT_EQ(ReadCompareLog(entry, records), 0u);
  EXPECT_TRUE(records.empty());
}

// Records at sites `sites`, operands 0.
std::vector<CompareRecord> AtSites(const std::vector<uint32_t>& sites) {
  std::vector<CompareRecord> out;
  for (const uint32_t s : sites) out.push_back({s, 0, 0});
  return out;
}

TEST(CompareLogTest, ARunSharesThePathUpToWhereItsSitesDiffer) {
  const std::vector<CompareRecord> log = AtSites({1, 2, 3, 4, 5});
  // The same path: all of it.
  EXPECT_EQ(SharedPathPrefix(log, 5, AtSites({1, 2, 3, 4, 5}), 5), 5u);
  // Left after its fourth comparison (the one whose outcome it flipped).
  EXPECT_EQ(SharedPathPrefix(log, 5, AtSites({1, 2, 3, 4}), 4), 4u);
  EXPECT_EQ(SharedPathPrefix(log, 5, AtSites({1, 2, 9, 4, 5}), 5), 2u);
  EXPECT_EQ(SharedPathPrefix(log, 5, AtSites({}), 0), 0u);
}

TEST(CompareLogTest, ACutLogSharesAtMostItsHead) {
  // Runs that made more comparisons than a log stores keep their first
  // RF_CMPLOG_HEAD and their last ones: where the runs made different
  // numbers, only the first ones line up.
  // Even records at the same sites, from runs that made different
  // numbers, line up only in the head.
  std::vector<CompareRecord> log;
  ReadCompareLog(EntryOf(RF_CMPLOG_RECORDS + 10), log);
  EXPECT_EQ(SharedPathPrefix(log, RF_CMPLOG_RECORDS + 10, log,
                             RF_CMPLOG_RECORDS + 11),
            RF_CMPLOG_HEAD);
  EXPECT_EQ(SharedPathPrefix(log, RF_CMPLOG_RECORDS + 10, log,
                             RF_CMPLOG_RECORDS + 10),
            RF_CMPLOG_RECORDS);
}

}  // namespace
}  // namespace ringfuzz
