// Text-to-state: compared values that the input spells in decimal.
//
// Input-to-state (fuzz/gpu/input_to_state.h) writes a compared value where
// the input holds its bytes. A parser of text (`Content-Length: 12`, a PNM
// header's `640 480`, a JSON number) compares the number it read, not the
// bytes: no operand's bytes stand in the input, and havoc changes one digit
// at a time, far from a wanted value (libFuzzer has ChangeASCIIInteger for
// such inputs). Where a run of decimal digits in the input spells one
// operand x of a logged comparison, the input is tried with that run
// replaced by the digits of the other operand y, and of y - 1 and y + 1 (one
// of them decides any of ==, !=, <, <=, >, >=). The run's length may change,
// so each is a new input tried once after the log (as the lengths of
// fuzz/gpu/length_to_state.h), not a patch.
#ifndef RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order). A run is a maximal sequence of 1..10 ASCII digits,
// with the '-' before it if there is one; it spells the 32-bit value of
// its digits (negated, two's complement, after a '-'), and runs whose
// value does not fit in 32 bits spell nothing. For each record, in log
// order, and each run spelling one operand x (the other y != x), first for
// the runs of two or more digits, then for those of one: the input
// with the run replaced by y, y - 1 and y + 1 in decimal, each written
// signed ('-' and the magnitude) where the run had a '-' or the value as a
// signed 32-bit number is in [-65536, -1], unsigned otherwise. Inputs
// longer than `max_len`, equal to `input`, or already returned are left
// out; at most `max_inputs`.
std::vector<std::vector<uint8_t>> DeriveTextToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_TEXT_TO_STATE_H_
