// Decoding the megakernel's compare table (shaders/ringfuzz_wire.h,
// RF_RES_CMP): the last operands that a recording execution saw at each
// compare site. Executions record with plain stores, and several may record
// into one entry at once; an entry is kept only when its check word is the
// check of its two operands, so every pair decoded is one execution's pair.
#ifndef RINGFUZZ_FUZZ_GPU_COMPARE_TABLE_H_
#define RINGFUZZ_FUZZ_GPU_COMPARE_TABLE_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// The operands one execution compared at one site.
struct ComparePair {
  uint32_t site = 0;  // compare-table entry (comparison index mod entries)
  uint32_t a = 0;
  uint32_t b = 0;

  friend bool operator==(const ComparePair& x, const ComparePair& y) {
    return x.site == y.site && x.a == y.a && x.b == y.b;
  }
};

// Returns the pairs of entries 0..sites-1 of `table` (RF_CMP_ENTRY_WORDS
// words per entry, entry 0 first: the control words from RF_RES_CMP), in
// entry order, leaving out every entry whose check word is not
// RF_CMP_CHECK_OF(a, b) (torn by executions recording at once, or never
// written) and every entry with a == b (nothing to learn). Never reads past
// `table`: `sites` is capped at the whole entries it holds.
std::vector<ComparePair> DecodeCompareTable(absl::Span<const uint32_t> table,
                                            uint32_t sites);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_COMPARE_TABLE_H_
