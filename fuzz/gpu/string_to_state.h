// String-to-state: the rest of a constant string, written where a
// comparison read one byte of the input against one byte of that string.
//
// The dialect spells strcmp and memcmp as a loop over a constant byte
// array (`const uint k[] = ...`) that stops at the first byte that
// differs. An input whose first compared byte differs logs one comparison,
// input[p] against k[i]: input-to-state (fuzz/gpu/input_to_state.h) can
// write that one byte, but a single matching byte adds no coverage where
// the loop's hit count stays in its bucket, so the next byte is never
// logged; and the automatic dictionary's DICT mutants write the whole
// array at a random place, not at p, and not from i (a table that holds
// several strings back to back, or a string compared from its middle). So
// k[i..] is written at p: libFuzzer's strcmp and memcmp hooks hand the
// whole strings to its mutators for the same reason.
#ifndef RINGFUZZ_FUZZ_GPU_STRING_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_STRING_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// A table may hold several strings back to back (a separator and the
// pieces around it, or two strings an input is compared with), and its
// rest from i then runs into the next one: it overwrites what the input
// holds after the compared bytes, or makes the input longer than a length
// check allows. So the part of the rest that fits in the input as it is
// long, and the rest's first 4 and 8 bytes (the usual lengths of magic
// numbers and tags), are written too, where shorter than the rest.
inline constexpr size_t kStringPrefixes[] = {4, 8};

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order) and `strings` (the target's constant byte arrays,
// InstrumentedModule::byte_strings): for each record, latest first (a string is
// compared after the checks that lead to it), each operand x below 256
// with the other operand y below 256, y != x, each string s and each index
// i with s[i] == y, and each position p with input[p] == x: the input with
// s[i..] written over it from p on, longer where s[i..] runs past its end;
// then, where it does, the same with the first input.size() - p bytes of
// s[i..] (2 or more); then with each kStringPrefixes length of s[i..] that
// is shorter. Only where s[i..] is 2 bytes or more (one byte is
// input-to-state's).
// Inputs longer than `max_len` or already returned are left out; at most
// `max_inputs`.
std::vector<std::vector<uint8_t>> DeriveStringToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    absl::Span<const std::vector<uint8_t>> strings, size_t max_len,
    size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_STRING_TO_STATE_H_
