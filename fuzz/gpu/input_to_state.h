// Input-to-state patches (Redqueen's idea, AFL++'s CmpLog): from the
// comparisons that one input's own execution made, the byte writes that may
// make one of those comparisons come out the other way.
//
// An input that joins the corpus is run once more with its comparisons
// logged (RF_OP_CMPLOG: site, operand a, operand b, in execution order).
// Where an operand's bytes stand in the input, the input probably feeds that
// comparison; writing the other operand's bytes there makes the comparison
// equal on the next run. The CMP work kind applies these patches to that
// input only: operands logged while running another input would be written
// where they mean nothing (a checksum of other bytes, another record's
// length).
//
// Derived here, on the host, once per input: the megakernel only draws a
// patch and writes it (shaders/megakernel_mutate.glsl, rf_cmp_patch).
#ifndef RINGFUZZ_FUZZ_GPU_INPUT_TO_STATE_H_
#define RINGFUZZ_FUZZ_GPU_INPUT_TO_STATE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace ringfuzz {

// One logged comparison: its site (the instrumentation's comparison index)
// and its operands (for a switch: the selector and the nearest case).
struct CompareRecord {
  uint32_t site = 0;
  uint32_t a = 0;
  uint32_t b = 0;
};

// Write `width` (1..4) bytes at `position`: the low `width` bytes of
// `value`, least significant first.
struct InputPatch {
  uint32_t position = 0;
  uint32_t width = 0;
  uint32_t value = 0;
  bool operator==(const InputPatch& o) const {
    return position == o.position && width == o.width && value == o.value;
  }
};

// The most distinct operand pairs of one site that are used: the first and
// the last kPairsPerSite / 2 in log order (a loop's bound check logs one
// pair per iteration; its first and last iterations are where it enters and
// leaves).
inline constexpr size_t kPairsPerSite = 8;

// Checksum partners (3. below): the distinct byte-sum deltas used, and the
// most patches made.
inline constexpr size_t kChecksumDeltas = 8;
inline constexpr size_t kChecksumPartners = 16;

struct ColorEvidence;  // fuzz/gpu/colorization.h

// Returns the patches of `input` derived from `log` (its own comparisons, in
// execution order), at most `max_patches`, most specific first:
//  1. byte strings: a run of consecutive records of one site whose operands
//     are bytes (a comparison made byte by byte in a loop) spells two
//     strings A and B; where A stands in the input (or B), the bytes in
//     which they differ (at most 4) are written from the other string. The
//     string pins the position that a single byte could not.
//  2. operands: for each distinct pair (a, b), a != b, in both roles (x the
//     operand found in the input, y the one written) and each width w of 4,
//     2 and 1 bytes that holds both: wherever x's w bytes stand in the input,
//     little- or big-endian, y is written there in the same byte order; also
//     y + 1 and y - 1 (for <, <=, > and >=, and off-by-one lengths). Wider
//     first: a 4-byte match is far less likely to be chance.
//  3. checksum partners: a comparison that already holds between one-byte
//     operands (a == b, as an additive checksum byte checked against the
//     sum of the bytes before it) stays true after a patch above only if
//     the checked byte moves with the patched bytes. So where that byte
//     stands in the input, it is written plus each distinct byte-sum delta
//     of the patches above (their first kChecksumDeltas; at most
//     kChecksumPartners such patches). A CMP chain that applies a patch and
//     its partner (chains apply several of the parent's patches) keeps the
//     checksum valid.
// With `color` (the input's colorization, fuzz/gpu/colorization.h): its
// confirmed patches come first, and the patches of 1. and 2. that would
// write only inert bytes are left out.
// A patch that would not change the input is left out; no two are equal.
std::vector<InputPatch> DeriveInputToStatePatches(
    absl::Span<const uint8_t> input, absl::Span<const CompareRecord> log,
    size_t max_patches, const ColorEvidence* color = nullptr);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_INPUT_TO_STATE_H_
