// Text-to-state: compared values that the input spells as text, in decimal
// or in hex (fuzz/gpu/spelled_runs.h has the rule).
//
// Input-to-state (fuzz/gpu/input_to_state.h) writes a compared value where
// the input holds its bytes. A parser of text (`Content-Length: 12`, a PNM
// header's `640 480`, a JSON number, an HTTP chunk size `1f4`, a `0x` C
// literal) compares the number it read, not the bytes: no operand's bytes
// stand in the input, and havoc changes one digit at a time, far from a
// wanted value (libFuzzer has ChangeASCIIInteger for decimal ones).
#ifndef RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"
#include "fuzz/gpu/spelled_runs.h"

namespace ringfuzz {

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order), by RewriteSpelledRuns over these runs, in this order:
//  * decimal: a maximal sequence of 1..10 ASCII digits, with the '-' before
//    it if there is one; it spells the 32-bit value of its digits (negated,
//    two's complement, after a '-'), and a run whose value does not fit in
//    32 bits spells nothing. A value is written signed ('-' and the
//    magnitude) where the run had a '-' or the value as a signed 32-bit
//    number is in [-65536, -1], unsigned otherwise. Short: one digit.
//  * hex: a maximal sequence of 1..8 hex digits that follows a mark of
//    hex: "0x", "\x" (either case), '%' or '#', or of 2..8 that holds a
//    letter (a-f, A-F); other runs of decimal digits are read as decimal
//    only, and a lone letter is as often text. A value is written in the run's
//    letter case (upper if it has upper-case letters and no lower-case ones),
//    zero-padded to the run's width when the run starts with '0' and has two
//    digits or more. Short: one digit (after a mark).
std::vector<std::vector<uint8_t>> DeriveTextToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_
