// Repetition trials: an input followed by whole copies of itself, or of
// its tail after a header.
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
// length limit. Many formats put a header before the records (a magic
// number, a version, a file header: PNG's 8 bytes, RIFF's 12, pcap's 24),
// which a whole repeat puts in the middle of the stream; so the entry is
// also tried with its first h bytes kept once and the rest repeated as
// many times as fit, for every h up to kMaxRepeatHeader (one of them is the
// header's length when the rest is whole records). An entry that fits
// only once (or is empty) gets none; when the limit grows (-auto_max_len),
// the corpus is added to the new executor and each entry is tried again at
// the new limit.
#ifndef RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_
#define RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// The longest header kept once before a repeated tail.
inline constexpr size_t kMaxRepeatHeader = 32;

// The repetitions of `input` to try within `max_len` bytes, each once:
// `input` twice, then `input` max_len / size times where that is more than
// twice; then, for h = 1 .. kMaxRepeatHeader with at least 2 bytes after
// it, the first h bytes followed by the rest (max_len - h) / (size - h)
// times where that is at least twice. No two alike; empty when none fits
// `max_len` (or `input` is empty).
std::vector<std::vector<uint8_t>> DeriveRepeats(absl::Span<const uint8_t> input,
                                                size_t max_len);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_REPEAT_TRIALS_H_
