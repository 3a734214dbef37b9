#include "fuzz/gpu/seen_clears.h"

#include <algorithm>

namespace ringfuzz {

std::vector<SeenWordWrite> TakeSeenClears(std::vector<uint32_t>& bits,
                                          absl::Span<const uint32_t> seen,
                                          size_t max_words) {
  const uint64_t table_bits = uint64_t{seen.size()} * 32;
  bits.erase(std::remove_if(bits.begin(), bits.end(),
                            [&](uint32_t b) { return b >= table_bits; }),
             bits.end());
  std::sort(bits.begin(), bits.end());
  std::vector<SeenWordWrite> writes;
  size_t i = 0;
  while (i < bits.size() && writes.size() < max_words) {
    const uint32_t word = bits[i] >> 5;
    uint32_t clear = 0;
    for (; i < bits.size() && bits[i] >> 5 == word; ++i) {
      clear |= 1u << (bits[i] & 31);
    }
    writes.push_back({word, seen[word] & ~clear});
  }
  bits.erase(bits.begin(), bits.begin() + static_cast<ptrdiff_t>(i));
  return writes;
}

}  // namespace ringfuzz
