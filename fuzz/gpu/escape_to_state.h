// Escape-to-state: a byte that a decoder compared after unescaping, written
// back as an escape in the style the input already uses.
//
// A parser that unescapes its input (a URL's %2e, a C or JSON string's \x2e
// and \u002e, XML's &#x2e; and &#46;) and then compares what it decoded
// names the wanted value in its comparisons, but the plain byte that
// input-to-state (fuzz/gpu/input_to_state.h) would write there is often
// the very byte the parser refused before decoding (a path check that bans
// '.' and '/' in the raw request, a string that may not hold a quote). The
// escape spells it past that check. The escapes are written only in styles
// the input already has at least once (a '%' and two hex digits, ...): an
// input without one is no evidence of a decoder.
#ifndef RINGFUZZ_FUZZ_GPU_ESCAPE_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_ESCAPE_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// Returns the inputs to try for `input` from `log` (its own comparisons, in
// execution order), by RewriteSpelledRuns (fuzz/gpu/spelled_runs.h): every
// byte of the input outside an escape spells its own value, and is
// rewritten as an escape of a compared value y (and y - 1, y + 1) in each
// escape style the input holds, among:
//  * '%' and 2 hex digits (URLs, form data): values below 256;
//  * "\x" and 2 hex digits (C, Python, JavaScript strings): below 256;
//  * "\u" and 4 hex digits (JSON, JavaScript, Java): below 65536;
//  * "&#x", 1..6 hex digits and ';', or "&#", 1..7 decimal digits and ';'
//    (XML, HTML character references): up to 0x10FFFF.
// Hex digits keep the letter case of the style's first escape in the
// input (upper only if it has upper-case letters and no lower-case ones).
// The log is read from its end: a decoded value is compared after the
// decoding, and the raw checks before it compare every byte.
// Inputs longer than `max_len`, equal to `input`, or already returned are
// left out; at most `max_inputs`.
std::vector<std::vector<uint8_t>> DeriveEscapeToState(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_len, size_t max_inputs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_ESCAPE_TO_STATE_H_
