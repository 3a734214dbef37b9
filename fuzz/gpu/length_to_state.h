// Length-to-state: from the comparisons that one input's own execution
// made, the input lengths that may make one of them come out the other way.
//
// Input-to-state (fuzz/gpu/input_to_state.h) writes a compared value where the
// input holds it; a comparison with the input's length (`if (len < 100)
// return;`, `if (len != 16) return;`) has no bytes to write: the length
// itself must change. Where one operand of a logged comparison equals the
// input's length and the other operand o is larger, the lengths o - 1, o
// and o + 1 (one of them decides any of ==, !=, <, <=, >, >=) that are
// longer than the input are tried, the input padded to each. A CPU fuzzer
// finds such lengths by growing inputs a little at a time (libFuzzer's
// -len_control) or by long inserts; a GPU round runs millions of mutants of
// short inputs before any of them is long enough, so the lengths are
// derived once per corpus entry instead. Only longer: erasing bytes is
// every havoc round's work, and a loop over the input (`i < len`) logs
// every shorter length.
#ifndef RINGFUZZ_FUZZ_GPU_LENGTH_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_LENGTH_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// Returns the lengths to try for an input of `length` bytes from `log` (its
// own comparisons, in execution order): for each record with an operand
// equal to `length`, in log order, the other operand o's o - 1, o, o + 1
// that are in (length, max_len]; no duplicates, at most `max_lengths`.
std::vector<size_t> DeriveLengthsToTry(size_t length,
                                       absl::Span<const CompareRecord> log,
                                       size_t max_len, size_t max_lengths);

// `input` cut to `length` bytes, or padded to it. Padding byte k (counted
// from the start of the input) is k mod 256, so that within 256 bytes no
// two 4-byte windows of the padding are equal: a value the target then
// reads from the padding stands in one place, where an input-to-state patch
// of the padded input can overwrite it.
std::vector<uint8_t> ResizeInput(absl::Span<const uint8_t> input,
                                 size_t length);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_LENGTH_TO_STATE_H_
