#include "fuzz/gpu/speculative_slots.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {
namespace {

// `service` CRITICAL items, then `high`, `normal` and `low` items of those
// priorities; each item's parent is its index.
std::vector<WorkItem> Items(uint32_t service, uint32_t high, uint32_t normal,
                            uint32_t low) {
  std::vector<WorkItem> items;
  for (auto [priority, n] : {std::pair{RF_PRIORITY_CRITICAL, service},
                             std::pair{RF_PRIORITY_HIGH, high},
                             std::pair{RF_PRIORITY_NORMAL, normal},
                             std::pair{RF_PRIORITY_LOW, low}}) {
    for (uint32_t i = 0; i < n; ++i) {
      WorkItem item;
      item.priority = priority;
      item.parent = static_cast<uint32_t>(items.size());
      items.push_back(item);
    }
  }
  return items;
}

// With enough LOW items, the replaced ones are LOW, one in each of n equal
// parts of the LOW items (so as many from the dear first half of a
// cost-ordered LOW range as from the cheap second half).
TEST(SpeculativeSlotsTest, SpreadOverTheLowItemsWhereThereAreEnough) {
  const std::vector<WorkItem> items = Items(3, 2, 10, 40);
  const uint32_t low_begin = 3 + 2 + 10;
  for (uint32_t n : {1u, 2u, 3u, 7u, 8u, 24u}) {
    const std::vector<uint32_t> slots = SpeculativeSlots(items, 3, n);
    ASSERT_EQ(slots.size(), n);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(items[slots[i]].priority, RF_PRIORITY_LOW) << n;
      // Part i of the LOW items: [i * 40 / n, (i + 1) * 40 / n).
      EXPECT_GE((slots[i] - low_begin) * n, i * 40) << n << " " << i;
      EXPECT_LT((slots[i] - low_begin) * n, (i + 1) * 40) << n << " " << i;
    }
  }
}

// Fewer LOW items than runs: the work's last items, ascending.
TEST(SpeculativeSlotsTest, TheLastItemsWhereLowItemsAreTooFew) {
  const std::vector<WorkItem> items = Items(4, 1, 20, 3);
  const std::vector<uint32_t> slots = SpeculativeSlots(items, 4, 5);
  EXPECT_EQ(slots, (std::vector<uint32_t>{23, 24, 25, 26, 27}));
}

// At most half of the work (the items after the service runs), none of
// the service runs, and none when there is no work.
TEST(SpeculativeSlotsTest, AtMostHalfOfTheWorkAndNeverAServiceRun) {
  const std::vector<WorkItem> items = Items(4, 0, 3, 4);
  const std::vector<uint32_t> slots = SpeculativeSlots(items, 4, 100);
  EXPECT_EQ(slots.size(), 3u);  // 7 work items
  for (uint32_t slot : slots) EXPECT_GE(slot, 4u);
  EXPECT_TRUE(SpeculativeSlots(Items(4, 0, 0, 0), 4, 3).empty());
  EXPECT_TRUE(SpeculativeSlots(Items(0, 0, 1, 0), 0, 3).empty());
  EXPECT_TRUE(SpeculativeSlots(items, 4, 0).empty());
}

}  // namespace
}  // namespace ringfuzz
