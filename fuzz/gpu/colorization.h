// Colorization (Redqueen's idea): which bytes of an input feed which of its
// comparisons, learned from copies of the input with some bytes replaced by
// random ones ("colored"), run with their comparisons logged beside the
// input's own log.
//
// Where a colored copy takes the input's path (it makes the same
// comparisons, site by site, in the same order) and an operand of one of
// those comparisons changed, the new operand's bytes stand in the copy
// exactly where the comparison reads the input: random bytes do not stand
// anywhere by chance. So the patch that writes the other operand there is
// known to reach that comparison (confirmed), and a colored byte that no
// operand came from is known to reach none directly (inert): input-to-state
// patches that would only write inert bytes are matches by chance (a 0 or
// a 1 standing where nothing reads it) and are left out.
//
// Redqueen narrows the colored ranges one run at a time until each copy
// keeps the path; here every range of a fixed bisection is colored at
// once (the whole input, its halves, its quarters, ...), so one logging
// dispatch runs them all beside the input itself.
#ifndef RINGFUZZ_FUZZ_GPU_COLORIZATION_H_
#define RINGFUZZ_FUZZ_GPU_COLORIZATION_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/gpu/input_to_state.h"

namespace ringfuzz {

// Bytes [begin, end) of an input.
struct ByteRange {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool operator==(const ByteRange& o) const {
    return begin == o.begin && end == o.end;
  }
};

// Levels of the bisection: at most 1 + 2 + 4 + 8 = 15 colored copies of an
// input.
inline constexpr uint32_t kColorLevels = 4;

// The ranges that the colored copies of an input of `length` bytes color,
// coarsest first: level 0 is the whole input, and each next level splits
// every range of the one before into two halves (the first half the
// shorter one); a range of one byte is not split, and the levels end when
// none is left to split or after `levels` levels. Empty for length 0.
std::vector<ByteRange> ColorRanges(size_t length,
                                   uint32_t levels = kColorLevels);

// `input` with each byte of `range` (within the input) replaced by one
// that differs from it, drawn from `seed`: the same arguments give the same
// copy.
std::vector<uint8_t> ColoredCopy(absl::Span<const uint8_t> input,
                                 ByteRange range, uint64_t seed);

// A colored copy's run with its comparisons logged.
struct ColoredRun {
  ByteRange range;                      // the bytes colored
  absl::Span<const uint8_t> data;       // the copy (the input's length)
  absl::Span<const CompareRecord> log;  // the comparisons stored
  uint32_t made = 0;                    // the comparisons its run made
};

// What the colored runs of one input tell about its bytes.
struct ColorEvidence {
  // Input-to-state patches at the places where an operand was found to be
  // read, most specific first: for each comparison of the input's log in
  // order, each operand x that changed in a colored run that kept the path,
  // and each width (4, 2, 1 bytes that hold the operand before and after)
  // and byte order in which x stands at position p of the input and its
  // new value at p of the copy, all within the colored range: the other
  // operand y written at p in that order, then y + 1 and y - 1. A narrower
  // match at a position already matched by a wider one is left out.
  std::vector<InputPatch> confirmed;
  // Per byte of the input: colored in a run that kept the path and found
  // every changed operand somewhere (a match may reach past the range),
  // with no operand found there; and found to be read in no run.
  std::vector<bool> inert;
  // Per byte of the input: colored in a run that kept the path and found
  // every changed operand somewhere. No comparison of the path reads a
  // value computed from such a byte (a sum, a product, a field packed from
  // several bytes): that value would have changed and stood nowhere.
  std::vector<bool> plain;
  // The runs that kept the path.
  uint32_t kept = 0;
};

// `log`/`made`: the input's own comparisons (stored / made). A run keeps
// the path when it made as many comparisons and stored the same sites in
// the same order; the other runs say nothing. Runs whose data is not the
// input's length are ignored.
ColorEvidence Colorize(absl::Span<const uint8_t> input,
                       absl::Span<const CompareRecord> log, uint32_t made,
                       absl::Span<const ColoredRun> runs);

}  // namespace ringfuzz

#endif  // RINGFUZZ_FUZZ_GPU_COLORIZATION_H_
