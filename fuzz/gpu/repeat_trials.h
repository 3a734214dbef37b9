// Repetition trials: an input followed by whole copies of itself.
//
// A record stream (TLV records, chunks, packets, bytecode) reaches the
// paths behind "many records" (a step limit, a full table, a counter that
// wraps) only with inputs many records long. A CPU fuzzer gets there by
// chance: libFuzzer's CopyPart inserts a copy of up to the whole input
// into itself, so a few mutations double a stream. A GPU round mutates by
// small steps (a block mutator moves at most 4 or 8 bytes), and a longer
// stream of valid records earns no new feature until it crosses the next
// hit-count bucket, so nothing leads there step by step. So each corpus
// entry, once, is tried repeated: twice, and as many times as fit the
// length limit. An entry that fits only once (or is empty) gets none; when
// the limit grows (-auto_max_len), the corpus is added to the new executor
// and each entry is tried again at the new limit.
#ifndef RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_
#define RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// The repetitions of `input` to try within `max_len` bytes: `input` twice,
// then `input` max_len / size times where that is more than twice. Empty
// when `input` is empty or twice it is longer than `max_len`.
std::vector<std::vector<uint8_t>> DeriveRepeats(absl::Span<const uint8_t> input,
                                                size_t max_len);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_
