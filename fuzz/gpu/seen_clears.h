// Un-marking signatures in the signature build's seen table (RF_RES_SEEN)
// from the host, for candidates the host dropped unjudged: without it such
// a signature stays seen, and no later execution with it is re-run on the
// precise build, so coverage only it reaches is never found. The device
// does the same for a candidate that found the find queue full.
#ifndef RINGFUZZ_FUZZ_GPU_SEEN_CLEARS_H_
#define RINGFUZZ_FUZZ_GPU_SEEN_CLEARS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// One seen-table word to write: its index in the table and its new value.
struct SeenWordWrite {
  uint32_t word = 0;
  uint32_t value = 0;
  bool operator==(const SeenWordWrite& o) const {
    return word == o.word && value == o.value;
  }
};

// Takes the bits of `bits` (seen-table bit indices, any order, repeats
// allowed; those past the table are dropped) that lie in the lowest
// `max_words` distinct words and returns one write per such word,
// ascending: the word as `seen` holds it now, less those bits. The bits
// taken leave `bits`; the rest stay for a later call (sorted).
std::vector<SeenWordWrite> TakeSeenClears(std::vector<uint32_t>& bits,
                                          absl::Span<const uint32_t> seen,
                                          size_t max_words);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_SEEN_CLEARS_H_
