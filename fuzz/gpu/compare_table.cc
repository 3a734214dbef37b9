#include "fuzz/gpu/compare_table.h"

#include <algorithm>

#include "shaders/ringfuzz_wire.h"

namespace ringfuzz {

std::vector<ComparePair> DecodeCompareTable(absl::Span<const uint32_t> table,
                                            uint32_t sites) {
  const size_t whole = table.size() / RF_CMP_ENTRY_WORDS;
  const size_t count = std::min<size_t>(sites, whole);
  std::vector<ComparePair> pairs;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t* entry = table.data() + i * RF_CMP_ENTRY_WORDS;
    const uint32_t a = entry[RF_CMP_A];
    const uint32_t b = entry[RF_CMP_B];
    if (a == b || entry[RF_CMP_CHECK] != RF_CMP_CHECK_OF(a, b)) continue;
    pairs.push_back({static_cast<uint32_t>(i), a, b});
  }
  return pairs;
}

}  // namespace ringfuzz
