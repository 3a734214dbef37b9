// Varint-to-state: compared values that the input spells as LEB128 varints
// (7 bits per byte, low group first, bit 7 = "more"), the integers of
// protobuf, WebAssembly, DWARF and many packet formats. A decoder compares
// the value it decoded: 150000 stands in the input as F0 93 09, never as
// the 4 or 2 bytes that input-to-state (fuzz/gpu/input_to_state.h) looks
// for, and a value of 128 or more needs a longer run than the one there.
// The rule is fuzz/gpu/spelled_runs.h's.
#ifndef RINGFUZZ_FUZZ_GPU_VARINT_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_VARINT_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// The minimal LEB128 encoding of `value` (1..5 bytes).
std::vector<uint8_t> EncodeVarint(uint32_t value);

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order), by RewriteSpelledRuns over its runs: from each byte
// with bit 7 set, the bytes up to and including the first without it,
// within 5 bytes, spelling the value a 32-bit decoder reads (groups
// shifted past bit 31 are lost); runs starting inside another run are runs
// too (a decoder may start anywhere). And, as short runs, each byte below
// 0x80, which spells itself (a field usually starts as one byte), but is
// rewritten only with values of 128 to 2^21 - 1 (2 or 3 bytes):
// input-to-state writes smaller values in place, and a value of 2^21 or
// more is far more often a 32-bit magic compared with a byte-sized value
// than a varint field; rewriting bytes with such values made inputs that
// polluted the corpus of cp_callstack (docs/perf.md). The new value is
// written minimally encoded.
std::vector<std::vector<uint8_t>> DeriveVarintToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_VARINT_TO_STATE_H_
